"""The documentation site builds with warnings as errors, and every public name has a page.

Sphinx, numpydoc, sphinx-gallery and the theme are the optional ``docs`` extra
(``pip install -e '.[docs]'``), not test dependencies: the tests that build the site are
skipped, by ``pytest.importorskip``, where they are not installed, and the whole module
where the checkout's ``docs/`` folder is not there (an unpacked sdist).  The build is the one of ``docs/README.md``:
``python -m sphinx -W --keep-going -j auto -b html docs OUT``, run in a child process into a
temporary folder, so the API pages, the command-line reference and the gallery (every
example script runs) are all made from the code as it is: about a minute on two idle cores,
longer on a loaded machine.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

pytestmark = pytest.mark.skipif(not (DOCS / "conf.py").is_file(), reason="no docs/ folder (an unpacked sdist)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the site once for the module; the built folder."""
    for module in ("sphinx", "numpydoc", "sphinx_gallery", "pydata_sphinx_theme", "myst_parser"):
        pytest.importorskip(module)
    out = tmp_path_factory.mktemp("site")
    doctrees = tmp_path_factory.mktemp("doctrees")
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-j", "auto", "-q", "-b", "html",
         "-d", str(doctrees), str(DOCS), str(out)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert run.returncode == 0, f"the docs build failed (warnings are errors):\n{run.stderr[-6000:]}"
    return out


def _inventory(site: Path) -> dict[str, set[str]]:
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", lambda base, uri: uri)
    found: dict[str, set[str]] = {}
    for role, entries in inventory.items():
        for name in entries:
            found.setdefault(name, set()).add(role)
    return found


def test_every_public_name_has_a_page(site):
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import apigen
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    found = _inventory(site)
    pages = apigen.canonical_pages()
    modules = apigen.public_modules()
    missing = [m for m in modules if "py:module" not in found.get(m, ())]
    for module, name, obj in apigen.public_names():
        targets = {f"{module}.{name}"}
        if id(obj) in pages:
            targets.add(pages[id(obj)])
        if getattr(obj, "__name__", None) and type(obj).__name__ == "module":
            targets.add(obj.__name__)
        if not any(t in found for t in targets):
            missing.append(f"{module}.{name}")
    assert not missing, f"{len(missing)} public names without a page: {missing[:20]}"
    # the layers' index and a few names a user looks up first
    assert (site / "api" / "index.html").is_file()
    for name in ("mistakebound.theory.littlestone.littlestone_dimension", "mistakebound.learners.soa.SOA",
                 "mistakebound.interfaces.plots.draw_tree", "mistakebound.game.transcript.Transcript"):
        assert name in found, name


def test_the_pages_of_each_kind_of_user_and_the_reference_are_built(site):
    for page in ("index", "researcher", "learner_authors", "pipelines", "theory", "cli", "formats",
                 "benchmarks", "changelog", "citing"):
        assert (site / f"{page}.html").is_file(), page
    cli = (site / "cli.html").read_text()
    from mistakebound.interfaces.cli.parser import COMMANDS

    for command in COMMANDS:
        assert f"mistakebound {command.NAME}" in cli, command.NAME


def test_every_gallery_script_ran_and_drew(site):
    scripts = sorted((DOCS / "examples").glob("plot_*.py"))
    assert len(scripts) >= 4
    images = site / "_images"
    for script in scripts:
        drawn = list(images.glob(f"sphx_glr_{script.stem}_0*.png"))
        assert drawn, f"{script.name} drew no figure"

