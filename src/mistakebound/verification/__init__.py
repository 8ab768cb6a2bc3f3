"""Verification: claims and verdicts, one judged game, scenarios and suites, and the users' kit.

* :mod:`~mistakebound.verification.claims`: the claims (:class:`Bound`), their one lookup
  and the one verdict; :mod:`~mistakebound.verification.judged`: one judged game
  (state the claims, play, judge), the door every front end plays through;
* :mod:`~mistakebound.verification.bounds`: the textbook's bounds as functions of a class;
* :mod:`~mistakebound.verification.scenario` and :mod:`~mistakebound.verification.suites`:
  the experiments ``mistakebound check`` runs; :mod:`~mistakebound.verification.selfcheck`:
  the learner-by-adversary grid;
* :mod:`~mistakebound.verification.checks`, :mod:`~mistakebound.verification.strategies`,
  :mod:`~mistakebound.verification.pytest_plugin`: checks, hypothesis strategies and a
  pytest report for users' own learners.

It imports the theory, the game and the foundations, never the interfaces.
"""

__all__: list[str] = []
