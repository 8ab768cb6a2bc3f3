"""The self-check behind ``mistakebound check``: every learner against every adversary.

:func:`run_check` plays every registered learner (:mod:`mistakebound.game.registry`)
against every registered adversary that applies, on a set of small built-in classes
(:func:`default_classes`, or the classes and spaces given), and judges each game with
:func:`~mistakebound.verification.claims.judge`:

* against the learner's claim, read with
  :func:`~mistakebound.verification.claims.stated_bound` (Consistent ``|H| - 1``,
  Halving ``log2 |H|``, SOA ``Ldim(H)``, ...): more than that and the row is ``"BROKEN"``;
* against the count the adversary claims to force on the learner, read with
  :func:`~mistakebound.verification.claims.forced_bound` (ShatteredTreeWalker forces
  ``Ldim(H)`` on every deterministic learner, Lemma 21.6, ...): fewer than that and the
  row is ``"BROKEN"`` too.

A learner that states no bound for the game gets ``"no bound"`` (which is not a
failure); a player that raises, or a game stopped by a rule violation, becomes a row
with verdict ``"ERROR"`` and the message; the check itself does not crash.

Examples
--------
>>> from mistakebound.game import classes
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

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from attrs import evolve, field, frozen

from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.foundations.text import number_text, one_line
from mistakebound.foundations.text_tables import text_table
from mistakebound.game import classes as zoo
from mistakebound.game import registry
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.players import describe
from mistakebound.verification.claims import VERDICTS as JUDGE_VERDICTS
from mistakebound.verification.judged import judged_game

__all__ = ["CheckRow", "CheckReport", "default_classes", "default_rounds", "run_check", "run_scenarios", "VERDICTS"]

#: The possible verdicts of a row: :func:`~mistakebound.verification.claims.judge`'s, and
#: ``"ERROR"`` for a game that did not finish.
VERDICTS = (*JUDGE_VERDICTS, "ERROR")

#: The horizon of a game on a space (finite classes: see :func:`default_rounds`).
SPACE_ROUNDS = 100


def default_classes(labels: int = 2) -> tuple[HypothesisClass, ...]:
    """The small built-in classes ``mistakebound check`` plays on (of ``labels`` labels).

    One or two of each family of the zoo, small enough that the whole check runs in a
    few seconds: thresholds, intervals, singletons (with and without the empty
    hypothesis), monotone and general disjunctions, monotone conjunctions, projections,
    parities, the power set, k-sparse vectors and a seeded random class.

    Examples
    --------
    >>> [H.describe() for H in default_classes()][:2]
    ['thresholds(15)', 'intervals(8)']
    >>> [H.describe() for H in default_classes(labels=3)]
    ['all_functions(2,3)', 'one_vs_rest(4,3)', 'monotone_functions(4,3)']

    With more than two labels, the zoo's classes of ``k`` labels: all functions on two
    points, one-vs-rest on four, the monotone functions on four.
    """
    if labels != 2:
        return (zoo.all_functions(2, labels), zoo.one_vs_rest(4, labels), zoo.monotone_functions(4, labels))
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


def default_rounds(setting: Any) -> int:
    """The horizon of the check's games: ``|H| + |X| + 5`` on a finite class (every adversary
    of the zoo stops earlier in a realizable game), :data:`SPACE_ROUNDS` on a space.

    Examples
    --------
    >>> default_rounds(zoo.thresholds(7))
    20
    """
    if isinstance(setting, HypothesisClass):
        return setting.n_hypotheses + setting.n_instances + 5
    return SPACE_ROUNDS


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
        The count the adversary claims to force on this learner in this game (a lower
        bound on the measure), when it states one.
    forced_by : str
        Where ``forced`` comes from (the adversary's claim's source).
    verdict : str
        :func:`~mistakebound.verification.claims.judge`'s verdict (``"ok"``,
        ``"BROKEN"``, ``"no bound"``), or ``"ERROR"`` (the game did not finish).
    message : str
        Why a row is not ok, or a scenario's note; empty otherwise.
    measure : str
        What the ``mistakes`` column holds: the measure of the learner's claim
        (``"mistakes"``, ``"expected mistakes"`` for a randomized learner, ``"regret"``).
    bound_source : str
        The theorem ``bound`` comes from (or why there is none).
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
    bound_source: str = ""

    @verdict.validator
    def _check_verdict(self, attribute, value):
        if value not in VERDICTS:
            raise InvalidArgumentError(f"verdict: expected one of {VERDICTS}, got {value!r}")

    @property
    def ok(self) -> bool:
        """Whether no bound of the row is broken and the game finished (``"no bound"`` is ok)."""
        return self.verdict not in ("BROKEN", "ERROR", "undecided")


def _fmt(value: float | None) -> str:
    """A number of the table: whole numbers plainly, others to 3 significant digits, None as ``-``."""
    return number_text(value, digits=3)


_COLUMNS = ("learner", "adversary", "class", "mistakes", "bound <=", "forced >=", "verdict", "note")
_RIGHT = {"mistakes", "bound <=", "forced >="}


def _cells(r: CheckRow) -> list[str]:
    """The texts of one row of the table, in the order of ``_COLUMNS``."""
    note = one_line((f"[{r.measure}] " if r.measure != "mistakes" else "") + r.message)
    return [r.learner, r.adversary, r.class_name, _fmt(r.mistakes), _fmt(r.bound), _fmt(r.forced), r.verdict, note]


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
        """Whether every row is ok (no bound broken, nothing raised)."""
        return all(row.ok for row in self.rows)

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
        value is ``-``; :meth:`legend` names the theorems behind the numbers.

        Examples
        --------
        >>> row = CheckRow("Halving", "OppositeLabel", "singletons(6)", mistakes=1, bound=2.584962500721156)
        >>> print(CheckReport(rows=(row,)).format_table())
        learner  adversary      class          mistakes  bound <=  forced >=  verdict  note
        -------  -------------  -------------  --------  --------  ---------  -------  ----
        Halving  OppositeLabel  singletons(6)         1      2.58          -  ok
        """
        return text_table(_COLUMNS, [_cells(r) for r in self.rows], right=_RIGHT)

    def _repr_html_(self) -> str:
        """The verdict and the rows, those that failed first and highlighted (for notebooks; bounded in size)."""
        from mistakebound.foundations import html_tables as ht

        failed = [r for r in self.rows if not r.ok]
        first = (failed + [r for r in self.rows if r.ok])[: ht.PREVIEW_ROWS]
        hidden = len(failed) - sum(not r.ok for r in first)
        verdict = "all bounds hold" if self.ok else "FAILED"
        return ht.panel(f"Check report: {verdict}", [("summary", self.summary())],
                          ht.table(_COLUMNS, [_cells(r) for r in first], total=len(self.rows),
                                     what=f"rows ({hidden} of them failed)" if hidden else "rows (all ok)",
                                     marked=[not r.ok for r in first]))

    def to_json(self) -> str:
        """The report as JSON text, lossless (see :func:`mistakebound.verification.report_json.report_to_json`).

        Examples
        --------
        >>> report = CheckReport(rows=(CheckRow("L", "A", "C", mistakes=float("inf"), bound=None),))
        >>> CheckReport.from_json(report.to_json()).rows[0].mistakes
        inf
        """
        from mistakebound.verification.report_json import report_to_json

        return report_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> CheckReport:
        """The report written by :meth:`to_json` (see :func:`mistakebound.verification.report_json.report_from_json`)."""
        from mistakebound.verification.report_json import report_from_json

        return report_from_json(text, report_type=cls, row_type=CheckRow)

    def legend(self) -> str:
        """What the ``bound`` and ``forced`` columns mean: the theorem behind each claim in the table.

        Examples
        --------
        >>> print(run_check([zoo.thresholds(3)], ["SOA"], ["ShatteredTreeWalker"]).legend())  # doctest: +ELLIPSIS
        bound <=  the learner's claim, read with stated_bound:
          SOA: Lemma 21.7 ...
        forced >= the count the adversary claims to force, read with forced_bound:
          ShatteredTreeWalker: Lemma 21.6 ...
        """
        bounds = dict.fromkeys((r.learner, r.bound_source) for r in self.rows if r.bound is not None)
        forced = dict.fromkeys((r.adversary, r.forced_by) for r in self.rows if r.forced is not None)
        lines = ["bound <=  the learner's claim, read with stated_bound:"]
        lines += [f"  {who}: {source}" for who, source in bounds] or ["  (none stated)"]
        lines.append("forced >= the count the adversary claims to force, read with forced_bound:")
        lines += [f"  {who}: {source}" for who, source in forced] or ["  (none stated)"]
        return "\n".join(lines)


