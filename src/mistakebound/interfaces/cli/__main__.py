"""``python -m mistakebound.interfaces.cli``: the command line (:func:`mistakebound.interfaces.cli.main`)."""

from mistakebound.interfaces.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    raise SystemExit(main())
