"""How the adversaries state what they force: one rule for turning a count of forced rounds into a claim.

An adversary that answers against the learner's likelier prediction makes every round
it plays a mistake of a deterministic learner, and costs a randomized one at least 1/2
in expectation (``|p - y| >= 1/2`` when ``y`` is the label opposite to the likelier
one).  :func:`forced_rounds` turns "this many such rounds, at least" into the
:class:`~mistakebound.verification.claims.Bound` of ``forces``.  Private to the
adversary zoo.
"""

from __future__ import annotations

from typing import Any

from mistakebound.foundations.validation import check_int
from mistakebound.game.players import is_randomized
from mistakebound.verification.claims import Bound

__all__ = ["forced_rounds", "measure_for"]

#: What a randomized learner pays, at least, in a round answered against its likelier label.
HALF = "each such round costs a randomized learner at least 1/2 in expectation"


def measure_for(learner: Any, realizable: bool, labels_consistent: bool) -> str:
    """The measure a forced count bounds for ``learner``: the one its own claim uses in this game.

    ``"mistakes"`` for a deterministic learner; for a randomized one ``"expected
    mistakes"`` in a realizable game, and ``"regret"`` in an unrealizable game whose
    labels still follow one hypothesis (``labels_consistent``: the best hypothesis
    makes no mistake, so the regret is the expected mistakes); otherwise ``"expected
    mistakes"``.
    """
    if not is_randomized(learner):
        return "mistakes"
    if not realizable and labels_consistent:
        return "regret"
    return "expected mistakes"


def forced_rounds(
    count: int,
    *,
    learner: Any,
    rounds: int | None,
    realizable: bool,
    source: str,
    assumptions: tuple = (),
    labels_consistent: bool = True,
) -> Bound:
    """The claim of an adversary that plays at least ``count`` rounds, each answered against the prediction.

    Parameters
    ----------
    count : int
        How many rounds it is sure to play (and so the mistakes it forces on every
        deterministic learner) when the horizon allows.
    learner
        The learner it plays against.
    rounds : int or None
        The game's horizon (None: not fixed, the adversary ends the game).
    realizable : bool
    source : str
        Where the count comes from.
    assumptions : tuple of str
    labels_consistent : bool
        Whether every label it gives follows one hypothesis of the setting.

    Returns
    -------
    Bound
        ``min(count, rounds)`` on ``"mistakes"`` for a deterministic learner; half of
        it for a randomized one (see :func:`measure_for`).

    Examples
    --------
    >>> class Coin:
    ...     def predict_proba_one(self, x):
    ...         return 0.5
    >>> forced_rounds(4, learner=object(), rounds=3, realizable=True, source="s").value
    3
    >>> b = forced_rounds(4, learner=Coin(), rounds=None, realizable=True, source="s")
    >>> b.value, b.measure
    (2.0, 'expected mistakes')
    """
    count = check_int("count", count, 0)
    n = count if rounds is None else min(count, check_int("rounds", rounds, 0))
    measure = measure_for(learner, realizable, labels_consistent)
    if measure == "mistakes":
        return Bound(n, measure, source, tuple(assumptions))
    return Bound(n / 2, measure, source, (*assumptions, HALF))
