"""The adversary zoo: environments that pick instances and labels.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.adversaries import BasisVectorForcer
>>> BasisVectorForcer().applies_to(classes.monotone_disjunctions(3))
True
>>> BasisVectorForcer().applies_to(classes.thresholds(3))
False
"""

from mistakebound.adversaries.basis_vector_forcer import BasisVectorForcer
from mistakebound.adversaries.binary_search_threshold import BinarySearchThreshold
from mistakebound.adversaries.oblivious_coin import ObliviousCoin
from mistakebound.adversaries.opposite_label import OppositeLabel
from mistakebound.adversaries.shattered_tree_walker import ShatteredTreeWalker

__all__ = [
    "OppositeLabel",
    "ShatteredTreeWalker",
    "BinarySearchThreshold",
    "BasisVectorForcer",
    "ObliviousCoin",
    "ADVERSARIES",
]

#: The five adversaries the framework is built around, in the order tables list them.
ADVERSARIES = (OppositeLabel, ShatteredTreeWalker, BinarySearchThreshold, BasisVectorForcer, ObliviousCoin)
