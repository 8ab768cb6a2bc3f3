"""A sphinx-gallery image scraper for the figures the package returns.

mistakebound's plotting functions return plain :class:`matplotlib.figure.Figure` objects
on the Agg canvas and never touch pyplot, so sphinx-gallery's own matplotlib scraper
(which asks pyplot for its figures) sees none.  This one saves every ``Figure`` bound to a
name of the example's globals that it has not saved before, in the order they appear.
"""

from __future__ import annotations

__all__ = ["package_figures"]

_SAVED: dict[str, set[int]] = {}


def package_figures(block, block_vars, gallery_conf):
    """Save the new figures of ``block`` and return the reST that shows them."""
    from matplotlib.figure import Figure
    from sphinx_gallery.scrapers import figure_rst

    seen = _SAVED.setdefault(block_vars["src_file"], set())
    paths = []
    for value in list(block_vars["example_globals"].values()):
        if isinstance(value, Figure) and id(value) not in seen:
            seen.add(id(value))
            path = next(block_vars["image_path_iterator"])
            value.savefig(path, dpi=110)
            paths.append(path)
    return figure_rst(paths, gallery_conf["src_dir"])
