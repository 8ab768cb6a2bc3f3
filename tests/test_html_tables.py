"""What a notebook shows: the ``_repr_html_`` of classes, transcripts, check reports and worst cases.

Each is parsed with :mod:`html.parser`: the tags must nest and close, no text of the
user's (an instance, a name, a message) may become a tag, and the size stays bounded
however large the object.
"""

from __future__ import annotations

import time
from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass, Round, Transcript, play
from mistakebound.adversaries import ObliviousCoin
from mistakebound.foundations import html_tables as ht
from mistakebound.game import classes
from mistakebound.game.transcript import RoundLog
from mistakebound.learners import SOA, Consistent, Halving
from mistakebound.theory.worst_case import WorstCase, worst_case_mistakes
from mistakebound.verification.checks import CheckSummary, check_learner
from mistakebound.verification.selfcheck import CheckReport, CheckRow, run_check

#: The only tags the module writes (``style``: the panel's own, :data:`~mistakebound.foundations.html_tables.STYLE`).
TAGS = {"div", "style", "p", "strong", "em", "table", "thead", "tbody", "tr", "th", "td"}


class Page(HTMLParser):
    """Checks that tags nest and close, and collects the rows: their cells' text and whether marked."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.rows: list[list[str]] = []  # every <tr>, header rows included
        self.marked: list[bool] = []
        self.text: list[str] = []
        self.titles: list[str] = []  # the tooltips of cut cells
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.stack.append(tag)
        if tag == "tr":
            self.rows.append([])
            self.marked.append(dict(attrs).get("style") == ht.MARK_STYLE)
        elif tag in ("td", "th"):
            self._cell = []
            self.titles += [value for name, value in attrs if name == "title"]

    def handle_endtag(self, tag):
        assert self.stack, f"</{tag}> closes nothing"
        assert self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1]}>"
        self.stack.pop()
        if tag in ("td", "th"):
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "style":
            assert data == ht.STYLE.removeprefix("<style>").removesuffix("</style>"), "a style that is not STYLE"
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    assert page.stack == [], f"unclosed tags {page.stack}"
    assert set(page.tags) <= TAGS, f"unexpected tags {set(page.tags) - TAGS}"
    assert page.tags[0] == "div" and text.startswith("<div") and text.endswith("</div>")
    return page


def body_rows(page: Page) -> tuple[list[list[str]], list[bool]]:
    """The rows under the header, and which are marked."""
    return page.rows[1:], page.marked[1:]


NASTY = ["<x>", "<script>alert(1)</script>", "a&b", '"quoted"', "</td></tr></table>"]


# ---------------------------------------------------------------------------------- the builder
def test_cells_are_escaped_and_cut():
    page = parse(ht.panel("<t>", [("<k>", "<v>")], ht.table(["<c>"], [[name] for name in NASTY], total=len(NASTY))))
    rows, _ = body_rows(page)
    assert [r[0] for r in rows] == NASTY
    assert "<t>" in page.text and "<k>: <v>" in "".join(page.text)
    long = '"><script>alert(1)</script><td x="' * 40
    page = parse(ht.panel("t", (), ht.table(["c"], [[long]])))
    shown = body_rows(page)[0][0][0]
    assert len(shown) == ht.CELL_CHARS and shown.endswith("…") and long.startswith(shown[:-1])
    assert page.titles == [long[: ht.TITLE_CHARS]]  # the tooltip holds more of it, as text
    result = "1/3 <= M_A <= 17/4 (partial: interrupted) after a long search"
    page = parse(ht.panel(long * 10, [("result", result), ("name", long * 10)]))
    text = "".join(page.text)
    assert f"result: {result}" in text  # facts are not cut like cells
    assert text.strip().startswith(long[: ht.TITLE_CHARS - 1] + "…\n") and len(text) < 3 * ht.TITLE_CHARS


def test_a_table_reads_at_most_the_preview_rows():
    many = ([n] for n in range(1, 10**5 + 1))
    page = parse(ht.panel("t", (), ht.table(["n"], many, total=10**9)))
    rows, _ = body_rows(page)
    assert [r[0] for r in rows] == [str(n) for n in range(1, ht.PREVIEW_ROWS + 1)]
    assert f"{10**9 - ht.PREVIEW_ROWS} more rows" in "".join(page.text)


# ---------------------------------------------------------------------------------- the class
def test_class_shows_its_names_matrix_and_sizes():
    H = HypothesisClass.from_matrix([[0, 1, 1], [1, 0, 1]], domain=NASTY[:3], names=["<h0>", "h&1"], name="<C>")
    page = parse(H._repr_html_())
    header, *rows = page.rows
    assert header == ["", *NASTY[:3]]
    assert rows == [["<h0>", "0", "1", "1"], ["h&1", "1", "0", "1"]]
    text = "".join(page.text)
    assert "HypothesisClass <C>" in text and "hypotheses: 2" in text and "instances: 3" in text
    assert "more" not in text


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 45), st.integers(1, 45), st.integers(0, 2**32 - 1))
def test_class_preview_is_the_top_left_corner_of_the_matrix(n_rows, n_cols, seed):
    matrix = np.random.default_rng(seed).integers(0, 2, size=(n_rows, n_cols))
    H = HypothesisClass.from_matrix(matrix)
    page = parse(H._repr_html_())
    header, *rows = page.rows
    r, c = min(n_rows, ht.PREVIEW_ROWS), min(n_cols, ht.PREVIEW_COLUMNS)
    assert header[1 : c + 1] == [str(x) for x in H.domain[:c]]
    assert [row[0] for row in rows] == [H.hypothesis_name(i) for i in range(r)]
    assert [[int(v) for v in row[1 : c + 1]] for row in rows] == matrix[:r, :c].tolist()
    text = "".join(page.text)
    assert (f"{n_rows - r} more hypotheses" in text) == (n_rows > r)
    assert (f"{n_cols - c} more instances" in text) == (n_cols > c)


@pytest.mark.parametrize("shape", [(100_000, 64), (3, 100_000)])
def test_a_huge_class_renders_small_and_fast(shape):
    H = HypothesisClass.from_matrix(np.ones(shape, dtype=np.uint8), name="huge")
    start = time.perf_counter()
    text = H._repr_html_()
    seconds = time.perf_counter() - start
    assert len(text.encode()) < 8_000, len(text)
    assert seconds < 0.5, seconds
    page = parse(text)
    assert len(page.rows) == 1 + min(shape[0], ht.PREVIEW_ROWS)
    assert all(len(row) == 1 + min(shape[1], ht.PREVIEW_COLUMNS) + (shape[1] > ht.PREVIEW_COLUMNS) for row in page.rows)


# ---------------------------------------------------------------------------------- the transcript
def _check_transcript_page(T: Transcript, page: Page, first: tuple | None = None) -> None:
    """The page shows the first rounds (``first``, default read off ``T.rounds``) and the totals."""
    rows, marked = body_rows(page)
    shown = T.rounds[: ht.PREVIEW_ROWS] if first is None else first
    assert [int(r[0]) for r in rows] == [r.t for r in shown]
    assert [r[1] for r in rows] == [str(r.x) for r in shown]
    assert [(int(r[3]), int(r[4])) for r in rows] == [(r.prediction, r.y) for r in shown]
    assert marked == [r.mistake for r in shown]
    assert [r[5] == "✗" for r in rows] == [r.mistake for r in shown]
    text = "".join(page.text)
    assert f"rounds: {len(T)}" in text and f"mistakes: {T.mistakes}" in text
    assert (f"{len(T) - len(shown)} more rounds" in text) == (len(T) > len(shown))


@pytest.mark.parametrize("rounds", [5, 60])
def test_transcript_shows_its_rounds_with_the_mistakes_marked(rounds):
    H = classes.thresholds(15)
    T = play(Halving(H), ObliviousCoin(), H, rounds=rounds, seed=5)
    assert 0 < T.mistakes < len(T)
    _check_transcript_page(T, parse(T._repr_html_()))


def test_transcript_escapes_instances_and_players():
    rounds = tuple(Round(t, x, 1.0, 1, t % 2) for t, x in enumerate(NASTY, start=1))
    T = Transcript(rounds=rounds, learner="<L>", adversary="<A&>", seed=3)
    page = parse(T._repr_html_())
    _check_transcript_page(T, page)
    assert "Transcript: <L> vs <A&> on no class" in page.text


def test_a_long_transcript_renders_without_building_its_rounds():
    n = 1_000_000
    log = RoundLog(list(range(n)), [1.0] * n, [1] * n, [int(i % 3 == 0) for i in range(n)])
    T = Transcript.from_log(log, learner="L", adversary="A")
    text = T._repr_html_()
    assert object.__getattribute__(T, "_log") is log, "the repr built every round"
    assert len(text.encode()) < 8_000
    _check_transcript_page(T, parse(text), first=tuple(log[i] for i in range(ht.PREVIEW_ROWS)))


def test_ipythons_plain_text_of_a_long_transcript_is_one_line():
    """IPython computes text/plain beside text/html: it must not be the repr of a million rounds."""
    n = 1_000_000
    log = RoundLog(list(range(n)), [1.0] * n, [1] * n, [0] * n)
    T = Transcript.from_log(log, learner="L", adversary="A", seed=4)

    class Printer:  # the one method of IPython's pretty printer the hook calls
        def __init__(self):
            self.written: list[str] = []

        def text(self, s):
            self.written.append(s)

    printer = Printer()
    T._repr_pretty_(printer, False)
    assert printer.written == [f"Transcript({T.summary()}, seed 4)"]
    assert object.__getattribute__(T, "_log") is log, "the plain text built every round"


def test_a_transcript_of_totals_shows_its_totals():
    T = Transcript.from_totals(10**9, mistakes=4, expected_mistakes=4, learner="L")
    page = parse(T._repr_html_())
    text = "".join(page.text)
    assert "rounds: 1000000000" in text and "mistakes: 4" in text and "rounds not kept" in text
    assert "table" not in page.tags


# ---------------------------------------------------------------------------------- check reports
def _row(learner: str, verdict: str, message: str = "") -> CheckRow:
    return CheckRow(learner, "Adv", "thresholds(3)", mistakes=2, bound=1.0 if verdict == "BROKEN" else 3.0,
                    verdict=verdict, message=message)


def test_check_report_lists_failures_first_and_marks_them():
    report = CheckReport(rows=(_row("A", "ok"), _row("B", "BROKEN", "<why>"), _row("C", "no bound"),
                               _row("D", "ERROR", "raised <E>"), _row("E", "ok")))
    page = parse(report._repr_html_())
    rows, marked = body_rows(page)
    assert page.rows[0][:3] == ["learner", "adversary", "class"]
    assert [r[0] for r in rows] == ["B", "D", "A", "C", "E"]
    assert [r[6] for r in rows] == ["BROKEN", "ERROR", "ok", "no bound", "ok"]
    assert marked == [True, True, False, False, False]
    assert rows[0][7] == "<why>" and rows[1][7] == "raised <E>"
    assert "Check report: FAILED" in page.text
    assert report.summary() in "".join(page.text)


def test_a_long_check_report_is_cut_and_counts_the_failures_it_hides():
    rows = [_row(f"ok{i}", "ok") for i in range(500)] + [_row(f"bad{i}", "BROKEN") for i in range(30)]
    page = parse(CheckReport(rows=rows)._repr_html_())
    shown, marked = body_rows(page)
    assert [r[0] for r in shown] == [f"bad{i}" for i in range(ht.PREVIEW_ROWS)]
    assert all(marked)
    assert f"{530 - ht.PREVIEW_ROWS} more rows ({30 - ht.PREVIEW_ROWS} of them failed)" in "".join(page.text)


def test_a_real_check_report_and_check_summary():
    report = run_check(["thresholds:7"], [Halving, SOA], ["ShatteredTreeWalker"])
    page = parse(report._repr_html_())
    rows, marked = body_rows(page)
    assert [(r[0], r[6]) for r in rows] == [(row.learner, row.verdict) for row in report.rows]
    assert not any(marked) and "Check report: all bounds hold" in page.text
    summary = check_learner(Halving, max_examples=3)
    assert isinstance(summary, CheckSummary)
    text = "".join(parse(summary._repr_html_()).text)
    assert f"games: {summary.games}" in text and f"max ratio: {ht.cell(summary.max_ratio)}" in text


# ---------------------------------------------------------------------------------- worst cases
@pytest.mark.parametrize("n, max_nodes", [(7, None), (40, None), (63, 5)])
def test_worst_case_shows_the_adversarys_line(n, max_nodes):
    H = classes.thresholds(n)
    W = worst_case_mistakes(Consistent(H), H, **({"max_nodes": max_nodes} if max_nodes else {}))
    page = parse(W._repr_html_())
    rows, marked = body_rows(page)
    line = W.line[: ht.PREVIEW_ROWS]
    gains = [W.witness.nodes[t]["gain"] for t in range(len(line))]
    assert [(r[1], int(r[3])) for r in rows] == [(str(x), y) for x, y in line]
    assert marked == [g > 0 for g in gains] and sum(marked) == sum(g > 0 for g in gains)
    text = "".join(page.text)
    assert f"result: {W.describe()}" in text
    assert (f"{len(W.line) - len(line)} more rounds" in text) == (len(W.line) > len(line))


def test_worst_case_without_a_line():
    page = parse(WorstCase(lower=0, upper=0, learner="<L>", class_name="C")._repr_html_())
    assert body_rows(page) == ([], []) and "Worst case of <L> on C" in page.text


def test_worst_case_of_a_learner_that_errs_everywhere_marks_every_round():
    H = classes.singletons(6)
    W = worst_case_mistakes(Halving(H), H)
    rows, marked = body_rows(parse(W._repr_html_()))
    assert len(rows) == len(W.line) and sum(marked) == W.value == 1


def test_every_view_carries_a_style_that_touches_only_its_own_elements():
    """Readable outside a notebook (issue 25): the style is in the HTML itself, and every selector is scoped to
    the framework's class, so a page that shows it keeps its own look."""
    import re

    from mistakebound import classes, play
    from mistakebound.adversaries import OppositeLabel
    from mistakebound.foundations.html_tables import STYLE
    from mistakebound.learners import Halving

    H = classes.thresholds(7)
    T = play(Halving(H), OppositeLabel(), H, rounds=5)
    for view in (H._repr_html_(), T._repr_html_()):
        assert view.startswith('<div class="mistakebound">') and view.count(STYLE) == 1
    rules = re.findall(r"([^{}]+)\{[^{}]*\}", STYLE.removeprefix("<style>").removesuffix("</style>"))
    selectors = [s.strip() for rule in rules for s in rule.split(",")]
    assert selectors and all(s.startswith(("div.mistakebound", "table.mistakebound")) for s in selectors), selectors
