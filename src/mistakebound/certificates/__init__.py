"""Certificates: proofs of exact results that a small, independent checker verifies.

A certificate is a JSON document (format ``mistakebound-certificate``, version 1) holding
the class it speaks of, a table of version spaces (row sets, as bitsets) and a list of
*facts* ``Ldim(V) >= a`` / ``Ldim(V) <= b``, each justified by one step of the textbook
recursion over facts listed before it.  :mod:`mistakebound.certificates.verify` checks
every step against the definitions, with plain Python integers, and imports nothing of
the searches: a referee can read it in one sitting and run it on its own
(``python verify.py CERTIFICATE.json``).

This is the first part of issue 14: the format and the checker for the Littlestone
dimension (both sides, partial intervals included).  Certificates for the VC dimension,
worst cases and the randomized Littlestone dimension, the producer inside the fast
search (with canonical-form mappings) and the command line come next.
"""

__all__: list[str] = []
