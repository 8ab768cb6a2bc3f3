"""The console's one table writer (:func:`mistakebound.foundations.text_tables.text_table`) and its callers."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from mistakebound.foundations.text_tables import text_table
from mistakebound.game.transcript import Round, format_rounds
from mistakebound.verification.recorder import GameRecord, GameRecorder
from mistakebound.verification.selfcheck import CheckReport, CheckRow

cells = st.text(st.characters(codec="utf-8"), max_size=8)


@given(st.integers(1, 5).flatmap(lambda k: st.tuples(
    st.lists(st.text("abcdefgh <=/", min_size=1, max_size=8), min_size=k, max_size=k),
    st.lists(st.lists(cells, min_size=k, max_size=k), max_size=6),
    st.sets(st.integers(0, k - 1)),
    st.booleans(),
)))
def test_columns_start_at_the_same_offsets_on_every_line(case):
    header, rows, right, rule = case
    text = text_table(header, rows, right=[header[i] for i in right], rule=rule)
    lines = text.split("\n")
    assert len(lines) == 1 + rule + len(rows)  # every cell on one line, whatever it holds
    assert all(line == line.rstrip() for line in lines)
    if rule:
        assert re.fullmatch(r"-+(  -+)*", lines[1]) and len(lines[1]) == len(lines[1].rstrip())
        widths = [len(d) for d in lines[1].split("  ")]
        for line in lines:
            start = 0
            for w in widths:  # a column is its width, then two spaces
                cell = line[start:start + w]
                assert len(cell) <= w and (start + w >= len(line) or line[start + w: start + w + 2] == "  ")
                start += w + 2


def test_a_cell_with_a_line_break_or_an_escape_stays_on_its_row():
    text = text_table(["name", "n"], [["evil\nLdim = 99", "1"], ["\x1b[2J", "2"]])
    assert text.splitlines() == ["name             n", "---------------  -", "evil\\nLdim = 99  1", "\\x1b[2J          2"]


def test_the_callers_write_through_it():
    rounds = [Round(1, 8, 1.0, 1, 0), Round(2, "a\nb", 0.25, 0, 0)]
    assert format_rounds(rounds) == text_table(
        ["t", "x", "p", "prediction", "y", "mistake"],
        [["1", "8", "1", "1", "0", "yes"], ["2", "a\\nb", "0.25", "0", "0", "no"]])
    row = CheckRow("Halving", "OppositeLabel", "singletons(6)", mistakes=1, bound=2.584962500721156)
    assert CheckReport(rows=(row,)).format_table().splitlines()[2] == (
        "Halving  OppositeLabel  singletons(6)         1      2.58          -  ok")


def test_the_recorder_writes_its_numbers_as_every_table_does():
    recorder = GameRecorder()
    recorder.records = [GameRecord("L", "A", "c", mistakes=m, bound=2000.0, ratio=m / 2000) for m in (1000.0, 10.0)]
    assert recorder.format_table().splitlines() == [
        "learner  adversary  games  max mistakes  max mistakes/bound  violations",
        "L        A              2          1000                 0.5           0",
    ]


def test_printable_takes_its_fast_path_only_for_text_it_would_leave_as_it_is():
    """``str.isprintable`` lets text through at C speed: every character the escapes catch is unprintable to it."""
    import sys

    from mistakebound.foundations import text

    for pattern in (text._UNPRINTABLE, text._UNPRINTABLE_IN_LINES):
        assert not [c for c in map(chr, range(sys.maxunicode + 1)) if c.isprintable() and pattern.match(c)]
