"""Symmetries of a learner's predictions, and the version-space keys that use them.

A learner whose state is its version space can give the worst-case search
(:func:`~mistakebound.theory.worst_case.worst_case_mistakes`) two declarations:

* ``version_space_policy(H)``: a method returning a function ``predict(V, j)`` -> the
  prediction (a label 0/1, or a probability of 1 for a randomized learner) on instance
  ``H.domain[j]`` of the learner after any history that left the hypotheses of the bitset
  ``V`` (over the rows of ``H``, as in :attr:`~mistakebound.HypothesisClass.column_masks`)
  consistent, or None when it cannot say (another class, a learner that has already
  learned something, a subclass that changed how it predicts).  The search then plays the
  game on bitsets alone (its *fast path*), without ``predict_one``/``snapshot``.
* ``symmetries``: a class attribute, a frozenset of the names in :data:`SYMMETRIES`, saying
  which relabellings of a version space leave the predictions unchanged.  Declaring any
  symmetry also declares that the prediction at ``V`` depends only on the rows of ``V`` (the
  sub-class ``H.restrict(V)``), not on which rows of ``H`` they are:

  - ``"instances"``: renaming the instances, and duplicating an instance (a column equal to
    another on ``V``), changes nothing but the names: the prediction on ``x`` is a function
    of the rows of ``V`` in order, as labelings of the domain up to renaming, and of ``x``'s
    column.  (Consistent: the first row's label.)
  - ``"rows"``: the order of the rows of ``V`` does not matter either (only the multiset of
    rows does).  (Halving, SOA, the optimal randomized learner.)

  The default, an empty set, is what an unknown learner gets: positions are then keyed by
  the bitset ``V`` itself.

:class:`VersionSpaceKeys` turns a declaration into memo keys: version spaces that differ by
a declared relabelling get one key (exact, not complete: equal keys always mean relabelled
copies, but two copies may get different keys, which costs memo hits, never correctness).
A declaration is a claim the search trusts, so it must be tested:
:func:`symmetry_violations` plays the learner on a class and on relabelled copies of the
sub-classes it reaches and compares the predictions, and :func:`fast_path_violations`
compares the policy with ``predict_one``/``predict_proba_one``.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.learners import Consistent, Halving
>>> H = classes.singletons(6)
>>> keys = VersionSpaceKeys(H, Halving.symmetries)
>>> keys.key(0b000011) == keys.key(0b110000)     # two singletons: one position up to renaming
True
>>> symmetry_violations(Halving(H), H), fast_path_violations(Halving(H), H)
([], [])
>>> sorted(Consistent.symmetries)
['instances']
"""

from __future__ import annotations

import random
from itertools import repeat
from collections.abc import Callable
from typing import Any

import numpy as np

from mistakebound.foundations.bitset import mask_to_indices
from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.rules import as_prediction
from mistakebound.game.players import is_randomized, keeps_methods
from mistakebound.theory.canonical import projection, sorted_rows_and_columns_key, sorted_rows_key

__all__ = ["SYMMETRIES", "PROBE_POSITIONS", "MERGE_RATIO", "MajorityVote", "declared_symmetries", "keeps_methods",
           "policy_of", "VersionSpaceKeys", "merging_pays", "symmetry_violations", "fast_path_violations"]

#: The symmetries a learner may declare (see the module's docstring).
SYMMETRIES = frozenset({"instances", "rows"})

#: The worst-case search's automatic choice (``symmetry=None``): after this many positions of the search
#: without symmetries, :func:`merging_pays` looks at the positions it has finished (the positions spent
#: before it decides are lost when it switches: 64 lost less than 128 or 256 on every case of
#: ``python -m benchmarks.worst_case_speed`` that switched, and decided as well).
PROBE_POSITIONS = 64

#: ... and merging pays when they fall into at most one key per this many positions.  Measured there:
#: the positions searched first had 4.1 to 32 per key where merging pays (singletons, thresholds,
#: intervals), 1.7 to 3.8 where it costs more than it saves or about as much (random classes,
#: monotone disjunctions, thresholds(31) for SOA).
MERGE_RATIO = 4