# ------------------------------------------------------------------------- the check
def _as_setting(H: Any) -> Any:
    if isinstance(H, str):
        return registry.load_setting(H)
    if callable(getattr(H, "describe", None)):
        return H
    raise InvalidArgumentError(
        f"classes: expected classes, spaces, or specs like 'thresholds:15' or 'experts:4', got {type(H).__name__}"
    )


def _name(player: Any, kind: str = "learner") -> str:
    if isinstance(player, str):
        try:
            return registry.find(kind, player).name if ":" not in player else player
        except InvalidArgumentError:  # the row names what was asked for; its message says what is wrong
            return player
    if isinstance(player, registry.Entry):
        return player.name
    if isinstance(player, type):
        return player.__name__
    return getattr(player, "__name__", None) or describe(player)


def _message(exc: BaseException) -> str:
    text = str(exc) or repr(exc)
    return f"{type(exc).__name__}: {' '.join(text.split())}"


def _make(kind: str, spec: Any, setting: Any, rounds: int, rules: Any = None) -> Any:
    """A fresh player from a name, an entry, a type, a factory ``H -> player`` or an instance (copied)."""
    if isinstance(spec, (str, registry.Entry, type)):
        return registry.build(kind, spec, setting, rounds=rounds, rules=rules)
    if registry.player_kind(spec) == kind:
        player = copy.deepcopy(spec)
        applies = getattr(player, "applies_to", None)
        if kind == "adversary" and callable(applies) and not applies(setting):
            raise NotApplicableError(f"{describe(player)} does not apply to {setting.describe()}")
        return player
    if callable(spec):
        return spec(setting)
    raise InvalidArgumentError(
        f"{kind}s: expected names, {kind} types, factories or {kind}s, got {spec!r}"
    )


