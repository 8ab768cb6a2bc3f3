"""The adversary zoo: environments that pick instances and labels.

An adversary that provably forces mistakes says how many through one method,
``forces(setting, *, learner, rounds=None, realizable=True)``, which returns a
:class:`~mistakebound.verification.claims.Bound` (a lower bound, citing where the count
comes from), or none with the reason.  Those that need more than their defaults to be
built for a setting have a classmethod ``for_setting(setting, *, rounds=None)``.

:class:`OppositeLabel`, :class:`ShatteredTreeWalker`, :class:`BinarySearchThreshold`,
:class:`ObliviousCoin` and :class:`RandomizedForcer` (which forces the randomized
Littlestone dimension) play on finite classes, and :class:`BasisVectorForcer` on finite
classes over 0/1 vectors and on the spaces; the others play on halfspaces
(:class:`MidpointAdversary`, :class:`SeparableStream`), k-disjunctions
(:class:`DisjunctionStream`, :class:`DisjunctionAdversary`), expert advice
(:class:`HeaviestExpertLoss`, :class:`RandomExpertLosses`, :class:`SplitAdvice`), or
replay an exact worst case (:class:`MinimaxAdversary`); :class:`AlternatingLosses` is the
Follow-the-Leader failure sequence of online convex optimisation
(:func:`mistakebound.game.oco.play_oco`).  :class:`GameMinimax` is the optimal adversary of
any rules (many labels, bandit feedback, a noise budget: :class:`~mistakebound.game.rules.Rules`),
by exact search; its ``forces`` takes the game's ``rules``.  :class:`OrderMinimax` is the optimal
adversary of the games in which someone else orders the instances (``Rules(order=...)``).

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.adversaries import BasisVectorForcer
>>> BasisVectorForcer().applies_to(classes.monotone_disjunctions(3))
True
>>> BasisVectorForcer().applies_to(classes.thresholds(3))
False
>>> from mistakebound.learners import Halving
>>> H = classes.monotone_disjunctions(3)
>>> BasisVectorForcer().forces(H, learner=Halving(H)).value
3
"""

from mistakebound.adversaries.alternating_losses import AlternatingLosses
from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.binary_search_threshold import BinarySearchThreshold
from mistakebound.adversaries.disjunction_stream import DisjunctionAdversary, DisjunctionStream
from mistakebound.adversaries.expert_adversaries import HeaviestExpertLoss, RandomExpertLosses, SplitAdvice
from mistakebound.adversaries.midpoint import MidpointAdversary
from mistakebound.adversaries.minimax import MinimaxAdversary
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.adversaries.opposite_label import OppositeLabel
from mistakebound.adversaries.randomized_forcer import RandomizedForcer
from mistakebound.adversaries.separable_stream import SeparableStream
from mistakebound.adversaries.shattered_tree_walker import ShatteredTreeWalker
from mistakebound.adversaries.game_minimax import GameMinimax
from mistakebound.adversaries.order_minimax import OrderMinimax

__all__ = [
    "OppositeLabel",
    "ShatteredTreeWalker",
    "BinarySearchThreshold",
    "BasisVectorForcer",
    "ObliviousCoin",
    "MidpointAdversary",
    "SeparableStream",
    "DisjunctionStream",
    "DisjunctionAdversary",
    "HeaviestExpertLoss",
    "RandomExpertLosses",
    "SplitAdvice",
    "MinimaxAdversary",
    "AlternatingLosses",
    "RandomizedForcer",
    "GameMinimax",
    "OrderMinimax",
]
