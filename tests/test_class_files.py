"""Class files (mistakebound.game.class_files): one reader and one writer of .npy, .csv and .json."""

from __future__ import annotations

import ast
import io
import json
import os
import pathlib
import re
import string
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mistakebound
from mistakebound import HypothesisClass
from mistakebound.foundations.errors import InvalidArgumentError, InvalidClassError
from mistakebound.foundations import memory
from mistakebound.game import class_csv, class_files, classes, csv_records
from mistakebound.game.class_files import load_class, read_npy_matrix, save_class
from mistakebound.verification.strategies import hypothesis_classes

SRC = pathlib.Path(mistakebound.__file__).parent
FILES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# ------------------------------------------------------------------------- helpers
def typed(values):
    """Values with their types: 1 != '1' != 1.0 != True."""
    return None if values is None else tuple((type(v).__name__, v) for v in values)


def same_class(G, H, *, name=True):
    """Equal domain (types too), names, matrix (and name, when asked)."""
    assert typed(G.domain) == typed(H.domain)
    assert G.names == H.names
    assert G.matrix.dtype == np.uint8 and G.matrix.shape == H.matrix.shape
    assert np.array_equal(G.matrix, H.matrix)
    if name:
        assert G.name == H.name


def refused(call, path, error=InvalidArgumentError):
    """The one-line message of the error ``call()`` raises, checked to start by naming ``path``."""
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    assert message.startswith(f"path: {str(path)!r}: "), message
    assert "expected" in message, message
    return message


def write(tmp_path, name, text):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        with open(path, "w", newline="", encoding="utf-8") as fh:
            fh.write(text)
    return path


def npy_bytes(array, **kw):
    buffer = io.BytesIO()
    np.save(buffer, array, **kw)
    return buffer.getvalue()


def npy_claiming(shape, dtype="|u1", data=b"\x00" * 16):
    """A .npy file whose header declares ``shape`` but which holds only ``data``."""
    header = repr({"descr": dtype, "fortran_order": False, "shape": tuple(shape)}).encode("latin1")
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + data


# --------------------------------------------------------------- property tests
@FILES
@given(H=hypothesis_classes(min_instances=0, max_hypotheses=8, max_instances=6))
def test_generated_classes_round_trip_through_every_format(tmp_path_factory, H):
    folder = tmp_path_factory.mktemp("files")
    same_class(load_class(save_class(H, folder / "H.json")), H)  # exactly, name included
    G = load_class(save_class(H, folder / "H.npy"))
    same_class(G, H, name=False)
    assert G.name == "H.npy"
    if H.n_instances == 0:  # a CSV row needs an entry: refused, and nothing written
        message = refused(lambda: save_class(H, folder / "H.csv"), folder / "H.csv")
        assert "no instances" in message
        assert not (folder / "H.csv").exists()
    else:
        G = load_class(save_class(H, folder / "H.csv"))
        same_class(G, H, name=False)
        assert G.name == "H.csv"
    assert sorted(p.name for p in folder.iterdir()) == sorted(["H.json", "H.npy"] + ["H.csv"] * (H.n_instances > 0))


def _is_integer_text(s):
    return class_csv._INTEGER.fullmatch(s.strip()) is not None


#: Names a spreadsheet would hold: commas, quotes, line breaks and spaces inside, none around.
cell_texts = st.text(alphabet=string.ascii_letters + string.digits + ' ,"\n\r;=<>{}[]é-', max_size=8).filter(
    lambda s: s == s.strip())
csv_instances = st.one_of(st.integers(-(10**30), 10**30), cell_texts.filter(lambda s: not _is_integer_text(s)))


@st.composite
def classes_with_csv_names(draw):
    """Classes whose domain holds ints and strs and whose hypotheses have names."""
    H = draw(hypothesis_classes(max_hypotheses=6, max_instances=5))
    domain = draw(st.lists(csv_instances, min_size=H.n_instances, max_size=H.n_instances, unique=True))
    names = draw(st.lists(cell_texts, min_size=H.n_hypotheses, max_size=H.n_hypotheses))
    return HypothesisClass.from_matrix(H.matrix, domain, names, name=draw(st.none() | cell_texts))


@FILES
@given(H=classes_with_csv_names())
def test_names_and_str_int_domains_round_trip_through_csv(tmp_path_factory, H):
    path = tmp_path_factory.mktemp("csv") / "H.csv"
    G = load_class(save_class(H, path))
    same_class(G, H, name=False)
    assert G.name == "H.csv"


anything = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
              st.text(alphabet=" 01a,-\"", max_size=4)),
    lambda kids: st.lists(kids, max_size=2).map(tuple), max_leaves=4)


@st.composite
def classes_with_any_domain(draw):
    H = draw(hypothesis_classes(max_hypotheses=5, max_instances=4))
    domain = draw(st.lists(anything, min_size=H.n_instances, max_size=H.n_instances, unique=True))
    names = draw(st.none() | st.lists(st.text(alphabet=" 01a,\"\n", max_size=3),
                                      min_size=H.n_hypotheses, max_size=H.n_hypotheses))
    return HypothesisClass.from_matrix(H.matrix, domain, names)


@FILES
@given(H=classes_with_any_domain())
def test_any_class_saves_to_csv_exactly_or_is_refused_unwritten(tmp_path_factory, H):
    folder = tmp_path_factory.mktemp("any")
    path = folder / "H.csv"
    try:
        save_class(H, path)
    except InvalidArgumentError as exc:
        message = str(exc)
        assert message.startswith(f"path: {str(path)!r}: ") and "\n" not in message
        assert "matrix_only=True" in message or "no instances" in message
        assert not list(folder.iterdir())  # nothing written
        if H.n_instances:  # the matrix alone can always be saved
            G = load_class(save_class(H, path, matrix_only=True))
            assert np.array_equal(G.matrix, H.matrix) and G.domain == tuple(range(H.n_instances)) and G.names is None
        return
    same_class(load_class(path), H, name=False)


def test_the_property_tests_meet_refusals_and_successes(tmp_path):
    """The either-or property above is not vacuous: both branches happen."""
    ok = HypothesisClass.from_matrix([[0, 1]], domain=["a", -7], names=["h, 1"])
    same_class(load_class(save_class(ok, tmp_path / "ok.csv")), ok, name=False)
    bad = HypothesisClass.from_matrix([[0, 1]], domain=["a", "7"])
    with pytest.raises(InvalidArgumentError, match="would read back as the integer 7"):
        save_class(bad, tmp_path / "bad.csv")


