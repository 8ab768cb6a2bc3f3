"""A class's profile: the one door for "what are this class's parameters?".

:func:`class_profile` answers for the Littlestone dimension, the VC dimension and the
randomized Littlestone dimension of a finite class, cheapest first, each with its own
budget, each exact or proven bounds (a :class:`~mistakebound.theory.search_protocol.SearchResult`),
and each proven bound put to use by the others:

* ``VCdim <= Ldim`` (textbook, Section 21.1): the VC search stops at a shattered set of
  ``Ldim`` instances, which settles it, and its upper bound is never above Ldim's;
* ``Ldim / 2 <= RL <= Ldim (1 - 2^(1 - n))`` (``n`` distinct rows; see
  :mod:`mistakebound.theory.randomized_ldim`): a partial RL interval is narrowed by them.

The Littlestone engine is :func:`~mistakebound.theory.littlestone.ldim_engine`'s, as for
every Littlestone question: the compiled search (:mod:`mistakebound.theory.ldim_kernel`),
which reads a shattered tree or a certificate's refutation in the same run when one will be
read (``keep_search``, ``read``), under the same budget; the Python search
(:class:`~mistakebound.theory.littlestone.LdimSearch`) without the extension; the parallel
one when ``workers`` asks for it.  :meth:`Profile.tree` and :meth:`Profile.certificate` read
what that engine kept, so the command line and
:func:`~mistakebound.theory.littlestone.shattered_tree` take one engine and one speed.  What
holds without a search is the answer when a search cannot run: a class too large for the
memory gets ``0 <= Ldim <= log2 |H|`` (status ``"memory"``), Ctrl-C before the search gets
what two distinct rows prove.  Without a time limit the VC search gets a default one,
:data:`VC_SECONDS` or the Ldim search's own time if longer, so that it never runs for
minutes after the Ldim is known; a search stopped by Ctrl-C starts no other.

The command line's ``mistakebound ldim`` is a printer of this door's answers
(:func:`profile_steps` hands each over as soon as it is known, and runs the next search
only when asked for the next answer: the library never calls back into a front end), so
the two can never give different answers or speeds.

Examples
--------
>>> from mistakebound import classes
>>> P = class_profile(classes.intervals(6), what=("ldim", "vc", "rldim"))
>>> P.ldim.describe(), P.vc.describe(), P.rldim.describe()
('Ldim = 4', 'VCdim = 2', 'RL = 139/64')
>>> P.partial
{}
>>> Q = class_profile(classes.random(300, 20, 0.4, seed=2), what=("ldim", "vc"), max_nodes=5)
>>> Q.ldim.exact, sorted(Q.partial)
(False, ['ldim', 'vc'])
>>> Q.vc.upper <= Q.ldim.upper
True
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from attrs import evolve, field, frozen

from mistakebound.foundations.errors import InsufficientMemoryError, InvalidArgumentError, NotApplicableError
from mistakebound.foundations.validation import check_int
from mistakebound.game.hypothesis_class import HypothesisClass, require_class
from mistakebound.game.rules import Rules, require_adaptive_order, require_rules
from mistakebound.theory.search_protocol import Budget, SearchResult

if TYPE_CHECKING:  # the searches are imported when a profile is computed: importing this module is cheap
    from mistakebound.theory.certificate import CertificateWriter
    from mistakebound.theory.game_values import GameValue
    from mistakebound.theory.littlestone import LdimBounds, LdimEngine, LdimSearch
    from mistakebound.theory.randomized_ldim import RLdimBounds, RLdimSearch
    from mistakebound.theory.vc import VCBounds

__all__ = ["FIRST", "MORE", "PARAMETERS", "TITLES", "VC_SECONDS", "Parameter", "Profile", "certified_rules", "class_profile", "profile_steps", "requested",
           "value_at", "vc_time_limit"]

@frozen
class Parameter:
    """A parameter of the profile computed by a door of its own (the parameters of :data:`FIRST`, ``rldim`` and
    ``value`` have steps of their own).

    Attributes
    ----------
    name : str
        Its name in ``what`` (and ``--what`` on the command line).
    title : str
        What it is, in words.
    compute : callable
        ``compute(H, rules, budget, ldim) -> SearchResult``: the door, with the profile's rules, the
        whole of its budget and the Ldim's proven bounds (which some searches use as a bound); it
        raises ``NotApplicableError`` for a class or rules it is not defined on.
    certify : callable or None
        ``certify(H, rules, writer, result, budget) -> dict``: adds the section certifying ``result`` (what the
        door found) to a :class:`~mistakebound.theory.certificate.CertificateWriter`, searching again within
        the budget only what the result does not hold; None for a parameter with no kind of certificate.
    kind : str or None
        The kind of the section ``certify`` adds (``"best-order"`` for ``best_order``), as the checker names it.
    order : str or None
        For the value of a game under another order of the instances, that order (``Rules.order``).
    """

    name: str
    title: str
    compute: Callable[[HypothesisClass, Rules, Budget, Any], SearchResult] = field(repr=False, eq=False)
    certify: Callable[..., dict] | None = field(default=None, repr=False, eq=False)
    kind: str | None = None
    order: str | None = None


def _order_parameter(name: str, title: str, order: str, kind: str, function: str, **fixed: Any) -> Parameter:
    """The value of the game under ``order``: its door (:func:`_ordered`) and its certificate writer
    ``order_certificate.function`` (:func:`_section`), both under the profile's rules with ``order``."""
    return Parameter(name, title, _ordered(order), _section("order_certificate", function, order=order, **fixed),
                     kind, order)


