"""The game: hypothesis classes and spaces, the players' protocols, the referee and transcripts.

* :mod:`~mistakebound.game.hypothesis_class`, :mod:`~mistakebound.game.classes` (the zoo),
  :mod:`~mistakebound.game.counterexamples`, :mod:`~mistakebound.game.spaces`: where games are played;
* :mod:`~mistakebound.game.setting`: the Setting protocol every place of play answers (its
  labels, its referee, how a game's totals fold), and :mod:`~mistakebound.game.rules`: the
  move rules the referee and every search read;
* :mod:`~mistakebound.game.players`: the learner and adversary protocols;
* :mod:`~mistakebound.game.play`: the referee, :func:`~mistakebound.game.play.play`, and
  :mod:`~mistakebound.game.observers`: what watches a game while it is played;
* :mod:`~mistakebound.game.transcript`, :mod:`~mistakebound.game.version_space`;
* :mod:`~mistakebound.game.class_files` (classes in ``.npy``, ``.csv``, ``.json`` files),
  :mod:`~mistakebound.game.transcript_json` (transcripts as JSON);
* :mod:`~mistakebound.game.oco`: the online convex optimisation game;
* :mod:`~mistakebound.game.registry`: players, classes and spaces by name.

It imports only :mod:`mistakebound.foundations`.
"""

__all__: list[str] = []
