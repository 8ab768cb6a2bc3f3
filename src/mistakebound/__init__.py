"""mistakebound: the online mistake-bound game, played and verified exactly.

The package is built in layers, each importing only those before it:

* :mod:`mistakebound.foundations`: errors, argument validation, bitsets, files, memory;
* :mod:`mistakebound.game`: hypothesis classes (the zoo in :mod:`mistakebound.game.classes`)
  and spaces, the players' protocols, the referee :func:`play`, transcripts, and the one
  registry of names (:mod:`mistakebound.game.registry`);
* :mod:`mistakebound.theory`: the exact searches (:func:`littlestone_dimension`,
  :func:`shattered_tree`, :func:`vc_dimension`, :func:`randomized_littlestone_dimension`,
  :func:`worst_case_mistakes`) over one budget and result shape;
* :mod:`mistakebound.verification`: claims and verdicts (:func:`stated_bound`,
  :func:`judge`), one judged game (:func:`judged_game`), the check command's suites, and
  the users' checks and strategies;
* :mod:`mistakebound.interfaces`: the command line, sweeps, figures.

The two zoos of players, :mod:`mistakebound.learners` and :mod:`mistakebound.adversaries`,
sit beside them; the core reaches them only through the registry.  This module gathers
the public names.

Examples
--------
>>> import mistakebound as mb
>>> H = mb.classes.thresholds(15)
>>> mb.littlestone_dimension(H), mb.vc_dimension(H)
(4, 1)
>>> mb.judge(4, mb.Bound(4.0, source="Theorem 21.3")).status
'ok'
"""

from mistakebound.interfaces.startup import guard_startup as _guard_startup

_guard_startup()  # in the `mistakebound` command only: Ctrl-C while the package loads exits 3, one line

from mistakebound.foundations import errors  # noqa: E402
from mistakebound.foundations.lazy import lazy_attributes as _lazy_attributes
from mistakebound.game import classes, registry  # noqa: E402
from mistakebound.game.play import GameState, Observer, observing, play
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.oco import HingeLoss, LinearLoss, LogisticLoss, OCOTranscript, play_oco
from mistakebound.game.spaces import ExpertAdvice, KDisjunctionSpace, LinearSpace
from mistakebound.game.class_files import class_from_json, class_to_json, load_class, save_class
from mistakebound.game.transcript_json import transcript_from_json, transcript_to_json
from mistakebound.game.transcript import Round, Transcript

__all__ = [
    "Bound",
    "Budget",
    "Observer",
    "SearchIncomplete",
    "SearchInterrupted",
    "SearchResult",
    "Verdict",
    "JudgedGame",
    "forced_bound",
    "judge",
    "judge_transcript",
    "judged_game",
    "measured",
    "observing",
    "registry",
    "stated_bound",
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
    "GameValue",
    "Rules",
    "game_value",
    "randomized_littlestone_bounds",
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

#: The searches and the claims, imported when first used (``mistakebound.littlestone_dimension``):
#: the commands that need none of them, ``verify`` above all, never load them.
_SEARCHES = {
    "mistakebound.theory.search_protocol": ("Budget", "SearchIncomplete", "SearchInterrupted", "SearchResult"),
    "mistakebound.verification.claims": ("Bound", "Verdict", "forced_bound", "judge", "judge_transcript", "measured",
                                         "stated_bound"),
    "mistakebound.verification.judged": ("JudgedGame", "judged_game"),
    "mistakebound.verification": ("bounds",),
    "mistakebound.theory.littlestone": ("LdimSearch", "is_shattered", "littlestone_bounds", "littlestone_dimension",
                                        "shattered_tree"),
    "mistakebound.theory.randomized_ldim": ("randomized_littlestone_bounds", "randomized_littlestone_dimension"),
    "mistakebound.theory.worst_case": ("WorstCase", "worst_case_mistakes"),
    "mistakebound.theory.game_values": ("GameValue", "game_value"),
    "mistakebound.game.rules": ("Rules",),
    "mistakebound.theory.vc": ("VCBounds", "is_vc_shattered", "shattered_set", "vc_bounds", "vc_dimension"),
}
__getattr__, __dir__ = _lazy_attributes(globals(), _SEARCHES)
