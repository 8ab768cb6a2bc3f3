"""Certificates: proofs of exact results that a small, independent checker verifies.

A certificate is a JSON document (format ``mistakebound-certificate``, version 2) holding
the class it speaks of (its rows, its domain and their SHA-256), a table of version spaces
(row sets, as bitsets or as parts of earlier ones) and one section per result, each a list
of facts justified one step at a time by facts listed before it.  The searches write them
(:mod:`mistakebound.theory.certificate` and the producers beside each search; ``--certificate``
on the command line); this package checks them and imports nothing of the searches, nor
anything outside the standard library:

* :mod:`~mistakebound.certificates.verify`: the document's header, what is verified (a
  statement per result, naming the class and, for a worst case, the horizon and the
  learner), and the program (``python -I -S verify.py FILE`` runs it alone);
* :mod:`~mistakebound.certificates.document`: reading a file within bounds (regular files
  only, text capped by the memory the checker may use) through one strict JSON grammar;
* :mod:`~mistakebound.certificates.context`: the class and its identity, the table of
  spaces, the grammar of values, and relabelled and shifted copies of spaces;
* :mod:`~mistakebound.certificates.ldim`: the Littlestone dimension (textbook recursion);
* :mod:`~mistakebound.certificates.vc`: the VC dimension;
* :mod:`~mistakebound.certificates.worst_case`: a learner's worst case ``M_A(H)`` (textbook
  Definition 21.1) for the predictions and moves the certificate records;
* :mod:`~mistakebound.certificates.randomized`: the randomized Littlestone dimension
  (Filmus, Hanneke, Mehalel and Moran 2023), in exact fractions;
* :mod:`~mistakebound.certificates.positions`: the game's positions under other rules (``k``
  labels, bandit feedback, a noise budget), its outcomes and the bounds a search stops at;
* :mod:`~mistakebound.certificates.game_value`: the game's value for deterministic learners,
  with full information and under bandit feedback;
* :mod:`~mistakebound.certificates.randomized_value`: the game's value for randomized
  learners with full information, in exact fractions;
* :mod:`~mistakebound.certificates.randomized_bandit_value`: the game's value for randomized
  learners under bandit feedback, a matrix game at each step, in exact fractions;
* :mod:`~mistakebound.certificates.horizon_value`: the value of a game of a few rounds for
  randomized learners against an oblivious or an adaptive adversary, from both players'
  strategies in sequence form;
* :mod:`~mistakebound.certificates.threshold`: the threshold dimension (a sequence, and a tree
  over the states of growing one, or the Littlestone dimension's bound);
* :mod:`~mistakebound.certificates.stars`: the star number (a star, and a tree per center or a
  cover by chains) and the one-inclusion graph's largest degree (a star, and a recount);
* :mod:`~mistakebound.certificates.teaching`: the teaching dimension, the minimum teaching set
  size and the recursive teaching dimension (``"td"``, ``"tsmin"``, ``"rtd"``), from teaching
  sets and plans above and hitting trees below;
* :mod:`~mistakebound.certificates.self_directed` and :mod:`~mistakebound.certificates.orders`:
  the games in which someone else orders the instances, for deterministic learners: the
  self-directed complexity, the best and the worst order's values and the transductive value
  at a horizon, from the order itself, bounds cited from earlier results, and prefix trees.

Each kind's module argues, step by step, why a step that checks is true; each condition the
argument relies on is named in brackets, and the line of code that checks it carries the
same name (``tests/test_certificates_mutations.py`` disables each such line in turn and shows
that a false certificate then gets through).
"""

__all__: list[str] = []
