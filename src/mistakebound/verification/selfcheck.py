"""The self-check behind ``mistakebound check``: every learner against every adversary.

:func:`run_check` plays each realizable learner (``learners.REALIZABLE_LEARNERS``)
against each adversary (``adversaries.ADVERSARIES``) that applies to a class, on a set
of small built-in classes (:func:`default_classes`), and compares the mistakes with
what the theory says:

* the learner's proven upper bound, ``type(learner).mistake_bound(H)``
  (Consistent ``|H| - 1``, Halving ``log2 |H|``, SOA ``Ldim(H)``): more mistakes than
  that and the row is ``"BROKEN"``;
* the lower bound the adversary forces on every deterministic learner, where the
  theory gives one: :class:`~mistakebound.adversaries.ShatteredTreeWalker` forces
  ``Ldim(H)`` (Lemma 21.6), :class:`~mistakebound.adversaries.BasisVectorForcer` on
  ``monotone_disjunctions(n)`` forces ``n`` and
  :class:`~mistakebound.adversaries.BinarySearchThreshold` on ``thresholds(N)`` forces
  ``floor(log2(N + 1))``; fewer mistakes than that and the row is ``"BROKEN"`` too.

A learner or adversary that raises, or a game stopped by a rule violation, becomes a row
with verdict ``"ERROR"`` and the message; the check itself does not crash.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.learners import Halving
>>> from mistakebound.adversaries import BinarySearchThreshold
>>> report = run_check([classes.thresholds(7)], [Halving], [BinarySearchThreshold])
>>> report.ok, len(report.rows)
(True, 1)
>>> row = report.rows[0]
>>> row.mistakes, row.bound, row.forced
(3, 3.0, 3)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from attrs import field, frozen

from mistakebound.foundations.errors import InvalidArgumentError
from mistakebound.game.play import play
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.theory.littlestone import littlestone_dimension
from mistakebound.game.players import describe, is_randomized

__all__ = ["CheckRow", "CheckReport", "default_classes", "run_check", "run_scenarios", "VERDICTS"]

#: The possible verdicts of a row.
VERDICTS = ("ok", "BROKEN", "ERROR")

_EPS = 1e-9


def default_classes() -> tuple[HypothesisClass, ...]:
    """The small built-in classes ``mistakebound check`` plays on.

    One or two of each family of the zoo, small enough that the whole check runs in a
    few seconds: thresholds, intervals, singletons (with and without the empty
    hypothesis), monotone and general disjunctions, monotone conjunctions, projections,
    parities, the power set, k-sparse vectors and a seeded random class.

    Examples
    --------
    >>> [H.describe() for H in default_classes()][:2]
    ['thresholds(15)', 'intervals(8)']
    """
    from mistakebound.game import classes as zoo

    return (
        zoo.thresholds(15),
        zoo.intervals(8),
        zoo.singletons(8),
        zoo.singletons(6, include_empty=True),
        zoo.monotone_disjunctions(4),
        zoo.disjunctions(2),
        zoo.monotone_conjunctions(3),
        zoo.projections(8),
        zoo.parities(3),
        zoo.power_set(4),
        zoo.k_sparse(6, 2),
        zoo.random(40, 8, 0.3, seed=1),
    )


@frozen
class CheckRow:
    """One game of the check and its verdict.

    Attributes
    ----------
    learner, adversary, class_name : str
        Who played, on which class.
    mistakes : int, float or None
        Mistakes of the game (expected mistakes for a randomized learner); None when
        the game did not finish.
    bound : int, float or None
        The learner's proven upper bound on ``H`` (None if it states none or raised).
    forced : int, float or None
        The number of mistakes the adversary provably forces on a deterministic
        learner on this class, when the theory gives one (for a scenario, the proven
        lower bound on its measure).
    forced_by : str
        What ``forced`` is: ``"Ldim"``, ``"n"``, ``"log2(N+1)"`` or ``""``.
    verdict : str
        ``"ok"``, ``"BROKEN"`` (a bound fails) or ``"ERROR"`` (something raised).
    message : str
        Why a row is not ok, or a scenario's note; empty otherwise.
    measure : str
        What the ``mistakes`` column holds: ``"mistakes"`` for the finite-class grid,
        or a scenario's measure (``"expected mistakes"``, ``"regret"``, ``"risk"``).
    """

    learner: str
    adversary: str
    class_name: str
    mistakes: float | None
    bound: float | None
    forced: int | None = None
    forced_by: str = ""
    verdict: str = field(default="ok")
    message: str = ""
    measure: str = "mistakes"

    @verdict.validator
    def _check_verdict(self, attribute, value):
        if value not in VERDICTS:
            raise InvalidArgumentError(f"verdict: expected one of {VERDICTS}, got {value!r}")

    @property
    def ok(self) -> bool:
        """Whether every bound of the row holds."""
        return self.verdict == "ok"


def _fmt_number(value: float | None) -> str:
    """Integers as they are, other numbers (``log2 |H|``) to 2 decimals, None as ``-``."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _fmt_mistakes(value: float | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}"
    return str(int(value))