def _ordered(order: str) -> Callable[[HypothesisClass, Rules, Budget, Any], SearchResult]:
    """The door of the game under ``order`` (:func:`~mistakebound.theory.game_values.game_value`), the profile's
    other rules kept."""
    def compute(H: HypothesisClass, rules: Rules, budget: Budget, ldim: Any) -> SearchResult:
        from mistakebound.theory.game_values import game_value

        return game_value(H, evolve(rules, order=order), max_nodes=budget.max_nodes, time_limit=budget.time_limit)
    return compute


def _door(module: str, function: str, *, uses_ldim: bool = False
          ) -> Callable[[HypothesisClass, Rules, Budget, Any], SearchResult]:
    """The door ``module.function(H, max_nodes=, time_limit=[, ldim=])`` of a parameter of the class alone (the
    rules play no part), imported when it is first asked for."""
    def compute(H: HypothesisClass, rules: Rules, budget: Budget, ldim: Any) -> SearchResult:
        import importlib

        door = getattr(importlib.import_module(f"mistakebound.theory.{module}"), function)
        extra = {"ldim": ldim} if uses_ldim and ldim is not None and H.n_labels == 2 else {}
        return door(H, max_nodes=budget.max_nodes, time_limit=budget.time_limit, **extra)
    return compute


def _section(module: str, function: str, *, order: str | None = None, **fixed: Any) -> Callable[..., dict]:
    """The certificate writer ``module.function(H, writer, result=, max_nodes=, time_limit=, **fixed)`` of a
    parameter (``module`` in :mod:`mistakebound.theory`), imported when it is first asked for; with ``order``, a
    game's under that order (``rules=``, the profile's rules with it, as :func:`_ordered` computes it)."""
    def certify(H: HypothesisClass, rules: Rules, writer: Any, result: SearchResult, budget: Budget) -> dict:
        import importlib

        section = getattr(importlib.import_module(f"mistakebound.theory.{module}"), function)
        ruled = {} if order is None else {"rules": evolve(rules, order=order)}
        return section(H, writer, result=result, max_nodes=budget.max_nodes, time_limit=budget.time_limit,
                       **ruled, **fixed)
    return certify


#: The parameters of the profile that have a door of their own, in the order they are computed.
MORE = (
    Parameter("threshold", "the threshold dimension (the longest chain of initial segments the class holds)",
              _door("threshold_dimension", "threshold_bounds", uses_ldim=True),
              _section("threshold_certificate", "threshold_section"), "threshold"),
    Parameter("degree", "the largest degree of the one-inclusion graph",
              _door("one_inclusion", "one_inclusion_degree_bounds"), _section("star_certificate", "degree_section"),
              "degree"),
    Parameter("star", "the star number (Hanneke and Yang 2015)", _door("star_number", "star_bounds"),
              _section("star_certificate", "star_section"), "star"),
    Parameter("td", "the teaching dimension (Goldman and Kearns 1995)",
              _door("teaching", "teaching_dimension_bounds"),
              _section("teaching_certificate", "teaching_section", parameter="td"), "td"),
    Parameter("tsmin", "the smallest teaching set of any hypothesis", _door("teaching", "minimum_teaching_set_bounds"),
              _section("teaching_certificate", "teaching_section", parameter="tsmin"), "tsmin"),
    Parameter("rtd", "the recursive teaching dimension (Zilles, Lange, Holte and Zinkevich 2011)",
              _door("teaching", "recursive_teaching_bounds", uses_ldim=True),
              _section("teaching_certificate", "teaching_section", parameter="rtd"), "rtd"),
    _order_parameter("self_directed", "the self-directed complexity (the learner orders the instances)",
                     "self-directed", "self-directed", "self_directed_section"),
    _order_parameter("best_order", "the best order's mistake bound (every instance once, the order best for the "
                                   "learner)", "best", "best-order", "order_section", mode="best"),
    _order_parameter("worst_order", "the worst order's mistake bound (every instance once, the order worst for the "
                                    "learner; the transductive game's value)", "worst", "worst-order", "order_section",
                     mode="worst"),
)
#: The parameters with steps of their own, computed first.
FIRST = ("ldim", "vc")
#: The parameters a profile holds, in the order they are computed (cheapest first); ``value`` is the game's
#: value under the profile's rules (:func:`~mistakebound.theory.game_values.game_value`).
PARAMETERS = (*FIRST, *(p.name for p in MORE), "rldim", "value")
#: Each parameter's title, for the front ends that list them.
TITLES = {"ldim": "the Littlestone dimension", "vc": "the VC dimension", **{p.name: p.title for p in MORE},
          "rldim": "the randomized Littlestone dimension", "value": "the game's value under the profile's rules"}
