"""``python -m mistakebound``: the command line (:mod:`mistakebound.interfaces.cli`)."""

from mistakebound.interfaces.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    raise SystemExit(main())
