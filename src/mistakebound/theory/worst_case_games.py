"""The game trees the exact worst-case search walks: one learner's moves against every adversary.

:class:`_Game` plays a learner through its ``predict_one`` / ``learn_one`` on copies
(any learner, randomized ones by their expected cost), :class:`_FastGame` a learner that
declares its policy (SOA, Halving, Consistent) on bitsets without copying it; both read
moves through :mod:`mistakebound.game.rules`, the referee's own rules, and are driven by
:func:`mistakebound.theory.worst_case.worst_case_mistakes`, the door to this search.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable
from typing import Any

from mistakebound.foundations.errors import IllegalPredictionError, InvalidArgumentError, PlayerError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import is_randomized, snapshot_of
from mistakebound.game.rules import as_prediction, expected_prediction, label_splits, mistake_cost, restrict
from mistakebound.theory.search_protocol import SEARCH_STOPS, Clock, OutOfBudget, OutOfMemory, run_within

__all__: list[str] = []




@contextlib.contextmanager
def _deep_stack(frames_per_round: int):
    """Room on the stack for a deep search: the recursion limit raised, and how many rounds fit.

    A line deeper than the stack allows is a resource spent (status "budget"): the search
    stops itself well before Python would raise RecursionError (which the learner's code
    might catch or turn into something else).  ``frames_per_round`` counts the search's
    frames per round and a few of the learner's at the leaf.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    frames, f = 0, sys._getframe()
    while f is not None:
        frames, f = frames + 1, f.f_back
    try:
        yield max((sys.getrecursionlimit() - frames - 200) // frames_per_round, 1)
    finally:
        sys.setrecursionlimit(limit)


def _checked_prediction(raw: Any, randomized: bool, source: str, x: Any, round_: int) -> float:
    """A learner's prediction as the game takes it (a label, or a probability when randomized), or
    :class:`IllegalPredictionError` naming ``source`` (the method that returned it) and the round."""
    p = as_prediction(raw, randomized)
    if p is None:
        raise IllegalPredictionError(f"{source} returned {raw!r} on {x!r}; expected {expected_prediction(randomized)}",
                                     round=round_, player="learner")
    return p


class _Game:
    """One worst-case search: the adversary's best line from every position it reaches.

    A position is the learner (a snapshot) and the version space ``V`` (a bitset over
    the rows of ``H``), with ``h`` rounds left (None: no horizon).  Positions are merged
    in a memo keyed by ``(state_key, V, h)`` when the learner has ``state_key()``.
    While the search runs, :attr:`incumbent` holds the best line from the start found
    so far (a complete line the adversary can play, and its mistakes), which is what a
    stopped search reports as its lower bound.
    """

    def __init__(self, learner: Any, H: HypothesisClass, horizon: int | None, keyed: bool, clock: Clock,
                 progress: Callable[[int], None] | None, memo_limit: int | None = None, recorder: Any = None):
        self.learner = learner
        self.recorder = recorder
        self.memo_limit = memo_limit
        self.max_depth = sys.maxsize  # set by run() from the stack
        self.H = H
        self.horizon = horizon
        self.keyed = keyed
        self.randomized = is_randomized(learner)
        self.clock = clock
        self.progress = progress
        self.domain = H.domain
        self.columns = H.column_masks
        self.memo: dict = {}
        self.moves: list[tuple] = []  # the line from the start to the position being searched
        self.gained: list[float] = [0]  # mistakes along it, after each move
        self.incumbent: tuple[float, tuple] = (0, ())
        self.value: float = 0
        self.line: tuple = ()

    # ------------------------------------------------------------------ the learner
    def predict(self, L: Any, x: Any) -> float:
        try:
            raw = L.predict_proba_one(x) if self.randomized else L.predict_one(x)
        except SEARCH_STOPS:  # the machine's limit or the deadline, not the learner's fault: the search stops
            raise
        except Exception as exc:  # noqa: BLE001 - the learner's own fault, reported as in play()
            raise PlayerError(f"raised {exc!r} in the worst-case search", round=len(self.moves) + 1,
                              player="learner") from exc
        source = "predict_proba_one" if self.randomized else "predict_one"
        return float(_checked_prediction(raw, self.randomized, source, x, len(self.moves) + 1))

    def learn(self, L: Any, x: Any, y: int) -> None:
        try:
            L.learn_one(x, y)
        except SEARCH_STOPS:
            raise
        except Exception as exc:  # noqa: BLE001
            raise PlayerError(f"raised {exc!r} in learn_one during the worst-case search",
                              round=len(self.moves) + 1, player="learner") from exc

    # ------------------------------------------------------------------- the search
    def run(self) -> str:
        """Search from the start; the status it ended with (see :func:`run_within`)."""
        root = snapshot_of(self.learner)
        V = self.H.full_mask
        start = (root.state_key(), V, None) if (self.keyed and self.horizon is None) else None
        path = frozenset({start}) if start else frozenset()
        if self.recorder is not None:
            self.recorder.root(root)
        with _deep_stack(frames_per_round=3) as self.max_depth:
            return run_within(lambda: self._explore(root, V, path))

    def _explore(self, root: Any, V: int, path: frozenset) -> None:
        try:
            self.value, self.line = self.search(root, V, self.horizon, path)
        except RecursionError:  # a line deeper than the stack allows: a resource spent
            raise OutOfBudget from None

    def _record(self, value: float, line: tuple) -> None:
        """A line from the current position: the best from the start if it beats the incumbent."""
        total = self.gained[-1] + value
        if total > self.incumbent[0]:
            self.incumbent = (total, tuple(self.moves) + line)

    def _descend(self, child: Any, W: int, h: int | None, path: frozenset, move: tuple) -> tuple[float, tuple]:
        self.moves.append(move)
        self.gained.append(self.gained[-1] + move[3])
        try:
            return self.search(child, W, h, path)
        finally:
            self.moves.pop()
            self.gained.pop()

    def search(self, L: Any, V: int, h: int | None, path: frozenset) -> tuple[float, tuple]:
        """Best (value, line) from this position; line = ((x, p, y, gain), ...)."""
        if h == 0:
            return 0, ()
        if len(self.moves) >= self.max_depth:
            raise OutOfBudget  # see run(): deeper than the stack allows
        key = (L.state_key(), V, h) if self.keyed else None
        if key is not None and key in self.memo:
            return self.memo[key]
        if self.memo_limit is not None and len(self.memo) >= self.memo_limit:
            raise OutOfMemory  # the memo would outgrow its share of the memory: stop before it does
        self.clock.spend()  # raises OutOfBudget past the budget: this position is not expanded
        if self.progress is not None and self.clock.nodes % 256 == 0:
            self.progress(256)
        best: tuple[float, tuple] = (0, ())
        here = L.state_key() if self.keyed else None
        rec = self.recorder
        sid = rec.state(L) if rec is not None else None
        for j, x in enumerate(self.domain):
            p = self.predict(L, x)
            if rec is not None:
                rec.prediction(sid, j, p)
            zeros, ones = label_splits(V, self.columns[j])
            for y, W in ((1, ones), (0, zeros)):
                if W == 0:
                    continue  # no hypothesis of V gives label y: not a legal move of a realizable game
                gain = mistake_cost(p, y)
                child = snapshot_of(L)
                self.learn(child, x, y)
                move = (x, p, y, gain)
                if h is None:
                    if gain == 0 and W == V:
                        if child.state_key() == here:
                            if rec is not None:
                                rec.stay(sid, j, y)
                            continue  # nothing gained, nothing changed
                        raise InvalidArgumentError(
                            f"horizon: {type(L).__name__} changed its state on a round without a mistake "
                            f"(instance {x!r}), so the search cannot end by itself; give a horizon"
                        )
                    child_key = (child.state_key(), W, None)
                    if rec is not None:
                        rec.follow(sid, j, y, child)
                    if child_key in path:  # a loop that gains on every pass
                        self._record(math.inf, (move,))
                        return math.inf, (move,)
                    value, line = self._descend(child, W, None, path | {child_key}, move)
                else:
                    if self.keyed and gain == 0 and W == V and child.state_key() == here:
                        # a round that changes nothing only spends the horizon: whatever
                        # follows it can be played without it, so it never does better
                        if rec is not None:
                            rec.stay(sid, j, y)
                        continue
                    if rec is not None and h > 1:  # a child with no rounds left has no state that matters
                        rec.follow(sid, j, y, child)
                    value, line = self._descend(child, W, h - 1, path, move)
                total = gain + value
                if total > best[0]:
                    best = (total, (move,) + line)
                    self._record(*best)
                    if total == math.inf:
                        break
            if best[0] == math.inf:
                break
        if key is not None and best[0] != math.inf:
            self.memo[key] = best
        if rec is not None and best[0] != math.inf:
            rec.done(V, sid, h)
        return best

    def greedy_line(self) -> tuple[float, tuple]:
        """A concrete line (a proven lower bound): answer against the prediction while legal."""
        H = self.H
        L = snapshot_of(self.learner)
        V = H.full_mask
        line = []
        total = 0
        rec = self.recorder
        sid = rec.line_start() if rec is not None else None
        rounds = self.horizon if self.horizon is not None else H.n_hypotheses + H.n_instances
        for _ in range(rounds):
            move = None
            for j, x in enumerate(H.domain):
                zeros, ones = label_splits(V, H.column_masks[j])
                if not (zeros and ones):
                    continue
                p = self.predict(L, x)
                if rec is not None:
                    rec.prediction(sid, j, p)
                y = 0 if p >= 0.5 else 1
                move = (x, p, y, mistake_cost(p, y), ones if y == 1 else zeros)
                break
            if move is None:
                break
            x, p, y, gain, V = move
            self.learn(L, x, y)
            if rec is not None:
                sid = rec.follow(sid, j, y, L)
            total += gain
            line.append((x, p, y, gain))
        return total, tuple(line)


class _FastGame:
    """The search of :class:`_Game` for a learner with a ``version_space_policy``: positions are bitsets.

    The learner's state is its version space, so a position is ``V`` (and the rounds left),
    keyed up to the learner's declared symmetries by a
    :class:`~mistakebound.theory.symmetry.VersionSpaceKeys`; every move that does not err
    shrinks ``V`` or leaves the position as it was, so the only loop is a mistake on an
    instance ``V`` labels unanimously (the value is then infinite).  The memo stores each
    position's value and its best move (a position in the key's move list, so that a copy
    reached by a relabelling replays it); lines are rebuilt from the memo when asked.
    """

    def __init__(self, learner: Any, H: HypothesisClass, horizon: int | None, clock: Clock,
                 progress: Callable[[int], None] | None, memo_limit: int | None, policy: Callable,
                 symmetries: frozenset):
        from mistakebound.theory.symmetry import MajorityVote, VersionSpaceKeys

        self.learner = learner
        self.H = H
        self.horizon = horizon
        self.clock = clock
        self.progress = progress
        self.memo_limit = memo_limit
        self.policy = policy
        # a policy whose mistakes are bounded by a theorem the search can apply (the
        # majority vote: floor(log2 |V|)); moves that cannot beat the best are skipped
        # (MajorityVote.move_caps)
        self.vote = policy if type(policy) is MajorityVote else None
        self.randomized = is_randomized(learner)
        self.keys = VersionSpaceKeys(H, symmetries)
        self.domain = H.domain
        self.columns = H.column_masks
        self.memo: dict = {}
        self.quick: dict = {}  # "instances" keys (see VersionSpaceKeys.quick) -> memo entries
        self.exact: dict = {}  # bitsets -> memo entries (under symmetries)
        self.max_depth = sys.maxsize
        self.moves: list[tuple] = []
        self.gained: list[float] = [0]
        self._incumbent: tuple = (0, (), None)  # (total, moves, (V, h) whose best line follows, or None)
        self.value: float = 0
        self.line: tuple = ()

    def predict(self, V: int, j: int) -> float:
        try:
            raw = self.policy(V, j)
        except SEARCH_STOPS:
            raise
        except Exception as exc:  # noqa: BLE001 - the learner's own fault, as in play()
            raise PlayerError(f"raised {exc!r} in version_space_policy in the worst-case search",
                              round=len(self.moves) + 1, player="learner") from exc
        if raw.__class__ is int and (raw == 0 or raw == 1) and not self.randomized:
            return raw  # the common case, already a label
        return self._checked(raw, j)

    def _checked(self, raw: Any, j: int) -> float:
        p = _checked_prediction(raw, self.randomized, "version_space_policy", self.domain[j], len(self.moves) + 1)
        return p if type(p) is int else float(p)

    def run(self) -> str:
        with _deep_stack(frames_per_round=2) as self.max_depth:
            return run_within(self._explore)

    def _explore(self) -> None:
        """The search, and the optimal line rebuilt from its memo (which asks the policy again:
        inside the run, so that running out of memory there is a stop, not a crash)."""
        try:
            self.value = self.search(self.H.full_mask, self.horizon, None)
            self.line = self._incumbent[1] if self.value == math.inf else self._line_from(self.H.full_mask,
                                                                                          self.horizon)
        except RecursionError:
            raise OutOfBudget from None

    @property
    def incumbent(self) -> tuple[float, tuple]:
        """The best line from the start found so far, and its mistakes (rebuilt from the memo)."""
        total, moves, tail = self._incumbent
        if tail is not None:
            moves = moves + self._line_from(*tail)
        return total, moves

    def _lookup(self, V: int, h: int | None, cand: Any):
        """(memo entry or None, memo keys to store under, moves in key order): moves None on a hit.

        Memo keys are the position's key, paired with ``h`` under a horizon.  Under
        symmetries, three memos: by the bitset ``V`` (a cheap first look), by the
        ``"instances"`` key, and (with ``"rows"`` too) by the normal form; an entry found in
        a later one is copied into the earlier ones.
        """
        keys = self.keys
        if not keys.instances:
            key, moves = keys.form(V)
            key = key if h is None else (key, h)
            return self.memo.get(key), (key, None, None), moves
        exact = V if h is None else (V, h)
        e = self.exact.get(exact)
        if e is not None:
            return e, None, None
        quick = keys.quick(V, cand)
        quick = quick if h is None else (quick, h)
        if not keys.rows:  # instances alone: the quick key is the key
            e = self.memo.get(quick)
            if e is not None:
                self.exact[exact] = e
                return e, None, None
            return None, (quick, None, exact), keys.moves(V, cand)[1]
        e = self.quick.get(quick)
        if e is None:
            key, moves = keys.moves(V, cand)
            key = key if h is None else (key, h)
            e = self.memo.get(key)
            if e is None:
                return None, (key, quick, exact), moves
            self.quick[quick] = e
        self.exact[exact] = e
        return e, None, None

    def search(self, V: int, h: int | None, cand: Any) -> float:
        """The value of position ``V`` with ``h`` rounds left (``cand``: columns holding ``V``'s distinct ones)."""
        if h == 0:
            return 0
        e, key, moves = self._lookup(V, h, cand)
        return e[0] if e is not None else self._expand(V, h, key, moves)

    def _expand(self, V: int, h: int | None, key: tuple, moves: Any) -> float:
        """Search a position the memo does not hold: its moves, in the order of its key."""
        if len(self.moves) >= self.max_depth:
            raise OutOfBudget
        if self.memo_limit is not None and len(self.memo) + len(self.quick) + len(self.exact) >= self.memo_limit:
            raise OutOfMemory
        self.clock.spend()
        if self.keys.instances or self.keys.rows:
            self.clock.check_time()  # a position can cost |X| keys: the clock's stride is too coarse here
        if self.progress is not None and self.clock.nodes % 256 == 0:
            self.progress(256)
        best: float = 0
        best_move = None
        cols, domain, policy, randomized = self.columns, self.domain, self.policy, self.randomized
        moves_here, gained, expand = self.moves, self.gained, self._expand
        nxt = None if h is None else h - 1
        plain = not self.keys.instances and not self.keys.rows
        memo_get = self.memo.get
        lookup = self._lookup
        all_moves = self.keys.all_moves
        child_cand = self.keys.candidates(moves) if self.keys.instances else None
        order: Any = enumerate(moves)
        vote = self.vote
        if vote is not None:  # most promising first; stop once nothing left can beat the best
            top = vote.mistakes_at_most(V)
            if h is not None:
                top = min(h, top)
            caps = vote.move_caps(V, moves, nxt)
            order = sorted(enumerate(moves), key=lambda item: -caps[item[0]])
        for pos, j in order:
            if vote is not None and (caps[pos] <= best or best >= top):
                break
            ones = V & cols[j]
            try:
                p = policy(V, j)
            except SEARCH_STOPS:
                raise
            except Exception as exc:  # noqa: BLE001 - the learner's own fault, as in play()
                raise PlayerError(f"raised {exc!r} in version_space_policy in the worst-case search",
                                  round=len(moves_here) + 1, player="learner") from exc
            if p.__class__ is not int or randomized or (p != 0 and p != 1):
                p = self._checked(p, j)
            # the move rules inlined (rules.label_splits, rules.mistake_cost: no call per move on this
            # path; tests/test_rules.py checks this search against them)
            zeros = V ^ ones
            for y in (1, 0):
                W = ones if y else zeros
                if not W:
                    continue
                gain = p - y if p >= y else y - p
                if W == V:
                    if not gain:
                        continue  # nothing gained, nothing changed
                    if h is None:  # a mistake that changes nothing: repeated forever
                        self._record(math.inf, (domain[j], p, y, gain), None)
                        return math.inf
                if gain.__class__ is float and gain == int(gain):
                    gain = int(gain)
                if nxt == 0:
                    value = gain
                else:
                    if plain:
                        ckey = W if nxt is None else (W, nxt)
                        e = memo_get(ckey)
                        if e is None:
                            ckey, cmoves = (ckey, None, None), all_moves
                    else:
                        e, ckey, cmoves = lookup(W, nxt, child_cand)
                    if e is not None:
                        value = gain + e[0]
                    else:
                        moves_here.append((domain[j], p, y, gain))
                        gained.append(gained[-1] + gain)
                        try:
                            value = gain + expand(W, nxt, ckey, cmoves)
                        finally:
                            moves_here.pop()
                            gained.pop()
                if value > best:
                    best, best_move = value, (pos, y)
                    self._record(value, (domain[j], p, y, gain), (W, nxt))
                    if value == math.inf:
                        return value
        entry = (best, best_move)
        self.memo[key[0]] = entry
        if key[1] is not None:
            self.quick[key[1]] = entry
        if key[2] is not None:
            self.exact[key[2]] = entry
        return best

    def _record(self, value: float, move: tuple, tail: tuple | None) -> None:
        total = self.gained[-1] + value
        if total > self._incumbent[0]:
            self._incumbent = (total, tuple(self.moves) + (move,), tail if value != math.inf else None)

    def _line_from(self, V: int, h: int | None) -> tuple:
        """The best line from a searched position, replayed from the memo's best moves."""
        line = []
        while h != 0:
            e, _, _ = self._lookup(V, h, None)
            if e is None or e[1] is None:
                break
            pos, y = e[1]
            j = self.keys.form(V)[1][pos]
            p = self.predict(V, j)
            gain = mistake_cost(p, y)
            line.append((self.domain[j], p, y, gain))
            W = restrict(V, self.columns[j], y)
            if W == V and h is None:
                break  # (cannot happen: such a move is infinite, and infinite lines are not rebuilt)
            V, h = W, None if h is None else h - 1
        return tuple(line)

    def greedy_line(self) -> tuple[float, tuple]:
        """A concrete line (a proven lower bound): answer against the prediction while legal."""
        H = self.H
        V = H.full_mask
        line, total = [], 0
        rounds = self.horizon if self.horizon is not None else H.n_hypotheses + H.n_instances
        for _ in range(rounds):
            for j, x in enumerate(H.domain):
                zeros, ones = label_splits(V, self.columns[j])
                if not (zeros and ones):
                    continue
                p = self.predict(V, j)
                y = 0 if p >= 0.5 else 1
                gain = mistake_cost(p, y)
                V = ones if y else zeros
                total += gain
                line.append((x, p, y, gain))
                break
            else:
                break
        return total, tuple(line)
