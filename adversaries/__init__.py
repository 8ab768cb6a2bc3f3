"""The adversary zoo: environments that pick instances and labels.

:data:`ADVERSARIES` holds the five built around finite classes; the others play on
halfspaces (:class:`MidpointAdversary`, :class:`SeparableStream`, and
:class:`BasisVectorForcer` there too), k-disjunctions (:class:`DisjunctionStream`,
:class:`DisjunctionAdversary`), expert advice (:class:`HeaviestExpertLoss`,
:class:`RandomExpertLosses`, :class:`SplitAdvice`), or replay an exact worst case
(:class:`MinimaxAdversary`), or force the randomized Littlestone dimension
(:class:`RandomizedForcer`); :class:`AlternatingLosses` is the Follow-the-Leader
failure sequence of online convex optimisation (:func:`mistakebound.game.oco.play_oco`).

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.adversaries import BasisVectorForcer
>>> BasisVectorForcer().applies_to(classes.monotone_disjunctions(3))
True
>>> BasisVectorForcer().applies_to(classes.thresholds(3))
False
"""

from mistakebound.adversaries.alternating_losses import AlternatingLosses
from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.binary_search_threshold import BinarySearchThreshold
from mistakebound.adversaries.disjunction_stream import DisjunctionAdversary, DisjunctionStream
from mistakebound.adversaries.expert_adversaries import HeaviestExpertLoss, RandomExpertLosses, SplitAdvice
from mistakebound.adversaries.midpoint import MidpointAdversary
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.adversaries.opposite_label import OppositeLabel
from mistakebound.adversaries.randomized_forcer import RandomizedForcer
from mistakebound.adversaries.separable_stream import SeparableStream
from mistakebound.adversaries.shattered_tree_walker import ShatteredTreeWalker
from mistakebound.theory.worst_case import MinimaxAdversary

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
    "ADVERSARIES",
]

#: The five adversaries the framework is built around, in the order tables list them.
ADVERSARIES = (OppositeLabel, ShatteredTreeWalker, BinarySearchThreshold, BasisVectorForcer, ObliviousCoin)