#: Without a time limit, every search after the Ldim's (VC, RL, each of :data:`MORE`) stops after the longer of
#: this many seconds and the time the Ldim search took (its proven interval is the answer then).
VC_SECONDS = 5.0


def requested(what: Any, rules: Rules = Rules(), horizon: int | None = None) -> tuple[str, ...]:
    """The parameters a profile computes for ``what`` under ``rules`` (and ``horizon``), checked before any search.

    Examples
    --------
    >>> requested("vc"), requested(["ldim"], Rules(noise=1)), requested("ldim", horizon=3)
    (('ldim', 'vc'), ('ldim', 'value'), ('ldim', 'value'))
    >>> requested("value", Rules(randomized=True, feedback="bandit", adaptive=False))
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.InvalidArgumentError: horizon: the oblivious adversary's value against randomized learners under bandit feedback depends on the number of rounds; expected a horizon (an int >= 0), got None
    """
    if isinstance(what, str):
        what = (what,)
    try:
        chosen = tuple(what)
    except TypeError:
        chosen = None
    if not chosen or any(p not in PARAMETERS for p in chosen):
        raise InvalidArgumentError(f"what: expected parameters among {', '.join(PARAMETERS)}, got {what!r}")
    rules = require_rules(rules)
    if horizon is not None:
        check_int("horizon", horizon, 0, expected="None or an int >= 0 (the number of rounds)")
        require_adaptive_order(rules, "the game of a number of rounds")
    # Ldim always (the others use it); the game's value whenever the rules are not the textbook's or a horizon is
    wanted = tuple(p for p in PARAMETERS if p in chosen or p == "ldim"
                   or (p == "value" and (not rules.textbook or horizon is not None)))
    if "value" in wanted and horizon is None and rules.randomized and rules.feedback != "full" and not rules.adaptive:
        raise InvalidArgumentError("horizon: the oblivious adversary's value against randomized learners under bandit "
                                   "feedback depends on the number of rounds; expected a horizon (an int >= 0), "
                                   "got None")
    return wanted


def value_at(H: Any, rules: Rules, horizon: int | None = None, *, max_nodes: int | None = None,
             time_limit: float | None = None) -> tuple[GameValue, Any]:
    """The game's value under ``rules`` (a profile's parameter ``value``), and what proves it for a certificate.

    Without a horizon, the unbounded game (:func:`~mistakebound.theory.game_values.solve_game`, and its
    search); with one, the game of ``horizon`` rounds: for randomized learners the sequence-form program
    against an oblivious adversary or an adaptive one held to its labels
    (:func:`~mistakebound.theory.oblivious_values.solve_horizon`, and its two strategies), for deterministic
    ones the recursion cut at the horizon (:func:`~mistakebound.theory.oblivious_values.adaptive_value`:
    nothing to certify it with, None).

    Examples
    --------
    >>> from mistakebound.theory.oblivious_values import GAP_CLASS
    >>> rules = Rules(labels=3, feedback="bandit", randomized=True, adaptive=False)
    >>> value_at(GAP_CLASS, rules, 2)[0].value, value_at(GAP_CLASS, Rules(labels=3), 2)[0].value
    (Fraction(1, 1), 1)
    """
    if horizon is None:
        from mistakebound.theory.game_values import solve_game

        return solve_game(H, rules, max_nodes=max_nodes, time_limit=time_limit)
    from mistakebound.theory.oblivious_values import adaptive_value, solve_horizon

    if rules.randomized:
        return solve_horizon(H, rules, horizon, max_nodes=max_nodes, time_limit=time_limit)
    return adaptive_value(H, rules, horizon, max_nodes=max_nodes, time_limit=time_limit), None


