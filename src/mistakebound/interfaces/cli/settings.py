"""The settings the commands take by name: a finite class where a command searches one.

Examples
--------
>>> finite_class("thresholds:7", "ldim").describe()
'thresholds(7)'
>>> finite_class("experts:4", "ldim")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mistakebound.interfaces.cli.failures.BadInput: CLASS: ldim searches a finite class; ... is a space (...)
"""

from __future__ import annotations

from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.interfaces.cli.failures import BadInput

__all__ = ["finite_class"]


def finite_class(spec: str, command: str, labels: int | None = None) -> HypothesisClass:
    """The finite class ``spec`` names (:func:`~mistakebound.game.registry.load_setting`, a file of ``labels``
    labels read with them); a space is refused with the command named
    (:class:`~mistakebound.interfaces.cli.failures.BadInput`)."""
    H = registry.load_setting(spec, labels=labels)
    if not H.finite:
        raise BadInput(f"CLASS: {command} searches a finite class; {H.describe()} is a space "
                       "(a zoo class such as thresholds:15, or a .npy/.csv/.json class file, is expected)")
    return H
