"""Every search of a step shares its budget, learners' own searches included, and a signal stops them all.

Issue 27's first family: the Python Littlestone search read the clock once every 256 nodes
(10 s for ``--time-limit 0.5`` on a 100,000 x 2,000 class), and SOA searched the class's
Ldim with no budget inside the worst-case search and for its claim, also after SIGTERM.
The clock here is faked so that no test depends on the machine's speed: each read of
``time.monotonic`` inside the searches jumps ahead, and the tests count what the search did
before it stopped.
"""

from __future__ import annotations

import signal
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import classes, littlestone_dimension, worst_case_mistakes
from mistakebound.learners import SOA, Halving
from mistakebound.theory import ldim_search, search_protocol
from mistakebound.theory.ldim_search import LdimSearch
from mistakebound.theory.search_protocol import (
    Budget,
    OutOfBudget,
    resume_searches,
    run_within,
    shared_deadline,
    spending,
    stop_searches,
)
from mistakebound.verification.claims import stated_bound
from tests.strategies import hypothesis_classes

REAL_MONOTONIC = time.monotonic


class JumpingClock:
    """``time.monotonic`` for the searches: the real clock plus ``jump`` seconds per read so far."""

    def __init__(self, jump: float) -> None:
        self.jump, self.reads = jump, 0

    def __call__(self) -> float:
        self.reads += 1
        return REAL_MONOTONIC() + self.jump * self.reads


@pytest.fixture
def jumping(monkeypatch):
    """Install a clock that jumps 1 s at every read, in the searches' modules only."""
    clock = JumpingClock(1.0)
    monkeypatch.setattr(search_protocol.time, "monotonic", clock)
    return clock


def test_the_python_search_reads_the_clock_at_every_node(monkeypatch):
    """With a clock that passes the deadline at its second read, the search stops within a node or two
    (it expanded up to 256 nodes past the deadline before)."""
    H = classes.random(3000, 30, 0.3, seed=0)
    clock = JumpingClock(10.0)
    monkeypatch.setattr(ldim_search.time, "monotonic", clock)
    r = LdimSearch(H).bounds(time_limit=15)
    assert r.status == "budget" and r.nodes <= 2, r
    assert r.lower <= 9 <= r.upper


def test_a_clock_reads_the_time_at_every_node(jumping):
    clock = Budget(time_limit=2.5).start()  # the start read the clock once: deadline 1 + 2.5 s ahead
    spent = []

    def search():
        for _ in range(1000):
            clock.spend()
            spent.append(1)

    assert run_within(search) == "budget"
    assert len(spent) <= 3


def test_a_learners_own_query_stops_by_the_steps_deadline():
    """Outside any search's own run, SOA's Ldim questions check the step's deadline (spending)."""
    H = classes.random(3000, 30, 0.3, seed=0)
    learner = SOA(H)
    with spending(1e-6) as deadline:
        assert shared_deadline() == deadline
        time.sleep(1e-3)
        with pytest.raises(OutOfBudget):
            learner.predict_one(H.domain[0])
    assert shared_deadline() is None
    assert learner.predict_one(H.domain[0]) in (0, 1)  # outside the step: no budget


def test_nested_steps_keep_the_earlier_deadline():
    with spending(100.0) as outer:
        with spending(1000.0) as inner:
            assert inner == outer
        with spending(1.0) as inner:
            assert inner < outer
        with spending(None) as inner:
            assert inner == outer


def test_a_step_refuses_a_bad_time_limit():
    from mistakebound.foundations.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="time_limit"):
        with spending(-1):
            pass


@settings(max_examples=25, deadline=None)
@given(H=hypothesis_classes(max_rows=12, max_cols=6), jump=st.sampled_from([0.3, 1.0, 3.0]),
       limit=st.sampled_from([0.5, 2.0, 8.0]))
def test_the_worst_case_of_soa_within_a_budget_is_proven_whatever_the_learner_asked(H, jump, limit):
    """SOA's own searches share the worst-case search's deadline; what comes back is proven:
    ``lower <= M_SOA(H) = Ldim(H) <= upper``, never a learner error."""
    truth = littlestone_dimension(H)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(search_protocol.time, "monotonic", JumpingClock(jump))
        m.setattr(ldim_search.time, "monotonic", JumpingClock(jump))
        W = worst_case_mistakes(SOA(H), H, time_limit=limit, fast=True)
    assert W.lower <= truth <= W.upper
    assert W.status in ("exact", "budget")