def declared_symmetries(learner: Any) -> frozenset:
    """The symmetries ``learner`` declares (its ``symmetries`` attribute; none by default).

    Raises
    ------
    InvalidArgumentError
        If the attribute is not a set of names from :data:`SYMMETRIES`.
    """
    declared = getattr(learner, "symmetries", frozenset())
    if isinstance(declared, str) or not isinstance(declared, (set, frozenset, tuple, list)) \
            or not set(declared) <= SYMMETRIES:
        raise InvalidArgumentError(
            f"symmetries: {type(learner).__name__} declares {declared!r}; expected a frozenset of names "
            f"from {sorted(SYMMETRIES)}")
    return frozenset(declared)


def policy_of(learner: Any, H: HypothesisClass) -> Callable[[int, int], float] | None:
    """The learner's ``version_space_policy(H)``, or None if it has none or declines."""
    make = getattr(learner, "version_space_policy", None)
    if not callable(make):
        return None
    policy = make(H)
    return policy if callable(policy) else None


class MajorityVote:
    """The majority-vote policy: predict 1 on ``x`` iff at least half the rows of ``V`` label it 1.

    Halving's ``version_space_policy``.  The worst-case search knows what this policy
    does, not only what it answers: every mistake leaves at most half of ``V`` (a wrong
    majority is a minority), so from ``V`` the learner errs at most ``floor(log2 |V|)``
    times (rows counted with their copies), the argument of textbook Theorem 21.3 with
    its hypothesis (the prediction is the majority of the version space) true by
    construction.  The search uses that bound to skip moves that cannot beat the best
    one found; a policy of any other type (a subclass included) gets no bound.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.thresholds(3)
    >>> vote = MajorityVote(H.column_masks)
    >>> [vote(H.full_mask, j) for j in range(3)], vote(0b0011, 1)
    ([1, 1, 0], 0)
    >>> MajorityVote.mistakes_at_most(0b1111), MajorityVote.mistakes_at_most(0b0111)
    (2, 1)
    """

    __slots__ = ("columns",)

    def __init__(self, columns: tuple[int, ...]):
        self.columns = columns

    def __call__(self, V: int, j: int) -> int:
        return int(2 * (V & self.columns[j]).bit_count() >= V.bit_count())

    @staticmethod
    def mistakes_at_most(V: int) -> int:
        """``floor(log2 |V|)`` for a nonempty ``V``: the most mistakes the policy makes from ``V``."""
        return V.bit_count().bit_length() - 1

    def move_caps(self, V: int, moves: Any, rounds: int | None) -> list[int]:
        """Per column ``j`` of ``moves``, the most a move on it can be worth from ``V``.

        Over the two labels: the mistake it costs (the minority label) plus
        :meth:`mistakes_at_most` of the side it leaves, capped by the ``rounds`` left
        after it (None: no horizon); a label that leaves ``V`` whole is no move (the
        majority predicts a unanimous label, so it gains nothing).

        Four rows: an even split costs a mistake and leaves two rows (1 + 1); a 1-3 split
        costs a mistake leaving one row (1 + 0), or leaves three rows (floor(log2 3) = 1).

        >>> MajorityVote((0b0011, 0b0001)).move_caps(0b1111, [0, 1], None)
        [2, 1]
        """
        s = V.bit_count()
        cols = self.columns
        caps = []
        for j in moves:
            ones = (V & cols[j]).bit_count()
            zeros = s - ones
            if not ones or not zeros:
                caps.append(0)
                continue
            wrong, right = (zeros, ones) if 2 * ones >= s else (ones, zeros)  # sides after a mistake / not
            after_wrong, after_right = wrong.bit_length() - 1, right.bit_length() - 1
            if rounds is not None:
                after_wrong, after_right = min(rounds, after_wrong), min(rounds, after_right)
            caps.append(max(1 + after_wrong, after_right))
        return caps