@frozen
class Profile:
    """What :func:`class_profile` found: each parameter's proven bounds, and why a partial one stopped.

    Attributes
    ----------
    H : HypothesisClass
    n_distinct : int
        The number of distinct hypotheses (rows).
    ldim : LdimBounds
    vc : VCBounds or None
        None when not asked for, or not searched (``partial["vc"]`` says why).
    rldim : RLdimBounds or None
        Likewise.
    threshold, degree, star, td, tsmin, rtd : SearchResult or None
        The parameters of the class alone (:data:`MORE`); likewise.
    self_directed, best_order, worst_order : OrderValue or None
        The games where someone else orders the instances (:data:`MORE`); likewise.
    value : GameValue or None
        The game's value under ``rules`` (deterministic or randomized learners), when asked for
        or when the rules are not the textbook's; likewise.
    rules : Rules
        The game whose value ``value`` is (the textbook's by default).
    horizon : int or None
        The number of rounds of that game (None: no limit; see :func:`value_at`).
    undefined : dict
        For each parameter asked for that is not defined on the class or under the rules, why (a
        class of ``k > 2`` labels has no VC dimension; a door's ``NotApplicableError``).
    partial : dict
        For each parameter that is not exact, why: ``"budget"``, ``"interrupted"``,
        ``"memory"``, ``"vc-default-limit"`` (the VC search's default time ran out), ``"default-limit"``
        (likewise for a parameter of :data:`MORE`) or
        ``"not searched: ..."``, and the message of a refusal for memory.
    search : LdimSearch or None
        The Python search that found ``ldim``, when ``keep_search`` or ``read`` asked for one and
        the engine is the Python search (None for the compiled one, whose reading ``ldim_engine`` holds).
    ldim_engine : LdimEngine or None
        The engine that found ``ldim``, when ``keep_search`` or ``read`` asked for a tree or a
        certificate: :meth:`tree` and :meth:`certificate` are read off it.
    rl_search : RLdimSearch or None
        The randomized search, when it ran (its certificate is read off it).
    value_search : object or None
        What proved ``value``, when ``keep_search`` asked for it (:func:`value_at`): the search, whose
        memo its certificate is read off (:func:`~mistakebound.theory.game_certificate.game_section`), or
        with a horizon the two strategies (:func:`~mistakebound.theory.horizon_certificate.horizon_section`).
    vc_seconds : float or None
        The VC search's time limit (the default when none was given).
    engine : {"compiled", "python", "parallel"} or None
        The engine that searched the Ldim (None: refused for memory).
    notes : tuple of str
        One-line notes of the searches (a worker lost in a parallel search).
    """

    H: HypothesisClass
    n_distinct: int
    ldim: LdimBounds
    vc: VCBounds | None = None
    rldim: RLdimBounds | None = None
    threshold: SearchResult | None = None
    degree: SearchResult | None = None
    star: SearchResult | None = None
    td: SearchResult | None = None
    tsmin: SearchResult | None = None
    rtd: SearchResult | None = None
    self_directed: SearchResult | None = None
    best_order: SearchResult | None = None
    worst_order: SearchResult | None = None
    value: GameValue | None = None
    rules: Rules = Rules()
    horizon: int | None = None
    undefined: dict = field(factory=dict)
    partial: dict = field(factory=dict)
    search: LdimSearch | None = field(default=None, repr=False, eq=False)
    ldim_engine: LdimEngine | None = field(default=None, repr=False, eq=False)
    rl_search: RLdimSearch | None = field(default=None, repr=False, eq=False)
    value_search: Any = field(default=None, repr=False, eq=False)
    vc_seconds: float | None = None
    engine: str | None = None
    notes: tuple = ()

    def result(self, name: str) -> SearchResult | None:
        """The result of the parameter ``name`` (one of :data:`PARAMETERS`), None when not computed.

        Examples
        --------
        >>> from mistakebound import classes
        >>> P = class_profile(classes.thresholds(7), what=("ldim", "worst_order"))
        >>> P.result("ldim").value, P.result("worst_order").value, P.result("vc")
        (3, 3, None)
        """
        if name not in PARAMETERS:
            raise InvalidArgumentError(f"name: expected a parameter among {', '.join(PARAMETERS)}, got {name!r}")
        return getattr(self, name)

    @property
    def vc_from_ldim(self) -> tuple[int, int]:
        """The VC dimension's bounds that hold without its search: ``min(Ldim, 1) <= VCdim <= Ldim``.

        (VCdim <= Ldim, textbook ch. 21; a class with two distinct hypotheses has VCdim >= 1.)
        """
        return min(self.ldim.lower, 1), self.ldim.upper

    def tree(self, *, max_nodes: int | None = None, time_limit: float | None = None):
        """A shattered tree of depth ``Ldim`` read off the Ldim's engine (``keep_search=True`` or ``read``, and an
        exact Ldim); on a class of more labels, the multiclass tree (:func:`~mistakebound.theory.game_trees.game_tree`).

        What the compiled search read in its run needs no budget (``max_nodes`` and ``time_limit`` are the
        Python search's, which reads its memo within them).  Raises
        :class:`~mistakebound.theory.search_protocol.SearchIncomplete` (or ``SearchInterrupted``) when the
        reading ran out of memory or budget (or was interrupted), with the Ldim still exact.

        Examples
        --------
        >>> from mistakebound import classes
        >>> class_profile(classes.thresholds(7), what="ldim", read="tree").tree().graph["depth"]
        3
        """
        if self.H.n_labels != 2 and self.ldim.exact:  # the multiclass tree (theory.game_trees), of depth Ldim
            from mistakebound.theory.game_trees import game_tree

            return game_tree(self.H, max_nodes=max_nodes, time_limit=time_limit)
        if self.ldim_engine is None or not self.ldim.exact:
            raise InvalidArgumentError("tree: expected a profile searched with keep_search=True (or read='tree') "
                                       "and an exact Ldim")
        return self.ldim_engine.tree(Budget(max_nodes=max_nodes, time_limit=time_limit))

    def certificate(self, *, max_nodes: int | None = None, time_limit: float | None = None) -> CertificateWriter:
        """A certificate of what this profile proved, read off its searches (``keep_search=True``).

        Its ``"ldim"`` section certifies the Ldim's proven bounds as its engine read them
        (:func:`~mistakebound.theory.ldim_certificate.engine_section`: the compiled search's reading needs
        no budget, and when it stopped, what holds before any search is certified); a ``"vc"`` section follows
        when the VC dimension was searched (its certificate search gets ``max_nodes`` and
        ``time_limit``), an ``"rldim"`` one when the randomized Ldim was, and the game's value
        (``"value-full"``, ``"value-bandit"`` or ``"value-randomized"``) when it was searched
        under rules other than the textbook's (whose value is the Ldim, certified already) and
        :func:`certified_rules` certifies them.

        Raises
        ------
        InvalidArgumentError
            For a profile searched without ``keep_search``.
        OutOfBudget
            When the budget runs out while the shattered tree is read off the search.
        """
        from mistakebound.theory.certificate import CertificateWriter
        from mistakebound.theory.ldim_certificate import engine_section

        if self.H.n_labels != 2:
            return self._multiclass_certificate(max_nodes=max_nodes, time_limit=time_limit)
        if self.ldim_engine is None or self.ldim_engine.read != "certificate":
            raise InvalidArgumentError("certificate: expected a profile searched with keep_search=True")
        writer = CertificateWriter(self.H)
        engine_section(self.ldim_engine, self.ldim, writer, budget=Budget(max_nodes=max_nodes, time_limit=time_limit))
        if self.vc is not None:
            from mistakebound.theory.vc_certificate import vc_section

            vc_section(self.H, writer, max_nodes=max_nodes, time_limit=time_limit)
        if self.rl_search is not None:
            from mistakebound.theory.randomized_certificate import rldim_section

            rldim_section(self.rl_search, writer)
        self._value_section(writer)
        self._parameter_sections(writer, Budget(max_nodes=max_nodes, time_limit=time_limit))
        return writer

    def _parameter_sections(self, writer: CertificateWriter, budget: Budget) -> list[str]:
        """Add the section of every parameter of :data:`MORE` this profile computed and a kind of certificate
        checks (:attr:`Parameter.certify`); the names of those added."""
        added = []
        for parameter in MORE:
            result = self.result(parameter.name)
            if result is None or parameter.certify is None:
                continue
            try:
                parameter.certify(self.H, self.rules, writer, result, budget)
            except NotApplicableError:
                continue  # no kind of certificate checks it under these rules (randomized learners, k labels)
            added.append(parameter.name)
        return added

    def _value_section(self, writer: CertificateWriter) -> str | None:
        """Add the value's section to ``writer`` when it is certified (:func:`certified_rules`); its kind, or None."""
        if self.value is None or not certified_rules(self.rules, self.horizon):
            return None
        if self.rules.order != Rules().order:  # a game under another order: its parameter's writer
            order = "worst" if self.rules.order == "transductive" else self.rules.order  # its value without a horizon
            parameter = next(p for p in MORE if p.order == order)
            if self.result(parameter.name) is not None:
                return None  # the parameter's own section holds it (a document holds each kind once)
            return parameter.certify(self.H, self.rules, writer, self.value, Budget())["result"]
        if self.value_search is None:
            return None
        if self.horizon is not None:
            from mistakebound.theory.horizon_certificate import horizon_section

            return horizon_section(self.value, self.value_search, writer, self.H.n_instances)["result"]
        from mistakebound.theory.game_certificate import game_section

        return game_section(self.value_search, self.value, writer)["result"]

    def _multiclass_certificate(self, *, max_nodes: int | None, time_limit: float | None) -> CertificateWriter:
        """On a class of ``k > 2`` labels: the value under the rules (from its search's memo, when kept), and the
        Ldim as the value of the full-information game on ``k`` labels (``"value-full"``, searched again within
        the budget) unless the rules' value already holds that kind (a document holds each kind once)."""
        from mistakebound.theory.certificate import CertificateWriter
        from mistakebound.theory.game_certificate import KINDS, game_certificate

        writer = CertificateWriter(self.H)
        kind = self._value_section(writer)
        if kind != KINDS["full", False]:
            game_certificate(self.H, Rules(labels=self.H.n_labels), writer=writer, max_nodes=max_nodes,
                             time_limit=time_limit)
        return writer