_COLUMNS = ("learner", "adversary", "class", "mistakes", "bound <=", "forced >=", "verdict", "note")
_RIGHT = {"mistakes", "bound <=", "forced >="}


@frozen
class CheckReport:
    """The rows of a check, with a verdict and a plain-text table.

    Attributes
    ----------
    rows : tuple of CheckRow

    Examples
    --------
    >>> report = CheckReport(rows=(CheckRow("L", "A", "C", mistakes=5, bound=4.0),))
    >>> report.ok, len(report.broken)
    (True, 0)
    """

    rows: tuple = field(converter=tuple)

    @property
    def ok(self) -> bool:
        """Whether every row is ``"ok"`` (no bound broken, nothing raised)."""
        return all(row.verdict == "ok" for row in self.rows)

    @property
    def broken(self) -> tuple:
        """The rows whose verdict is ``"BROKEN"``."""
        return tuple(row for row in self.rows if row.verdict == "BROKEN")

    @property
    def errors(self) -> tuple:
        """The rows whose verdict is ``"ERROR"``."""
        return tuple(row for row in self.rows if row.verdict == "ERROR")

    def summary(self) -> str:
        """One line: ``"N games, all bounds hold"`` or ``"N games, K broken, E errors"``.

        Examples
        --------
        >>> CheckReport(rows=()).summary()
        '0 games, all bounds hold'
        """
        n = len(self.rows)
        if self.ok:
            return f"{n} games, all bounds hold"
        parts = [f"{n} games", f"{len(self.broken)} broken"]
        if self.errors:
            parts.append(f"{len(self.errors)} errors")
        return ", ".join(parts)

    def format_table(self) -> str:
        """The rows as an aligned plain-text table with a header line and a rule.

        Non-integer numbers (Halving's ``log2 |H|``) are shown to 2 decimals; a missing
        value is ``-``; ``forced >=`` names the fact it comes from.

        Examples
        --------
        >>> row = CheckRow("Halving", "OppositeLabel", "singletons(6)", mistakes=1, bound=2.584962500721156)
        >>> print(CheckReport(rows=(row,)).format_table())
        learner  adversary      class          mistakes  bound <=  forced >=  verdict  note
        -------  -------------  -------------  --------  --------  ---------  -------  ----
        Halving  OppositeLabel  singletons(6)         1      2.58          -  ok
        """
        cells = [list(_COLUMNS)]
        for r in self.rows:
            forced = "-" if r.forced is None else f"{r.forced} ({r.forced_by})" if r.forced_by else str(r.forced)
            cells.append([
                r.learner, r.adversary, r.class_name, _fmt_mistakes(r.mistakes),
                _fmt_number(r.bound), forced, r.verdict,
                " ".join(((f"[{r.measure}] " if r.measure != "mistakes" else "") + r.message).split()),
            ])
        widths = [max(len(line[i]) for line in cells) for i in range(len(_COLUMNS))]
        cells.insert(1, ["-" * w for w in widths])
        lines = []
        for line in cells:
            parts = [
                text.rjust(w) if name in _RIGHT else text.ljust(w)
                for name, text, w in zip(_COLUMNS, line, widths)
            ]
            lines.append("  ".join(parts).rstrip())
        return "\n".join(lines)

    def to_json(self) -> str:
        """The report as JSON text, lossless (see :func:`mistakebound.interfaces.serialize.report_to_json`).

        Examples
        --------
        >>> report = CheckReport(rows=(CheckRow("L", "A", "C", mistakes=float("inf"), bound=None),))
        >>> CheckReport.from_json(report.to_json()).rows[0].mistakes
        inf
        """
        from mistakebound.interfaces.serialize import report_to_json

        return report_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> CheckReport:
        """The report written by :meth:`to_json` (see :func:`mistakebound.interfaces.serialize.report_from_json`)."""
        from mistakebound.interfaces.serialize import report_from_json

        return report_from_json(text)

    def legend(self) -> str:
        """What the ``bound`` and ``forced`` columns mean, with the theorems they come from."""
        return "\n".join([
            "bound <=  the learner's proven upper bound in realizable games: Consistent |H|-1",
            "          (Corollary 21.2), Halving log2|H| (Theorem 21.3), SOA Ldim(H) (Lemma 21.7).",
            "forced >= mistakes the adversary forces on every deterministic learner:",
            "          ShatteredTreeWalker Ldim(H) (Lemma 21.6); BasisVectorForcer on",
            "          monotone_disjunctions(n) n; BinarySearchThreshold on thresholds(N) floor(log2(N+1)).",
        ])


