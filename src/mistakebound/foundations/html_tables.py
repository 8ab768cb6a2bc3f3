"""The HTML a notebook shows for the framework's objects: one escaping, bounded table builder.

Every ``_repr_html_`` (a class, a transcript, a check report, a worst-case line) picks
its rows and calls :func:`panel`, :func:`table` and :func:`note`; this module writes every tag.  Each
cell is text, escaped with :func:`html.escape` (an instance named ``<x>`` shows as
``<x>``, never as a tag) and cut to :data:`CELL_CHARS` characters, and a table shows at
most the rows and columns it is given, with a note of how many more there are, so that
the HTML of a class of a million rows is as small as that of a class of twenty.

Examples
--------
>>> print(table(["x", "y"], [["<a>", 1], ["b", 0]], total=5, marked=[False, True]))
<table class="mistakebound">
<thead><tr><th>x</th><th>y</th></tr></thead>
<tbody>
<tr><td>&lt;a&gt;</td><td>1</td></tr>
<tr style="background-color: rgba(214, 39, 40, 0.18)"><td>b</td><td>0</td></tr>
</tbody>
</table>
<p><em>... 3 more rows</em></p>
>>> cell("a" * 50)
'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…'
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from mistakebound.foundations.text import number_text

__all__ = ["cell", "table", "panel", "note", "PREVIEW_ROWS", "PREVIEW_COLUMNS", "CELL_CHARS", "TITLE_CHARS", "MARK_STYLE",
           "STYLE"]

#: The most rows a table of a notebook shows (the rest are counted in a note).
PREVIEW_ROWS = 20
#: The most columns (instances of a class) a table shows.
PREVIEW_COLUMNS = 16
#: The most characters of one cell (a long instance is cut, with ``…``) ...
CELL_CHARS = 40
#: ... and of the tooltip that shows more of it.
TITLE_CHARS = 400
#: The style of a marked row (a mistake, a broken bound): a light red that reads on dark themes too.
MARK_STYLE = "background-color: rgba(214, 39, 40, 0.18)"
#: The style every panel carries, scoped to its own class: readable where the page has no style of its own (an
#: HTML file, a browser, a docs page), in the text colours of the page it is in (light or dark themes).
STYLE = ("<style>div.mistakebound{font-family:system-ui,sans-serif;font-size:13px;line-height:1.4;margin:.5em 0}"
         "div.mistakebound p{margin:.3em 0}"
         "table.mistakebound{border-collapse:collapse;font-variant-numeric:tabular-nums}"
         "table.mistakebound th,table.mistakebound td{border:1px solid rgba(128,128,128,.35);padding:2px 8px;"
         "text-align:right}"
         "table.mistakebound thead th{border-bottom:2px solid rgba(128,128,128,.6)}</style>")


def _text(value: Any) -> str:
    return number_text(value) if value is None or isinstance(value, (int, float)) else str(value)


def cell(value: Any, limit: int = CELL_CHARS) -> str:
    """``value`` as escaped text: numbers by :func:`number_text`, None as ``-``, cut to ``limit`` characters.

    Examples
    --------
    >>> cell(2.584962500721156), cell(None), cell("<x>"), cell((0, 1))
    ('2.585', '-', '&lt;x&gt;', '(0, 1)')
    """
    text = _text(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return html.escape(text)


def _element(tag: str, value: Any) -> str:
    """One cell; a cut text keeps its first :data:`TITLE_CHARS` characters in a tooltip."""
    text = _text(value)
    title = f' title="{html.escape(text[:TITLE_CHARS])}"' if len(text) > CELL_CHARS else ""
    return f"<{tag}{title}>{cell(value)}</{tag}>"


def _row(tag: str, values: Iterable[Any], *, head: Any = None, style: str | None = None) -> str:
    first = "" if head is None else _element("th", head)
    inner = "".join(_element(tag, v) for v in values)
    opening = f'<tr style="{style}">' if style else "<tr>"
    return f"{opening}{first}{inner}</tr>"


def table(
    columns: Sequence[Any],
    rows: Iterable[Sequence[Any]],
    *,
    total: int | None = None,
    what: str = "rows",
    row_names: Sequence[Any] | None = None,
    marked: Sequence[bool] | None = None,
    more_columns: int = 0,
    what_columns: str = "columns",
) -> str:
    """An HTML table of ``rows`` under the header ``columns``, and a note of what it leaves out.

    Parameters
    ----------
    columns : sequence
        The header cells.
    rows : iterable of sequences
        The rows to show; at most the first :data:`PREVIEW_ROWS` are read.
    total : int, optional
        How many rows there are in all; when more than shown, a note says how many more.
    what : str
        What a row is, for the note (``"hypotheses"``, ``"rounds"``).
    row_names : sequence, optional
        A header cell before each row (a hypothesis's name); the header gets an empty corner.
    marked : sequence of bool, optional
        The rows to highlight with :data:`MARK_STYLE` (mistakes, broken bounds).
    more_columns : int
        Columns left out on the right, shown as a last ``…`` column and counted in the note.
    what_columns : str
        What a column is, for the note (``"instances"``).
    """
    header = list(columns) + (["…"] if more_columns else [])
    lines = ['<table class="mistakebound">',
             "<thead>" + _row("th", header, head="" if row_names is not None else None) + "</thead>",
             "<tbody>"]
    shown = 0
    for i, values in enumerate(itertools.islice(rows, PREVIEW_ROWS)):
        values = list(values) + (["…"] if more_columns else [])
        head = row_names[i] if row_names is not None else None
        style = MARK_STYLE if marked is not None and marked[i] else None
        lines.append(_row("td", values, head=head, style=style))
        shown += 1
    lines += ["</tbody>", "</table>"]
    notes = []
    if total is not None and total > shown:
        notes.append(f"{total - shown} more {what}")
    if more_columns:
        notes.append(f"{more_columns} more {what_columns}")
    if notes:
        lines.append(note("... " + ", ".join(notes)))
    return "\n".join(lines)


def note(text: str) -> str:
    """A line of small print under a table (escaped).

    Examples
    --------
    >>> note("rounds not kept <keep='totals'>")
    '<p><em>rounds not kept &lt;keep=&#x27;totals&#x27;&gt;</em></p>'
    """
    return f"<p><em>{html.escape(text)}</em></p>"


def panel(title: str, facts: Sequence[tuple[str, Any]] = (), *parts: str) -> str:
    """A block: a bold ``title``, a line of ``name: value`` facts, then ``parts`` (tables, already HTML).

    The title and the values are cut to :data:`TITLE_CHARS` characters (a table's cells to
    :data:`CELL_CHARS`).  The block carries :data:`STYLE`, so it reads as well in a saved HTML
    file or a browser as in a notebook.

    Examples
    --------
    >>> print(panel("Transcript", [("rounds", 3), ("seed", None)]).replace(STYLE, "<style>...</style>"))
    <div class="mistakebound">
    <style>...</style>
    <p><strong>Transcript</strong></p>
    <p>rounds: 3 · seed: -</p>
    </div>
    """
    lines = ['<div class="mistakebound">', STYLE, f"<p><strong>{cell(title, TITLE_CHARS)}</strong></p>"]
    if facts:
        lines.append("<p>" + " · ".join(f"{cell(name)}: {cell(value, TITLE_CHARS)}" for name, value in facts) + "</p>")
    lines += [*parts, "</div>"]
    return "\n".join(lines)