def certified_rules(rules: Rules, horizon: int | None = None) -> bool:
    """Whether a profile's certificate holds the game's value under ``rules``: without a horizon, not the
    textbook's rules (the value is the Ldim) and rules with a kind of certificate
    (:func:`~mistakebound.theory.game_certificate.certifiable`); with one, randomized learners (the
    sequence-form program's strategies: ``"value-horizon"``).

    Examples
    --------
    >>> certified_rules(Rules(noise=1)), certified_rules(Rules()), certified_rules(Rules(randomized=True, adaptive=False))
    (True, False, False)
    >>> certified_rules(Rules(randomized=True, adaptive=False), 3), certified_rules(Rules(), 3)
    (True, False)
    """
    from mistakebound.theory.game_certificate import certifiable

    if horizon is not None:
        return rules.randomized
    return not rules.textbook and certifiable(rules)


def vc_time_limit(ldim: LdimBounds, time_limit: float | None = None) -> float:
    """The time limit in a profile of every search after the Ldim's (VC, RL, each parameter of :data:`MORE`):
    ``time_limit``, else the longer of :data:`VC_SECONDS` and the time the Ldim search took (``ldim.seconds``).

    Examples
    --------
    >>> from mistakebound.theory.littlestone import LdimBounds
    >>> vc_time_limit(LdimBounds(lower=3, upper=3, status="exact", seconds=0.5))
    5.0
    >>> vc_time_limit(LdimBounds(lower=3, upper=3, status="exact", seconds=9.0)), vc_time_limit(None, 2.0)
    (9.0, 2.0)
    """
    return time_limit if time_limit is not None else max(VC_SECONDS, ldim.seconds)