class VersionSpaceKeys:
    """Memo keys of version spaces (bitsets over the rows of ``H``) up to the given symmetries.

    :meth:`form` returns ``(key, moves)``: a hashable key shared by relabelled copies (see
    the module's docstring), and the columns worth playing from ``V`` in the key's own
    order: one column per distinct column of ``V`` (constant ones included) under
    ``"instances"``, every column otherwise.  Move ``i`` of two version spaces with one key
    are the same move up to the relabelling, so a move recorded by its position in this
    list can be replayed from any copy.  The normal forms are those of
    :mod:`~mistakebound.theory.canonical` that keep what a learner's predictions may depend
    on: a column's polarity and every copy of a row (the Ldim and RL searches forget both,
    a class's values do not depend on them).

    Without symmetries the key is ``V``.  Under ``"instances"`` it is the sorted set of the
    distinct columns of ``V`` with the rows of ``V`` renumbered in order (cheap: integer
    operations, a shift when ``V``'s rows are consecutive).  Under ``"rows"`` too, the
    matrix of those columns is put in a normal form by sorting its rows and columns
    alternately until neither moves (a heuristic normal form: exact, not complete); under
    ``"rows"`` alone, the rows over every column are sorted.
    """

    def __init__(self, H: HypothesisClass, symmetries: frozenset = frozenset()):
        self.H = H
        self.columns = H.column_masks
        self.matrix = H.matrix
        self.instances = "instances" in symmetries
        self.rows = "rows" in symmetries
        self.all_moves = tuple(range(H.n_instances))
        #: First-level keys (see :meth:`quick`) when a second, finer one exists.
        self.two_level = self.instances and self.rows

    def key(self, V: int) -> Any:
        """The key of ``V`` (the first element of :meth:`form`)."""
        return self.form(V)[0]

    # ------------------------------------------------------------------ forms
    def candidates(self, moves: Any) -> tuple:
        """What :meth:`quick` needs to look only at ``moves`` (the distinct columns of a version space)."""
        cols = self.columns
        return tuple(moves), tuple(cols[j] for j in moves)

    def quick(self, V: int, cand: tuple | None = None) -> Any:
        """The ``"instances"`` key of ``V``: ``(|V|, the set of its distinct columns, rows renumbered in order)``.

        ``cand`` (from :meth:`candidates`) lists columns among which every distinct column of
        ``V`` occurs (the moves of a version space holding ``V``); default all.
        """
        cs = self.columns if cand is None else cand[1]
        low = (V & -V).bit_length() - 1
        s = V.bit_count()
        if V >> low == (1 << s) - 1:  # consecutive rows: renumbering them is a shift
            return s, frozenset(map(int.__rshift__, map(V.__and__, cs), repeat(low)))
        return s, frozenset(self.compressed(V, cand))

    def compressed(self, V: int, cand: tuple | None = None) -> dict:
        """``{V's distinct column, V's rows renumbered in order: a column index giving it}``."""
        js, cs = (self.all_moves, self.columns) if cand is None else cand
        seen = dict(zip(map(V.__and__, cs), js))  # one column index per distinct column of V
        low = (V & -V).bit_length() - 1
        s = V.bit_count()
        if V >> low == (1 << s) - 1:
            return dict(zip(map(int.__rshift__, seen, repeat(low)), seen.values()))
        reps = list(seen.values())
        sub = projection(self.matrix, mask_to_indices(V), np.asarray(reps, dtype=np.int64))
        packed = np.packbits(sub.T, axis=1, bitorder="little")
        return {int.from_bytes(row.tobytes(), "little"): j for row, j in zip(packed, reps)}

    def form(self, V: int, cand: tuple | None = None) -> tuple[Any, Any]:
        """``(key, moves)`` of ``V``; ``cand`` as for :meth:`quick` (used under ``"instances"``)."""
        if not self.instances and not self.rows:
            return V, self.all_moves
        if self.instances:
            key, comp = self.quick(V, cand), self.compressed(V, cand)
            order = sorted(comp)
            moves = [comp[c] for c in order]
            if not self.rows:
                return key, moves
            return self._permuted(V.bit_count(), order, moves)
        idx = mask_to_indices(V)  # rows alone: sort the rows over every column
        rows, _ = sorted_rows_key(self.matrix.take(idx, axis=0))
        return ("rows", idx.size, rows), self.all_moves

    def moves(self, V: int, cand: tuple | None = None) -> tuple[Any, list[int]]:
        """The final key (None under ``"instances"`` alone: :meth:`quick`'s) and the moves of ``V``."""
        comp = self.compressed(V, cand)
        order = sorted(comp)
        moves = [comp[c] for c in order]
        if not self.rows:
            return None, moves
        return self._permuted(V.bit_count(), order, moves)

    @staticmethod
    def _permuted(s: int, comps: list[int], moves: list[int]) -> tuple[Any, list[int]]:
        """Key and moves of the ``s x k`` matrix of columns ``comps`` up to rows and columns in any order.

        The normal form is :func:`~mistakebound.theory.canonical.sorted_rows_and_columns_key`:
        unlike the Ldim and RL searches' :func:`~mistakebound.theory.canonical.relabelled_key`,
        it keeps each column's polarity and every copy of a row, which a learner's
        predictions may depend on (the module docstring of
        :mod:`~mistakebound.theory.canonical` says why).
        """
        k = len(comps)
        nb = (s + 7) // 8 or 1
        raw = np.frombuffer(b"".join(c.to_bytes(nb, "little") for c in comps), dtype=np.uint8).reshape(k, nb)
        A = np.unpackbits(raw, axis=1, bitorder="little")[:, :s]  # k x s: columns as rows
        key, cols = sorted_rows_and_columns_key(A.T)
        return ("rows", s, k, key), [moves[i] for i in cols.tolist()]


