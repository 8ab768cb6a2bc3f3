"""The game tree of a learner's worst case in every setting: many labels, bandit feedback, a noise budget.

:class:`_RulesGame` is the search of :class:`~mistakebound.theory.worst_case_games._Game`
for a game a :class:`~mistakebound.game.rules.Rules` names, on a finite class of ``k``
labels.  A position is the learner (a snapshot) and the referee's state: each
hypothesis's mistakes so far, those past the noise budget ``r`` counted as out (kept as
``r + 1`` bitsets, :class:`BudgetStates`; for ``r = 0`` the version space).  The adversary
picks an instance and a label that leaves some hypothesis within the budget (what
:class:`~mistakebound.game.version_space.BudgetReferee` enforces in
:func:`~mistakebound.game.play.play`), and the learner learns what the rules show it:
the label, or under bandit feedback a
:class:`~mistakebound.game.feedback.BanditFeedback` built as the referee builds it (a
learner that reads a label it was not shown raises
:class:`~mistakebound.foundations.errors.PeekError`, as in a game).  The search walks
actual labels, not only "right" and "wrong": the referee's state depends on the label,
the learner's only on what it is shown, and a deterministic learner's worst case over
labels is exact.

Without a horizon a line may come back to a position it has visited (a round that
costs nothing can change the learner's state while the referee's stays, as under bandit
feedback, where the learner cannot tell which label was meant).  A loop that gained a
mistake can be played forever: the value is infinite.  A loop that gained nothing adds
nothing: the position it returns to is still being searched and takes every move of
the loop into account; the positions inside it are not memoised (their values were
computed with the loop cut), the position it returns to is.  A learner whose state
changes forever without a mistake (a round counter) needs a horizon: without one the
search stops at the depth the stack allows (status ``"budget"``).

Examples
--------
>>> import numpy as np
>>> from mistakebound.game.hypothesis_class import HypothesisClass
>>> H = HypothesisClass.from_matrix(np.array([[0, 1], [2, 2]]), labels=3)
>>> states = BudgetStates(H, noise=1)
>>> states.root == (0b11, 0)
True
>>> states.after(states.root, 0, 2) == (0b10, 0b01)   # label 2 on instance 0: hypothesis 0 errs once
True
>>> states.after(states.after(states.root, 0, 1), 1, 0) is None   # both hypotheses past the budget: illegal
True
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

from mistakebound.foundations.errors import IllegalPredictionError, PeekError, PlayerError
from mistakebound.game.feedback import BanditFeedback, LabelNotShown
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import is_randomized, snapshot_of
from mistakebound.game.rules import Rules, as_label, as_probability, expected_prediction, mistake_cost
from mistakebound.theory.search_protocol import SEARCH_STOPS, Clock, OutOfBudget, OutOfMemory, run_within
from mistakebound.theory.worst_case_games import _deep_stack, _Game

__all__ = ["BudgetStates"]

#: The ``low`` of a position that took no position on its line as given (see :meth:`_RulesGame.search`).
_NO_LOOP = sys.maxsize


class BudgetStates:
    """The referee's state in a game with a noise budget, as ``r + 1`` bitsets over the hypotheses of ``H``.

    Bitset ``i`` holds the hypotheses that have made exactly ``i`` mistakes; a hypothesis
    with more than ``r`` is in none.  A label is legal when some hypothesis is left in
    one (:meth:`after` returns None otherwise).

    Parameters
    ----------
    H : HypothesisClass
        A class of any number of labels.
    noise : int
        The budget ``r``.
    """

    def __init__(self, H: HypothesisClass, noise: int):
        self.full = H.full_mask
        self.masks = tuple(H.label_masks(j) for j in range(H.n_instances))
        self.root = (self.full,) + (0,) * noise

    def after(self, S: tuple[int, ...], j: int, y: int) -> tuple[int, ...] | None:
        """The state once instance number ``j`` got label ``y`` (every hypothesis giving another label errs),
        or None when no hypothesis is left within the budget: an illegal label."""
        agree = self.masks[j][y]
        wrong = self.full ^ agree
        T = tuple((S[i] & agree) | (S[i - 1] & wrong if i else 0) for i in range(len(S)))
        return T if any(T) else None


class _RulesGame(_Game):
    """One worst-case search under ``rules``: the adversary's best line from every position it reaches.

    Positions are merged in a memo keyed by ``(state_key, S, h)`` when the learner has
    ``state_key()`` (``S`` the referee's :class:`BudgetStates` state, ``h`` the rounds left
    or None).  The line bookkeeping (:attr:`incumbent`, the moves and gains along the
    line, the run) is :class:`~mistakebound.theory.worst_case_games._Game`'s.
    """

    def __init__(self, learner: Any, H: HypothesisClass, rules: Rules, horizon: int | None, keyed: bool,
                 clock: Clock, progress: Callable[[int], None] | None, memo_limit: int | None = None):
        self.learner, self.H, self.horizon, self.keyed = learner, H, horizon, keyed
        self.clock, self.progress, self.memo_limit = clock, progress, memo_limit
        self.recorder = None  # certificates record the textbook's game only
        self.max_depth = sys.maxsize  # set by run() from the stack
        self.randomized = is_randomized(learner)
        self.labels = H.labels
        self.bandit = rules.feedback == "bandit"
        self.states = BudgetStates(H, rules.noise)
        self.domain = H.domain
        self.memo: dict = {}
        self.on_line: dict = {}  # the positions of the line being searched (no horizon) -> their depth
        self.low = _NO_LOOP  # the shallowest position on the line a loop came back to, below the current one
        self.moves: list[tuple] = []
        self.gained: list[float] = [0]
        self.incumbent: tuple[float, tuple] = (0, ())
        self.value: float = 0
        self.line: tuple = ()

    # ------------------------------------------------------------------ the learner
    def _fault(self, exc: Exception, method: str) -> Exception:
        """The game's error for ``exc``, raised by the learner's ``method`` in the round being played."""
        t = len(self.moves) + 1
        if isinstance(exc, LabelNotShown):
            return PeekError(f"read {exc}", round=t, player="learner")
        return PlayerError(f"raised {exc!r} in {method} during the worst-case search", round=t, player="learner")

    def predict(self, L: Any, x: Any) -> int | float:
        """The learner's prediction: a label, or a randomized learner's probability of label 1."""
        method = "predict_proba_one" if self.randomized else "predict_one"
        try:
            raw = getattr(L, method)(x)
        except SEARCH_STOPS:  # the machine's limit or the deadline: the search stops
            raise
        except Exception as exc:  # noqa: BLE001 - the learner's own fault, reported as in play()
            raise self._fault(exc, method) from exc
        p = as_probability(raw) if self.randomized else as_label(raw, self.labels)
        if p is None:
            raise IllegalPredictionError(f"{method} returned {raw!r} on {x!r}; expected "
                                         f"{expected_prediction(self.randomized, self.labels)}",
                                         round=len(self.moves) + 1, player="learner")
        return p

    def learn(self, L: Any, x: Any, y: int, p: int | float = 0) -> None:
        """``L.learn_one`` with what the rules show: the label ``y``, or whether the prediction ``p`` was right."""
        shown = BanditFeedback(len(self.moves) + 1, p, p == y, self.labels) if self.bandit else y
        try:
            L.learn_one(x, shown)
        except SEARCH_STOPS:
            raise
        except Exception as exc:  # noqa: BLE001
            raise self._fault(exc, "learn_one") from exc

    def cost(self, p: int | float, y: int) -> int | float:
        """What the round costs the learner: a mistake or none for a label (of any number of labels), the exact
        expected mistake for a randomized learner's probability of label 1 (:func:`mistake_cost`)."""
        return mistake_cost(p, y) if self.randomized else int(p != y)

    # ------------------------------------------------------------------- the search
    def run(self) -> str:
        """Search from the start; the status it ended with (see :func:`run_within`)."""
        root = snapshot_of(self.learner)
        with _deep_stack(frames_per_round=3) as self.max_depth:
            return run_within(lambda: self._explore(root, self.states.root, frozenset()))

    def search(self, L: Any, S: tuple[int, ...], h: int | None, path: Any = None) -> tuple[float, tuple]:
        """Best (value, line) from this position; line = ((x, p, y, gain), ...).

        Without a horizon the line's positions are in :attr:`on_line`; a move back to one of them is
        a loop: infinite when it gained, else cut, and :attr:`low` remembers the depth it came back to
        (a position whose value took a shallower one as given is not memoised).
        """
        if h == 0:
            return 0, ()
        depth = len(self.moves)
        if depth >= self.max_depth:
            raise OutOfBudget  # deeper than the stack allows
        here = L.state_key() if self.keyed else None
        key = (here, S, h) if self.keyed else None
        if key is not None:
            known = self.memo.get(key)
            if known is not None:
                return known
            if self.memo_limit is not None and len(self.memo) >= self.memo_limit:
                raise OutOfMemory
        self.clock.spend()
        if self.progress is not None and self.clock.nodes % 256 == 0:
            self.progress(256)
        outer_low, self.low = self.low, _NO_LOOP
        looping = h is None  # only without a horizon can a line come back to a position
        if looping:
            self.on_line[key] = depth
        try:
            best = self._moves(L, S, h, here)
        finally:
            if looping:
                del self.on_line[key]
        low, self.low = self.low, min(outer_low, self.low)
        if key is not None and best[0] != math.inf and low >= depth:
            self.memo[key] = best
        return best

    def _moves(self, L: Any, S: tuple[int, ...], h: int | None, here: Any) -> tuple[float, tuple]:
        """The best of the moves from a position: every instance, every legal label."""
        best: tuple[float, tuple] = (0, ())
        nxt = None if h is None else h - 1
        for j, x in enumerate(self.domain):
            p = self.predict(L, x)
            for y in self.labels:
                T = self.states.after(S, j, y)
                if T is None:
                    continue  # every hypothesis would be past the budget: not a legal label
                gain = self.cost(p, y)
                child = snapshot_of(L)
                self.learn(child, x, y, p)
                move = (x, p, y, gain)
                if self.keyed:
                    there = child.state_key()
                    if h is None and (there, T, None) in self.on_line:  # a loop
                        back = self.on_line[(there, T, None)]
                        if self.gained[-1] - self.gained[back] + gain == 0:
                            self.low = min(self.low, back)
                            continue  # it gains nothing: the position it returns to searches on
                        self._record(math.inf, (move,))
                        return math.inf, (move,)
                    if h is not None and gain == 0 and T == S and there == here:
                        continue  # a round that changes nothing only spends the horizon
                value, line = self._descend(child, T, nxt, None, move)
                total = gain + value
                if total > best[0]:
                    best = (total, (move,) + line)
                    self._record(*best)
                    if total == math.inf:
                        return best
        return best

    def greedy_line(self) -> tuple[float, tuple]:
        """A concrete line (a proven lower bound): each round the first instance and legal label costing the
        learner the most, while one costs it something."""
        L = snapshot_of(self.learner)
        S = self.states.root
        total: float = 0
        rounds = self.horizon if self.horizon is not None else self.H.n_hypotheses * len(S) + self.H.n_instances
        for _ in range(rounds):
            best = None
            for j, x in enumerate(self.domain):
                p = self.predict(L, x)
                for y in self.labels:
                    T = self.states.after(S, j, y)
                    if T is not None and self.cost(p, y) > (best[3] if best else 0):
                        best = (x, p, y, self.cost(p, y), T)
                if best is not None:
                    break
            if best is None:
                break
            x, p, y, gain, S = best
            self.learn(L, x, y, p)
            self.moves.append(best[:4])  # the line so far: the next round's number
            total += gain
        line, self.moves = tuple(self.moves), []
        return total, line
