"""The suite's settings: one hypothesis profile, and which tests share a pytest-xdist worker.

``pyproject.toml`` runs the suite on every core (``-n auto --dist loadgroup``); ``-n 0``
runs it in one process, as before.  Tests are handed out one by one, except the groups
:func:`xdist_group` names, whose tests run in order on one worker:

- every ``faults`` test (they kill processes, send signals at timed moments and fill
  disks; in one group they never overlap one another, as when run alone with ``-m faults``);
- the tests of a module that use a module-scoped fixture of that module (the fixture is
  built once, not once per worker, and tests that pass state along it, like the README's
  console blocks sharing one folder, see it in order).

When ``PYTHONDONTWRITEBYTECODE`` is set (as on this project's machines), the suite and every
process it starts keep compiled modules in a folder of their own in the temporary directory
(``PYTHONPYCACHEPREFIX``), never beside the sources: without them each worker rewrites and
compiles every test module, and each subprocess compiles the package, on every run.

The hypothesis profile ``mistakebound`` (loaded here, chosen again with
``--hypothesis-profile``) sets no deadline and skips the ``too_slow`` health check:
both time the machine, which other jobs and the second worker share, not the code.  It
changes no test's number of examples.
"""

from __future__ import annotations

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
    if sys.dont_write_bytecode and os.environ.get("PYTHONDONTWRITEBYTECODE"):
        sys.pycache_prefix = sys.pycache_prefix or str(PYCACHE)
        sys.dont_write_bytecode = False
        os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
        del os.environ["PYTHONDONTWRITEBYTECODE"]


#: The group of the fault-injection tests (marker ``faults``).
FAULTS_GROUP = "faults"


def xdist_group(item: pytest.Item) -> str | None:
    """The xdist group ``item`` runs in, None when any worker may run it alone."""
    if item.get_closest_marker("faults") is not None:
        return FAULTS_GROUP
    module = getattr(item, "module", None)
    fixtures = getattr(item, "_fixtureinfo", None)
    if module is None or fixtures is None:
        return None
    for name in fixtures.names_closure:
        for definition in fixtures.name2fixturedefs.get(name, ()):
            if definition.scope == "module" and getattr(definition.func, "__module__", None) == module.__name__:
                return module.__name__
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the marks (its hook adds the group to the node id)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            group = xdist_group(item)
            if group is not None:
                item.add_marker(pytest.mark.xdist_group(group))