def _n_distinct(H: HypothesisClass) -> int:
    """The number of distinct rows of ``H`` (grouped once per class: the Python search reuses the grouping)."""
    return int(H.distinct_rows()[0].shape[0])


def _ldim(engine: LdimEngine | None, refused: str | None, rows: int, n: int, note: Callable[[str], None]
          ) -> tuple[LdimBounds, str | None]:
    """The Ldim's bounds from ``engine`` (None: refused for memory), and why they are partial (None: exact).

    ``rows`` hypotheses, ``n`` of them distinct."""
    from mistakebound.theory.littlestone import LdimBounds
    if engine is None:  # refused before it allocates: what holds without a search, Ldim <= log2 |H|
        return LdimBounds(lower=0, upper=rows.bit_length() - 1, status="memory"), f"memory: {refused}"
    try:
        with warnings.catch_warnings(record=True) as caught:  # a worker lost: one note, not a warning's two lines
            warnings.simplefilter("always", RuntimeWarning)
            bounds = engine.run()
        for w in caught:
            if issubclass(w.category, RuntimeWarning) and str(w.message).startswith("workers:"):
                note(f"note: {w.message}")
            else:  # pragma: no cover - someone else's warning, shown as usual
                warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    except KeyboardInterrupt:  # Ctrl-C before the search proper began: what holds without it
        return LdimBounds(lower=min(n - 1, 1), upper=n.bit_length() - 1, status="interrupted"), "interrupted"
    return bounds, None if bounds.exact else bounds.status


def _vc(H: HypothesisClass, ldim: LdimBounds, budget: Budget, limit: float) -> tuple[VCBounds, str | None]:
    from mistakebound.theory.vc import VCBounds, vc_bounds

    top, low = ldim.upper, min(ldim.lower, 1)  # VCdim <= Ldim; Ldim >= 1 means two rows split by an instance
    try:
        vc = vc_bounds(H, max_nodes=budget.max_nodes, time_limit=limit, ldim=ldim)
    except InsufficientMemoryError as exc:  # VCdim <= Ldim still holds
        return VCBounds(lower=low, upper=top, status="memory"), f"memory: {exc}"
    if not vc.exact and vc.lower == top:  # a shattered set of Ldim instances settles it
        vc = evolve(vc, upper=vc.lower, status="exact")
    if vc.exact:
        return vc, None
    if vc.status == "budget" and budget.time_limit is None and vc.seconds >= limit:
        return vc, "vc-default-limit"
    return vc, vc.status


def _rldim(H: HypothesisClass, ldim: LdimBounds, n: int, budget: Budget
           ) -> tuple[RLdimBounds | None, RLdimSearch | None, str | None]:
    from mistakebound.theory.randomized_ldim import RLdimSearch

    try:
        search = RLdimSearch(H, max_nodes=budget.max_nodes, time_limit=budget.time_limit)
    except InsufficientMemoryError as exc:
        return None, None, f"memory: {exc}"
    found = search.bounds()
    if found.exact:
        return found, search, None
    # L / 2 <= RL <= L (1 - 2^(1 - n)): what the Ldim search proved narrows what this one did
    lower = max(found.lower, Fraction(ldim.lower, 2))
    upper = min(found.upper, ldim.upper * (1 - Fraction(1, 2 ** (n - 1))))
    if lower == upper:
        return evolve(found, lower=lower, upper=upper, status="exact"), search, None
    return evolve(found, lower=lower, upper=upper), search, found.status


def _more_steps(H: HypothesisClass, chosen: tuple[str, ...], budget: Budget, rules: Rules, profile: Profile,
                stopped: bool) -> Iterator[tuple[str, SearchResult | None, Profile]]:
    """The steps of :data:`MORE` that ``chosen`` names, each with the whole budget (without a time limit, the
    default of :func:`vc_time_limit`); the last profile is yielded last."""
    for parameter in MORE:
        if parameter.name not in chosen:
            continue
        undefined = None
        if stopped:
            result, why = None, "not searched: interrupted"
        else:
            limit = vc_time_limit(profile.ldim, budget.time_limit)  # the default of every search after the Ldim's
            try:
                result = parameter.compute(H, rules, Budget(max_nodes=budget.max_nodes, time_limit=limit), profile.ldim)
            except NotApplicableError as exc:
                result, why, undefined = None, None, str(exc)
            else:
                why = None if result.exact else result.status
                if why == "budget" and budget.time_limit is None and result.seconds >= limit:
                    why = "default-limit"
                stopped = result.status == "interrupted"
        profile = evolve(profile, **{parameter.name: result},
                         undefined={**profile.undefined, **({} if undefined is None else {parameter.name: undefined})},
                         partial={**profile.partial, **({} if why is None else {parameter.name: why})})
        yield parameter.name, result, profile


