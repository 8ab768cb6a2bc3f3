"""The learner zoo: online learners for the mistake-bound game.

Every learner has ``predict_one`` (or, randomized, ``predict_proba_one``) and
``learn_one`` (river's convention), states its claim through one method,
``bound(setting, *, rounds=None, realizable=True, transcript=None)``, which returns a
:class:`~mistakebound.verification.claims.Bound` citing the theorem (or none, with the
reason, when the game does not meet the theorem's assumptions), and is built for a
setting by the classmethod ``for_setting(setting, *, rounds=None)``.  The formulas
behind the claims are functions of their modules, named for what they compute
(``margin_bound``, ``weighted_majority_regret_bound``, ``winnow_lecture_bound``, ...).

* finite classes, realizable: :class:`Consistent`, :class:`Halving`, :class:`SOA`;
* halfspaces: :class:`Perceptron` (and :func:`play_perceptron_batch`, many seeded games
  at once with numpy);
* monotone disjunctions: :class:`DisjunctionElimination`, :class:`Winnow` (the
  exponentiated-gradient form), :class:`LittlestoneWinnow`;
* expert advice and agnostic finite classes: :class:`WeightedMajority`,
  :class:`DeterministicWeightedMajority`, :class:`ExpertsFromClass`,
  :class:`LittlestoneExperts`;
* online convex optimisation and linear classification with regret bounds:
  :class:`OnlineGradientDescent`, :class:`FollowTheLeader`,
  :class:`OnlineLogisticRegression`, :class:`RandomizedLinearClassifier`;
* randomized and optimal: :class:`OptimalRandomizedLearner` (meets the randomized
  Littlestone dimension);
* the game's other settings (:class:`~mistakebound.game.rules.Rules`: many labels, bandit
  feedback, a noise budget): :class:`GameSOA` (the optimal learner of any rules) and
  :class:`PluralityHalving`; their ``bound`` takes the game's ``rules``;
* the games in which someone else orders the instances (``Rules(order=...)``: transductive,
  self-directed, best and worst order): :class:`OrderSOA`, the optimal learner of each order
  (the textbook's too, as :class:`GameSOA`), claiming the order's value (a learner of the textbook's game plays the transductive and
  worst orders too, the announcement ignored: :mod:`mistakebound.game.orders`);
* wrappers: :class:`Conservative`, :class:`DoublingTrick` (and the online-to-batch
  and mistake-bound-to-PAC conversions in :mod:`mistakebound.learners.conversions`);
* from the ecosystem: :class:`RiverLearner`, :class:`SklearnLearner`.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.learners import SOA
>>> H = classes.singletons(4)
>>> SOA.for_setting(H).bound(H).describe()
'1 on mistakes (Lemma 21.7 (textbook ch. 21): M <= Ldim(H))'
"""

from mistakebound.learners.adapters import RiverLearner, SklearnLearner
from mistakebound.learners.batched import BatchResult, play_perceptron_batch
from mistakebound.learners.conservative import Conservative
from mistakebound.learners.consistent import Consistent
from mistakebound.learners.doubling import DoublingTrick, ForHorizon
from mistakebound.learners.elimination import DisjunctionElimination
from mistakebound.learners.experts_from_class import ExpertsFromClass
from mistakebound.learners.gradient import FollowTheLeader, OnlineGradientDescent, OnlineLogisticRegression
from mistakebound.learners.halving import Halving
from mistakebound.learners.littlestone_experts import LittlestoneExperts
from mistakebound.learners.optimal_randomized import OptimalRandomizedLearner
from mistakebound.learners.perceptron import Perceptron
from mistakebound.learners.randomized_linear import RandomizedLinearClassifier
from mistakebound.learners.soa import SOA
from mistakebound.learners.version_space import VersionSpaceLearner
from mistakebound.learners.weighted_majority import DeterministicWeightedMajority, WeightedMajority
from mistakebound.learners.winnow import LittlestoneWinnow, Winnow
from mistakebound.learners.game_soa import GameSOA, PluralityHalving
from mistakebound.learners.order_soa import OrderSOA

__all__ = [
    "BatchResult",
    "Conservative",
    "Consistent",
    "DeterministicWeightedMajority",
    "DisjunctionElimination",
    "DoublingTrick",
    "ExpertsFromClass",
    "FollowTheLeader",
    "ForHorizon",
    "GameSOA",
    "Halving",
    "LittlestoneExperts",
    "LittlestoneWinnow",
    "OnlineGradientDescent",
    "OnlineLogisticRegression",
    "OptimalRandomizedLearner",
    "OrderSOA",
    "Perceptron",
    "PluralityHalving",
    "RandomizedLinearClassifier",
    "RiverLearner",
    "SOA",
    "SklearnLearner",
    "VersionSpaceLearner",
    "WeightedMajority",
    "Winnow",
    "play_perceptron_batch",
]
