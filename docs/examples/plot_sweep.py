"""
A sweep's figure: mistakes against the size of the class
========================================================

A sweep plays a grid of games (learners x classes x sizes x seeds) and writes one record
per cell; :func:`~mistakebound.interfaces.sweep.figures.sweep_figures` draws each
measured value against the size, the band over seeds, and each learner's claim.  The
command ``mistakebound sweep CONFIG.toml`` does the same from a TOML file; here the cells
run in-process with :func:`~mistakebound.interfaces.sweep.run_cell`.
"""

from mistakebound.interfaces.sweep import Cell, run_cell
from mistakebound.interfaces.sweep.figures import sweep_figures

records = [
    run_cell(Cell(kind="game", learner=learner, adversary="OppositeLabel", cls=f"thresholds:{n}",
                  size=n, seed=seed, horizon=40))
    for learner in ("Halving", "SOA", "Consistent")
    for n in (3, 7, 15, 31, 63)
    for seed in (0, 1, 2)
]
print(len(records), "cells;", sorted({r["verdict"] for r in records}))

# %%
# One figure per class family, adversary and measure; the size axis is logarithmic because
# the sizes double.
for name, fig in sweep_figures(records):
    print(name)