def merging_pays(H: HypothesisClass, symmetries: frozenset, positions: Any) -> bool:
    """Whether merging version spaces up to ``symmetries`` pays, judged from ``positions`` a search has met.

    ``positions`` are bitsets over the rows of ``H`` (or ``(bitset, rounds left)`` pairs, as the
    worst-case search's memo keys them).  Merging pays when they fall into at most one key per
    :data:`MERGE_RATIO` positions.  The keys counted are the cheap first-level ones
    (:meth:`VersionSpaceKeys.quick`, integer operations only) when ``"instances"`` is declared, which merge
    no more than the search's finer keys would: the test errs towards not merging.  No symmetry: never.

    Examples
    --------
    >>> from mistakebound import classes
    >>> H = classes.singletons(8)
    >>> singles = [1 << i for i in range(8)]          # eight one-row version spaces, alike up to renaming
    >>> merging_pays(H, frozenset({"instances", "rows"}), singles), merging_pays(H, frozenset(), singles)
    (True, False)
    >>> merging_pays(classes.thresholds(8), frozenset({"instances"}), [0b1, 0b11, 0b111, 0b1111])
    False
    """
    if not symmetries:
        return False
    keys = VersionSpaceKeys(H, symmetries)
    key = keys.quick if keys.instances else keys.key
    seen, n = set(), 0
    for position in positions:
        V, h = position if isinstance(position, tuple) else (position, None)
        seen.add((key(V), h))
        n += 1
    return n >= MERGE_RATIO * len(seen)


# ---------------------------------------------------------------------- checks
def _fresh(learner: Any, H: HypothesisClass) -> Any:
    make = getattr(type(learner), "for_setting", None)
    return make(H) if callable(make) else type(learner)(H)


def _predict(L: Any, x: Any) -> float:
    randomized = is_randomized(L)
    return float(as_prediction(L.predict_proba_one(x) if randomized else L.predict_one(x), randomized))