def test_the_worst_case_of_soa_stops_inside_the_learners_question(monkeypatch):
    """A class where SOA's first question is a long Ldim search: the worst-case search stops there, with
    proven bounds, after a handful of the learner's nodes (it ran the whole Ldim search before)."""
    H = classes.random(3000, 30, 0.3, seed=0)
    learner = SOA(H)
    clock = JumpingClock(1.0)
    monkeypatch.setattr(ldim_search.time, "monotonic", clock)
    W = worst_case_mistakes(learner, H, time_limit=5)
    assert W.status == "budget" and 0 <= W.lower <= 9 <= W.upper
    assert learner._search.nodes <= 10, learner._search.nodes


def test_a_claim_past_the_deadline_says_so_instead_of_searching():
    H = classes.random(3000, 30, 0.3, seed=0)
    learner = SOA(H)
    with spending(1e-6):
        time.sleep(1e-3)
        claim = stated_bound(learner, H, realizable=True)
    assert claim.value is None and "not computed within the budget" in claim.reason
    assert stated_bound(learner, H, realizable=True).value == 9  # with time, the same lookup answers


def test_a_learner_that_stops_for_the_budget_is_not_a_faulty_learner():
    """OutOfBudget from a learner's call (its own search at the deadline) stops the worst-case search,
    as running out of memory does; any other exception is the learner's fault."""

    class Late(Halving):
        def predict_one(self, x):
            raise OutOfBudget

    H = classes.thresholds(7)
    W = worst_case_mistakes(Late(H), H, fast=False)
    assert W.status == "budget" and W.lower == 0 and W.upper == float("inf")


def test_after_a_signal_every_search_stops_at_its_next_node():
    H = classes.random(3000, 30, 0.3, seed=0)
    stop_searches()
    assert LdimSearch(H).bounds().status == "interrupted"
    assert worst_case_mistakes(SOA(H), H).status == "interrupted"
    with pytest.raises(KeyboardInterrupt):
        Budget().start().spend()
    resume_searches()
    assert LdimSearch(classes.thresholds(7)).bounds().status == "exact"


@pytest.mark.faults
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_the_worst_case_of_soa_ends_the_command_without_the_claims_search(tmp_path, signum):
    """``worst-case soa`` on a class whose search takes far longer than the test: the signal comes while
    the search runs; the command prints its partial line and ends without searching for SOA's claim
    (which took the whole Ldim search, 12 s, after the signal before)."""
    from tests.test_cli_faults import CHILD_ENV, start

    env = dict(CHILD_ENV, MISTAKEBOUND_PROGRESS="1")
    err_path = tmp_path / "err"
    with open(err_path, "w") as err_file:
        proc = start(["worst-case", "soa", "random:40000,30,0.2,0"], stderr=err_file, env=env)
        deadline = REAL_MONOTONIC() + 120
        while proc.poll() is None and "worst case of" not in err_path.read_text() and REAL_MONOTONIC() < deadline:
            time.sleep(0.05)
        time.sleep(2.0)  # past the set-up (the bar starts first); SOA's first question alone takes over 10 s
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 3, (proc.returncode, err_path.read_text())
    assert "M_A(H) >=" in out and "partial: interrupted" in out, (out, err_path.read_text())
    assert "claim = 9" not in out, out  # the claim's Ldim search never ran


def test_the_compiled_search_keeps_the_steps_deadline_and_stops_after_a_signal():
    """The compiled search (when built) is bounded by the step's shared deadline, and after a signal it
    reports only the bounds it proves before any node, as interrupted."""
    from mistakebound.theory import ldim_kernel

    if not ldim_kernel.AVAILABLE:
        pytest.skip("the compiled search is not built in this install (MISTAKEBOUND_NO_EXTENSION)")
    H = classes.random(40000, 30, 0.2, seed=0)
    with spending(1e-9):
        time.sleep(1e-3)
        r = ldim_kernel.kernel_bounds(H, Budget(), 1 << 26)
    assert r["status"] == "budget" and r["lower"] <= 9 <= r["upper"] and r["lower"] < r["upper"]
    stop_searches()
    r = ldim_kernel.kernel_bounds(H, Budget(), 1 << 26)
    assert r["status"] == "interrupted" and r["nodes"] == 0 and r["lower"] <= 9 <= r["upper"]
    resume_searches()
    assert ldim_kernel.kernel_bounds(classes.thresholds(15), Budget(), 1 << 20)["status"] == "exact"
