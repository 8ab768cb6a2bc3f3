"""The test extra is installed whole, so no optional-package skip can hide a failure.

Some tests skip when an optional package (matplotlib, river, scikit-learn, dask) is
missing, so that the suite also runs on a partial install.  The README's test command
installs the whole ``test`` extra; this test fails when any of it is missing, which
makes such a skip visible as a failure instead of a quiet ``s``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMPORT_NAMES = {"scikit-learn": "sklearn", "dask[distributed]": "distributed", "pytest-xdist": "xdist"}


def test_every_package_of_the_test_extra_is_importable():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]["test"]
    names = [re.split(r"[<>=!~ ;]", spec, maxsplit=1)[0] for spec in extra]
    assert names, "the test extra is empty"
    missing = [n for n in names if importlib.util.find_spec(IMPORT_NAMES.get(n, n)) is None]
    assert not missing, f"the test extra is not fully installed (missing {missing}): pip install '.[test]'"


def test_the_suite_and_its_subprocesses_keep_compiled_modules_outside_the_sources():
    """tests/conftest.py: even under PYTHONDONTWRITEBYTECODE, no worker or subprocess compiles every module anew."""
    assert not sys.dont_write_bytecode and "PYTHONDONTWRITEBYTECODE" not in os.environ
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or sys.pycache_prefix
    if prefix:  # where the .pyc files go instead: never inside the checkout
        assert sys.pycache_prefix == prefix and not Path(prefix).resolve().is_relative_to(ROOT), prefix
