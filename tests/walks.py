"""Walks through the package: which modules a command visits, and how often it comes back to the interfaces.

A *walk* is one command run in this process under :func:`sys.setprofile`: every call into a
function of the package is recorded with its module.  Two numbers describe it:

* ``modules``: the distinct modules of the package whose functions ran (imports excluded:
  only calls made while the command runs count, and module bodies are not calls); of them
  ``cli modules`` are the command line's own (any module under :data:`CLI`, a module per
  command and its shared pieces) and ``library modules`` those outside the interfaces layer;
* ``asks``: the functions of lower layers that a function of the interfaces layer called
  directly (the questions the front end asked the library; a search's logic kept in a front
  end shows as many small questions);
* ``returns``: how many times a function of the interfaces layer was called by a function of
  a lower layer (the library calling back into a front end).  A front end that asks and
  prints has none.

Run (the closing note of issue 22 quotes it; ``--before`` is not here: run this file
against another checkout with ``PYTHONPATH``)::

    python -m tests.walks
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["CLI", "WALKS", "walk"]

PACKAGE = "mistakebound"
#: The command line: a package, a module per command; every module under it is the command line.
CLI = "mistakebound.interfaces.cli"


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def walk(run: Callable[[], object]) -> dict:
    """Run ``run()`` under a profiler; the modules of the package it visited and the interfaces' re-entries."""
    modules: dict[str, int] = {}
    returns: list[str] = []
    asks: dict[str, int] = {}

    def profile(frame, event, arg):
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith(PACKAGE) or frame.f_code.co_name == "<module>":
            return
        modules[module] = modules.get(module, 0) + 1
        caller = frame.f_back
        while caller is not None and not caller.f_globals.get("__name__", "").startswith(PACKAGE):
            caller = caller.f_back  # through the standard library and numpy, to the package's caller
        if caller is None or caller.f_code.co_name == "<module>":
            return
        source = caller.f_globals.get("__name__", "")
        if _layer(module) == "interfaces" and _layer(source) != "interfaces":
            returns.append(f"{source}.{caller.f_code.co_name} -> {module}.{frame.f_code.co_name}")
        elif _layer(source) == "interfaces" and _layer(module) != "interfaces":
            name = f"{module}.{frame.f_code.co_name}"
            asks[name] = asks.get(name, 0) + 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return {"modules": sorted(modules), "returns": returns, "asks": sorted(asks)}


def _cli(*argv: str) -> Callable[[], object]:
    def run():
        from mistakebound.interfaces.cli import main

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return main(list(argv))

    return run


def _certificate() -> str:
    """A certificate file to verify (written before the walk)."""
    path = Path(tempfile.mkdtemp()) / "thresholds15.json"
    _cli("ldim", "thresholds:15", "--certificate", str(path))()
    return str(path)


#: The three walks issue 22 names: a class spec to its printed Ldim, a learner's name to its
#: verdict, a certificate to its verified lines.
WALKS: dict[str, Callable[[], Callable[[], object]]] = {
    "ldim": lambda: _cli("ldim", "thresholds:15", "--what", "ldim"),
    "ldim --certificate": lambda: _cli("ldim", "thresholds:15", "--certificate",
                                       str(Path(tempfile.mkdtemp()) / "c.json")),
    "play": lambda: _cli("play", "halving", "binary_search_threshold", "thresholds:15", "--quiet"),
    "verify": lambda: _cli("verify", _certificate()),
}


def main() -> int:
    results = {}
    for name, make in WALKS.items():
        run = make()
        run()  # once before: what is imported lazily is imported, so the walk counts calls only
        results[name] = walk(run)
    json.dump({name: {"modules": len(r["modules"]),
                      "cli modules": sum(m == CLI or m.startswith(CLI + ".") for m in r["modules"]),
                      "library modules": sum(_layer(m) != "interfaces" for m in r["modules"]),
                      "asks": len(r["asks"]), "returns": len(r["returns"]),
                      "visited": r["modules"], "asked": r["asks"], "re-entries": r["returns"]}
               for name, r in results.items()}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