def _play_one(setting: Any, learner_spec: Any, adversary: Any, seed: int, rounds: int,
              rules: Any = None) -> CheckRow | None:
    """One judged game, or None when the learner does not apply to the setting."""
    base = dict(learner=_name(learner_spec), adversary=describe(adversary), class_name=setting.describe())
    if rules is not None:
        rules = evolve(rules, labels=len(setting.labels))
    try:
        learner = _make("learner", learner_spec, setting, rounds, rules)
    except NotApplicableError:
        return None
    except Exception as exc:  # noqa: BLE001 - every failure becomes a row, never a crash
        return CheckRow(**base, mistakes=None, bound=None, verdict="ERROR", message=_message(exc))
    try:
        g = judged_game(learner, adversary, setting, rounds=rounds, seed=seed, realizable=True, rules=rules)
    except Exception as exc:  # noqa: BLE001 - every failure (a claim that raises too) becomes a row, never a gap
        if isinstance(exc, NotApplicableError) and exc.transcript is None:
            return None  # the pair was refused before round 1 (not a claim after the game): no game, no row
        return CheckRow(**base, mistakes=None, bound=None, verdict="ERROR", message=_message(exc))
    claim, forced, verdict = g.bound, g.forced, g.verdict
    return CheckRow(
        **base, mistakes=verdict.lower, bound=claim.value, forced=forced.value,
        forced_by=forced.source if forced.stated else "", verdict=verdict.status, message=verdict.message,
        measure=claim.measure, bound_source=claim.source if claim.stated else claim.reason,
    )


