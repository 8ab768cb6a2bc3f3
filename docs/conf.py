"""Sphinx configuration of the mistakebound documentation site.

Why Sphinx with numpydoc and sphinx-gallery (and not MkDocs with mkdocstrings, as river
has): the package's docstrings are numpy-style with doctested Examples, which numpydoc
renders and *validates* (``numpydoc_validation_checks`` below); sphinx-gallery runs the
example scripts at build time, so every figure on the site is one the code draws today;
and it is what the projects our users come from (networkx, scikit-learn) build with, so
the pages, the cross-references into numpy and networkx, and the inventory
(``objects.inv``) that other projects' docs link against work as they expect.

Build (warnings are errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Two small local extensions (``docs/_ext``): ``apigen`` writes the API reference's sources
from every public module's ``__all__`` at each build; ``cli_reference`` prints the command
line's help from the real parser.  numpydoc reports a docstring that fails a validation
check as a warning, so ``-W`` fails the build on it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import mistakebound  # noqa: E402

project = "mistakebound"
author = "the mistakebound authors"
copyright = "the mistakebound authors, MIT License"
release = version = mistakebound.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "myst_parser",
    "apigen",
    "cli_reference",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "README.md", "examples/README.txt", "**.ipynb_checkpoints"]
root_doc = "index"
default_role = "py:obj"
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3

# -- autodoc and numpydoc -------------------------------------------------------------------
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc Parameters sections say the types
autodoc_inherit_docstrings = False
numpydoc_show_class_members = False  # autodoc's :members: lists them, once
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = False

# numpydoc's validation runs on every docstring autodoc shows (functions, classes, their
# methods and properties).  On: every check all of them pass (tests/test_docs.py builds with
# -W, so a docstring that breaks one fails the test):
#   GL01 GL03 GL05 GL06 GL07 GL09 GL10  layout: text after the opening quotes, no double blank
#       lines, no tabs, known sections in numpydoc's order, Deprecation placed right, ``..``
#       directives spelled right;
#   SS01 SS03 SS04  a summary, ending with a period, without leading whitespace;
#   PR02 PR03 PR05 PR06 PR09 PR10  no parameter documented that the signature lacks, the
#       signature's order, types spelled ``int``/``bool``/``str``, descriptions ending with a
#       period, ``name : type`` with its spaces;  PR08 descriptions start with a capital;
#   RT02 RT04 RT05  Returns: a type on its own line, descriptions capitalised and ending with
#       a period;  YD01  a Yields section for every generator and context manager;
#   SA02 SA03 SA04  See Also entries well formed.
# Off, and why:
#   GL02 (closing quotes on a line of their own): the package closes one-line and short
#       docstrings on the text's line, as PEP 257 allows;
#   SS02 (summary starts with a capital): a summary may start with a proper name spelled in
#       lower case (``pandas, needed for ...``, ``river's Perceptron``);
#   SS05 (summary starts with a verb in the infinitive) and SS06 (a one-line summary): the
#       package's summaries are noun phrases ("The Littlestone dimension of ``H``"), as
#       networkx's often are, and some run over two lines;
#   PR01 PR04 PR07 RT01 RT03  every parameter and return listed with a type and a
#       description: many docstrings describe small helpers' parameters in the summary's
#       prose ("``V`` as a bitset ...") instead of a Parameters section;
#   ES01 (extended summary), SA01 (See Also), EX01 (an Examples section): style; the
#       doctested examples sit in the module docstrings and the main functions;
#   GL08 (a docstring on every object): autodoc shows only documented members.
# Constants (UPPER_CASE) are excluded: their documentation is a ``#:`` comment, and numpydoc
# validates the value's type's docstring (``int``'s) instead.
numpydoc_validation_checks = {
    "GL01", "GL03", "GL05", "GL06", "GL07", "GL09", "GL10",
    "SS01", "SS03", "SS04",
    "PR02", "PR03", "PR05", "PR06", "PR08", "PR09", "PR10",
    "RT02", "RT04", "RT05", "YD01", "SA02", "SA03", "SA04",
}
numpydoc_validation_exclude = {r"\.__\w+__$", r"\._\w+$", r"\.[A-Z][A-Z0-9_]+$"}

# -- cross-references -------------------------------------------------------------------------
intersphinx_mapping = {}  # no network at build time: references to numpy etc. stay plain text
nitpicky = False

# -- sphinx-gallery -----------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("figure_scraper.package_figures",),
    "reset_modules": ("matplotlib",),
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "show_memory": False,
    "min_reported_time": 10,
}

# -- HTML -------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"mistakebound {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {
    "navbar_end": ["navbar-icon-links"],
    "header_links_before_dropdown": 6,
    "navigation_depth": 2,
    "collapse_navigation": True,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# A page per public function and class (about 700) keeps its breadcrumbs and its module link but no
# left sidebar: drawing the sidebar's navigation tree on each of them was half of the build's time
# (pydata-sphinx-theme's generate_toctree_html, 156 of 282 s under cProfile).
html_sidebars = {"index": [], "theory": [], "auto_examples/index": [], "api/generated/*": []}
html_show_sourcelink = False