def profile_steps(H: HypothesisClass, *, what: Sequence[str] | str = ("ldim", "vc"), max_nodes: int | None = None,
                  time_limit: float | None = None, workers: int | None = 1, keep_search: bool = False,
                  rules: Rules = Rules(), horizon: int | None = None, read: str | None = None
                  ) -> Iterator[tuple[str, SearchResult | None, Profile]]:
    """:func:`class_profile` one parameter at a time: yields ``(parameter, result, profile so far)``.

    First ``("class", None, profile)`` before any search (``n_distinct`` known, ``ldim`` the
    bounds that hold without a search, ``partial["ldim"]`` set if the Ldim search is refused
    for memory), then ``"ldim"`` and each parameter of ``what`` as soon as it is known
    (``result`` None when it was not searched).  A front end shows each while the next
    search has not started yet: the searches run when the next step is asked for.

    Yields
    ------
    tuple
        ``(parameter, result, profile so far)``, after each parameter.
    """
    from mistakebound.theory.littlestone import LdimBounds, ldim_engine

    H = require_class(H)
    chosen = requested(what, rules, horizon)
    budget = Budget(max_nodes=max_nodes, time_limit=time_limit)  # validated before anything runs
    n = _n_distinct(H)
    if H.n_labels != 2:
        yield from _multiclass_steps(H, chosen, budget, rules, n, keep_search, horizon)
        return
    try:
        engine, refused = ldim_engine(H, budget=budget, workers=workers, keep_search=keep_search, read=read), None
    except InsufficientMemoryError as exc:
        engine, refused = None, str(exc)
    lo, hi = min(n - 1, 1), n.bit_length() - 1  # two distinct rows force a mistake; Ldim <= log2 n
    before = Profile(H=H, n_distinct=n, ldim=LdimBounds(lower=lo, upper=hi, status="exact" if lo == hi else "budget"),
                     rules=rules, horizon=horizon, partial={} if refused is None else {"ldim": f"memory: {refused}"})
    yield "class", None, before
    notes: list[str] = []
    bounds, why = _ldim(engine, refused, H.n_hypotheses, n, notes.append)
    profile = Profile(H=H, n_distinct=n, ldim=bounds, rules=rules, horizon=horizon,
                      partial={} if why is None else {"ldim": why},
                      search=None if engine is None or engine.read is None else engine.search,
                      ldim_engine=None if engine is None or engine.read is None else engine,
                      engine=None if engine is None else engine.name, notes=tuple(notes))
    yield "ldim", bounds, profile
    stopped = bounds.status == "interrupted"
    if engine is not None and engine.reading is not None:  # Ctrl-C while the tree was read, the value found
        stopped = stopped or engine.reading.bounds.status == "interrupted"
    if "vc" in chosen:
        limit = vc_time_limit(bounds, time_limit)
        if stopped:
            vc, why = None, "not searched: interrupted"
        else:
            vc, why = _vc(H, bounds, budget, limit)
            stopped = vc.status == "interrupted"
        profile = evolve(profile, vc=vc, vc_seconds=limit,
                         partial={**profile.partial, **({} if why is None else {"vc": why})})
        yield "vc", vc, profile
    for step in _more_steps(H, chosen, budget, rules, profile, stopped):
        yield step
        profile = step[2]
        stopped = stopped or (step[1] is not None and step[1].status == "interrupted")
    if "rldim" in chosen:
        if stopped:
            rl, rl_search, why = None, None, "not searched: interrupted"
        else:
            limit = vc_time_limit(bounds, time_limit)  # the default of every search after the Ldim's
            rl, rl_search, why = _rldim(H, bounds, n, Budget(max_nodes=budget.max_nodes, time_limit=limit))
            if why == "budget" and time_limit is None and rl.seconds >= limit:
                why = "default-limit"
        profile = evolve(profile, rldim=rl, rl_search=rl_search,
                         partial={**profile.partial, **({} if why is None else {"rldim": why})})
        yield "rldim", rl, profile
        stopped = stopped or (rl is not None and rl.status == "interrupted")
    if "value" in chosen:
        if stopped:
            value, why = None, "not searched: interrupted"
        else:
            value, value_search = value_at(H, rules, horizon, max_nodes=budget.max_nodes, time_limit=budget.time_limit)
            why = None if value.exact else value.status
        profile = evolve(profile, value=value, value_search=value_search if keep_search and value is not None else None,
                         partial={**profile.partial, **({} if why is None else {"value": why})})
        yield "value", value, profile


