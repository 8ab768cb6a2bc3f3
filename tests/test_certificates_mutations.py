"""Every check of the certificate checker is needed: disabled in turn, each lets a lie through or breaks.

The mutants are built and run by :mod:`tests.certificate_mutations` in a process of their own
(a mutant may try to allocate without bound: the process runs under a 4 GiB address space
and a time limit).  Also here: the soundness arguments and the code name the same
conditions, so that a reviewer can read them side by side.
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests import certificate_mutations as cm

ROOT = Path(__file__).resolve().parents[1]
#: Checks whose removal the campaign does not notice, by ``"module.py [name]"``, and why.
UNNOTICED = {
    "worst_case.py [stay-noop]": "grammar only: a stay on an instance predicted neither 0 nor 1 adds a move the "
                                 "checker never reads (no move is a no-op unless the prediction is its label); it "
                                 "is refused so that the replay never teaches a learner such a label",
}


def _limit_memory():  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.fixture(scope="module")
def mutants() -> dict[str, str | None]:
    done = subprocess.run([sys.executable, "-m", "tests.certificate_mutations"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, preexec_fn=_limit_memory)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)["mutants"]


def test_every_check_is_noticed_when_it_is_disabled(mutants):
    unnoticed = {re.sub(r":\d+ ", " ", name) for name, found in mutants.items() if found is None}
    assert unnoticed == set(UNNOTICED), unnoticed ^ set(UNNOTICED)
    assert len(mutants) > 100


def test_no_mutant_is_noticed_only_by_a_lie_refused_in_the_wrong_place(mutants):
    """A lie refused elsewhere than in its own section was built wrong: it would hide a weak check."""
    assert not [name for name, found in mutants.items() if found and "elsewhere" in found]


def test_a_mutant_disables_exactly_the_check_on_its_line():
    source = cm.mutant_source("ldim", next(line for line, tag in cm.tagged_lines("ldim") if tag == "log2"))
    assert "if False:" in source and "distinct(V, below=1 << value + 1).bit_length() > value + 1" not in source
    with pytest.raises(ValueError, match="no check a mutant can disable"):
        cm.mutant_source("ldim", 1)


# ------------------------------------------------------------------------ arguments and code, side by side
_DOC_TAG = re.compile(r"``\[([a-z0-9-]+)\]``")


def _docstring_tags() -> set[str]:
    tags = set()
    for module in cm.MODULES:
        text = (cm.CHECKER / f"{module}.py").read_text()
        tags |= set(_DOC_TAG.findall(text))
    return tags


def _code_tags() -> set[str]:
    return {tag for module in cm.MODULES for _, tag in cm.tagged_lines(module)}


def test_every_condition_an_argument_names_is_checked_on_a_line_that_carries_its_name():
    assert _docstring_tags() - _code_tags() == set()


def test_every_line_that_carries_a_name_is_a_condition_an_argument_names():
    assert _code_tags() - _docstring_tags() == set()
