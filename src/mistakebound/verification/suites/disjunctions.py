"""Scenarios for monotone k-disjunctions: elimination, the EG Winnow and Littlestone's Winnow.

Each learner plays the random stream and the adaptive halving adversary, on
``KDisjunctionSpace(1000, 3)`` (no table; the adversary certifies the target) and on
the finite zoo class ``monotone_disjunctions(6)`` (the engine tracks the version
space), against its bound: ``n`` for elimination (seed ``001``), the lecture's
``8 (k+1) ln d`` for the EG Winnow (seed ``003`` section 5.2; ``k = n`` on the finite
class), ``(alpha+1) k (log_alpha theta + 1) + alpha n / ((alpha-1) theta)`` for WINNOW2
and ``alpha k (log_alpha theta + 1) + n / theta`` for WINNOW1 (Littlestone 1988; see
:class:`~mistakebound.learners.winnow.LittlestoneWinnow`).  The adaptive adversary's
rows also carry the mistakes it forces on every deterministic learner.

Noise rows (10% of the labels flipped, unrealizable games) exist only for the EG
Winnow, the one learner with an agnostic bound in the texts: the lecture's
``2 [4 (k+1) ln d + sum_t f_t(u)]`` with ``u`` the stream's target and ``f_t`` its
hinge loss on the mistake rounds.  Elimination and Littlestone's Winnow have no bound
under noise in the sources (a single flipped negative can make elimination drop a
target variable for good), so they get no noise row.

Examples
--------
>>> [s.run(0).verdict for s in SCENARIOS] == ["ok"] * len(SCENARIOS)
True
"""

from __future__ import annotations

from collections.abc import Callable

from mistakebound.game import classes
from mistakebound.adversaries.disjunction_stream import DisjunctionAdversary, DisjunctionStream
from mistakebound.game.play import play
from mistakebound.learners.elimination import DisjunctionElimination
from mistakebound.learners.winnow import LittlestoneWinnow, Winnow, disjunction_hinge_losses
from mistakebound.verification.scenario import Outcome, Scenario
from mistakebound.game.spaces import KDisjunctionSpace

__all__ = ["SCENARIOS"]

_N, _K, _ROUNDS = 1000, 3, 150
_FINITE_N, _FINITE_ROUNDS = 6, 80

_LEARNERS: tuple[tuple[str, Callable, Callable[[int, int], float], str], ...] = (
    ("DisjunctionElimination", DisjunctionElimination, lambda n, k: DisjunctionElimination.bound(n),
     "seed 001 (elimination): M <= n"),
    ("Winnow(eta=1/4)", Winnow, lambda n, k: Winnow.lecture_bound(n, k),
     "seed 003 sec. 5.2: M <= 8 (k+1) ln d"),
    ("LittlestoneWinnow(winnow2)", LittlestoneWinnow, lambda n, k: LittlestoneWinnow.winnow2_bound(n, k),
     "WINNOW2, alpha=2, theta=n: M <= 3k (log2 n + 1) + 2 (derived; Blum's notes)"),
    ("LittlestoneWinnow(winnow1)", lambda: LittlestoneWinnow(variant="winnow1"),
     lambda n, k: LittlestoneWinnow.winnow1_bound(n, k),
     "WINNOW1 (Littlestone 1988), alpha=2, theta=n: M <= 2k (log2 n + 1) + 1"),
)


def _runner(make: Callable, bound: Callable[[int, int], float], note: str, H, adversary_name: str, rounds: int):
    n, k = (H.n, H.k) if isinstance(H, KDisjunctionSpace) else (_FINITE_N, _FINITE_N)

    def run(seed: int) -> Outcome:
        A = DisjunctionStream() if adversary_name == "DisjunctionStream" else DisjunctionAdversary()
        T = play(make(), A, H, rounds=rounds, seed=seed)
        forced = A.forced_mistakes(H) if adversary_name == "DisjunctionAdversary" else None
        extra = f"; halving forces {forced}" if forced is not None else ""
        return Outcome(value=T.mistakes, bound=bound(n, k), forced=forced, note=f"{note} (n={n}, k={k}){extra}")

    return run


def _noisy(H: KDisjunctionSpace, noise: float, rounds: int):
    def run(seed: int) -> Outcome:
        T = play(Winnow(), DisjunctionStream(noise=noise), H, rounds=rounds, seed=seed, realizable=False)
        hinge = sum(disjunction_hinge_losses(T))
        return Outcome(
            value=T.mistakes, bound=Winnow.lecture_bound(H.n, H.k, hinge=hinge),
            note=f"seed 003 sec. 5.2 agnostic: M <= 2 [4 (k+1) ln d + sum f_t(u)], u = target, "
                 f"sum f_t(u) = {hinge:g}, {noise:.0%} labels flipped",
        )

    return run


def _scenarios() -> tuple[Scenario, ...]:
    out = []
    space = KDisjunctionSpace(_N, _K)
    finite = classes.monotone_disjunctions(_FINITE_N)
    for H, setting, rounds in ((space, f"k_disjunctions(n={_N}, k={_K})", _ROUNDS),
                               (finite, f"monotone_disjunctions({_FINITE_N})", _FINITE_ROUNDS)):
        for name, make, bound, note in _LEARNERS:
            for adversary in ("DisjunctionStream", "DisjunctionAdversary"):
                out.append(Scenario(name, adversary, f"{setting}, T={rounds}",
                                    _runner(make, bound, note, H, adversary, rounds)))
    out.append(Scenario("Winnow(eta=1/4)", "DisjunctionStream(noise=0.1)", f"k_disjunctions(n={_N}, k={_K}), T={_ROUNDS}",
                        _noisy(space, 0.1, _ROUNDS)))
    return tuple(out)


SCENARIOS = _scenarios()
