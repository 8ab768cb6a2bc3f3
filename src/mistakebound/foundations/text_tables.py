"""The plain-text tables of the console: one aligned-table writer (its HTML twin is :mod:`~mistakebound.foundations.html_tables`).

Every text table the framework prints (a game's rounds, the command line's tables, a
check report, the pytest plugin's report, a sweep's summary) is written by
:func:`text_table`: a header line, a rule of dashes under it, then one line a row; each
column as wide as its widest cell, columns two spaces apart, cells left-aligned (or
right-aligned, for the columns named in ``right``), trailing spaces stripped.  Each cell is
one line of text whatever it holds: its line breaks and other control characters are
escaped (:func:`~mistakebound.foundations.text.printable`), so a name read from a file can
neither break a row nor drive the terminal.

Examples
--------
>>> print(text_table(["learner", "mistakes"], [["Halving", "3"], ["SOA", "12"]], right=["mistakes"]))
learner  mistakes
-------  --------
Halving         3
SOA            12
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from mistakebound.foundations.text import printable

__all__ = ["text_table"]


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, right: Collection[str] = (),
               rule: bool = True) -> str:
    """``rows`` under ``header`` as an aligned plain-text table (no trailing newline).

    Parameters
    ----------
    header : sequence of str
        The column names.
    rows : sequence of sequences of str
        The cells, one sequence a row, as many as ``header`` has names.
    right : collection of str
        The names of the columns whose cells (and name) are right-aligned (numbers).
    rule : bool
        Whether a rule of dashes separates the header from the rows (default True).

    Returns
    -------
    str

    Examples
    --------
    >>> print(text_table(["t", "x"], [["1", "two\\nlines"]]))
    t  x
    -  ----------
    1  two\\nlines
    >>> print(text_table(["a", "b"], [], rule=False))
    a  b
    """
    header, body = list(header), list(rows)
    if not ("".join(header) + "".join(map("".join, body))).isprintable():  # (one look at all the text, in C)
        header = [printable(h) for h in header]
        body = [[printable(c) for c in r] for r in body]
    widths = [max([len(h), *(len(r[i]) for r in body)]) for i, h in enumerate(header)]
    lines = [header, *([["-" * w for w in widths]] if rule else []), *body]
    if not right:
        return "\n".join("  ".join([c.ljust(w) for c, w in zip(line, widths)]).rstrip() for line in lines)
    align = [str.rjust if h in right else str.ljust for h in header]
    return "\n".join("  ".join([a(c, w) for c, w, a in zip(line, widths, align)]).rstrip() for line in lines)
