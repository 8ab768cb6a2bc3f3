"""The commands ask the library's doors and print: what ``tests/walks.py`` measures, held as a test.

A walk records the calls a command makes into the package (see :mod:`tests.walks`).  The
command line must never be called back by a lower layer while it answers, and the
questions it asks are doors (a profile, a certificate, a check), not the pieces of a
search it would put together itself.
"""

from __future__ import annotations

import pytest

from tests.walks import CLI, WALKS, walk

#: What a front end must not ask for itself: the searches' parts, which the doors put together.
SEARCH_PARTS = ("theory.littlestone.", "theory.vc.", "theory.randomized_ldim.", "theory.ldim_certificate.",
                "theory.vc_certificate.", "theory.randomized_certificate.", "theory.search_protocol.Budget")


@pytest.mark.parametrize("name", ["ldim", "ldim --certificate", "verify"])
def test_a_command_asks_the_doors_and_is_never_called_back(name):
    run = WALKS[name]()
    run()  # imports done, the walk counts calls only
    found = walk(run)
    assert found["returns"] == []
    assert not [a for a in found["asks"] if any(part in a for part in SEARCH_PARTS)], found["asks"]
    assert [m for m in found["modules"] if m == CLI or m.startswith(CLI + ".")]


def test_a_walk_sees_a_front_end_called_back():
    """The measure can fail: a library function calling a front end's function is counted."""
    from mistakebound.interfaces import arguments
    from mistakebound.theory import search_protocol as search

    found = walk(lambda: search.run_within(lambda: arguments.shortened("x")))
    assert found["returns"] == ["mistakebound.theory.search_protocol.run_within -> mistakebound.interfaces.arguments.shortened"]


def test_play_with_its_progress_bar_is_never_called_back(monkeypatch):
    """The bar reads the rounds the library counts (RoundCount, Progress.follow): the game never
    calls the command line back, not even once a round for the bar (4 calls back before)."""
    from mistakebound.interfaces.progress import ENV_VARIABLE

    monkeypatch.setenv(ENV_VARIABLE, "1")  # the bar drawn, as on a terminal
    run = WALKS["play"]()
    run()
    found = walk(run)
    assert found["returns"] == []
    assert "mistakebound.verification.judged.judged_game" in found["asks"], found["asks"]