# ---------------------------------------------------------------- CSV layouts
LAYOUTS = [
    # text, domain, names, matrix
    ("0,1\n1,1\n", (0, 1), None, [[0, 1], [1, 1]]),
    ("x1,x2\n0,1\n", ("x1", "x2"), None, [[0, 1]]),
    ("a,b\n0,1\n", ("a", "b"), None, [[0, 1]]),
    ("1,2,3\n0,1,1\n", (1, 2, 3), None, [[0, 1, 1]]),
    ("h1,0,1\nh2,1,0\n", (0, 1), ("h1", "h2"), [[0, 1], [1, 0]]),
    ("hypothesis,x1,x2\nh1,0,1\nh2,1,1\n", ("x1", "x2"), ("h1", "h2"), [[0, 1], [1, 1]]),
    (",0,1,2\n0,0,1,1\n1,1,0,0\n2,1,1,1\n", (0, 1, 2), ("0", "1", "2"), [[0, 1, 1], [1, 0, 0], [1, 1, 1]]),
    ("x\n0\n1\n", ("x",), None, [[0], [1]]),
    ("5\n1\n0\n", (5,), None, [[1], [0]]),
    ("h,0,1\n", (0, 1), ("h",), [[0, 1]]),
    (" 0 , 1.0 \n1e0,-0.0\n", (0, 1), None, [[0, 1], [1, 0]]),
    ("\ufeffx,y\r\n\r\n0,1\r\n\n", ("x", "y"), None, [[0, 1]]),
    ('"",a,"b, c"\n"h ""q""",0,1\n"two\nlines",1,1\n', ("a", "b, c"), ('h "q"', "two\nlines"), [[0, 1], [1, 1]]),
    ("-1,a,007,1.5\n0,1,1,0\n", (-1, "a", "007", "1.5"), None, [[0, 1, 1, 0]]),
    ("a, b , c\n 0, 1 ,1\n", ("a", "b", "c"), None, [[0, 1, 1]]),
    ("h1 ,0,1\n  h2\t,1,0\n", (0, 1), ("h1", "h2"), [[0, 1], [1, 0]]),
]


@pytest.mark.parametrize("text, domain, names, matrix", LAYOUTS)
def test_csv_header_and_name_column_are_detected(tmp_path, text, domain, names, matrix):
    path = write(tmp_path, "H.csv", text)
    H = load_class(path)
    assert typed(H.domain) == typed(domain)
    assert H.names == names
    assert H.matrix.tolist() == matrix
    assert H.name == "H.csv"


@pytest.mark.parametrize("text, domain, names, matrix", LAYOUTS)
def test_detected_layouts_save_and_load_back(tmp_path, text, domain, names, matrix):
    H = load_class(write(tmp_path, "in.csv", text))
    same_class(load_class(save_class(H, tmp_path / "out.csv")), H, name=False)


def test_saved_csv_text_is_the_documented_layout(tmp_path):
    plain = HypothesisClass.from_matrix([[0, 1], [1, 1]])
    assert save_class(plain, tmp_path / "a.csv").read_text() == "0,1\n1,1\n"
    header = HypothesisClass.from_matrix([[0, 1]], domain=[3, "x"])
    assert save_class(header, tmp_path / "b.csv").read_text() == "3,x\n0,1\n"
    named = HypothesisClass.from_matrix([[0, 1], [1, 0]], names=["h,1", 'say "hi"'])
    assert save_class(named, tmp_path / "c.csv").read_text() == ',0,1\n"h,1",0,1\n"say ""hi""",1,0\n'
    assert save_class(named, tmp_path / "d.csv", matrix_only=True).read_text() == "0,1\n1,0\n"
    big = HypothesisClass.from_matrix(np.random.default_rng(0).integers(0, 2, (1500, 3000)),
                                      names=[f"h{i}" for i in range(1500)])
    same_class(load_class(save_class(big, tmp_path / "big.csv")), big, name=False)  # written in blocks


def test_uppercase_suffixes_are_known(tmp_path):
    H = classes.thresholds(3)
    for suffix in (".CSV", ".Npy", ".JSON"):
        G = load_class(save_class(H, tmp_path / f"H{suffix}", matrix_only=True))
        assert np.array_equal(G.matrix, H.matrix)


# ------------------------------------------------------------------ bad CSVs
BAD_CSVS = [
    # name, text, error, what the message says (regex)
    ("empty.csv", "", InvalidArgumentError, "the file is empty"),
    ("blank.csv", "\n \n\n", InvalidArgumentError, r"holds no entries \(only blank lines\)"),
    ("ragged.csv", "0,1,1\n0,1\n", InvalidClassError, "row 2 has 2 cells but row 1 has 3"),
    ("ragged_later.csv", "0,1\n\n1,1\n\n0\n", InvalidClassError, "row 5 has 1 cells but row 1 has 2"),
    ("no_corner.csv", "x1,x2\nh1,0,1\n", InvalidClassError,
     "row 2 has 3 cells but row 1 has 2 .a header row over a name column starts with an empty cell"),
    ("two_in_body.csv", "0,1\n1,2\n", InvalidClassError, r"row 2, column 2: '2' is not 0 or 1"),
    ("two_in_column_1.csv", "0,1\n2,0\n", InvalidClassError, r"row 2, column 1: '2' is not 0 or 1"),
    ("two_after_blank.csv", "\n0,1\n\n1,0.5\n", InvalidClassError, r"row 4, column 2: '0.5' is not 0 or 1"),
    ("text_in_body.csv", "x,y\nh,0\ng,a\n", InvalidClassError, r"row 3, column 2: 'a' is not 0 or 1"),
    ("nan.csv", "nan,1\n", InvalidClassError, r"row 1, column 1: 'nan' is not 0 or 1"),
    ("empty_cell.csv", "0,,1\n1,1,1\n", InvalidClassError, r"row 1, column 2: an empty cell is not 0 or 1"),
    ("empty_in_column_1.csv", "0,1\n,1\n", InvalidClassError, r"row 2, column 1: an empty cell is not 0 or 1"),
    ("named_bad.csv", ",a,b\nh1,0,1\nh2,1,3\n", InvalidClassError, r"row 3, column 3: '3' is not 0 or 1"),
    ("header_only.csv", "a,b,c\n", InvalidClassError, "row 1 is a header row .instance names. and no row of entries"),
    ("header_only_2.csv", "\n,a,b\n", InvalidClassError, "row 2 is a header row"),
    ("names_only.csv", "h1\nh2\n", InvalidClassError, "column 1 holds hypothesis names and no column of entries"),
    ("ambiguous.csv", "x,0\n0,1\n", InvalidClassError, r"row 1, column 1 holds the text 'x'"),
    ("number_corner.csv", "5,0\n0,1\n", InvalidClassError, r"row 1, column 1: '5' is not 0 or 1"),
    ("duplicates.csv", ",a,b,a\nh,0,1,1\n", InvalidClassError, r"row 1, columns 2 and 4: instance 'a' appears twice"),
    ("typo_in_row_1.csv", "0,1,2,0\n1,1,1,1\n", InvalidClassError,
     r"row 1, columns 1 and 4: instance 0 appears twice; row 1 was read as a header because it holds numbers"),
    ("latin1.csv", b"x,y\n0,1\n\xe9,1\n", InvalidArgumentError, r"row 3, column 1: the byte 0xe9 is not UTF-8"),
]