def _multiclass_steps(H: HypothesisClass, chosen: tuple[str, ...], budget: Budget, rules: Rules, n: int,
                      keep_search: bool = False, horizon: int | None = None
                      ) -> Iterator[tuple[str, SearchResult | None, Profile]]:
    """:func:`profile_steps` on a class of ``k > 2`` labels: each parameter is a value of the game on ``k`` labels.

    The Littlestone dimension is the multiclass one (the value of the full-information game,
    Daniely, Sabato, Ben-David and Shalev-Shwartz 2011), the randomized one the value for a
    randomized learner; a class of more than two labels has no VC dimension (its Natarajan
    dimension is not computed): its step gives None.
    """
    from mistakebound.theory.littlestone import LdimBounds, littlestone_bounds
    from mistakebound.theory.randomized_ldim import randomized_littlestone_bounds

    k = H.n_labels
    if rules.labels != k:
        raise InvalidArgumentError(f"rules: the game has {rules.labels} labels and H, {H.describe()}, has {k}; "
                                   f"expected rules with labels={k}")
    before = Profile(H=H, n_distinct=n, ldim=LdimBounds(lower=min(n - 1, 1), upper=n - 1, status="budget"),
                     rules=rules, horizon=horizon, partial={})
    yield "class", None, before

    def value(door: Callable[..., SearchResult], limit: float | None = None) -> tuple[SearchResult, str | None]:
        found = door(H, max_nodes=budget.max_nodes, time_limit=budget.time_limit if limit is None else limit)
        if found.exact:
            return found, None
        default = limit is not None and budget.time_limit is None and found.status == "budget" and found.seconds >= limit
        return found, "default-limit" if default else found.status

    bounds, why = value(littlestone_bounds)
    profile = Profile(H=H, n_distinct=n, ldim=bounds, rules=rules, horizon=horizon,
                      partial={} if why is None else {"ldim": why})
    yield "ldim", bounds, profile
    stopped = bounds.status == "interrupted"
    if "vc" in chosen:  # no VC dimension: None, and no search
        profile = evolve(profile, undefined={**profile.undefined, "vc": f"a class of {k} labels has no VC dimension "
                                                                        "(its Natarajan dimension is not computed)"})
        yield "vc", None, profile
    for step in _more_steps(H, chosen, budget, rules, profile, stopped):
        yield step
        profile = step[2]
        stopped = stopped or (step[1] is not None and step[1].status == "interrupted")
    kept: dict[str, Any] = {}

    def ruled(H: HypothesisClass, **budget: Any) -> SearchResult:
        found, kept["value_search"] = value_at(H, rules, horizon, **budget)  # what proves it, for a certificate
        return found

    for parameter, door in (("rldim", randomized_littlestone_bounds), ("value", ruled)):
        if parameter not in chosen or (parameter == "value" and rules == Rules(labels=k) and horizon is None):
            continue  # the value of the game on k labels, full information, no noise: the Ldim just found
        # the randomized Ldim, a search after the Ldim's, has the default limit of every such search
        limit = vc_time_limit(bounds, budget.time_limit) if parameter == "rldim" else None
        result, why = (None, "not searched: interrupted") if stopped else value(door, limit)
        stopped = stopped or (result is not None and result.status == "interrupted")
        searched = {"value_search": kept.get("value_search")} if parameter == "value" and keep_search else {}
        profile = evolve(profile, **{parameter: result}, **searched,
                         partial={**profile.partial, **({} if why is None else {parameter: why})})
        yield parameter, result, profile


def class_profile(H: HypothesisClass, *, what: Sequence[str] | str = ("ldim", "vc"), max_nodes: int | None = None,
                  time_limit: float | None = None, workers: int | None = 1, keep_search: bool = False,
                  rules: Rules = Rules(), horizon: int | None = None, read: str | None = None) -> Profile:
    """The parameters ``what`` of ``H``, each exact or proven bounds, cheapest first (Ldim always).

    Parameters
    ----------
    H : HypothesisClass
    what : sequence of {"ldim", "vc", "rldim", "value"}
        The parameters wanted; the Ldim is always computed (the others use its bounds), and
        the game's value whenever ``rules`` are not the textbook's.
    max_nodes, time_limit : optional
        Each search's own budget (each gets the whole of it); without ``time_limit`` the VC
        search stops after :data:`VC_SECONDS` or the Ldim search's time, if longer.
    workers : int or None
        Processes for the Littlestone search (1: this one, with the compiled search when
        the install has it; None: one per CPU).
    keep_search : bool
        Keep what a certificate is read off (:meth:`Profile.certificate`): the Littlestone engine
        with its reading (``read="certificate"``), and the game value's search.
    rules : Rules
        The game whose value (deterministic or randomized learners) the parameter ``value`` is:
        labels, feedback, noise budget (:func:`~mistakebound.theory.game_values.game_value`).
    horizon : int, optional
        The number of rounds of that game (default: no limit); needed for randomized learners against an
        oblivious adversary under bandit feedback, whose value depends on it (:func:`value_at`).
    read : {None, "tree", "certificate"}
        What will be read off the Littlestone engine (:func:`~mistakebound.theory.littlestone.ldim_engine`):
        ``"tree"`` a shattered tree alone (:meth:`Profile.tree`; the compiled search then skips the
        refutation a certificate needs).  The engine reads it in its run, within the Ldim's budget.

    Returns
    -------
    Profile
        :func:`profile_steps` gives the same answers one at a time, as each is known.

    Raises
    ------
    InvalidArgumentError
        For a bad ``H``, ``what``, budget or ``workers``.
    """
    profile = None
    for _, _, profile in profile_steps(H, what=what, max_nodes=max_nodes, time_limit=time_limit, workers=workers,
                                       keep_search=keep_search, rules=rules, horizon=horizon, read=read):
        pass
    return profile