# ------------------------------------------------------------------ lower-bound facts
def _same_table(H: HypothesisClass, G: HypothesisClass) -> bool:
    return H.domain == G.domain and H.matrix.shape == G.matrix.shape and bool((H.matrix == G.matrix).all())


def _threshold_size(H: HypothesisClass) -> int | None:
    """``N`` if ``H`` is ``classes.thresholds(N)`` (same domain and table), else None."""
    from mistakebound.game import classes as zoo

    N = H.n_instances
    if N < 1 or H.n_hypotheses != N + 1:
        return None
    return N if _same_table(H, zoo.thresholds(N)) else None


def _monotone_disjunction_size(H: HypothesisClass) -> int | None:
    """``n`` if ``H`` is ``classes.monotone_disjunctions(n)``, else None."""
    from mistakebound.game import classes as zoo

    first = H.domain[0] if H.n_instances else None
    if not isinstance(first, tuple) or not 1 <= len(first) <= 12:
        return None
    n = len(first)
    if H.n_hypotheses > 2 ** n or H.n_instances > 2 ** n:
        return None
    return n if _same_table(H, zoo.monotone_disjunctions(n)) else None


def _forced(H: HypothesisClass, adversary: Any, ldim: Callable[[], int]) -> tuple[int | None, str]:
    """The number of mistakes ``adversary`` provably forces on a deterministic learner."""
    from mistakebound.adversaries import BasisVectorForcer, BinarySearchThreshold, ShatteredTreeWalker

    if isinstance(adversary, ShatteredTreeWalker) and adversary.tree is None:
        return ldim(), "Ldim"
    if isinstance(adversary, BasisVectorForcer):
        n = _monotone_disjunction_size(H)
        if n is not None:
            return n, "n"
    if isinstance(adversary, BinarySearchThreshold):
        N = _threshold_size(H)
        if N is not None:
            return int(math.floor(math.log2(N + 1))), "log2(N+1)"
    return None, ""


# ------------------------------------------------------------------------- the check
def _as_class(H: Any) -> HypothesisClass:
    if isinstance(H, HypothesisClass):
        return H
    if isinstance(H, str):
        from mistakebound.game import classes as zoo

        return zoo.from_spec(H)
    raise InvalidArgumentError(
        f"classes: expected HypothesisClass objects or zoo specs like 'thresholds:15', got {type(H).__name__}"
    )


def _name(player: Any) -> str:
    return player.__name__ if isinstance(player, type) else describe(player)


def _message(exc: BaseException) -> str:
    text = str(exc) or repr(exc)
    return f"{type(exc).__name__}: {' '.join(text.split())}"


def _play_one(H, learner_spec, adversary, ldim, seed) -> CheckRow:
    learner_name = _name(learner_spec)
    adversary_name = describe(adversary)
    base = dict(learner=learner_name, adversary=adversary_name, class_name=H.describe())
    bound = forced = None
    forced_by = ""
    try:
        learner = learner_spec(H)
        bound_fn = getattr(type(learner), "mistake_bound", None)
        bound = bound_fn(H) if bound_fn is not None else None
        randomized = is_randomized(learner)
        if not randomized:
            forced, forced_by = _forced(H, adversary, ldim)
        T = play(learner, adversary, H, rounds=H.n_hypotheses + H.n_instances + 5, seed=seed, realizable=True)
    except Exception as exc:  # noqa: BLE001 - every failure becomes a row, never a crash
        return CheckRow(**base, mistakes=None, bound=bound, forced=forced, forced_by=forced_by,
                        verdict="ERROR", message=_message(exc))
    mistakes = T.expected_mistakes if randomized else T.mistakes
    problems = []
    if bound is not None and mistakes > bound + _EPS:
        problems.append(f"mistakes {_fmt_mistakes(mistakes)} > proven bound {_fmt_number(bound)}")
    if forced is not None and mistakes < forced - _EPS:
        problems.append(f"mistakes {_fmt_mistakes(mistakes)} < forced {forced} ({forced_by})")
    return CheckRow(**base, mistakes=mistakes, bound=bound, forced=forced, forced_by=forced_by,
                    verdict="BROKEN" if problems else "ok", message="; ".join(problems))


