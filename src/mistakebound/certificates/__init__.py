"""Certificates: proofs of exact results that a small, independent checker verifies.

A certificate is a JSON document (format ``mistakebound-certificate``, version 1) holding
the class it speaks of (its rows and their SHA-256), a table of version spaces (row sets,
as bitsets or as parts of earlier ones) and one section per result, each a list of facts
justified one step at a time by facts listed before it.  The searches write them
(:mod:`mistakebound.theory.certificate` and the producers beside each search; ``--certificate``
on the command line); this package checks them and imports nothing of the searches, nor
anything outside the standard library:

* :mod:`~mistakebound.certificates.verify`: the document, the class and the spaces, and the
  program (``python -I -S verify.py FILE`` runs it alone);
* :mod:`~mistakebound.certificates.ldim`: the Littlestone dimension (textbook recursion), with
  relabelled and shifted copies of version spaces checked row by row;
* :mod:`~mistakebound.certificates.vc`: the VC dimension;
* :mod:`~mistakebound.certificates.worst_case`: a learner's worst case ``M_A(H)`` (textbook
  Definition 21.1) for the predictions and moves the certificate records;
* :mod:`~mistakebound.certificates.randomized`: the randomized Littlestone dimension
  (Filmus, Hanneke, Mehalel and Moran 2023), in exact fractions.
"""

__all__: list[str] = []
