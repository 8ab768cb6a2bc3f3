"""The suite's settings: where compiled modules go, and one hypothesis profile.

``pyproject.toml`` runs the suite on every core with pytest-xdist (``-n auto --dist
loadfile``): each test file runs whole, in order, on one worker, so a module-scoped
fixture is built once and tests that pass state along one (a page's console blocks
sharing one folder) see it in order.  ``-n 0`` runs the suite in one process.

When ``PYTHONDONTWRITEBYTECODE`` (or ``python -B``) forbids ``.pyc`` files (as on this
project's machines), the suite and every
process it starts keep compiled modules in a folder of their own in the temporary directory
(``PYTHONPYCACHEPREFIX``), never beside the sources: without them each worker rewrites and
compiles every test module, and each subprocess compiles the package, on every run.

What the tests import: the installed package (the zoos as ``mistakebound.learners`` and
``mistakebound.adversaries``, the oracles from ``mistakebound.theory.textbook``) and their own
helper modules, as ``tests.players``, ``tests.strategies``...: ``tests`` is a package, so
pytest puts the folder above it (the checkout, or an unpacked sdist) on ``sys.path``, and no
``pythonpath`` setting is needed.  The top-level folders ``learners/`` and ``adversaries/``
are the zoos' sources, installed as ``mistakebound.learners``/``.adversaries``; importing them
by their folder names would load every class a second time, so no test does
(``tests/test_architecture.py`` holds the line).  Only the smoke tests of the benchmark
programs import ``benchmarks``, which the sdist ships with the tests.

The hypothesis profile ``mistakebound`` (loaded here, chosen again with
``--hypothesis-profile``) sets no deadline and skips the ``too_slow`` health check:
both time the machine, which other jobs and the second worker share, not the code.  It
changes no test's number of examples.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

PROFILE = "mistakebound"
settings.register_profile(PROFILE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE)

#: Where compiled modules go when the environment forbids them beside the sources.
PYCACHE = Path(tempfile.gettempdir()) / f"mistakebound-pycache-{getattr(os, 'getuid', lambda: 0)()}"


def pytest_configure(config: pytest.Config) -> None:
    """Keep compiled modules, in :data:`PYCACHE`, for this process and its children (xdist workers too)."""
    if sys.dont_write_bytecode:  # PYTHONDONTWRITEBYTECODE or python -B
        sys.pycache_prefix = sys.pycache_prefix or str(PYCACHE)
        sys.dont_write_bytecode = False
        os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move everything alive once the tests are collected (numpy, hypothesis, networkx, the package, the
    test modules: about 400,000 objects) out of the garbage collector's sight: they live as long as the
    worker does, and each full collection would walk them again (measured: 11-13 s of full collections
    per worker over the suite before, with ``gc.callbacks``)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _searches_run_again():
    """After each test, searches run again: a test that plays a signal's handler in this process (or calls
    ``stop_searches``) without the command's ``finish`` must not stop the searches of the tests after it."""
    yield
    protocol = sys.modules.get("mistakebound.theory.search_protocol")
    if protocol is not None:
        protocol.resume_searches()