@pytest.mark.parametrize("name, text, error, says", BAD_CSVS, ids=[b[0] for b in BAD_CSVS])
def test_bad_csvs_are_refused_in_one_line_naming_file_row_and_column(tmp_path, name, text, error, says):
    path = write(tmp_path, name, text)
    message = refused(lambda: load_class(path), path, error)
    assert __import__("re").search(says, message), message


def test_cli_bad_files_are_refused_by_the_loader_too(tmp_path):
    """The bad files of tests/test_cli.py, read by load_class (letters.csv is a header now)."""
    cases = {
        "two.csv": ("0,1\n2,0\n", "0 or 1"),
        "ragged.csv": ("0,1,1\n0,1\n", "ragged.csv"),
        "words.csv": ("a,b\nc,d\n", "row 2, column 2: 'd'"),
        "blank.csv": ("\n\n", "no entries"),
    }
    for name, (text, says) in cases.items():
        path = write(tmp_path, name, text)
        assert says in refused(lambda: load_class(path), path)
    H = load_class(write(tmp_path, "letters.csv", "a,b\n0,1\n"))
    assert H.domain == ("a", "b") and H.matrix.tolist() == [[0, 1]]


# ---------------------------------------------- CSV: entries, BOM, one position convention
ENTRY_TEXTS = ["0", "1", "1.0", "0.0", "1.", ".0", "+1", "-0", "00", "01", "1e0", "10e-1", "0.1e1", "0e5",
               "1.000000000000000000e+00", "0.000000000000000000e+00", " 1 ", "\t0"]
NOT_ENTRY_TEXTS = ["1.0000000000000001", "0.99999999999999999", "1e-400", "2", "-1", "0.5", "nan", "inf",
                   "0x1", "1_0", "true", "1;0", "\u0661", "1 0"]


@pytest.mark.parametrize("cell", ENTRY_TEXTS)
def test_an_entry_is_a_decimal_whose_exact_value_is_0_or_1(tmp_path, cell):
    path = write(tmp_path, "H.csv", f"0,1\n{cell if ',' not in cell else '1'},1\n")
    assert load_class(path).matrix.tolist() == [[0, 1], [int(float(cell)), 1]]


@pytest.mark.parametrize("cell", NOT_ENTRY_TEXTS)
@pytest.mark.parametrize("where", ["body", "column 1"])
def test_anything_else_is_refused_by_its_text_not_its_float(tmp_path, cell, where):
    """``1.0000000000000001`` is 1 as a float, and refused: the text is compared, exactly."""
    text = f"0,1,0\n1,{cell},1\n" if where == "body" else f"0,1,0\n{cell},1,1\n"
    path = write(tmp_path, "H.csv", text)
    column = 2 if where == "body" else 1
    if where == "column 1" and class_csv._kind(cell) == class_csv._TEXT:  # a text there: a name column
        H = load_class(path)
        assert H.names == ("0", cell.strip()) and H.matrix.tolist() == [[1, 0], [1, 1]]
        return
    message = refused(lambda: load_class(path), path, InvalidClassError)
    assert f"row 2, column {column}: {cell.strip()!r} is not 0 or 1" in message, message
    if cell in ("1.0000000000000001", "0.99999999999999999", "1e-400"):  # a float would take them for entries
        assert "its exact value is not 0 or 1" in message


@pytest.mark.parametrize("text", [
    "0,1\n1,1\n", "x,y\n0,1\n1,1\n", ",x,y\nh,0,1\ng,1,1\n", "x,y\r\n0,1\r\n1,1\r\n", "h,0,1\n",
    "1.0,0.0\n0.0,1.0\n", '"",x\n"h, 1",1\n',
])
def test_a_byte_order_mark_is_accepted_and_changes_nothing(tmp_path, text):
    """Excel's "CSV UTF-8" starts with a BOM: the same class as without it, the first cell unchanged."""
    plain = load_class(write(tmp_path, "plain.csv", text.encode()))
    bom = load_class(write(tmp_path, "bom.csv", b"\xef\xbb\xbf" + text.encode()))
    same_class(bom, plain, name=False)
    bad = write(tmp_path, "bad.csv", b"\xef\xbb\xbf0,1\n1,x2\n")
    assert "row 2, column 2: 'x2' is not 0 or 1" in refused(lambda: load_class(bad), bad, InvalidClassError)


