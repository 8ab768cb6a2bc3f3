"""Interfaces: the command line, sweeps, figures and progress bars.

* :mod:`~mistakebound.interfaces.cli`: ``mistakebound check | ldim | play | ...``;
* :mod:`~mistakebound.interfaces.sweep`: grids of games and searches;
* :mod:`~mistakebound.interfaces.plots`, :mod:`~mistakebound.interfaces.progress`
  (the file formats are in the layers of the values they hold:
  :mod:`~mistakebound.game.class_files`, :mod:`~mistakebound.game.transcript_json`,
  :mod:`~mistakebound.verification.report_json`).

The top layer: nothing below imports it.
"""

__all__: list[str] = []
