"""The zoos' claims as a whole: every learner's ``bound`` and ``for_setting``, every adversary's ``forces``.

* Construction: every learner and adversary of the two zoos is built by
  ``for_setting`` on exactly the settings of the table below (and plays a short game
  there); elsewhere it raises ``NotApplicableError``.
* Claims never raise: on every setting, realizable or not, with or without the
  horizon, ``bound`` returns a :class:`Bound` (a number, or none with a reason).
* Claims hold: on generated finite classes and on the spaces, every learner's claim
  and every adversary's forced count are judged against seeded games by
  :func:`~mistakebound.verification.claims.judge`, and neither is ever broken.
* Forced counts are exact where the texts say so (the walk of a shattered tree on
  Halving and SOA, binary search on thresholds, basis vectors, ...), with the expected
  values computed here.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mistakebound.adversaries as adversaries
import mistakebound.learners as learners
from mistakebound import HypothesisClass, littlestone_dimension, play, play_oco
from mistakebound.adversaries import (
    AlternatingLosses,
    BasisVectorForcer,
    BinarySearchThreshold,
    DisjunctionAdversary,
    DisjunctionStream,
    GameMinimax,
    HeaviestExpertLoss,
    OrderMinimax,
    MidpointAdversary,
    MinimaxAdversary,
    ObliviousCoin,
    OppositeLabel,
    RandomExpertLosses,
    RandomizedForcer,
    SeparableStream,
    ShatteredTreeWalker,
    SplitAdvice,
)
from mistakebound.foundations.errors import InvalidArgumentError, NotApplicableError
from mistakebound.game import classes
from mistakebound.game.oco import OCOSetting, RandomLinearLosses
from mistakebound.game.players import is_randomized
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace
from mistakebound.learners import (
    SOA,
    Conservative,
    Consistent,
    DeterministicWeightedMajority,
    DisjunctionElimination,
    DoublingTrick,
    GameSOA,
    OrderSOA,
    PluralityHalving,
    ExpertsFromClass,
    FollowTheLeader,
    Halving,
    LittlestoneExperts,
    LittlestoneWinnow,
    OnlineGradientDescent,
    OnlineLogisticRegression,
    OptimalRandomizedLearner,
    Perceptron,
    RandomizedLinearClassifier,
    RiverLearner,
    SklearnLearner,
    WeightedMajority,
    Winnow,
)
from mistakebound.theory.worst_case import worst_case_mistakes
from mistakebound.verification.claims import MEASURES, Bound, forced_bound, judge, measured, stated_bound
from mistakebound.verification.strategies import hypothesis_classes
from tests.players import VoteFraction

# ---------------------------------------------------------------------- the settings and who plays where
SETTINGS = {
    "thresholds": classes.thresholds(7),
    "disjunctions": classes.monotone_disjunctions(3),
    "named": HypothesisClass.from_matrix([[0, 1, 1], [1, 1, 0], [0, 0, 0]], domain=["a", "b", "c"]),
    "halfspaces": LinearSpace(3, R=1.0, gamma=0.5),
    "line": LinearSpace(2),
    "k_disjunctions": KDisjunctionSpace(20, 2),
    "experts": ExpertAdvice(3),
    "ball": OCOSetting(2, radius=1.0),
    "free": OCOSetting(1),
}
FINITE = {"thresholds", "disjunctions", "named"}
LABEL_GAMES = set(SETTINGS) - {"ball", "free"}

#: learner -> the settings its ``for_setting`` builds it on
PLAYS_ON = {
    Consistent: FINITE,
    Halving: FINITE,
    SOA: FINITE,
    GameSOA: FINITE,
    OrderSOA: FINITE,
    PluralityHalving: FINITE,
    OptimalRandomizedLearner: FINITE,
    ExpertsFromClass: FINITE,
    LittlestoneExperts: FINITE,
    Conservative: FINITE,
    DoublingTrick: FINITE | {"experts"},
    Perceptron: {"disjunctions", "halfspaces", "line", "k_disjunctions"},
    DisjunctionElimination: {"disjunctions", "k_disjunctions"},
    Winnow: {"disjunctions", "k_disjunctions"},
    LittlestoneWinnow: {"disjunctions", "k_disjunctions"},
    WeightedMajority: {"experts"},
    DeterministicWeightedMajority: {"experts"},
    RandomizedLinearClassifier: {"halfspaces", "line"},
    OnlineLogisticRegression: {"halfspaces", "line"},
    OnlineGradientDescent: {"ball", "free"},
    FollowTheLeader: {"ball"},
    RiverLearner: LABEL_GAMES,
    SklearnLearner: LABEL_GAMES,
}

#: adversary -> the settings it applies to (``applies_to``, or ``for_setting`` where it has one)
APPLIES_TO = {
    OppositeLabel: FINITE,
    ShatteredTreeWalker: FINITE,
    BinarySearchThreshold: FINITE,
    ObliviousCoin: FINITE,
    RandomizedForcer: FINITE,
    GameMinimax: FINITE,
    BasisVectorForcer: {"disjunctions", "halfspaces", "line", "k_disjunctions"},
    DisjunctionStream: {"disjunctions", "k_disjunctions"},
    DisjunctionAdversary: {"disjunctions", "k_disjunctions"},
    MidpointAdversary: {"line"},
    SeparableStream: {"halfspaces", "line"},
    HeaviestExpertLoss: {"experts"},
    RandomExpertLosses: {"experts"},
    SplitAdvice: {"experts"},
    AlternatingLosses: {"ball", "free"},
    MinimaxAdversary: set(),
    OrderMinimax: set(),  # built for a game's order (rules), never for the textbook's game
}


def _zoo(module, base_names):
    return {getattr(module, name) for name in module.__all__ if isinstance(getattr(module, name), type)} - {
        getattr(module, name) for name in base_names
    }


def test_the_tables_cover_both_zoos():
    assert _zoo(learners, ("BatchResult", "ForHorizon", "VersionSpaceLearner")) == set(PLAYS_ON)
    assert _zoo(adversaries, ()) == set(APPLIES_TO)


def _build_adversary(cls, setting):
    if hasattr(cls, "for_setting"):
        return cls.for_setting(setting, rounds=8)
    adversary = cls()
    if not adversary.applies_to(setting):
        raise NotApplicableError(f"{cls.__name__} does not apply to {setting!r}")
    return adversary


def _partner(setting):
    """An adversary for a short realizable game on ``setting``."""
    if isinstance(setting, HypothesisClass):
        return OppositeLabel()
    if isinstance(setting, LinearSpace):
        return BasisVectorForcer()
    if isinstance(setting, KDisjunctionSpace):
        return DisjunctionStream()
    return RandomExpertLosses()


@pytest.mark.parametrize("cls", list(PLAYS_ON), ids=lambda c: c.__name__)
def test_every_learner_is_built_exactly_where_it_plays(cls):
    for name, setting in SETTINGS.items():
        if name in PLAYS_ON[cls]:
            learner = cls.for_setting(setting, rounds=8)
            assert isinstance(learner, cls), name
            if isinstance(setting, OCOSetting):
                T = play_oco(learner, RandomLinearLosses(), d=setting.d, rounds=8, seed=0, radius=setting.radius)
            else:
                T = play(learner, _partner(setting), setting, rounds=8, seed=0)
            assert len(T) >= 1, name
        else:
            with pytest.raises(NotApplicableError):
                cls.for_setting(setting, rounds=8)


def test_learners_tuned_for_a_horizon_name_rounds_when_it_is_missing():
    tuned = {ExpertsFromClass: "thresholds", LittlestoneExperts: "thresholds", WeightedMajority: "experts",
             OnlineGradientDescent: "ball", OnlineLogisticRegression: "halfspaces"}
    for cls, name in tuned.items():
        with pytest.raises(InvalidArgumentError, match="rounds"):
            cls.for_setting(SETTINGS[name])
    for cls in set(PLAYS_ON) - set(tuned):  # the others need no horizon
        name = sorted(PLAYS_ON[cls])[0]
        assert isinstance(cls.for_setting(SETTINGS[name]), cls)


@pytest.mark.parametrize("cls", list(APPLIES_TO), ids=lambda c: c.__name__)
def test_every_adversary_is_built_exactly_where_it_applies(cls):
    for name, setting in SETTINGS.items():
        if name in APPLIES_TO[cls]:
            assert _build_adversary(cls, setting) is not None, name
        else:
            with pytest.raises(NotApplicableError):
                _build_adversary(cls, setting)


# ---------------------------------------------------------------------- claims never raise
@pytest.mark.parametrize("cls", list(PLAYS_ON), ids=lambda c: c.__name__)
def test_claims_are_bounds_or_reasons_on_every_setting(cls):
    home = sorted(PLAYS_ON[cls])[0]
    learner = cls.for_setting(SETTINGS[home], rounds=8)
    for name, setting in SETTINGS.items():
        for realizable in (True, False):
            for rounds in (None, 8):
                claim = stated_bound(learner, setting, rounds=rounds, realizable=realizable)
                assert isinstance(claim, Bound) and claim.measure in MEASURES
                if claim.value is None:
                    assert claim.reason, (cls.__name__, name, realizable, rounds)
                else:
                    assert claim.source and (name == home or name in PLAYS_ON[cls]), (cls.__name__, name)
                if not is_randomized(learner) and claim.measure == "expected mistakes":
                    raise AssertionError(f"{cls.__name__} is deterministic but claims expected mistakes")
        off_home = [n for n in SETTINGS if n not in PLAYS_ON[cls]]
        for name in off_home:
            assert learner.bound(SETTINGS[name], rounds=8).value is None, (cls.__name__, name)


def test_measures_follow_the_kind_of_learner_and_of_game():
    H = SETTINGS["thresholds"]
    assert Halving(H).bound(H).measure == "mistakes"
    assert OptimalRandomizedLearner(H).bound(H).measure == "expected mistakes"
    assert ExpertsFromClass(H, 8).bound(H, rounds=8).measure == "expected mistakes"
    assert ExpertsFromClass(H, 8).bound(H, rounds=8, realizable=False).measure == "regret"
    assert DeterministicWeightedMajority(3).bound(ExpertAdvice(3)).measure == "mistakes"
    assert OnlineGradientDescent(1, eta=0.5, radius=1.0).bound(OCOSetting(1, radius=1.0)).measure == "regret"


# ---------------------------------------------------------------------- claims hold, counts are forced
FINITE_LEARNERS = {
    "Consistent": Consistent,
    "Halving": Halving,
    "SOA": SOA,
    "OptimalRandomized": OptimalRandomizedLearner,
    "VoteFraction": VoteFraction,  # a user's randomized learner: states nothing, forced counts still apply
    "ExpertsFromClass": lambda H: ExpertsFromClass(H, ROUNDS),
    "LittlestoneExperts": lambda H: LittlestoneExperts(H, ROUNDS),
    "Conservative(SOA)": lambda H: Conservative(SOA(H)),
    "Doubling": DoublingTrick.for_setting,
}
FINITE_ADVERSARIES = (OppositeLabel, ShatteredTreeWalker, BinarySearchThreshold, BasisVectorForcer, ObliviousCoin,
                      RandomizedForcer, DisjunctionAdversary)
ROUNDS = 12


def _check(T, claim, forced):
    """Neither the claim nor the forced count is broken (each judged on its own measure)."""
    for what, bound in (("claim", claim), ("forced", forced)):
        if bound is None or bound.value is None:
            continue
        value = measured(T, bound.measure)
        verdict = judge(value, bound) if what == "claim" else judge(value, forced=bound)
        assert verdict.status == "ok", (what, bound, verdict.message)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hypothesis_classes(max_hypotheses=8, max_instances=4), st.integers(0, 2**16), st.booleans())
def test_claims_and_forced_counts_hold_on_generated_classes(H, seed, realizable):
    for make in FINITE_LEARNERS.values():
        for A in FINITE_ADVERSARIES:
            adversary = A()
            if not adversary.applies_to(H):
                continue
            learner = make(H)
            forced = forced_bound(adversary, H, learner=make(H), rounds=ROUNDS, realizable=realizable)
            T = play(learner, adversary, H, rounds=ROUNDS, seed=seed, realizable=realizable)
            claim = stated_bound(learner, H, rounds=ROUNDS, realizable=realizable, transcript=T)
            _check(T, claim, forced)


SPACE_GAMES = [
    # (setting, learner factories, adversary factories, realizable)
    (LinearSpace(4, R=1.0, gamma=0.5), [Perceptron, lambda: RandomizedLinearClassifier(4, R=1.0),
                                        lambda: OnlineLogisticRegression(4, eta=0.5, radius=1.0)],
     [BasisVectorForcer, lambda: SeparableStream(4, 0.5)], True),
    (LinearSpace(3, R=1.0), [Perceptron, lambda: RandomizedLinearClassifier(3, R=1.0)],
     [lambda: SeparableStream(3, 0.2, noise=0.1)], False),
    (LinearSpace(2, R=2**0.5, gamma=0.05), [Perceptron], [MidpointAdversary], True),
    (LinearSpace(2), [Perceptron], [MidpointAdversary], True),
    (KDisjunctionSpace(40, 3), [DisjunctionElimination, Winnow, LittlestoneWinnow,
                                lambda: LittlestoneWinnow(variant="winnow1"), Perceptron],
     [DisjunctionStream, DisjunctionAdversary, BasisVectorForcer], True),
    (KDisjunctionSpace(40, 3), [Winnow], [lambda: DisjunctionStream(noise=0.1)], False),
    (ExpertAdvice(5), [lambda: WeightedMajority(5, 40), lambda: DeterministicWeightedMajority(5),
                       lambda: DoublingTrick.for_setting(ExpertAdvice(5))],
     [HeaviestExpertLoss, RandomExpertLosses, SplitAdvice], True),
    (ExpertAdvice(5), [lambda: WeightedMajority(5, 40), lambda: DeterministicWeightedMajority(5),
                       lambda: DoublingTrick.for_setting(ExpertAdvice(5))],
     [HeaviestExpertLoss, lambda: RandomExpertLosses(costs="binary", labels="coin"), SplitAdvice], False),
]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**16))
def test_claims_and_forced_counts_hold_on_the_spaces(seed):
    for setting, learner_makers, adversary_makers, realizable in SPACE_GAMES:
        for make_learner in learner_makers:
            for make_adversary in adversary_makers:
                adversary, learner = make_adversary(), make_learner()
                forced = forced_bound(adversary, setting, learner=make_learner(), rounds=40, realizable=realizable)
                T = play(learner, adversary, setting, rounds=40, seed=seed, realizable=realizable)
                claim = stated_bound(learner, setting, rounds=40, realizable=realizable, transcript=T)
                if not (isinstance(learner, Perceptron) and isinstance(setting, KDisjunctionSpace)):
                    assert claim.value is not None, (learner, adversary, claim.reason)  # every claim is tested
                _check(T, claim, forced)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**16), st.sampled_from([1, 2, 3]), st.sampled_from([1.0, 2.5]))
def test_oco_claims_and_forced_regret_hold(seed, d, B):
    S = OCOSetting(d, radius=B)
    for learner in (OnlineGradientDescent.for_setting(S, rounds=50), FollowTheLeader.for_setting(S)):
        for adversary in (AlternatingLosses(), RandomLinearLosses()):
            forced = adversary.forces(S, learner=learner, rounds=50) if hasattr(adversary, "forces") else None
            T = play_oco(learner, adversary, d=d, rounds=50, seed=seed, radius=B)
            claim = learner.bound(S, rounds=50, transcript=T)
            regret = T.best_fixed_regret()
            if claim.value is not None:
                assert judge(regret, claim).status == "ok"
            if forced is not None and forced.value is not None:
                assert judge(regret, forced=forced).status == "ok"
            learner = learner.clone()


# ---------------------------------------------------------------------- forced counts, computed here
DETERMINISTIC = (Consistent, Halving, SOA)


@pytest.mark.parametrize("H", [classes.thresholds(15), classes.intervals(6), classes.singletons(5),
                               classes.power_set(3), classes.monotone_disjunctions(3)], ids=lambda H: H.describe())
def test_tree_walker_forces_ldim_on_deterministic_learners_and_half_on_randomized(H):
    d = littlestone_dimension(H)
    for L in DETERMINISTIC:
        forced = ShatteredTreeWalker().forces(H, learner=L(H))
        assert (forced.value, forced.measure) == (d, "mistakes") and "Lemma 21.6" in forced.source
        assert play(L(H), ShatteredTreeWalker(), H, rounds=50, seed=0).mistakes == d  # exactly: d rounds
        assert ShatteredTreeWalker().forces(H, learner=L(H), rounds=1).value == min(d, 1)
    forced = ShatteredTreeWalker().forces(H, learner=VoteFraction(H))
    assert (forced.value, forced.measure) == (d / 2, "expected mistakes")
    assert play(VoteFraction(H), ShatteredTreeWalker(), H, rounds=50, seed=0).expected_mistakes >= d / 2
    regret = ShatteredTreeWalker().forces(H, learner=VoteFraction(H), realizable=False)
    assert regret.measure == "regret"  # the walk's labels follow one hypothesis


def test_tree_walker_with_a_given_tree_forces_its_depth():
    from mistakebound import shattered_tree

    H = classes.thresholds(7)
    tree = shattered_tree(H)
    assert ShatteredTreeWalker(tree).forces(H, learner=Halving(H)).value == 3
    G = classes.singletons(7)
    assert "not shattered" in ShatteredTreeWalker(tree).forces(G, learner=Halving(G)).reason
    assert "finite class" in ShatteredTreeWalker().forces(LinearSpace(2), learner=Perceptron()).reason


@pytest.mark.parametrize("N", [1, 2, 6, 7, 31, 100])
def test_binary_search_forces_floor_log2_of_N_plus_1(N):
    H = classes.thresholds(N)
    floor_log = int(math.floor(math.log2(N + 1)))
    for L in DETERMINISTIC:
        forced = BinarySearchThreshold().forces(H, learner=L(H))
        assert forced.value == floor_log
        assert play(L(H), BinarySearchThreshold(), H, rounds=2 * N + 2, seed=0).mistakes >= forced.value
    reordered = HypothesisClass.from_matrix(H.matrix[::-1], domain=H.domain)
    assert BinarySearchThreshold().forces(reordered, learner=Halving(reordered)).value == floor_log
    G = classes.intervals(4)
    assert BinarySearchThreshold().forces(G, learner=Halving(G)).value is None


@pytest.mark.parametrize("n", [1, 3, 5])
def test_basis_vectors_force_n_on_every_class_that_shatters_them(n):
    for H in (classes.monotone_disjunctions(n), classes.disjunctions(n)):
        assert adversaries.basis_vector_forcer.shatters_basis_vectors(H)
        for L in DETERMINISTIC:
            forced = BasisVectorForcer().forces(H, learner=L(H))
            assert forced.value == n
            assert play(L(H), BasisVectorForcer(), H, rounds=3 * n, seed=0).mistakes >= n
    G = classes.projections(3)  # not shattered: no count in a realizable game, every round in an unrealizable one
    assert BasisVectorForcer().forces(G, learner=Halving(G)).value is None
    assert BasisVectorForcer().forces(G, learner=Halving(G), realizable=False).value == 3
    assert play(Halving(G), BasisVectorForcer(), G, rounds=5, seed=0, realizable=False).mistakes == 3
    S = LinearSpace(12, R=2.0, gamma=2.0 / 3.0)  # (R/gamma)^2 = 9 basis vectors fit
    assert BasisVectorForcer().forces(S, learner=Perceptron()).value == 9
    assert play(Perceptron(), BasisVectorForcer(), S, rounds=20, seed=0).mistakes == 9
    assert BasisVectorForcer().forces(KDisjunctionSpace(50, 4), learner=Winnow()).value == 4


def test_midpoint_forces_its_guaranteed_rounds_and_every_round_without_a_margin():
    T = play(Perceptron(), MidpointAdversary(), LinearSpace(2), rounds=200, seed=0)
    forced = MidpointAdversary().forces(LinearSpace(2), learner=Perceptron())
    assert forced.value == 51 and T.mistakes == len(T) >= forced.value
    S = LinearSpace(2, R=2**0.5, gamma=0.05)
    forced = MidpointAdversary().forces(S, learner=Perceptron())
    assert forced.value == 3 and play(Perceptron(), MidpointAdversary(), S, rounds=100, seed=0).mistakes >= 3
    assert MidpointAdversary().forces(LinearSpace(3), learner=Perceptron()).value is None


def test_randomized_forcer_forces_rl_and_its_ceiling():
    from fractions import Fraction

    H = classes.power_set(3)  # RL = 3/2
    assert RandomizedForcer().forces(H, learner=SOA(H)).value == 2
    claim = RandomizedForcer().forces(H, learner=OptimalRandomizedLearner(H))
    assert (claim.value, claim.measure) == (1.5, "expected mistakes")
    T = play(OptimalRandomizedLearner(H), RandomizedForcer(), H, rounds=10, seed=0)
    assert T.expected_mistakes == claim.value == float(Fraction(3, 2))
    assert "horizon" in RandomizedForcer().forces(H, learner=SOA(H), rounds=2).reason


def test_split_advice_and_heaviest_expert_and_disjunction_adversary_counts():
    S = ExpertAdvice(16)
    L = DeterministicWeightedMajority(16)
    assert SplitAdvice().forces(S, learner=L).value == 4
    assert play(L, SplitAdvice(), S, rounds=30, seed=0).mistakes >= 4
    assert SplitAdvice().forces(S, learner=WeightedMajority(16, 30)).measure == "expected mistakes"
    assert "horizon" in SplitAdvice().forces(S, learner=L, realizable=False).reason
    wm = WeightedMajority(4, 20)
    forced = HeaviestExpertLoss().forces(ExpertAdvice(4), learner=wm, rounds=20, realizable=False)
    T = play(WeightedMajority(4, 20), HeaviestExpertLoss(), ExpertAdvice(4), rounds=20, seed=0, realizable=False)
    assert T.regret == pytest.approx(forced.value, abs=1e-9)  # exact, not only a lower bound
    assert HeaviestExpertLoss().forces(ExpertAdvice(4), learner=L, rounds=20).value is None
    realizable = HeaviestExpertLoss().forces(ExpertAdvice(4), learner=wm, rounds=20)
    assert realizable.value == pytest.approx(
        play(WeightedMajority(4, 20), HeaviestExpertLoss(), ExpertAdvice(4), rounds=20, seed=0).expected_mistakes)
    K = KDisjunctionSpace(8, 8)
    assert DisjunctionAdversary().forces(K, learner=Winnow()).value == 8  # k = n: the basis-vector count
    assert DisjunctionAdversary().forces(K, learner=Winnow(), rounds=5).value == 5
    odd = classes.power_set(3)  # not over {0,1}^n
    assert DisjunctionAdversary().forces(odd, learner=Halving(odd)).value is None


def test_opposite_label_forces_every_round_of_an_unrealizable_game_only():
    H = classes.thresholds(7)
    assert OppositeLabel().forces(H, learner=Halving(H), rounds=30, realizable=False).value == 30
    assert OppositeLabel().forces(H, learner=Halving(H), rounds=30).value is None
    assert OppositeLabel().forces(H, learner=VoteFraction(H), rounds=30, realizable=False).value == 15


def test_minimax_adversary_forces_the_worst_case_on_its_own_learner_only():
    H = classes.singletons(5, include_empty=True)
    W = worst_case_mistakes(Consistent(H), H)
    A = MinimaxAdversary(W.strategy)
    forced = A.forces(H, learner=Consistent(H))
    assert forced.value == W.value == 5 == play(Consistent(H), A, H, rounds=10, seed=0).mistakes
    assert A.forces(H, learner=Consistent(H), rounds=2).value == 2
    other = A.forces(H, learner=Halving(H))
    assert other.value is None and "another learner" in other.reason
    trained = Consistent(H)
    trained.learn_one(1, 0)
    assert A.forces(H, learner=trained).value is None
    with pytest.raises(NotApplicableError, match="worst_case_mistakes"):
        MinimaxAdversary.for_setting(H)
    G = classes.singletons(3)
    R = worst_case_mistakes(VoteFraction(G), G)
    forced = MinimaxAdversary(R.strategy).forces(G, learner=VoteFraction(G))
    assert forced.measure == "expected mistakes" and forced.value == pytest.approx(R.value)
