"""Hypothesis strategies for testing online learners: classes, separable streams, adversaries.

Compose them in your own property tests, or let :func:`mistakebound.verification.checks.check_learner`
use them for you.  Following the conventions of ``hypothesis.extra.numpy``: the names are
plural nouns, every option is keyword-only, and an option accepts either a value or a
strategy that draws it (``max_hypotheses=st.integers(2, 6)``).

* :func:`hypothesis_classes` draws small finite classes, with the cases where learners
  and searches go wrong: a single hypothesis, duplicate rows, duplicate, complementary
  and constant columns.
* :func:`separable_streams` draws a :class:`MarginStream`: a sequence of ``(x, y)`` in
  ``R^d`` with ``||x|| <= R``, separated with margin ``gamma`` by a unit comparator.
* :func:`adversaries` draws fresh adversaries of the zoo (only those that apply to a
  given class when one is given).

hypothesis is an optional dependency (the ``test`` extra): this module imports it only
when a strategy is built, so importing the module, and building a :class:`MarginStream`
by hand, work without it.

Examples
--------
>>> from hypothesis import given
>>> from mistakebound.learners import SOA
>>> @given(hypothesis_classes(max_hypotheses=6))
... def test_soa_knows_its_class(H):
...     assert SOA(H).H is H
>>> test_soa_knows_its_class()
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
from attrs import define, field, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.foundations.validation import check_flag, check_int, check_probability, check_real
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import ObliviousAdversary
from mistakebound.game.spaces import LinearSpace, Space

__all__ = ["hypothesis_classes", "kept_apart", "separable_streams", "adversaries", "zoo_adversaries", "MarginStream", "StreamReplay"]

#: Largest number of hypotheses or instances a plain-value option may ask for (the
#: strategies are meant for small classes that hypothesis can shrink).
MAX_SIZE = 64


def _hypothesis(who: str = "mistakebound.verification.strategies"):
    """``hypothesis.strategies``, or an ImportError saying that ``who`` needs it and how to get it."""
    try:
        from hypothesis import strategies as st
    except ImportError as exc:  # pragma: no cover - exercised only without the test extra
        raise ImportError(
            f"{who} needs hypothesis; install it with "
            "the check extra, pip install '.[check]' from a checkout (or pip install hypothesis)"
        ) from exc
    return st


def _is_strategy(value: Any) -> bool:
    from hypothesis.strategies import SearchStrategy

    return isinstance(value, SearchStrategy)


# ----------------------------------------------------------------- option validators
def _count(name: str, minimum: int):
    return functools.partial(check_int, name, minimum=minimum, maximum=MAX_SIZE)


def _label_count(value: Any) -> int:
    """The ``labels`` option: an integer from 2 to 256."""
    return check_int("labels", value, 2, 256)


def _density(value: Any) -> float | None:
    return None if value is None else check_probability("density", value)


def _flag(name: str):
    return functools.partial(check_flag, name)


def _positive(name: str):
    return functools.partial(check_real, name, minimum=0.0, open_minimum=True)


def _option(value: Any, check):
    """Validate a plain value now (the refusal says a strategy is accepted too); a strategy on each draw."""
    if _is_strategy(value):
        return value
    try:
        return check(value)
    except InvalidArgumentError as exc:
        raise InvalidArgumentError(f"{exc} (or a strategy)") from None


def _resolve(draw, value: Any, check) -> Any:
    return check(draw(value)) if _is_strategy(value) else value


def _ordered(lo_name: str, lo: Any, hi_name: str, hi: Any) -> None:
    if lo > hi:
        raise InvalidArgumentError(f"{lo_name}: {lo} exceeds {hi_name} = {hi}; expected {lo_name} <= {hi_name}")


def _optional_flag(name: str):
    return lambda value: None if value is None else check_flag(name, value)


# ----------------------------------------------------------------- classes
def _bits_for(count: int) -> int:
    """The fewest bits with ``2**bits >= count``: the instances ``count`` distinct rows need."""
    return max(count - 1, 0).bit_length()


def _fillable(rows_apart: bool, columns_apart: bool, lo_h: int, hi_h: int, lo_i: int, hi_i: int) -> None:
    """Refuse sizes that distinct rows (or columns) cannot fill: ``n`` distinct rows need ``log2 n`` columns."""
    if rows_apart and 2**hi_i < lo_h:
        raise InvalidArgumentError(
            f"max_instances: {hi_i} instances hold at most {2**hi_i} distinct rows, and min_hypotheses = {lo_h}; "
            f"expected max_instances >= {_bits_for(lo_h)} (or distinct_rows=False)")
    if columns_apart and 2**hi_h < lo_i:
        raise InvalidArgumentError(
            f"max_hypotheses: {hi_h} hypotheses hold at most {2**hi_h} distinct columns, and min_instances = {lo_i}; "
            f"expected max_hypotheses >= {_bits_for(lo_i)} (or distinct_columns=False)")


def _distinct(M: np.ndarray) -> np.ndarray:
    """``M`` with each repeat of an earlier row replaced by the smallest row it lacks, while one is left.

    A row is read as a binary number (column 0 the lowest bit), so the replacements are
    ``0, 1, 2, ...`` skipping rows present: all-zero draws become the binary counter, the
    smallest class with distinct rows.  A replacement merges no two columns that were apart
    (the earlier row it repeated still tells them apart), so distinct columns stay distinct;
    on the transpose, distinct rows stay distinct.
    """
    m = M.shape[1]
    values = [sum(int(b) << k for k, b in enumerate(row)) for row in M]
    seen: set[int] = set()
    out = M.copy()
    candidate = 0
    for i, v in enumerate(values):
        if v not in seen:
            seen.add(v)
            continue
        while candidate in seen or candidate in values[i + 1:]:
            candidate += 1
        if candidate >= 2**m:
            break  # no row left: the rest stay repeats
        seen.add(candidate)
        out[i] = [(candidate >> k) & 1 for k in range(m)]
    return out


#: How a generated column is made: fresh bits, a copy or the complement of an earlier
#: column, or a constant.  "fresh" comes first so that hypothesis shrinks toward it.
_COLUMN_KINDS = ("fresh", "constant", "duplicate", "complement")


def hypothesis_classes(
    *,
    min_hypotheses: Any = 1,
    max_hypotheses: Any = 8,
    min_instances: Any = 1,
    max_instances: Any = 5,
    density: Any = None,
    awkward: Any = True,
    distinct_rows: Any = None,
    distinct_columns: Any = False,
    labels: Any = 2,
):
    """A strategy drawing small finite :class:`~mistakebound.HypothesisClass` es.

    The class has between ``min_hypotheses`` and ``max_hypotheses`` rows and between
    ``min_instances`` and ``max_instances`` columns over the domain ``0, 1, ...``.
    With ``awkward`` (the default) a row may repeat an earlier row, and a column may
    be constant, or copy or complement an earlier column; one hypothesis is the
    smallest size drawn.  Those are the cases where a learner that skips, merges or
    counts work goes wrong (Halving counts duplicate rows as votes, for instance).
    hypothesis shrinks toward fewer rows, fewer columns, fresh columns and 0 entries.

    Without ``awkward`` the rows are distinct by default (``distinct_rows``): a row drawn
    equal to an earlier one is replaced by the smallest row, read as a binary number, that
    the class lacks, so shrinking moves toward distinct rows (all-zero draws become the
    binary counter) and a shrunk counterexample never hinges on a duplicate hypothesis.

    Parameters
    ----------
    min_hypotheses, max_hypotheses : int or strategy
        Bounds on the number of rows (``1 <= min <= max <= 64``).
    min_instances, max_instances : int or strategy
        Bounds on the number of columns (``0 <= min <= max <= 64``).
    density : float or strategy, optional
        Probability of a 1 in a fresh column; by default each entry is a fair coin.
    awkward : bool or strategy
        Whether to draw duplicate rows and constant, duplicate and complementary columns.
    distinct_rows : bool, None or strategy
        True: no two rows are equal, on every draw (no copies are drawn, and the number of
        instances is at least ``log2`` of the number of rows).  False: rows may repeat
        (without ``awkward``, rows are then drawn independently, repeats by chance, as
        before this option).  None (the default): distinct rows when ``awkward`` is False,
        no ``density`` is given and ``max_instances`` allows ``min_hypotheses`` distinct rows.
    distinct_columns : bool or strategy
        True: no two columns are equal, on every draw (no duplicate columns are drawn, a
        repeat is replaced by the smallest column the class lacks, and there are at least
        ``log2`` of the number of instances rows).  Default False.
    labels : int or strategy
        The number of labels ``k`` of the classes (default 2).  With more, each entry is a
        label ``0..k-1`` drawn uniformly, rows may repeat (distinct with ``distinct_rows``),
        and ``density``, ``awkward`` columns and ``distinct_columns`` do not apply.

    Returns
    -------
    hypothesis.strategies.SearchStrategy of HypothesisClass

    Raises
    ------
    InvalidArgumentError
        For an option outside its range, a minimum above its maximum, or sizes that
        distinct rows or columns cannot fill (12 distinct rows need 4 instances).

    Examples
    --------
    >>> from hypothesis import find, settings
    >>> H = find(hypothesis_classes(min_instances=2), lambda H: H.n_hypotheses >= 3,
    ...          settings=settings(database=None))
    >>> H.matrix.tolist()
    [[0, 0], [0, 0], [0, 0]]
    >>> H = find(hypothesis_classes(min_instances=2, awkward=False), lambda H: H.n_hypotheses >= 3,
    ...          settings=settings(database=None))
    >>> H.matrix.tolist()  # distinct rows: the binary counter
    [[0, 0], [1, 0], [0, 1]]
    >>> H = find(hypothesis_classes(min_instances=3, distinct_columns=True), lambda H: True,
    ...          settings=settings(database=None))
    >>> H.matrix.tolist()  # 3 distinct columns need 2 rows
    [[0, 1, 0], [0, 0, 1]]
    >>> hypothesis_classes(max_hypotheses=0)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: max_hypotheses: expected an integer from 1 to 64, got 0 (or a strategy)
    """
    st = _hypothesis()
    min_h = _option(min_hypotheses, _count("min_hypotheses", 1))
    max_h = _option(max_hypotheses, _count("max_hypotheses", 1))
    min_i = _option(min_instances, _count("min_instances", 0))
    max_i = _option(max_instances, _count("max_instances", 0))
    density = _option(density, _density)
    awkward = _option(awkward, _flag("awkward"))
    distinct_rows = _option(distinct_rows, _optional_flag("distinct_rows"))
    distinct_columns = _option(distinct_columns, _flag("distinct_columns"))
    labels = _option(labels, _label_count)
    if not _is_strategy(min_h) and not _is_strategy(max_h):
        _ordered("min_hypotheses", min_h, "max_hypotheses", max_h)
    if not _is_strategy(min_i) and not _is_strategy(max_i):
        _ordered("min_instances", min_i, "max_instances", max_i)
    if not any(_is_strategy(v) for v in (min_h, max_h, min_i, max_i)):
        _fillable(distinct_rows is True, distinct_columns is True, min_h, max_h, min_i, max_i)

    @st.composite
    def build(draw) -> HypothesisClass:
        lo_h = _resolve(draw, min_h, _count("min_hypotheses", 1))
        hi_h = _resolve(draw, max_h, _count("max_hypotheses", 1))
        lo_i = _resolve(draw, min_i, _count("min_instances", 0))
        hi_i = _resolve(draw, max_i, _count("max_instances", 0))
        _ordered("min_hypotheses", lo_h, "max_hypotheses", hi_h)
        _ordered("min_instances", lo_i, "max_instances", hi_i)
        k = _resolve(draw, labels, _label_count)
        if k != 2:
            n_cols = draw(st.integers(lo_i, hi_i))
            unique = bool(_resolve(draw, distinct_rows, _optional_flag("distinct_rows")))
            most = min(hi_h, k**n_cols) if unique else hi_h
            entries = st.lists(st.integers(0, k - 1), min_size=n_cols, max_size=n_cols)
            rows = draw(st.lists(entries, min_size=min(lo_h, most), max_size=most,
                                 unique_by=tuple if unique else None))
            return HypothesisClass.from_matrix(np.array(rows, dtype=np.uint8).reshape(len(rows), n_cols), labels=k)
        p = _resolve(draw, density, _density)
        weird = _resolve(draw, awkward, _flag("awkward"))
        rows_apart = _resolve(draw, distinct_rows, _optional_flag("distinct_rows"))
        if rows_apart is None:
            rows_apart = not weird and p is None and lo_h <= 2**hi_i
        columns_apart = _resolve(draw, distinct_columns, _flag("distinct_columns"))
        _fillable(rows_apart, columns_apart, lo_h, hi_h, lo_i, hi_i)
        # Enough columns for lo_h distinct rows, few enough for distinct columns of hi_h bits.
        n_cols = draw(st.integers(max(lo_i, _bits_for(lo_h)) if rows_apart else lo_i,
                                  min(hi_i, 2**hi_h) if columns_apart else hi_i))
        need_rows = _bits_for(n_cols) if columns_apart else 1
        most_rows = min(hi_h, 2**n_cols) if rows_apart else hi_h

        # Columns: fresh (most of the time), or (awkward) constant, a copy or the
        # complement of an earlier column.  Code 0 is "fresh", so hypothesis shrinks to it.
        kinds = []
        for j in range(n_cols):
            code = draw(st.integers(0, len(_COLUMN_KINDS) + 3)) if weird else 0
            kind = _COLUMN_KINDS[max(code - 4, 0)]  # codes 0..4 are "fresh"
            if kind in ("duplicate", "complement") and j == 0 or kind == "duplicate" and columns_apart:
                kind = "fresh"
            if kind == "constant":
                arg = int(draw(st.booleans()))
            elif kind in ("duplicate", "complement"):
                arg = draw(st.integers(0, j - 1))
            else:
                arg = None
            kinds.append((kind, arg))
        n_fresh = sum(kind == "fresh" for kind, _ in kinds)

        # Distinct-by-draw rows: one integer per row holds its bits on the fresh columns
        # (a list, so that hypothesis shrinks by deleting rows); with a density, one draw per bit.
        if p is None:
            row = st.integers(0, 2**n_fresh - 1).map(lambda v: [(v >> k) & 1 for k in range(n_fresh)])
        else:
            row = st.lists(st.floats(0.0, 1.0, exclude_max=True).map(lambda u: int(u < p)),
                           min_size=n_fresh, max_size=n_fresh)
        copying = weird and not rows_apart
        rows = draw(st.lists(row, min_size=max(need_rows, 1 if copying else lo_h), max_size=most_rows))
        # Copies of drawn rows (awkward), placed at drawn positions.
        order = list(range(len(rows)))
        if copying:
            copies = draw(st.lists(st.integers(0, len(rows) - 1), min_size=max(0, lo_h - len(rows)),
                                   max_size=hi_h - len(rows)))
            for c in copies:
                order.insert(draw(st.integers(0, len(order))), c)
        fresh = np.array(rows, dtype=np.uint8).reshape(len(rows), n_fresh)
        if rows_apart and p is None:  # apart on the fresh columns: the column kinds are kept
            fresh = _distinct(fresh)
        columns, k = [], 0
        for kind, arg in kinds:
            if kind == "fresh":
                columns.append(fresh[:, k])
                k += 1
            elif kind == "constant":
                columns.append(np.full(len(rows), arg, dtype=np.uint8))
            elif kind == "duplicate":
                columns.append(columns[arg])
            else:
                columns.append(1 - columns[arg])
        base = np.array(columns, dtype=np.uint8).T.reshape(len(rows), n_cols)
        if rows_apart:  # too few fresh columns, or a density: repeats replaced over every column
            base = _distinct(base)
        M = base[order]
        if columns_apart:  # keeps the rows apart: equal columns separate no rows
            M = _distinct(M.T).T
        return HypothesisClass.from_matrix(M)

    strategy = build()
    plain = not any(_is_strategy(v) for v in (min_h, max_h, min_i, max_i, density, awkward, distinct_rows))
    rows_always = distinct_rows is True or (plain and distinct_rows is None and not awkward and density is None
                                            and min_h <= 2**max_i)
    setattr(strategy, _APART, (rows_always, distinct_columns is True))
    return strategy


#: The attribute of a :func:`hypothesis_classes` strategy that says what every draw keeps apart.
_APART = "_mistakebound_apart"


def kept_apart(strategy: Any) -> tuple[bool, bool]:
    """Whether every class ``strategy`` draws has distinct rows, and distinct columns.

    True only for what :func:`hypothesis_classes` guarantees on every draw (its
    ``distinct_rows``, ``distinct_columns``); any other strategy gives ``(False, False)``.
    :func:`~mistakebound.verification.checks.check_learner` reads it so that cutting a
    counterexample down keeps what the strategy promised.

    Examples
    --------
    >>> kept_apart(hypothesis_classes(awkward=False)), kept_apart(hypothesis_classes())
    ((True, False), (False, False))
    >>> kept_apart(hypothesis_classes(distinct_rows=True, distinct_columns=True))
    (True, True)
    """
    return getattr(strategy, _APART, (False, False))


# ----------------------------------------------------------------- separable streams
@define
class StreamReplay(ObliviousAdversary):
    """An oblivious adversary that plays a fixed list of ``(x, y)`` pairs, with a certificate.

    Parameters
    ----------
    pairs : tuple of (instance, label)
        The rounds, in order (a horizon shorter than the list cuts it).
    witness : optional
        What :meth:`certificate` returns: the comparator of a halfspace game, the target
        of a disjunction game, None on a finite class (the engine tracks the version space).

    Examples
    --------
    >>> from mistakebound import classes, play
    >>> from mistakebound.learners import Halving
    >>> H = classes.thresholds(3)
    >>> play(Halving(H), StreamReplay(((2, 0), (1, 1))), H, rounds=5, seed=0).ys
    (0, 1)
    """

    pairs: tuple = field(converter=tuple, repr=False)
    witness: Any = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"StreamReplay(<{len(self.pairs)} rounds>)"

    def applies_to(self, H: Any) -> bool:
        """Whether every instance of the list is an instance of ``H``."""
        if isinstance(H, HypothesisClass):
            return all(x in H for x, _ in self.pairs)
        if isinstance(H, Space):
            try:
                for x, _ in self.pairs:
                    H.instance(x)
            except (TypeError, ValueError):
                return False
            return True
        return False

    def commit(self, H: Any, rounds: int, rng: np.random.Generator, realizable: bool) -> list:
        return list(self.pairs[:rounds])

    def certificate(self, state: Any) -> Any:
        """The witness given at construction (a copy for arrays)."""
        w = self.witness
        return np.array(w, dtype=float) if isinstance(w, (tuple, list, np.ndarray)) else w


@frozen
class MarginStream:
    """A sequence of ``(x, y)`` in R^d separated with margin ``gamma`` by a unit comparator.

    It behaves as a sequence of its pairs (``len``, iteration, indexing).  Each ``x`` is
    a tuple of floats with ``||x|| <= R``; each label ``y`` is 0 or 1, and
    ``(2y - 1) <u, x> >= gamma`` for the unit vector ``u = comparator``.  Play it with
    ``play(learner, S.adversary(), S.space, rounds=len(S))``.

    Attributes
    ----------
    pairs : tuple of (tuple, int)
    comparator : tuple of float
        A unit vector realising the margin.
    gamma, R : float

    Examples
    --------
    >>> from mistakebound import play
    >>> from mistakebound.learners.perceptron import Perceptron
    >>> S = MarginStream(pairs=(((0.5, 0.0), 1), ((-0.5, 0.5), 0)), comparator=(1.0, 0.0), gamma=0.5)
    >>> len(S), S.space.describe(), S.margin
    (2, 'halfspaces(d=2, R=1, gamma=0.5)', 0.5)
    >>> play(Perceptron(), S.adversary(), S.space, rounds=len(S), seed=0).mistakes
    1
    """

    pairs: tuple = field(converter=tuple)
    comparator: tuple = field(converter=tuple)
    gamma: float = field(converter=float)
    R: float = field(default=1.0, converter=float)

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator:
        return iter(self.pairs)

    def __getitem__(self, i: Any) -> Any:
        return self.pairs[i]

    @property
    def d(self) -> int:
        """The dimension."""
        return len(self.comparator)

    @property
    def space(self) -> LinearSpace:
        """The :class:`~mistakebound.game.spaces.LinearSpace` the stream is played on."""
        return LinearSpace(self.d, R=self.R, gamma=self.gamma)

    @property
    def margin(self) -> float:
        """The smallest ``(2y - 1) <u, x>`` over the stream (``inf`` when it is empty)."""
        u = np.asarray(self.comparator)
        return min((float((2 * y - 1) * np.dot(u, x)) for x, y in self.pairs), default=math.inf)

    def adversary(self) -> StreamReplay:
        """A fresh oblivious adversary that plays the stream and certifies the comparator."""
        return StreamReplay(self.pairs, witness=self.comparator)


def separable_streams(*, d: Any, gamma: Any, R: Any = 1.0, min_rounds: Any = 1, max_rounds: Any = 20):
    """A strategy drawing :class:`MarginStream` s: labelled points with margin ``gamma``.

    The comparator ``u`` is a drawn direction, normalised (``e_1`` when the draw is the
    zero vector).  Each point is ``x = s a u + r v``: a label sign ``s``, a distance
    ``a`` in ``[gamma, R]`` from the hyperplane ``u^perp``, and a component ``r v``
    orthogonal to ``u`` with ``r <= sqrt(R^2 - a^2)``, so ``||x|| <= R`` and
    ``s <u, x> = a >= gamma``: the Perceptron's ``(R/gamma)^2`` applies.  hypothesis
    shrinks toward ``u = e_1``, points ``-gamma e_1`` and short streams.

    Parameters
    ----------
    d : int or strategy
        The dimension (``1 <= d <= 64``).
    gamma : float or strategy
        The margin, ``0 < gamma <= R``.
    R : float or strategy
        The radius.
    min_rounds, max_rounds : int or strategy
        Bounds on the length (``0 <= min <= max <= 64``).

    Returns
    -------
    hypothesis.strategies.SearchStrategy of MarginStream

    Examples
    --------
    >>> from hypothesis import find, settings
    >>> S = find(separable_streams(d=2, gamma=0.5), lambda S: len(S) >= 2, settings=settings(database=None))
    >>> S.comparator, S.pairs
    ((1.0, 0.0), (((-0.5, 0.0), 0), ((-0.5, 0.0), 0)))
    >>> separable_streams(d=2, gamma=2.0)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: gamma: 2.0 exceeds R = 1.0; expected gamma <= R
    """
    st = _hypothesis()
    d = _option(d, _count("d", 1))
    gamma = _option(gamma, _positive("gamma"))
    R = _option(R, _positive("R"))
    min_rounds = _option(min_rounds, _count("min_rounds", 0))
    max_rounds = _option(max_rounds, _count("max_rounds", 0))
    if not _is_strategy(gamma) and not _is_strategy(R):
        _ordered("gamma", gamma, "R", R)
    if not _is_strategy(min_rounds) and not _is_strategy(max_rounds):
        _ordered("min_rounds", min_rounds, "max_rounds", max_rounds)
    unit = st.floats(-1.0, 1.0, allow_nan=False)
    fraction = st.floats(0.0, 1.0, allow_nan=False)

    @st.composite
    def build(draw) -> MarginStream:
        dim = _resolve(draw, d, _count("d", 1))
        radius = _resolve(draw, R, _positive("R"))
        margin = _resolve(draw, gamma, _positive("gamma"))
        _ordered("gamma", margin, "R", radius)
        lo = _resolve(draw, min_rounds, _count("min_rounds", 0))
        hi = _resolve(draw, max_rounds, _count("max_rounds", 0))
        _ordered("min_rounds", lo, "max_rounds", hi)
        u = np.array([draw(unit) for _ in range(dim)])
        if np.linalg.norm(u) < 1e-6:
            u = np.eye(dim)[0]
        u = u / np.linalg.norm(u)
        pairs = []
        for _ in range(draw(st.integers(lo, hi))):
            y = int(draw(st.booleans()))
            a = margin + draw(fraction) * (radius - margin)
            x = (2 * y - 1) * a * u
            if dim > 1:
                w = np.array([draw(unit) for _ in range(dim)])
                # twice: one pass leaves a part along u of about 1e-16 |w|, which the scaling
                # by r / norm below magnified past the stated margin and radius when |w| was small
                w -= np.dot(w, u) * u
                w -= np.dot(w, u) * u
                norm = np.linalg.norm(w)
                r = draw(fraction) * math.sqrt(max(radius**2 - a**2, 0.0))
                if norm > 1e-6 and r > 0:
                    x = x + (r / norm) * w
            pairs.append((tuple(float(v) + 0.0 for v in x), y))  # + 0.0 turns -0.0 into 0.0
        return MarginStream(pairs=tuple(pairs), comparator=tuple(float(v) + 0.0 for v in u), gamma=margin, R=radius)

    return build()


# ----------------------------------------------------------------- adversaries
def zoo_adversaries(H: Any) -> list[Any]:
    """A fresh copy of every adversary of the registry that can play on ``H``.

    Each is built for ``H`` by :func:`mistakebound.game.registry.build`; those that do
    not apply (``NotApplicableError``) are left out.

    Examples
    --------
    >>> from mistakebound.game import classes
    >>> [type(a).__name__ for a in zoo_adversaries(classes.thresholds(4))][:3]
    ['OppositeLabel', 'ShatteredTreeWalker', 'BinarySearchThreshold']
    """
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.game import registry

    out = []
    for entry in registry.entries("adversary"):
        try:
            out.append(registry.build("adversary", entry, H))
        except NotApplicableError:
            continue
    return out


def adversaries(H: Any = None):
    """A strategy drawing fresh adversaries of the registry (that play on ``H``, when given).

    Each draw builds a new adversary (they keep per-game state): for ``H`` with
    :func:`mistakebound.game.registry.build` (on a finite class the adversaries of
    finite classes, ``BasisVectorForcer`` only on classes over 0/1 vectors that hold the
    basis vectors; on a space the adversaries that play there), or, without ``H``, the
    adversaries whose constructor needs no argument, with their defaults.

    Parameters
    ----------
    H : HypothesisClass or Space, optional

    Returns
    -------
    hypothesis.strategies.SearchStrategy of Adversary

    Raises
    ------
    NotApplicableError
        If no adversary of the registry applies to ``H``.

    Examples
    --------
    >>> from hypothesis import find, settings
    >>> from mistakebound.game import classes
    >>> find(adversaries(classes.thresholds(4)), lambda a: True, settings=settings(database=None))
    OppositeLabel()
    """
    from mistakebound.foundations.errors import MistakeboundError, NotApplicableError
    from mistakebound.game import registry

    st = _hypothesis()
    if H is None:
        plain = []
        for entry in registry.entries("adversary"):
            try:
                entry.target()
            except (TypeError, MistakeboundError):
                continue
            plain.append(entry.target)
        return st.sampled_from(plain).map(lambda cls: cls())
    if _is_strategy(H) or not isinstance(H, (HypothesisClass, Space)):
        raise InvalidArgumentError(f"H: expected None, a HypothesisClass or a Space, got {type(H).__name__}")
    playing = []  # the entries themselves: a plugin's name need not be its class's name
    for entry in registry.entries("adversary"):
        try:
            registry.build("adversary", entry, H)
        except NotApplicableError:
            continue
        playing.append(entry)
    if not playing:
        raise NotApplicableError(f"H: no adversary of the registry applies to {H.describe()}")
    return st.sampled_from(playing).map(lambda entry: registry.build("adversary", entry, H))
