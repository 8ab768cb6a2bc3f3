"""Run the Examples blocks of every public module as doctests (installed modules, not files)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import mistakebound
import mistakebound.adversaries
import mistakebound.learners


def _modules():
    """Every module of the package, its layer subpackages and the two zoos included."""
    names = []
    for package in (mistakebound, mistakebound.learners, mistakebound.adversaries):
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return sorted(set(names))


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest failures in {name}"


def test_every_public_module_declares_all_and_a_docstring():
    for name in _modules():
        module = importlib.import_module(name)
        if name.rsplit(".", 1)[-1].startswith("_"):
            continue
        assert module.__doc__, name
        assert hasattr(module, "__all__"), name
        for symbol in module.__all__:
            assert hasattr(module, symbol), f"{name}.__all__ names missing {symbol}"