def run_check(
    classes: Iterable[Any] | None = None,
    learners: Sequence[Any] | None = None,
    adversaries: Sequence[Any] | None = None,
    *,
    seed: int = 0,
    rounds: int | None = None,
    rules: Any = None,
) -> CheckReport:
    """Play every learner against every applicable adversary on every class, and judge each game.

    Each game is realizable, lasts :func:`default_rounds` rounds (or ``rounds``) and is
    seeded with ``seed``, so the report is reproducible.  Rows come class by class, then
    learner by learner, then adversary by adversary in the order given; a learner or an
    adversary that does not apply to a class gives no row for it.

    Parameters
    ----------
    classes : iterable, optional
        Hypothesis classes, spaces, or their specs (``"thresholds:15"``, ``"experts:4"``);
        default :func:`default_classes`.
    learners : sequence, optional
        Learner names (``"Halving"``, ``"mymodule:MyLearner"``), learner types,
        factories ``H -> learner`` or learners (copied); default every learner of the
        registry (:func:`mistakebound.game.registry.entries`).
    adversaries : sequence, optional
        The same for adversaries; default every adversary of the registry.
    seed : int
        The seed of every game.
    rounds : int, optional
        The horizon of every game.
    rules : Rules, optional
        Every game's rules (:class:`~mistakebound.game.rules.Rules`; the labels are each
        class's): the players that do not play them give no row, the claims are read for
        them (default: the textbook's game).

    Returns
    -------
    CheckReport

    Raises
    ------
    InvalidArgumentError
        If ``classes`` holds something that is neither a class, a space nor a valid spec.

    Examples
    --------
    >>> from mistakebound.learners import SOA
    >>> from mistakebound.adversaries import ShatteredTreeWalker
    >>> report = run_check([zoo.singletons(4)], [SOA], [ShatteredTreeWalker])
    >>> print(report.format_table())
    learner  adversary            class          mistakes  bound <=  forced >=  verdict  note
    -------  -------------------  -------------  --------  --------  ---------  -------  ----
    SOA      ShatteredTreeWalker  singletons(4)         1         1          1  ok
    >>> report.summary()
    '1 games, all bounds hold'
    """
    settings = [_as_setting(H) for H in (default_classes() if classes is None else classes)]
    learner_list = tuple(registry.entries("learner") if learners is None else learners)
    adversary_list = tuple(registry.entries("adversary") if adversaries is None else adversaries)
    rows: list[CheckRow] = []
    for setting in settings:
        horizon = default_rounds(setting) if rounds is None else rounds
        for learner_spec in learner_list:
            for adversary_spec in adversary_list:
                try:
                    adversary = _make("adversary", adversary_spec, setting, horizon,
                                      None if rules is None else evolve(rules, labels=len(setting.labels)))
                except NotApplicableError:
                    continue
                except Exception as exc:  # noqa: BLE001
                    rows.append(CheckRow(
                        learner=_name(learner_spec), adversary=_name(adversary_spec, "adversary"), class_name=setting.describe(),
                        mistakes=None, bound=None, verdict="ERROR", message=_message(exc),
                    ))
                    continue
                row = _play_one(setting, learner_spec, adversary, seed, horizon, rules)
                if row is not None:
                    rows.append(row)
    return CheckReport(rows=tuple(rows))


def run_scenarios(scenarios: Iterable[Any] | None = None, *, seed: int = 0) -> CheckReport:
    """Run scenarios (default: every suite of :mod:`mistakebound.verification.suites`) as check rows.

    Each scenario is run once with ``seed``; its outcome's value goes in the
    ``mistakes`` column with the scenario's measure noted, its claim in ``bound`` and
    the count its adversary forces in ``forced``, judged by
    :func:`~mistakebound.verification.claims.judge`.  A scenario that raises becomes an
    ``"ERROR"`` row.

    Examples
    --------
    >>> from mistakebound.verification.claims import Bound
    >>> from mistakebound.verification.scenario import Outcome, Scenario
    >>> s = Scenario("L", "A", "toy", lambda seed: Outcome(value=2.5, bound=Bound(3.0, "regret"), note="a theorem"), "regret")
    >>> print(run_scenarios([s]).format_table())
    learner  adversary  class  mistakes  bound <=  forced >=  verdict  note
    -------  ---------  -----  --------  --------  ---------  -------  ------------------
    L        A          toy         2.5         3          -  ok       [regret] a theorem
    """
    from mistakebound.verification.suites import all_scenarios

    rows: list[CheckRow] = []
    for sc in all_scenarios() if scenarios is None else scenarios:
        base = dict(learner=sc.learner, adversary=sc.adversary, class_name=sc.setting)
        try:
            outcome = sc.run(seed)
            verdict = outcome.judged
            base["measure"] = outcome.bound.measure if outcome.bound is not None and outcome.bound.stated else sc.measure
        except Exception as exc:  # noqa: BLE001 - every failure becomes a row, never a crash
            rows.append(CheckRow(**base, mistakes=None, bound=None, verdict="ERROR", message=_message(exc),
                                 measure=sc.measure))
            continue
        note = outcome.note if not verdict.message else f"{verdict.message}; {outcome.note}"
        bound, forced = outcome.bound, outcome.forced
        rows.append(CheckRow(
            **base, mistakes=outcome.value, bound=None if bound is None else bound.value,
            forced=None if forced is None else forced.value,
            forced_by="" if forced is None or not forced.stated else forced.source,
            verdict=verdict.status, message=note,
            bound_source="" if bound is None else (bound.source if bound.stated else bound.reason),
        ))
    return CheckReport(rows=tuple(rows))
