"""Small classes that make a point, each checked by the test suite.

Examples
--------
>>> from mistakebound import littlestone_dimension
>>> from mistakebound.learners import Halving
>>> from mistakebound.theory.worst_case import worst_case_mistakes
>>> H = halving_exceeds_ldim()
>>> littlestone_dimension(H), worst_case_mistakes(Halving(H), H).value
(2, 3)
"""

from __future__ import annotations

from mistakebound.game.hypothesis_class import HypothesisClass

__all__ = ["halving_exceeds_ldim"]


def halving_exceeds_ldim() -> HypothesisClass:
    """A class on which Halving's worst case (3) exceeds the Littlestone dimension (2).

    Nine hypotheses over eight instances ``x0, a, b, s1..s5``: four label ``x0`` with 1
    and realise every labeling of ``a, b`` (a power set of Ldim 2); five label ``x0``
    with 0 and are singletons on ``s1..s5`` (Ldim 1).  The class has Ldim 2: any root
    leaves one side of Ldim at most 1.  On ``x0`` Halving follows the majority, the
    five singletons, and predicts 0; the adversary answers 1 and is left with the power
    set, where it forces two more mistakes: 3 in all.  SOA compares Ldims instead (2
    against 1), predicts 1 on ``x0`` and makes at most 2.  With four singletons the
    vote ties, Halving predicts 1, and its worst case drops back to 2, so five is the
    smallest number of singletons that works in this construction.  (Found by the
    exact search of :func:`mistakebound.theory.worst_case.worst_case_mistakes`.)

    Examples
    --------
    >>> H = halving_exceeds_ldim()
    >>> H.n_hypotheses, H.domain[:3]
    (9, ('x0', 'a', 'b'))
    """
    rows = [[1, a, b, 0, 0, 0, 0, 0] for a in (0, 1) for b in (0, 1)]
    rows += [[0, 0, 0] + [int(j == i) for j in range(5)] for i in range(5)]
    names = [f"x0 & a={a} & b={b}" for a in (0, 1) for b in (0, 1)] + [f"s{i + 1}" for i in range(5)]
    return HypothesisClass.from_matrix(
        rows, domain=("x0", "a", "b", "s1", "s2", "s3", "s4", "s5"), names=names, name="halving_exceeds_ldim"
    )