@st.composite
def csv_files(draw):
    """A CSV file in one of the layouts and styles writers produce, as (bytes, class, row of each hypothesis line).

    Styles: a header row or none, a name column (plain or quoted) or none, entries written as
    ``0``/``1`` or ``0.0``/``1.0`` or numpy's ``%.18e``, \\n or \\r\\n, blank lines, a BOM, no
    final line end.  The third item gives, for each hypothesis, the file row (line) it is on.
    """
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 5))
    matrix = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)),
                      dtype=np.uint8)
    header = draw(st.booleans())
    names = draw(st.sampled_from([None, "plain", "quoted"]))
    fmt = draw(st.sampled_from(["{}", "{}.0", "{:.18e}", " {} "]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    blank = draw(st.lists(st.booleans(), min_size=n + 1, max_size=n + 1))
    lines, rows, line = [], [], 1
    if header:
        cells = ([""] if names else []) + [f"x{j}" for j in range(m)]
        if names == "quoted":
            cells = [f'"{c}"' for c in cells]
        lines.append(",".join(cells))
        line += 1
    for i in range(n):
        if blank[i]:
            lines.append("")
            line += 1
        cells = [fmt.format(int(v)) if "e" not in fmt else fmt.format(float(v)) for v in matrix[i]]
        if names == "plain":
            cells = [f"h{i}"] + cells
        elif names == "quoted":
            cells = [f'"h, {i}"'] + cells
        lines.append(",".join(cells))
        rows.append(line)
        line += 1
    text = end.join(lines) + (end if draw(st.booleans()) else "")
    data = (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode()
    domain = tuple(f"x{j}" for j in range(m)) if header else None
    hypothesis_names = None
    if names == "plain":
        hypothesis_names = [f"h{i}" for i in range(n)]
    elif names == "quoted":
        hypothesis_names = [f"h, {i}" for i in range(n)]
    if names and not header and fmt != " {} ":
        pass
    H = HypothesisClass.from_matrix(matrix, domain, hypothesis_names)
    return data, H, rows, names is not None


def _slow(monkeypatch):
    """Read every CSV cell by cell, in Python: the reference the numpy paths must agree with."""
    monkeypatch.setattr(class_csv._CsvReader, "_fast", lambda self, *a: None)
    monkeypatch.setattr(class_csv._CsvReader, "_grid", lambda self, arr: False)
    monkeypatch.setattr(class_csv._CsvReader, "_quick_line", lambda self, raw: False)


@FILES
@given(case=csv_files(), block=st.sampled_from([7, 64, 1 << 20]))
def test_the_numpy_paths_read_what_the_cell_by_cell_reader_reads(tmp_path, monkeypatch, case, block):
    data, H, _, _ = case
    path = write(tmp_path, "H.csv", data)
    monkeypatch.setattr(csv_records, "BLOCK", block)
    G = load_class(path)
    if H.names is not None or H.domain != tuple(range(H.n_instances)):
        same_class(G, H, name=False)
    else:
        assert np.array_equal(G.matrix, H.matrix)
    with monkeypatch.context() as m:
        _slow(m)
        same_class(load_class(path), G)


@FILES
@given(case=csv_files(), data=st.data())
def test_a_bad_cell_is_reported_at_one_position_whatever_the_path(tmp_path, monkeypatch, case, data):
    """Row = the line of the file, column = the cell's place in its row (the name column counts), from 1.

    The same position from the numpy paths and the cell-by-cell reader, in blocks of any
    size, with a BOM, blank lines, \\r\\n, quoted names, or a header row."""
    raw, H, rows, named = case
    header = isinstance(H.domain[0], str)
    i = data.draw(st.integers(0 if header else 1, H.n_hypotheses - 1)) if header or H.n_hypotheses > 1 else None
    assume(i is not None)  # a bad cell in the first row can make it a header: another test
    j = data.draw(st.integers(0, H.n_instances - 1))
    bad = data.draw(st.sampled_from(["2", "1.0000000000000001", "x"]))
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw[3:].decode() if bom else raw.decode()
    end = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(end)
    cells = lines[rows[i] - 1].split(",") if not named or '"' not in lines[rows[i] - 1] else None
    if cells is None:  # a quoted name holds a comma: split after it
        name, rest = lines[rows[i] - 1].split('",', 1)
        cells = [name + '"'] + rest.split(",")
    column = j + 1 + (1 if named else 0)
    if bad == "x" and column == 1:
        bad = "2"  # a text in column 1 would make it a name column
    cells[column - 1] = bad
    lines[rows[i] - 1] = ",".join(cells)
    path = write(tmp_path, "H.csv", (b"\xef\xbb\xbf" if bom else b"") + end.join(lines).encode())
    expected = f"row {rows[i]}, column {column}: {bad!r} is not 0 or 1"
    for block in (5, 1 << 20):
        monkeypatch.setattr(csv_records, "BLOCK", block)
        message = refused(lambda: load_class(path), path, InvalidArgumentError)
        assert expected in message, (message, expected)
        with monkeypatch.context() as m:
            _slow(m)
            assert refused(lambda: load_class(path), path, InvalidArgumentError) == message


def test_the_same_bad_cell_has_the_same_position_in_every_message(tmp_path):
    """One cell, several files around it: always row 4, column 3 (line 4 of the file, third cell)."""
    texts = {
        "plain": "0,1,0\n1,1,1\n0,0,0\n1,0,2\n",
        "crlf, bom": "\ufeff0,1,0\r\n1,1,1\r\n0,0,0\r\n1,0,2\r\n",
        "blank lines": "0,1,0\n\n1,1,1\n1,0,2\n",
        "header and names": ",a,b\nh,1,1\ng,0,0\nf,0,2\n",
        "quoted name over two lines": ',a,b\n"h\nh",1,1\nf,0,2\n',
        "lone cr": "0,1,0\r1,1,1\r0,0,0\r1,0,2\r",
        "float cells": "0.0,1.0,0.0\n1.0,1.0,1.0\n0.0,0.0,0.0\n1.0,0.0,2\n",
    }
    for style, text in texts.items():
        path = write(tmp_path, "H.csv", text.encode())
        message = refused(lambda: load_class(path), path, InvalidClassError)
        assert "row 4, column 3: '2' is not 0 or 1" in message, (style, message)
    # the JSON format and the .npy reader number matrix rows and columns from 1 too
    json_path = write(tmp_path, "H.json", '{"format":"mistakebound.class","version":1,"name":null,"names":null,'
                                          '"domain":[0,1,2],"matrix":[[0,1,0],[1,1,1],[0,0,0],[1,0,2]]}')
    assert "row 4, column 3 holds 2" in refused(lambda: load_class(json_path), json_path, InvalidClassError)
    npy = write(tmp_path, "H.npy", npy_bytes(np.array([[0, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 2]])))
    assert "row 4, column 3: 2 is not 0 or 1" in refused(lambda: load_class(npy), npy, InvalidClassError)


@pytest.mark.parametrize("bad, says", [
    ("1,2,0", "row 25, column 2"), ("1,9,0", "row 25, column 2"), ("1,/,0", "row 25, column 2"),
    ("1,:,0", "row 25, column 2"), ("1, ,0", "row 25, column 2"), ("1,\x00,0", "row 25, column 2"),
    ("1;1;0", "row 25 has 1 cells"), ("1,1.0", "row 25 has 2 cells"), ("11,,0", "row 25, column 2: an empty cell"),
    ("0,1,0,1,1,1", "row 25 has 6 cells"),
])
@pytest.mark.parametrize("block", [12, 36, 1 << 20])
def test_a_bad_cell_in_a_later_block_of_a_plain_grid_is_found(tmp_path, monkeypatch, bad, says, block):
    """Blocks after the first of a file of one-character cells are read in one reshape: a cell that is
    not 0 or 1 there (a digit, a character just below "0" or above "9"), or a row of the same length
    that is not three cells, is still found, where it is."""
    monkeypatch.setattr(csv_records, "BLOCK", block)
    rows = ["0,1,0", "1,1,1", "0,0,0"] * 10
    rows[24] = bad
    path = write(tmp_path, "H.csv", ("\n".join(rows) + "\n").encode())
    message = refused(lambda: load_class(path), path, InvalidArgumentError)
    assert says in message, message
    rows[24] = "1,1,0"
    write(tmp_path, "H.csv", ("\n".join(rows) + "\n").encode())
    assert load_class(path).matrix[24].tolist() == [1, 1, 0]


def test_a_text_in_column_1_after_rows_of_entries_makes_it_a_name_column(tmp_path):
    """Read again with names when a text shows up late (the numpy path guessed entries)."""
    path = write(tmp_path, "H.csv", "0,1\n1,1\n" * 50 + "h,0\n")
    H = load_class(path)
    assert H.names == ("0", "1") * 50 + ("h",) and H.matrix.shape == (101, 1)
    late = write(tmp_path, "late.csv", "0,1\n1,1\n" * 50 + "2,0\n")  # a number: a mistyped entry
    assert "row 101, column 1: '2' is not 0 or 1" in refused(lambda: load_class(late), late, InvalidClassError)


@pytest.mark.parametrize("text, says", [
    (',a\n"h,0\n', r"row 2, column 1: a quoted cell is not closed before the end of the file"),
    ('0,"1\n', "row 1, column 2: a quoted cell"),
    ('x,y\n"a,b",1,"2\n', "row 2, column 3: a quoted cell"),
])
def test_an_unclosed_quote_is_refused_with_its_row(tmp_path, text, says):
    path = write(tmp_path, "H.csv", text)
    message = refused(lambda: load_class(path), path)
    assert re.search(says, message), message


@pytest.mark.parametrize("bad, says", [
    ("1.0,2.0,0.0", "row 26, column 3: '2.0'"), ("1.0,1.5,0.0", "row 26, column 3: '1.5'"),
    ("1.0,1.0,0.1", "row 26, column 4: '0.1'"), ("1.0,1.0,1.0000000000000001", "row 26, column 4"),
    ("1.0,1.0,0.00", [1, 1, 0]), ("1.0,1.0,1e0", [1, 1, 1]), ("1.0,-0.,1.0", [1, 0, 1]),
])
@pytest.mark.parametrize("block", [40, 1 << 20])
def test_float_cells_in_a_later_block_are_read_by_their_text(tmp_path, monkeypatch, bad, says, block):
    """pandas' ``1.0``/``0.0`` cells (under a header, beside names), read in bulk after the first
    block: another number is found where it is, another spelling of 0 or 1 is read as it."""
    monkeypatch.setattr(csv_records, "BLOCK", block)
    rows = ["h0,0.0,1.0,0.0", "h1,1.0,1.0,1.0", "h2,0.0,0.0,0.0"] * 10
    rows[24] = "h24," + bad
    path = write(tmp_path, "H.csv", (",a,b,c\n" + "\n".join(rows) + "\n").encode())
    if isinstance(says, list):  # the row read
        assert load_class(path).matrix[24].tolist() == says
    else:
        message = refused(lambda: load_class(path), path, InvalidArgumentError)
        assert says in message, message


def test_a_csv_that_cannot_fit_in_memory_is_refused_before_allocating(tmp_path, monkeypatch):
    path = write(tmp_path, "m.csv", "0,1,0,1\n" * 400_000)  # 1.6 million entries: a 1.6 MB matrix
    limits = {"system": 40_000_000, "cgroup": None, "address space": None, "environment": None}
    monkeypatch.setattr(memory, "memory_limits", lambda: dict(limits))  # the one budget, read by require_memory
    monkeypatch.setattr(csv_records, "BLOCK", 1 << 16)
    tracemalloc.start()
    try:
        with pytest.raises(mistakebound.errors.InsufficientMemoryError) as info:
            load_class(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert message.startswith(f"path: {str(path)!r}: a matrix of up to 400,000 rows x 4 columns and the class made "
                              "of it, a 400,000 x 4 table: 1,600,000 entries"), message
    assert "needs about 45.2 MiB, but only 38.1 MiB of memory is available" in message, message
    assert message.endswith("expected a smaller file (or more memory)"), message
    # the rows read (1 byte an entry), and the class: 3 bytes an entry while it is built, 400,000 x 4 bits of
    # column bitsets, 2 x 400,000 bytes of rows packed into bits, 100 bytes a row, 160 bytes for each of the
    # 2^4 distinct rows there can be, 200 bytes a column
    needed = 1_600_000 + 3 * 1_600_000 + 4 * 50_000 + 2 * 400_000 + 100 * 400_000 + 160 * 16 + 200 * 4
    assert (info.value.needed, info.value.available) == (needed, 40_000_000)
    assert peak < 400_000, peak  # a block of the file at most, never the matrix
    limits["system"] = 50_000_000
    assert load_class(path).matrix.shape == (400_000, 4)


def test_an_npy_that_cannot_fit_in_memory_is_refused_before_loading(tmp_path, monkeypatch):
    path = tmp_path / "m.npy"
    np.save(path, np.zeros((1000, 100), dtype=np.float64))  # 800 kB of floats, and a 100 kB 0/1 copy
    limits = {"system": 850_000, "cgroup": None, "address space": None, "environment": None}
    monkeypatch.setattr(memory, "memory_limits", lambda: dict(limits))
    monkeypatch.setattr(np, "load", lambda *a, **k: pytest.fail("loaded before the memory check"))
    with pytest.raises(mistakebound.errors.InsufficientMemoryError, match=r"^path: '.*m\.npy': a matrix of shape "
                       r"\(1000, 100\) \(float64\) and the class made of it, a 1,000 x 100 table: 100,000 entries "
                       r".* needs about 1\.4 MiB") as info:
        load_class(path)
    # the floats, and the class: 3 bytes an entry while it is built, 1,000 bits a column, 13 bytes a row packed into
    # bits (twice), 100 bytes a row, 160 bytes a distinct row (all may be), 200 bytes a column
    assert info.value.needed == 800_000 + 3 * 100_000 + 100 * 125 + 2 * 1000 * 13 + 100 * 1000 + 160 * 1000 + 200 * 100
    monkeypatch.undo()
    assert load_class(path).matrix.shape == (1000, 100)


def test_a_large_csv_is_read_at_npy_like_memory(tmp_path):
    """Peak resident memory (VmHWM) while reading a 16 MB CSV of 4 columns, in a fresh process.

    The cell-by-cell reader this replaced kept Python objects per row: about 8 bytes of
    memory per byte of such a file; the numpy reader keeps the matrix (a quarter of the
    file) and its copies."""
    import subprocess
    import sys

    rows = 2_000_000
    matrix = np.random.default_rng(0).integers(0, 2, size=(rows, 4), dtype=np.uint8)
    text = np.full((rows, 8), ord(","), dtype=np.uint8)
    text[:, 0::2] = matrix + ord("0")
    text[:, -1] = ord("\n")
    path = tmp_path / "tall.csv"
    path.write_bytes(text.tobytes())
    child = (
        "import sys\n"
        "from mistakebound.game.class_files import load_class\n"
        "def kib(key):\n"
        "    return int(next(l for l in open('/proc/self/status') if l.startswith(key)).split()[1])\n"
        "before = kib('VmRSS:')\n"
        "H = load_class(sys.argv[1])\n"
        "print(H.matrix.shape[0], kib('VmHWM:') - before)\n"
    )
    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc: the peak is read from /proc/self/status")
    done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    n, grown_kib = map(int, done.stdout.split())
    assert n == rows
    assert grown_kib * 1024 < 3 * path.stat().st_size, f"{grown_kib} KiB for a {path.stat().st_size} byte file"


# ------------------------------------------------------------------ CSV saves refused
@pytest.mark.parametrize(
    "H, says",
    [
        (classes.parities(2), "instance 1 .* is \\(0, 0\\) of type tuple"),
        (HypothesisClass.from_matrix([[0, 1]], domain=["7", "x"]), "instance 1 .*would read back as the integer 7"),
        (HypothesisClass.from_matrix([[0, 1]], domain=[" x", "y"]), "instance 1 .*surrounding spaces"),
        (HypothesisClass.from_matrix([[0, 1]], domain=[1.5, "y"]), "of type float"),
        (HypothesisClass.from_matrix([[0, 1]], domain=[True, "y"]), "of type bool"),
        (HypothesisClass.from_matrix([[0, 1]], names=["h "]), "hypothesis name 1 .*surrounding spaces"),
        (HypothesisClass.from_matrix([[0, 1]], domain=[1, 0]), "would not be read back as a header row"),
        (HypothesisClass.from_matrix([[0, 1]], domain=["", "x"]), "would not be read back as a header row"),
        (HypothesisClass.from_matrix(np.zeros((2, 0)), names=["a", "b"]), "no instances"),
    ],
)
def test_lossy_csv_saves_are_refused_and_write_nothing(tmp_path, H, says):
    path = tmp_path / "H.csv"
    message = refused(lambda: save_class(H, path), path)
    assert __import__("re").search(says, message), message
    assert not list(tmp_path.iterdir())


# ----------------------------------------------------------------------- .npy
def test_npy_pickles_are_refused_unread(tmp_path):
    class Boom:
        def __reduce__(self):
            return (pytest.fail, ("the pickle in a data file was executed",))

    path = write(tmp_path, "evil.npy", npy_bytes(np.array([[Boom()]], dtype=object), allow_pickle=True))
    assert "pickle" in refused(lambda: load_class(path), path)
    assert "pickle" in refused(lambda: read_npy_matrix(path), path)


NPY_CASES = [
    # name, bytes, error, says
    ("junk.npy", b"not an npy file at all", InvalidArgumentError, "is not a valid .npy file"),
    ("vec.npy", npy_bytes(np.array([0, 1])), InvalidClassError, r"shape \(2,\); expected a 2-D array"),
    ("cube.npy", npy_bytes(np.zeros((2, 2, 2))), InvalidClassError, "2-D"),
    ("two.npy", npy_bytes(np.array([[0, 1], [1, 2]])), InvalidClassError, r"row 2, column 2: 2 is not 0 or 1"),
    ("half.npy", npy_bytes(np.array([[0.5, 1.0]])), InvalidClassError, r"row 1, column 1: 0.5 is not 0 or 1"),
    ("nan.npy", npy_bytes(np.array([[0.0], [1.0], [np.nan]])), InvalidClassError, r"row 3, column 1: nan"),
    ("complex.npy", npy_bytes(np.array([[1j]])), InvalidArgumentError, "dtype complex128"),
    ("no_rows.npy", npy_bytes(np.zeros((0, 3), dtype=np.uint8)), InvalidClassError, "at least one hypothesis"),
    ("truncated.npy", npy_bytes(np.eye(40, dtype=np.uint8))[:-5], InvalidArgumentError,
     r"declares shape \(40, 40\) \(1600 bytes of data\) but the file holds 1595"),
]


@pytest.mark.parametrize("name, data, error, says", NPY_CASES, ids=[c[0] for c in NPY_CASES])
def test_bad_npy_files_are_refused_in_one_line(tmp_path, name, data, error, says):
    path = write(tmp_path, name, data)
    message = refused(lambda: load_class(path), path, error)
    assert __import__("re").search(says, message), message


def test_npy_of_bools_ints_and_floats_load(tmp_path):
    for dtype in (bool, np.int8, np.int64, np.uint16, np.float32, np.float64):
        path = write(tmp_path, "m.npy", npy_bytes(np.array([[0, 1], [1, 1]], dtype=dtype)))
        assert load_class(path).matrix.tolist() == [[0, 1], [1, 1]]
    path = write(tmp_path, "f.npy", npy_bytes(np.asfortranarray(np.array([[0, 1, 1], [1, 0, 0]]))))
    assert load_class(path).matrix.tolist() == [[0, 1, 1], [1, 0, 0]]


def test_lossy_npy_save_needs_consent(tmp_path):
    H = classes.thresholds(4)  # domain 1..4 and names: not representable in .npy
    message = refused(lambda: save_class(H, tmp_path / "H.npy"), tmp_path / "H.npy")
    assert "the domain and the names" in message and "matrix_only=True" in message
    assert not list(tmp_path.iterdir())
    back = load_class(save_class(H, tmp_path / "H.npy", matrix_only=True))
    assert np.array_equal(back.matrix, H.matrix) and back.domain == tuple(range(H.n_instances))
    assert back.names is None and back.name == "H.npy"


# ---------------------------------------------------------------------- .json
def test_json_files_keep_everything_and_name_the_file_in_errors(tmp_path):
    for H in (classes.thresholds(7), classes.monotone_disjunctions(3), classes.parities(3)):
        same_class(load_class(save_class(H, tmp_path / "H.json")), H)
    path = write(tmp_path, "bad.json", "{")
    assert "malformed class JSON" in refused(lambda: load_class(path), path)
    path = write(tmp_path, "two.json", class_files.class_to_json(HypothesisClass.from_matrix([[0, 1]]))
                 .replace("[[0,1]]", "[[0,2]]"))
    assert "matrix: row 1, column 2 holds 2" in refused(lambda: load_class(path), path, InvalidClassError)


def test_zoo_classes_round_trip_through_files(tmp_path):
    for H in (classes.thresholds(7), classes.intervals(4), classes.singletons(5), classes.power_set(3),
              classes.k_sparse(5, 2)):
        for suffix in (".json", ".csv"):
            same_class(load_class(save_class(H, tmp_path / f"H{suffix}")), H, name=suffix == ".json")


# ----------------------------------------------------------- sizes and paths
def test_files_larger_than_max_bytes_are_refused_before_reading(tmp_path):
    H = HypothesisClass.from_matrix(np.ones((300, 300), dtype=np.uint8))
    for suffix in (".json", ".csv", ".npy"):
        path = save_class(H, tmp_path / f"H{suffix}")
        size = path.stat().st_size
        tracemalloc.start()
        try:
            message = refused(lambda: load_class(path, max_bytes=size - 1), path)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert f"the file has {size} bytes, more than max_bytes = {size - 1}" in message
        assert peak < 64 * 1024, (suffix, peak)
        assert load_class(path, max_bytes=size) == H


def test_npy_header_claiming_a_huge_matrix_is_refused_before_allocation(tmp_path):
    cases = [  # (shape, max_bytes, message)
        ((2**32, 2**32), None, f"has {2**64} entries, more than the limit of {classes.MAX_ENTRIES} (what an array "
                               "can hold on this machine)"),
        ((2**20, 2**20), None, r"declares shape (1048576, 1048576) (1099511627776 bytes of data) but the file holds"),
        ((30000, 30000), None, r"declares shape (30000, 30000) (900000000 bytes of data) but the file holds 16"),
        ((30000, 30000), 10**6, "needs 900000000 bytes, more than max_bytes = 1000000"),
    ]
    for shape, max_bytes, says in cases:
        path = write(tmp_path, "huge.npy", npy_claiming(shape))
        tracemalloc.start()
        try:
            message = refused(lambda: load_class(path, max_bytes=max_bytes), path)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert says in message, message
        assert peak < 1024 * 1024, peak


def _limits(monkeypatch, available: int) -> None:
    """The one memory budget, as require_memory reads it, set to ``available`` bytes."""
    limits = {"system": available, "cgroup": None, "address space": None, "environment": None}
    monkeypatch.setattr(memory, "memory_limits", lambda: dict(limits))


def test_an_npy_of_many_rows_and_no_data_is_refused_before_any_row_is_walked(tmp_path):
    """Issue 21: 128 bytes declaring (10**13, 0) hold all their 0 bytes of data, and were a class of 10^13
    hypotheses; every class keeps at least a group (8 bytes) and a name per row: 10^13 rows cannot fit."""
    path = write(tmp_path, "many.npy", npy_claiming((10**13, 0), data=b""))
    assert path.stat().st_size == 128
    tracemalloc.start()
    try:
        message = refused(lambda: load_class(path), path, mistakebound.errors.InsufficientMemoryError)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "a matrix of shape (10000000000000, 0) (uint8)" in message, message
    assert "a 10,000,000,000,000 x 0 table: 0 entries" in message and "needs about" in message, message
    assert message.endswith("expected a smaller file (or more memory)"), message
    assert peak < 1024 * 1024, peak


def test_an_npy_of_a_billion_rows_is_refused_by_what_its_rows_cost_not_only_its_bytes(tmp_path, monkeypatch):
    """(10**9, 1): 1 GB of data, which a 16 GiB budget holds, but a class of 10^9 rows needs 100 bytes a row."""
    path = write(tmp_path, "tall.npy", npy_claiming((10**9, 1), data=b""))
    with open(path, "r+b") as fh:
        fh.truncate(128 + 10**9)  # the data is all there (a sparse file: no disk is used)
    if path.stat().st_blocks * 512 > 2**20:  # pragma: no cover - a file system without sparse files
        pytest.skip("the file system does not keep sparse files")
    _limits(monkeypatch, 16 * 2**30)
    monkeypatch.setattr(np, "load", lambda *a, **k: pytest.fail("loaded before the memory check"))
    with pytest.raises(mistakebound.errors.InsufficientMemoryError) as info:
        load_class(path)
    assert str(info.value).startswith(f"path: {str(path)!r}: a matrix of shape (1000000000, 1) (uint8)")
    assert info.value.needed > 100 * 10**9 and info.value.available == 16 * 2**30


def test_a_json_class_of_many_empty_rows_is_refused_by_what_its_rows_cost(tmp_path, monkeypatch):
    rows = 200_000  # no instances: the matrix holds nothing, the class 100 bytes a row
    text = ('{"format":"mistakebound.class","version":1,"name":null,"names":null,"domain":[],"matrix":['
            + ",".join(["[]"] * rows) + "]}")
    path = write(tmp_path, "empty.json", text)
    _limits(monkeypatch, 10_000_000)
    message = refused(lambda: load_class(path), path, mistakebound.errors.InsufficientMemoryError)
    assert "matrix: a class of 200,000 rows, a 200,000 x 0 table: 0 entries" in message, message
    assert "but only 9.5 MiB of memory is available" in message, message
    _limits(monkeypatch, 40_000_000)
    assert load_class(path).matrix.shape == (rows, 0)


def test_a_csv_of_one_column_is_refused_by_what_its_rows_cost(tmp_path, monkeypatch):
    path = write(tmp_path, "tall.csv", "0\n1\n" * 250_000)  # 1 MB: half a million rows of one entry
    _limits(monkeypatch, 20_000_000)
    message = refused(lambda: load_class(path), path, mistakebound.errors.InsufficientMemoryError)
    assert "a matrix of up to 500,000 rows x 1 columns and the class made of it" in message, message
    _limits(monkeypatch, 80_000_000)
    assert load_class(path).matrix.shape == (500_000, 1)


def test_csv_that_could_hold_more_than_max_entries_is_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(class_csv, "MAX_ENTRIES", 100)  # the limit the CSV reader reads
    path = write(tmp_path, "m.csv", "0,1,0,1,0\n" * 20)  # 200 bytes: room for 100 entries
    assert load_class(path).matrix.shape == (20, 5)
    path = write(tmp_path, "n.csv", "0,1,0,1,0\n" * 20 + "1\n")
    message = refused(lambda: load_class(path), path)
    assert "the file has 202 bytes, room for up to 101 entries, more than the limit of 100" in message


def test_a_huge_sparse_csv_is_refused_unread(tmp_path, monkeypatch):
    assert class_files.MAX_ENTRIES == classes.MAX_ENTRIES == sys.maxsize  # an array's limit, not a second one
    monkeypatch.setattr(classes, "MAX_ENTRIES", 2**30)  # a machine whose arrays hold 2^30 entries
    monkeypatch.setattr(class_files, "MAX_ENTRIES", 2**30)
    monkeypatch.setattr(class_csv, "MAX_ENTRIES", 2**30)
    path = tmp_path / "huge.csv"
    with open(path, "wb") as fh:
        fh.truncate(2 * classes.MAX_ENTRIES + 2)
    if path.stat().st_blocks * 512 > 2**20:  # pragma: no cover - a file system without sparse files
        path.unlink()
        pytest.skip("the file system does not keep sparse files")
    tracemalloc.start()
    try:
        message = refused(lambda: load_class(path, max_bytes=None), path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"room for up to {classes.MAX_ENTRIES + 1} entries, more than the limit" in message
    assert peak < 64 * 1024


@pytest.mark.parametrize("max_bytes", [0, -1, 1.5, "10", True])
def test_bad_max_bytes_is_refused(tmp_path, max_bytes):
    path = save_class(classes.thresholds(2), tmp_path / "t.json")
    with pytest.raises(InvalidArgumentError, match="^max_bytes: expected None or an integer >= 1, got "):
        load_class(path, max_bytes=max_bytes)


def test_paths_suffixes_and_folders_are_checked(tmp_path):
    H = classes.thresholds(2)
    for bad in (tmp_path / "H.txt", tmp_path / "H"):
        assert "unknown suffix" in refused(lambda: load_class(bad), bad)
        assert ".npy or .csv (a 0/1 matrix) or .json" in refused(lambda: save_class(H, bad), bad)
    missing = tmp_path / "missing.csv"
    assert "does not exist" in refused(lambda: load_class(missing), missing)
    folder = tmp_path / "adir.npy"
    folder.mkdir()
    assert "is a directory" in refused(lambda: load_class(folder), folder)
    assert "is a directory" in refused(lambda: save_class(H, folder), folder)
    nowhere = tmp_path / "nope" / "H.json"
    assert "does not exist" in refused(lambda: save_class(H, nowhere), nowhere)
    with pytest.raises(InvalidArgumentError, match="^H: expected a HypothesisClass"):
        save_class([[0, 1]], tmp_path / "H.json")
    with pytest.raises(InvalidArgumentError, match="^matrix_only: expected True or False"):
        save_class(H, tmp_path / "H.npy", matrix_only=1)


def test_a_replaced_file_is_never_half_written(tmp_path, monkeypatch):
    path = save_class(classes.thresholds(3), tmp_path / "H.csv")
    before = path.read_bytes()

    def broken(src, dst):
        raise OSError("disk vanished")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        save_class(classes.thresholds(5), path)
    monkeypatch.undo()
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["H.csv"]


# -------------------------------------------------------------------- layers
def _imports(module_path):
    tree = ast.parse(module_path.read_text())
    found = set()
    for node in ast.walk(tree):  # lazy imports inside functions count too
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return {name for name in found if name.startswith("mistakebound")}


@pytest.mark.parametrize(
    "module, allowed",
    [
        ("foundations/json_format.py", ("mistakebound.foundations",)),
        ("game/class_files.py", ("mistakebound.foundations", "mistakebound.game")),
        ("game/transcript_json.py", ("mistakebound.foundations", "mistakebound.game")),
        ("verification/report_json.py", ("mistakebound.foundations",)),
    ],
)
def test_file_formats_import_only_the_layers_below(module, allowed):
    for name in _imports(SRC / module):
        assert name.startswith(allowed), f"{module} imports {name}"


def test_nothing_below_the_interfaces_imports_serialize():
    for path in SRC.rglob("*.py"):
        if "interfaces" not in path.parts:
            assert not any("serialize" in name for name in _imports(path)), path


def test_the_csv_loading_benchmark_runs_in_smoke_mode(capsys):
    """The benchmark behind the CSV figures of the benchmarks page (benchmarks are not tests: nothing is asserted on its
    numbers, only that it runs and reports a row per layout)."""
    from benchmarks import csv_loading

    assert csv_loading.main(["--smoke", "--size-mb", "0.2", "--only", "plain,np.load"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("machine: ") and [line.split()[0] for line in lines[2:]] == ["plain", "np.load"]


def test_a_pipe_or_a_device_is_refused_as_not_a_regular_file(tmp_path):
    """A FIFO would block the reader and /dev/zero never ends: neither is read, both named for what they are."""
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    device = tmp_path / "zero.npy"
    device.symlink_to("/dev/zero")
    for path in (fifo, device):
        with pytest.raises(InvalidArgumentError, match="not a regular file") as info:
            load_class(path)
        assert str(path.name) in str(info.value)


def test_an_npy_header_with_a_negative_size_is_refused_by_its_shape(tmp_path):
    path = tmp_path / "negative.npy"
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "|u1", "fortran_order": False, "shape": (-5, 3)})
    path.write_bytes(header.getvalue() + b"\x00" * 15)
    with pytest.raises(InvalidArgumentError, match=r"shape \(-5, 3\)") as info:
        load_class(path)
    assert "Failed to read" not in str(info.value)  # numpy's own text is not passed through


@pytest.mark.parametrize("suffix", [".csv", ".npy", ".json", "from_matrix"])
def test_every_message_counts_rows_and_columns_from_1_and_says_so(tmp_path, suffix):
    """The same bad entry (matrix[1, 0] = 2) is at row 2, column 1 in every message, whichever way it came."""
    from mistakebound import HypothesisClass

    matrix = [[0, 1], [2, 0]]
    if suffix == "from_matrix":
        with pytest.raises(InvalidClassError) as info:
            HypothesisClass.from_matrix(matrix)
    else:
        path = tmp_path / f"bad{suffix}"
        if suffix == ".csv":
            path.write_text("0,1\n2,0\n")
        elif suffix == ".npy":
            np.save(path, np.array(matrix))
        else:
            path.write_text(json.dumps({"format": "mistakebound.class", "version": 1, "name": None, "names": None,
                                        "domain": [0, 1], "matrix": matrix}))
        with pytest.raises(InvalidClassError) as info:
            load_class(path)
    message = str(info.value)
    assert "row 2, column 1" in message and "rows and columns counted from 1" in message, message


# ------------------------------------------------------------------ classes of k labels
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(k=st.sampled_from([3, 4, 10, 11, 200]), data=st.data())
def test_a_class_of_k_labels_round_trips_through_every_format(tmp_path, k, data):
    n, m = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 4))
    M = data.draw(st.lists(st.lists(st.integers(0, k - 1), min_size=m, max_size=m), min_size=n, max_size=n))
    named = data.draw(st.booleans())
    H = HypothesisClass.from_matrix(M, [f"x{j}" for j in range(m)] if named else None,
                                    [f"h{i}" for i in range(n)] if named else None, labels=k)
    for suffix in (".json", ".csv", ".npy"):
        if suffix == ".npy" and named:
            continue
        path = save_class(H, tmp_path / f"H{suffix}")
        G = load_class(path, labels=None if suffix == ".json" else k)
        assert G.matrix.tolist() == M and G.n_labels == k and G.domain == H.domain and G.names == H.names


def test_a_table_of_more_labels_is_read_only_when_asked_and_a_json_file_says_how_many(tmp_path):
    csv_path, npy_path = tmp_path / "H.csv", tmp_path / "H.npy"
    csv_path.write_text("0,1\n2,1\n")
    np.save(npy_path, np.array([[0, 1], [2, 1]], dtype=np.uint8))
    for path in (csv_path, npy_path):
        with pytest.raises(InvalidClassError, match=r"row 2, column 1: '?2'? is not 0 or 1"):
            load_class(path)
        assert load_class(path, labels=3).matrix.tolist() == [[0, 1], [2, 1]]
        with pytest.raises(InvalidClassError, match=r"row 2, column 1: '?2'? is not 0 or 1"):
            load_class(path, labels=2)
    json_path = save_class(load_class(csv_path, labels=3), tmp_path / "H.json")
    assert json.loads(json_path.read_text())["labels"] == 3
    assert load_class(json_path).n_labels == 3
    with pytest.raises(InvalidArgumentError, match=r"^labels: .* holds a class of 3 labels, and labels=4 was given"):
        load_class(json_path, labels=4)
    # a 0/1 class's file stays as it was: no labels key
    assert "labels" not in json.loads(save_class(classes.thresholds(2), tmp_path / "T.json").read_text())
    text = json.loads(json_path.read_text())
    text["labels"] = 2
    json_path.write_text(json.dumps(text))
    with pytest.raises(InvalidArgumentError, match=r"labels: expected the number of labels, an integer from 3"):
        load_class(json_path)
