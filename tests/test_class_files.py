"""Class files (mistakebound.game.class_files): one reader and one writer of .npy, .csv and .json."""

from __future__ import annotations

import ast
import io
import os
import pathlib
import string
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mistakebound
from mistakebound import HypothesisClass
from mistakebound.foundations.errors import InvalidArgumentError, InvalidClassError
from mistakebound.game import class_files, classes
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
    return class_files._INTEGER.fullmatch(s.strip()) is not None


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
    ("latin1.csv", b"x,y\n0,1\n\xe9,1\n", InvalidArgumentError, r"row 3: the byte 0xe9 at offset 8 is not UTF-8"),
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
        ((2**20, 2**20), None, f"has {2**40} entries, more than the limit of {classes.MAX_ENTRIES}"),
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


def test_csv_that_could_hold_more_than_max_entries_is_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(class_files, "MAX_ENTRIES", 100)
    path = write(tmp_path, "m.csv", "0,1,0,1,0\n" * 20)  # 200 bytes: room for 100 entries
    assert load_class(path).matrix.shape == (20, 5)
    path = write(tmp_path, "n.csv", "0,1,0,1,0\n" * 20 + "1\n")
    message = refused(lambda: load_class(path), path)
    assert "the file has 202 bytes, room for up to 101 entries, more than the limit of 100" in message


def test_a_huge_sparse_csv_is_refused_unread(tmp_path):
    assert class_files.MAX_ENTRIES == classes.MAX_ENTRIES  # the zoo's limit, not a second one
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
