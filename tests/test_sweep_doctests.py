"""Doctests of the sweep subpackage's modules (tests/test_doctests.py collects only top-level modules)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mistakebound.interfaces.sweep

MODULES = sorted(m.name for m in pkgutil.iter_modules(mistakebound.interfaces.sweep.__path__, "mistakebound.interfaces.sweep."))


def test_every_module_of_the_subpackage_is_listed():
    assert {"mistakebound.interfaces.sweep.config", "mistakebound.interfaces.sweep.cells", "mistakebound.interfaces.sweep.executors",
            "mistakebound.interfaces.sweep.results", "mistakebound.interfaces.sweep.summary", "mistakebound.interfaces.sweep.cli"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests_and_all(name):
    module = importlib.import_module(name)
    assert module.__doc__ and hasattr(module, "__all__"), name
    for symbol in module.__all__:
        assert hasattr(module, symbol), f"{name}.__all__ names missing {symbol}"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} doctest failures in {name}"
