"""``python -m mistakebound``: the command line (:mod:`mistakebound.interfaces.cli`).

Ctrl-C and SIGTERM are guarded from the package's first line, before this module runs:
``python -m mistakebound`` imports the package (whose ``__init__`` calls
:func:`mistakebound.interfaces.startup.guard_startup` before any other import) and then
this module, and the ``mistakebound`` console script imports the package through
:mod:`mistakebound.interfaces.cli`; a signal while numpy and the package load exits 3 with
one line (``tests/test_cli_faults.py`` checks both entry points).
"""

from mistakebound.interfaces.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    raise SystemExit(main())
