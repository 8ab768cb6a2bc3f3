"""What the tests of the parameters' searches share: a search stopped by Ctrl-C, and stopped at every node.

The searches of :mod:`mistakebound.theory.threshold_dimension`, ``star_number``, ``teaching`` and
``one_inclusion`` all spend their budget through
:meth:`~mistakebound.theory.search_protocol.Clock.spend`; these helpers stop them there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mistakebound.theory import search_protocol as search_module
from tests.test_vc import interrupting_spend

__all__ = ["at_every_node", "interrupted"]


def interrupted(search: Callable, H, when: int, **kwargs):
    """``search(H, **kwargs)`` with Ctrl-C pressed at its ``when``-th node (its bounds, whatever the status)."""
    original = search_module.Clock.spend
    search_module.Clock.spend = interrupting_spend(when)
    try:
        return search(H, **kwargs)
    finally:
        search_module.Clock.spend = original


def at_every_node(search: Callable, H, **kwargs) -> Iterator:
    """``search(H, max_nodes=k)`` for every ``k`` from 1 to the nodes the whole search spends, then the whole one."""
    whole = search(H, **kwargs)
    for nodes in range(1, whole.nodes + 1):
        yield search(H, max_nodes=nodes, **kwargs)
    yield whole
