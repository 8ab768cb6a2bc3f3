"""The ecosystem's Perceptrons in the game: river and scikit-learn against the lower-bound adversaries.

Plays river's ``linear_model.Perceptron`` and scikit-learn's ``linear_model.Perceptron``
(each with and without its intercept), wrapped by
:mod:`mistakebound.learners.adapters`, and this package's
:class:`~mistakebound.learners.perceptron.Perceptron`, against

* the basis-vector adversary (:class:`~mistakebound.adversaries.basis_vector_forcer.BasisVectorForcer`)
  on ``LinearSpace(d, R=1, gamma=g)``: it forces ``min(d, floor((R/g)^2))`` mistakes on
  every deterministic learner, so the homogeneous Perceptron's ``(R/g)^2`` is met
  exactly when that is an integer at most ``d``;
* the midpoint adversary (:class:`~mistakebound.adversaries.midpoint.MidpointAdversary`)
  on ``LinearSpace(2)``, thresholds on the line embedded as ``(x, 1)``: without a
  margin every round is a mistake (no bound exists); with a margin it must stop.

and prints a markdown table: learner, adversary, space, rounds, mistakes, the proven
bound, and the verdict.  The proven bound is ``(R/gamma)^2`` for a Perceptron without
intercept (Theorem 4 of seed 001; seed 004) and ``(R^2 + 1)/gamma^2`` for one that
learns an intercept with step 1 (the same theorem on ``(x, 1)``, see
:func:`mistakebound.learners.adapters.intercept_margin_bound`); without a margin there
is none.  The counts are deterministic (fixed seeds; the games involve no draw), so no
timing or median is reported.

Run from the repository root (needs ``pip install 'mistakebound[river,sklearn]'``)::

    python -m benchmarks.ecosystem            # the README table
    python -m benchmarks.ecosystem --smoke    # small sizes, for CI
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import Any

from attrs import frozen

from mistakebound import play
from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.midpoint import MidpointAdversary
from mistakebound.learners.adapters import RiverLearner, SklearnLearner, intercept_margin_bound, river_perceptron
from mistakebound.learners.perceptron import Perceptron, margin_bound
from mistakebound.game.spaces import LinearSpace

__all__ = ["Contender", "Row", "contenders", "games", "rows", "table", "main"]

SEED = 0


@frozen
class Contender:
    """A learner of the table: a name, a factory of fresh learners, and whether it fits an intercept."""

    name: str
    make: Callable[[], Any]
    intercept: bool


@frozen
class Row:
    """One line of the table."""

    learner: str
    adversary: str
    space: str
    rounds: int
    mistakes: int
    bound: float | None
    bound_text: str
    verdict: str


def contenders() -> list[Contender]:
    """The five Perceptrons, ours first."""
    from sklearn.linear_model import Perceptron as SkPerceptron

    return [
        Contender("mistakebound Perceptron", Perceptron, False),
        Contender("river Perceptron", lambda: RiverLearner(river_perceptron()), True),
        Contender("river Perceptron, intercept off", lambda: RiverLearner(river_perceptron(fit_intercept=False)), False),
        Contender("sklearn Perceptron", lambda: SklearnLearner(SkPerceptron()), True),
        Contender("sklearn Perceptron(fit_intercept=False)", lambda: SklearnLearner(SkPerceptron(fit_intercept=False)), False),
    ]


def games(smoke: bool = False) -> list[tuple[str, Callable[[], Any], LinearSpace, int]]:
    """(adversary name, adversary factory, space, horizon) of every game in the table."""
    radius = MidpointAdversary().radius  # sqrt(2): the embedded points (x, 1), |x| <= 1
    if smoke:
        return [
            ("basis-vector", BasisVectorForcer, LinearSpace(6, R=1.0, gamma=0.5), 10),
            ("midpoint", MidpointAdversary, LinearSpace(2), 20),
            ("midpoint", MidpointAdversary, LinearSpace(2, R=radius, gamma=0.05), 100),
        ]
    return [
        ("basis-vector", BasisVectorForcer, LinearSpace(16, R=1.0, gamma=0.5), 50),
        ("basis-vector", BasisVectorForcer, LinearSpace(16, R=1.0, gamma=0.25), 50),
        ("basis-vector", BasisVectorForcer, LinearSpace(100, R=1.0, gamma=0.1), 200),
        ("basis-vector", BasisVectorForcer, LinearSpace(16, R=1.0), 50),
        ("midpoint", MidpointAdversary, LinearSpace(2), 100),
        ("midpoint", MidpointAdversary, LinearSpace(2, R=radius, gamma=0.05), 1000),
        ("midpoint", MidpointAdversary, LinearSpace(2, R=radius, gamma=0.01), 1000),
    ]


def _bound(c: Contender, S: LinearSpace) -> tuple[float | None, str]:
    if S.R is None or not S.gamma:
        return None, "none (no margin)"
    if c.intercept:
        return intercept_margin_bound(S.R, S.gamma), f"(R²+1)/γ² = {intercept_margin_bound(S.R, S.gamma):g}"
    return margin_bound(S.R, S.gamma), f"(R/γ)² = {margin_bound(S.R, S.gamma):g}"


def _space_text(S: LinearSpace) -> str:
    parts = [f"d={S.d}"]
    if S.R is not None:
        parts.append(f"R={S.R:.4g}")
    if S.gamma is not None:
        parts.append(f"γ={S.gamma:g}")
    return f"LinearSpace({', '.join(parts)})"


def _verdict(mistakes: int, rounds: int, bound: float | None) -> str:
    if bound is None:
        if mistakes == rounds:
            return f"no margin, no bound: a mistake in every round ({rounds}/{rounds})"
        return "no margin, no bound to check"
    if mistakes > bound + 1e-9:
        return "VIOLATES the bound"
    if math.isclose(mistakes, bound):
        return "within the bound: tight"
    return "within the bound"


def rows(smoke: bool = False) -> list[Row]:
    """Play every contender against every game and return the table's rows."""
    out = []
    for adversary, make_adversary, S, horizon in games(smoke):
        for c in contenders():
            T = play(c.make(), make_adversary(), S, rounds=horizon, seed=SEED)
            bound, text = _bound(c, S)
            space = _space_text(S)
            out.append(Row(c.name, adversary, space, len(T), T.mistakes, bound, text, _verdict(T.mistakes, len(T), bound)))
    return out


def table(table_rows: list[Row]) -> str:
    """The rows as a markdown table."""
    lines = [
        "| learner | adversary | space | rounds | mistakes | proven bound | verdict |",
        "|---|---|---|---:|---:|---|---|",
    ]
    for r in table_rows:
        lines.append(
            f"| {r.learner} | {r.adversary} | {r.space} | {r.rounds} | {r.mistakes} | {r.bound_text} | {r.verdict} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the table (and the library versions); exit 1 if a proven bound is violated."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ecosystem", description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes (for CI)")
    args = parser.parse_args(argv)
    import numpy
    import river
    import sklearn

    import mistakebound

    print(
        f"mistakebound {getattr(mistakebound, '__version__', '?')}, river {river.__version__}, "
        f"scikit-learn {sklearn.__version__}, numpy {numpy.__version__}, Python {sys.version.split()[0]}; seed {SEED}\n"
    )
    result = rows(smoke=args.smoke)
    print(table(result))
    return 1 if any(r.verdict.startswith("VIOLATES") for r in result) else 0


if __name__ == "__main__":
    sys.exit(main())
