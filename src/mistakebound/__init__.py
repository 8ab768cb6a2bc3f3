"""mistakebound: the online mistake-bound game, played and verified exactly.

The engine (:func:`play`), finite hypothesis classes (:class:`HypothesisClass` and the
zoo in :mod:`mistakebound.game.classes`), the dimensions (:func:`littlestone_dimension`,
:func:`shattered_tree`, :func:`vc_dimension`), and the two zoos of players,
:mod:`mistakebound.learners` and :mod:`mistakebound.adversaries`.

Examples
--------
>>> import mistakebound as mb
>>> H = mb.classes.thresholds(15)
>>> mb.littlestone_dimension(H), mb.vc_dimension(H)
(4, 1)
"""

from mistakebound.verification import bounds
from mistakebound.game import classes
from mistakebound.foundations import errors
from mistakebound.game.play import GameState, play
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.oco import HingeLoss, LinearLoss, LogisticLoss, OCOTranscript, play_oco
from mistakebound.theory.littlestone import LdimSearch, is_shattered, littlestone_bounds, littlestone_dimension, shattered_tree
from mistakebound.theory.randomized import randomized_littlestone_dimension
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace
from mistakebound.interfaces.serialize import class_from_json, class_to_json, load_class, save_class, transcript_from_json, transcript_to_json
from mistakebound.game.transcript import Round, Transcript
from mistakebound.theory.worst_case import WorstCase, worst_case_mistakes
from mistakebound.theory.vc import VCBounds, is_vc_shattered, shattered_set, vc_bounds, vc_dimension

__all__ = [
    "HypothesisClass",
    "ExpertAdvice",
    "HingeLoss",
    "KDisjunctionSpace",
    "LinearLoss",
    "LinearSpace",
    "LogisticLoss",
    "OCOTranscript",
    "WorstCase",
    "play_oco",
    "randomized_littlestone_dimension",
    "worst_case_mistakes",
    "GameState",
    "LdimSearch",
    "Round",
    "Transcript",
    "bounds",
    "classes",
    "errors",
    "is_shattered",
    "is_vc_shattered",
    "littlestone_bounds",
    "littlestone_dimension",
    "class_from_json",
    "class_to_json",
    "load_class",
    "save_class",
    "transcript_from_json",
    "transcript_to_json",
    "play",
    "shattered_set",
    "shattered_tree",
    "vc_dimension",
    "vc_bounds",
    "VCBounds",
]

__version__ = "0.1.0"
