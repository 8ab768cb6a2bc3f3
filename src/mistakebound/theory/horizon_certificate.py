"""Certificates of the value of a game of a few rounds for randomized learners, from the sequence-form program.

The section (``"value-horizon"``, checked by :mod:`mistakebound.certificates.horizon_value`,
whose docstring describes the game, the keys of the information sets and the argument)
holds the two strategies :func:`~mistakebound.theory.oblivious_values.oblivious_value`
found and scored: the learner's, which no adversary makes pay more than the upper bound, and
the adversary's, against which no learner pays less than the lower bound.  Each is written
where its own player reaches, one exact distribution per information set.  The checker
rebuilds the game from the class and the rules and scores both strategies itself.

Examples
--------
>>> from mistakebound.certificates.verify import check, describe
>>> from mistakebound.theory.oblivious_values import GAP_CLASS
>>> rules = Rules(labels=3, feedback="bandit", randomized=True, adaptive=False)
>>> writer = horizon_certificate(GAP_CLASS, rules, 2)
>>> print(describe(check(writer.document()))[0])  # doctest: +ELLIPSIS
value(H; 3 labels, bandit feedback, noise 0, oblivious adversaries, randomized learners, 2 rounds) = 1, where H ...
"""

from __future__ import annotations

from typing import Any

from mistakebound.foundations.errors import NotApplicableError
from mistakebound.game.hypothesis_class import HypothesisClass
from mistakebound.game.rules import Rules, require_rules
from mistakebound.theory.certificate import CertificateWriter, number_text
from mistakebound.theory.game_values import table_of
from mistakebound.theory.oblivious_values import HorizonValue, Strategy, solve_horizon

__all__ = ["horizon_certificate", "horizon_section"]


def _flat(history: tuple) -> list[int]:
    """A history of rounds (tuples of instance, label or draw, and what was shown) as one list of integers."""
    return [int(v) for move in history for v in move]


def _key(player: str, key: tuple) -> list[int]:
    """The key of an information set as the section writes it (see :mod:`~mistakebound.certificates.horizon_value`)."""
    if player == "learner":
        seen, x = key
        return _flat(seen) + [x]
    if key[0] == "x":  # the adversary about to show an instance
        return _flat(key[1])
    return _flat(key[1]) + [key[2]]  # about to name a label at the instance key[2]


def _strategy(strategy: Strategy, who: str, sizes: dict[str, int]) -> list[list]:
    """``[key, distribution]`` at every information set the player's own strategy reaches."""
    player = strategy.player
    plan = player.plan(strategy.behaviour)
    keys = {i: key for key, i in player.index.items()}
    entries = []
    for i, distribution in enumerate(strategy.behaviour):
        if not plan[player.parent[i]]:
            continue  # never reached by this strategy: what it would do there changes nothing
        size = sizes["instances" if who == "adversary" and keys[i][0] == "x" else "labels"]
        entries.append([_key(who, keys[i]), [number_text(distribution.get(move, 0)) for move in range(size)]])
    return entries


def horizon_section(value: HorizonValue, strategies: tuple[Strategy, Strategy], writer: CertificateWriter,
                    n_instances: int) -> dict:
    """Add to ``writer`` the section proving ``value`` (:func:`~mistakebound.theory.oblivious_values.solve_horizon`'s
    result and its strategies, the learner's then the adversary's) on a class of ``n_instances`` instances."""
    rules = value.rules
    sizes = {"instances": n_instances, "labels": rules.labels}
    learner, adversary = strategies
    section = {"result": "value-horizon",
               "rules": {"labels": rules.labels, "feedback": rules.feedback, "noise": rules.noise,
                         "adaptive": rules.adaptive, "randomized": True},
               "horizon": value.horizon,
               "learner": _strategy(learner, "learner", sizes),
               "adversary": _strategy(adversary, "adversary", sizes),
               "claim": {"lower": number_text(value.lower), "upper": number_text(value.upper)}}
    writer.add(section)
    return section


def horizon_certificate(matrix: Any, rules: Rules, horizon: int, *, writer: CertificateWriter | None = None,
                        max_nodes: int | None = None, time_limit: float | None = None) -> CertificateWriter:
    """Solve the ``horizon``-round game of randomized learners under ``rules`` and write its certificate.

    Parameters
    ----------
    matrix : array_like or HypothesisClass
        The table of labels (as :func:`~mistakebound.theory.oblivious_values.oblivious_value` takes it).
    rules : Rules
        Randomized learners; any labels, feedback, noise, and an oblivious or adaptive adversary.
    horizon : int
        The number of rounds.
    writer : CertificateWriter, optional
        The document to add the section to (default: a new one of the class, or of the table).
    max_nodes, time_limit : int or float, optional
        The budget of :func:`~mistakebound.theory.oblivious_values.oblivious_value`.

    Returns
    -------
    CertificateWriter
        ``writer``, with the section added (exact, or the interval the rounded strategies prove).

    Raises
    ------
    NotApplicableError
        When the budget ran out before the game tree was built: there are no strategies to write
        (the bounds ``0`` and ``horizon`` need no search).
    InvalidArgumentError
        For deterministic rules (their value at a horizon is a recursion, not this program) or bad input.

    Examples
    --------
    >>> horizon_certificate([[0, 1], [1, 0]], Rules(randomized=True, adaptive=False), 50, max_nodes=10)
    Traceback (most recent call last):
    ...
    mistakebound.foundations.errors.NotApplicableError: horizon: the game tree of 50 rounds was not built within the budget (budget); its value is only known to lie in [0, 50], which needs no certificate
    """
    rules = require_rules(rules)
    value, strategies = solve_horizon(matrix, rules, horizon, max_nodes=max_nodes, time_limit=time_limit)
    if strategies is None:
        raise NotApplicableError(f"horizon: the game tree of {value.horizon} rounds was not built within the budget "
                                 f"({value.status}); its value is only known to lie in [0, {value.horizon}], which "
                                 "needs no certificate")
    M = table_of(matrix, rules.labels)
    if writer is None:
        writer = CertificateWriter(matrix if isinstance(matrix, HypothesisClass) else M)
    horizon_section(value, strategies, writer, M.shape[1])
    return writer