def _histories(H: HypothesisClass, n: int, rng: random.Random):
    """``n`` random realizable histories: (list of (column, label), the version space bitset)."""
    cols = H.column_masks
    for _ in range(n if H.n_instances else 0):
        V = H.full_mask
        target = rng.randrange(H.n_hypotheses)
        steps = []
        for _ in range(rng.randrange(H.n_instances + 1)):
            j = rng.randrange(H.n_instances)
            y = int(H.matrix[target, j])
            steps.append((j, y))
            V = V & cols[j] if y else V & ~cols[j]
        yield steps, V


def symmetry_violations(learner: Any, H: HypothesisClass, *, histories: int = 30, seed: int = 0,
                        make: Callable[[HypothesisClass], Any] | None = None) -> list[str]:
    """Where the learner's predictions break the symmetries it declares; empty when none was found.

    For random histories on ``H``, the learner (a fresh one from ``make(H)``, default its
    ``for_setting`` or constructor) is played to a version space ``V``; a fresh learner on
    a relabelled copy of the sub-class of ``V`` (its rows in order, instances renamed,
    shuffled and some duplicated; under ``"rows"`` the rows shuffled too) must predict on
    every renamed instance what the first predicts on the instance.  A learner declaring
    no symmetry passes trivially.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import Consistent
    >>> class Sloppy(Consistent):          # claims the row order does not matter: it does
    ...     symmetries = frozenset({"instances", "rows"})
    >>> H = classes.singletons(4, include_empty=True)
    >>> symmetry_violations(Consistent(H), H)
    []
    >>> print(symmetry_violations(Sloppy(H), H)[0])
    Sloppy: after [(1, 0)], instance 4 gets 0.0, but 1.0 on a copy of the version space relabelled as the declared symmetries ['instances', 'rows'] allow
    """
    sym = declared_symmetries(learner)
    if not sym:
        return []
    make = make or (lambda K: _fresh(learner, K))
    rng = random.Random(seed)
    problems = []
    m = H.n_instances
    for steps, V in _histories(H, histories, rng):
        if V == 0:
            continue
        L = make(H)
        for j, y in steps:
            L.learn_one(H.domain[j], y)
        rows = mask_to_indices(V)
        if "rows" in sym:
            rows = rows[rng.sample(range(len(rows)), len(rows))]
        cols = list(range(m))
        if "instances" in sym:
            cols = cols + [rng.randrange(m) for _ in range(rng.randrange(3))]  # duplicates
            rng.shuffle(cols)
            names = [("renamed", i) for i in range(len(cols))]
        else:
            names = list(H.domain)
        K = HypothesisClass.from_matrix(H.matrix[np.ix_(rows, cols)], names)
        C = make(K)
        for i, j in enumerate(cols):
            p, q = _predict(L, H.domain[j]), _predict(C, names[i])
            if p != q:
                problems.append(f"{type(learner).__name__}: after {[(H.domain[a], b) for a, b in steps]}, instance "
                                f"{H.domain[j]!r} gets {p}, but {q} on a copy of the version space relabelled as "
                                f"the declared symmetries {sorted(sym)} allow")
                break
    return problems


def fast_path_violations(learner: Any, H: HypothesisClass, *, histories: int = 30, seed: int = 0) -> list[str]:
    """Where ``version_space_policy(H)`` disagrees with the learner's own predictions; empty if nowhere.

    The learner itself is not modified: each history is played on a snapshot-free fresh
    copy (``for_setting`` or the constructor).  A learner without a policy passes.
    """
    policy = policy_of(learner, H)
    if policy is None:
        return []
    problems = []
    for steps, V in _histories(H, histories, random.Random(seed)):
        L = _fresh(learner, H)
        for j, y in steps:
            L.learn_one(H.domain[j], y)
        for j, x in enumerate(H.domain):
            p, q = _predict(L, x), float(policy(V, j))
            if p != q:
                problems.append(f"{type(learner).__name__}: after {[(H.domain[a], b) for a, b in steps]}, "
                                f"instance {x!r}: predicts {p}, its version_space_policy says {q}")
                break
    return problems