def run_check(
    classes: Iterable[HypothesisClass | str] | None = None,
    learners: Sequence[Callable[[HypothesisClass], Any]] | None = None,
    adversaries: Sequence[Any] | None = None,
    *,
    seed: int = 0,
) -> CheckReport:
    """Play every learner against every applicable adversary on every class.

    Each game is realizable, lasts at most ``|H| + |X| + 5`` rounds (every adversary
    of the zoo stops earlier) and is seeded with ``seed``, so the report is
    reproducible.  Rows come class by class, then learner by learner, then adversary
    by adversary in the order given.

    Parameters
    ----------
    classes : iterable of HypothesisClass or str, optional
        The classes, or zoo specs such as ``"thresholds:15"``; default
        :func:`default_classes`.
    learners : sequence of callables, optional
        Learner factories called with the class (learner classes such as ``SOA``);
        default ``mistakebound.learners.REALIZABLE_LEARNERS``.  The upper bound of a row
        is ``type(learner).mistake_bound(H)``.
    adversaries : sequence, optional
        Adversary classes (instantiated without arguments) or adversary instances;
        default ``mistakebound.adversaries.ADVERSARIES``.  An adversary whose
        ``applies_to(H)`` is false gives no row for that class.
    seed : int
        The seed of every game.

    Returns
    -------
    CheckReport

    Raises
    ------
    InvalidArgumentError
        If ``classes`` holds something that is neither a class nor a valid zoo spec.

    Examples
    --------
    >>> from mistakebound import classes
    >>> from mistakebound.learners import SOA
    >>> from mistakebound.adversaries import ShatteredTreeWalker
    >>> report = run_check([classes.singletons(4)], [SOA], [ShatteredTreeWalker])
    >>> print(report.format_table())
    learner  adversary            class          mistakes  bound <=  forced >=  verdict  note
    -------  -------------------  -------------  --------  --------  ---------  -------  ----
    SOA      ShatteredTreeWalker  singletons(4)         1         1   1 (Ldim)  ok
    >>> report.summary()
    '1 games, all bounds hold'
    """
    from mistakebound import adversaries as adversary_zoo
    from mistakebound import learners as learner_zoo

    class_list = [_as_class(H) for H in (default_classes() if classes is None else classes)]
    learner_list = tuple(learner_zoo.REALIZABLE_LEARNERS if learners is None else learners)
    adversary_list = tuple(adversary_zoo.ADVERSARIES if adversaries is None else adversaries)
    rows: list[CheckRow] = []
    for H in class_list:
        cache: dict[str, int] = {}

        def ldim(H=H, cache=cache) -> int:
            if "ldim" not in cache:
                cache["ldim"] = littlestone_dimension(H)
            return cache["ldim"]

        for learner_spec in learner_list:
            for adversary_spec in adversary_list:
                try:
                    adversary = adversary_spec() if isinstance(adversary_spec, type) else adversary_spec
                    applies = getattr(adversary, "applies_to", None)
                    if applies is not None and not applies(H):
                        continue
                except Exception as exc:  # noqa: BLE001
                    rows.append(CheckRow(
                        learner=_name(learner_spec), adversary=_name(adversary_spec), class_name=H.describe(),
                        mistakes=None, bound=None, verdict="ERROR", message=_message(exc),
                    ))
                    continue
                rows.append(_play_one(H, learner_spec, adversary, ldim, seed))
    return CheckReport(rows=tuple(rows))


def run_scenarios(scenarios: Iterable[Any] | None = None, *, seed: int = 0) -> CheckReport:
    """Run scenarios (default: every suite of :mod:`mistakebound.verification.suites`) as check rows.

    Each scenario is run once with ``seed``; its outcome's value goes in the
    ``mistakes`` column with the scenario's measure noted, its proven upper bound in
    ``bound`` and the count its adversary forces in ``forced``.  A scenario that raises
    becomes an ``"ERROR"`` row.

    Examples
    --------
    >>> from mistakebound.verification.scenario import Outcome, Scenario
    >>> s = Scenario("L", "A", "toy", lambda seed: Outcome(value=2.5, bound=3.0, note="a theorem"), "regret")
    >>> print(run_scenarios([s]).format_table())
    learner  adversary  class  mistakes  bound <=  forced >=  verdict  note
    -------  ---------  -----  --------  --------  ---------  -------  ------------------
    L        A          toy        2.50      3.00          -  ok       [regret] a theorem
    """
    from mistakebound.verification.suites import all_scenarios

    rows: list[CheckRow] = []
    for sc in all_scenarios() if scenarios is None else scenarios:
        base = dict(learner=sc.learner, adversary=sc.adversary, class_name=sc.setting, measure=sc.measure)
        try:
            outcome = sc.run(seed)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a row, never a crash
            rows.append(CheckRow(**base, mistakes=None, bound=None, verdict="ERROR", message=_message(exc)))
            continue
        verdict = outcome.verdict
        note = outcome.note
        if verdict != "ok":
            note = f"{sc.measure} {_fmt_mistakes(outcome.value)} outside [{_fmt_number(outcome.forced)}, {_fmt_number(outcome.bound)}]; {note}"
        rows.append(CheckRow(**base, mistakes=outcome.value, bound=outcome.bound, forced=outcome.forced,
                             verdict=verdict, message=note))
    return CheckReport(rows=tuple(rows))
