"""The learner zoo: online learners for the mistake-bound game.

Every learner has ``predict_one`` / ``learn_one`` (river's convention) and states its
proven bound with ``mistake_bound(H)``.

Examples
--------
>>> from mistakebound import classes
>>> from mistakebound.learners import SOA
>>> SOA.mistake_bound(classes.singletons(4))
1
"""

from mistakebound.learners.consistent import Consistent
from mistakebound.learners.halving import Halving
from mistakebound.learners.soa import SOA
from mistakebound.learners.version_space import VersionSpaceLearner

__all__ = ["Consistent", "Halving", "SOA", "VersionSpaceLearner", "REALIZABLE_LEARNERS"]

#: The learners for finite classes in realizable games, in the order tables list them.
REALIZABLE_LEARNERS = (Consistent, Halving, SOA)
