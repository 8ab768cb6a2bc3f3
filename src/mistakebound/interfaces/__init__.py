"""Interfaces: the command line, sweeps, figures, serialisation and progress bars.

* :mod:`~mistakebound.interfaces.cli`: ``mistakebound check | ldim | play | ...``;
* :mod:`~mistakebound.interfaces.sweep`: grids of games and searches;
* :mod:`~mistakebound.interfaces.plots`, :mod:`~mistakebound.interfaces.serialize`,
  :mod:`~mistakebound.interfaces.progress`.

The top layer: nothing below imports it.
"""

__all__: list[str] = []
