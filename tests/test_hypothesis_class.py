"""HypothesisClass: construction, validation, the bitset view and derived classes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mistakebound import HypothesisClass
from mistakebound.foundations.bitset import indices_to_mask
from mistakebound.foundations.errors import InvalidClassError, MistakeboundError
from tests.strategies import class_matrices

SETTINGS = settings(max_examples=150, deadline=None)


# --------------------------------------------------------------------------- from_matrix
def test_from_matrix_default_domain_is_range_of_columns():
    H = HypothesisClass.from_matrix([[0, 1, 1, 0], [1, 1, 0, 0]])
    assert H.domain == (0, 1, 2, 3)
    assert (H.n_hypotheses, H.n_instances, len(H)) == (2, 4, 2)
    assert H.matrix.dtype == np.uint8
    assert H.matrix.tolist() == [[0, 1, 1, 0], [1, 1, 0, 0]]
    assert H.label(1, 0) == 1 and H.label(0, 0) == 0
    assert H.column(2).tolist() == [1, 0]


def test_from_matrix_with_domain_and_names():
    H = HypothesisClass.from_matrix([[0, 1], [1, 0]], domain=["a", "b"], names=["f", "g"], name="two")
    assert H.domain == ("a", "b")
    assert H.names == ("f", "g")
    assert H.hypothesis_name(1) == "g"
    assert H.label(0, "b") == 1 and H.label(1, "b") == 0
    assert H.describe() == "two"


def test_matrix_is_read_only():
    H = HypothesisClass.from_matrix([[0, 1], [1, 0]])
    with pytest.raises(ValueError):
        H.matrix[0, 0] = 1
    with pytest.raises(ValueError):
        H.matrix[:] = 0
    assert H.matrix.tolist() == [[0, 1], [1, 0]]
    with pytest.raises(AttributeError):  # the class itself is frozen
        H.matrix = np.zeros((2, 2), dtype=np.uint8)


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.array([[0, 1, 1], [1, 0, 0]], dtype=np.uint8),  # the exact target dtype
        lambda: np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int64),
        lambda: np.array([[0, 1, 1], [1, 0, 0]], dtype=bool),
        lambda: np.array([[0, 1, 1, 9], [1, 0, 0, 9]], dtype=np.uint8)[:, :3],  # non-contiguous view
        lambda: np.array([[0, 1, 1], [1, 0, 0], [1, 1, 1]], dtype=np.uint8)[:2],  # contiguous view
    ],
)
def test_from_matrix_does_not_share_memory_with_the_input(make):
    M = make()
    before = np.array(M, dtype=np.uint8).tolist()
    H = HypothesisClass.from_matrix(M)
    assert not np.shares_memory(H.matrix, M)
    M[0, 0] = 1 - M[0, 0]
    M[1, :] = 1
    assert H.matrix.tolist() == before


def test_from_matrix_copies_a_list_input():
    rows = [[0, 1], [1, 1]]
    H = HypothesisClass.from_matrix(rows)
    rows[0][0] = 1
    assert H.matrix.tolist() == [[0, 1], [1, 1]]


@pytest.mark.parametrize(
    "M",
    [
        [[True, False], [False, True]],
        np.array([[True, False], [False, True]]),
        [[1.0, 0.0], [0.0, 1.0]],
        np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32),
        np.array([[1, 0], [0, 1]], dtype=np.int8),
    ],
)
def test_from_matrix_accepts_bool_and_float_zero_one(M):
    H = HypothesisClass.from_matrix(M)
    assert H.matrix.dtype == np.uint8
    assert H.matrix.tolist() == [[1, 0], [0, 1]]


def _raises_naming(parameter, func, *args, **kwargs):
    with pytest.raises(InvalidClassError) as info:
        func(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, MistakeboundError)
    assert parameter in str(info.value), str(info.value)
    return info.value


@pytest.mark.parametrize(
    "M",
    [
        [[0, 2]],
        [[0, 1], [-1, 0]],
        [[0.5, 1.0]],
        [[0.0, float("nan")]],
        np.array([[0, 1], [1, 255]], dtype=np.uint8),
        np.array([[0, 1], [1, 257]], dtype=np.int64),  # 257 would wrap to 1 in uint8
        [[0, 1.0000001]],
        [[0, float("inf")]],
    ],
)
def test_from_matrix_rejects_entries_other_than_zero_one(M):
    exc = _raises_naming("matrix", HypothesisClass.from_matrix, M)
    assert "0 or 1" in str(exc)


def test_bad_entry_message_gives_value_and_position():
    exc = _raises_naming("matrix", HypothesisClass.from_matrix, [[0, 1], [1, 2]])
    assert "row 2, column 2: 2 is not 0 or 1" in str(exc) and "counted from 1: matrix[1, 1]" in str(exc)


@pytest.mark.parametrize(
    "M",
    [
        [[0, 1], [1]],  # ragged
        [[0, 1], [1, 0, 1]],  # ragged
        [[[0, 1]], [1, 0]],  # ragged depth
        [0, 1, 1],  # 1-D
        np.zeros(3, dtype=np.uint8),  # 1-D
        np.zeros((2, 2, 2), dtype=np.uint8),  # 3-D
        [[[0, 1], [1, 0]]],  # 3-D
        np.zeros((0, 3), dtype=np.uint8),  # zero rows
        [],  # zero rows (1-D empty)
        [["0", "1"]],  # string dtype
        np.array([["0", "1"]]),
        [[0, None]],  # object dtype
        [[0, 1j]],  # complex
        5,  # 0-D
    ],
)
def test_from_matrix_rejects_malformed_matrices(M):
    _raises_naming("matrix", HypothesisClass.from_matrix, M)


def test_from_matrix_domain_length_mismatch():
    _raises_naming("domain", HypothesisClass.from_matrix, [[0, 1, 0]], domain=["a", "b"])
    _raises_naming("domain", HypothesisClass.from_matrix, [[0, 1]], domain=["a", "b", "c"])


@pytest.mark.parametrize("domain", [["a", "a"], [1, 1.0], [(0, 1), (0, 1)]])
def test_from_matrix_duplicate_instances(domain):
    exc = _raises_naming("domain", HypothesisClass.from_matrix, [[0, 1]], domain=domain)
    assert "twice" in str(exc) or "distinct" in str(exc)


@pytest.mark.parametrize("domain", [[{1}, {2}], [{"a": 1}, 0], [0, bytearray(b"x")]])
def test_from_matrix_unhashable_instances(domain):
    exc = _raises_naming("domain", HypothesisClass.from_matrix, [[0, 1]], domain=domain)
    assert "hashable" in str(exc)


def test_from_matrix_domain_not_a_sequence():
    _raises_naming("domain", HypothesisClass.from_matrix, [[0, 1]], domain="ab")
    _raises_naming("domain", HypothesisClass.from_matrix, [[0, 1]], domain=3)


@pytest.mark.parametrize("names", [["f"], ["f", "g", "h"], []])
def test_from_matrix_names_count_mismatch(names):
    _raises_naming("names", HypothesisClass.from_matrix, [[0, 1], [1, 0]], names=names)


def test_numpy_scalars_in_domain_become_python_values():
    H = HypothesisClass.from_matrix([[0, 1]], domain=np.array([3, 7]))
    assert H.domain == (3, 7)
    assert all(type(x) is int for x in H.domain)


# ------------------------------------------------------------------------ from_functions
def test_from_functions_values():
    H = HypothesisClass.from_functions(
        ["a", "bb", "ccc"], [lambda s: int(len(s) >= 2), lambda s: 0, lambda s: 1], names=["ge2", "zero", "one"]
    )
    assert H.domain == ("a", "bb", "ccc")
    assert H.matrix.tolist() == [[0, 1, 1], [0, 0, 0], [1, 1, 1]]
    assert H.names == ("ge2", "zero", "one")
    assert not H.matrix.flags.writeable


def test_from_functions_bool_results():
    H = HypothesisClass.from_functions(range(4), [lambda x: x % 2 == 0, lambda x: np.bool_(x > 2)])
    assert H.matrix.tolist() == [[1, 0, 1, 0], [0, 0, 0, 1]]


def test_from_functions_bad_value_names_hypothesis_and_instance():
    exc = _raises_naming(
        "functions",
        HypothesisClass.from_functions,
        ["a", "b", "c"],
        [lambda x: 0, lambda x: 2 if x == "b" else 0],
    )
    msg = str(exc)
    assert "hypothesis 1" in msg and "'b'" in msg and "2" in msg


@pytest.mark.parametrize("bad", [-1, 0.5, float("nan"), None, "1"])
def test_from_functions_other_bad_values(bad):
    _raises_naming("functions", HypothesisClass.from_functions, [0, 1], [lambda x: bad])


def test_from_functions_no_functions():
    _raises_naming("functions", HypothesisClass.from_functions, [0, 1], [])


# ------------------------------------------------------------------------- bitset view
@SETTINGS
@given(class_matrices(max_rows=20, max_cols=10))
def test_column_masks_agree_with_matrix(M):
    H = HypothesisClass.from_matrix(M)
    assert len(H.column_masks) == H.n_instances
    for j, mask in enumerate(H.column_masks):
        assert isinstance(mask, int) and mask >= 0
        assert mask >> H.n_hypotheses == 0  # no bits beyond the last hypothesis
        for i in range(H.n_hypotheses):
            assert (mask >> i) & 1 == M[i, j]
    assert H.full_mask == (1 << H.n_hypotheses) - 1


@SETTINGS
@given(class_matrices(max_rows=20, max_cols=20))
def test_distinct_rows_groups_exactly_the_identical_rows(M):
    H = HypothesisClass.from_matrix(M)
    reps, group = H.distinct_rows()
    n = H.n_hypotheses
    assert group.shape == (n,)
    # representatives are first occurrences, in row order, pairwise distinct rows
    assert list(reps) == sorted(reps)
    assert len({M[r].tobytes() for r in reps}) == len(reps)
    for g, r in enumerate(reps):
        assert group[r] == g
        assert not any(np.array_equal(M[k], M[r]) for k in range(r))
    for i in range(n):
        for k in range(n):
            assert (group[i] == group[k]) == bool(np.array_equal(M[i], M[k]))
        assert np.array_equal(M[i], M[reps[group[i]]])


@SETTINGS
@given(class_matrices(max_rows=12, max_cols=5), st.data())
def test_restrict_keeps_the_chosen_rows(M, data):
    names = [f"n{i}" for i in range(M.shape[0])]
    H = HypothesisClass.from_matrix(M, domain=[f"x{j}" for j in range(M.shape[1])], names=names)
    rows = data.draw(st.lists(st.integers(0, H.n_hypotheses - 1), min_size=1, max_size=8))
    R = H.restrict(rows)
    assert R.domain == H.domain
    assert R.matrix.tolist() == M[rows].tolist()
    assert R.names == tuple(names[i] for i in rows)
    assert not R.matrix.flags.writeable
    # as a bitset: the set of rows, in increasing order
    chosen = sorted(set(rows))
    B = H.restrict(indices_to_mask(chosen))
    assert B.matrix.tolist() == M[chosen].tolist()
    assert B.names == tuple(names[i] for i in chosen)
    assert H.restrict(H.full_mask) == H


def test_restrict_rejects_empty_and_out_of_range():
    H = HypothesisClass.from_matrix([[0, 1], [1, 0]])
    _raises_naming("rows", H.restrict, [])
    _raises_naming("rows", H.restrict, 0)
    _raises_naming("rows", H.restrict, [2])
    _raises_naming("rows", H.restrict, [-1])
    _raises_naming("rows", H.restrict, 0b100)


def test_mask_of_rows():
    H = HypothesisClass.from_matrix(np.zeros((5, 1), dtype=np.uint8))
    assert H.mask_of_rows([0, 3]) == 0b1001
    assert H.mask_of_rows([]) == 0


# --------------------------------------------------------------------- equality & lookup
@SETTINGS
@given(class_matrices(max_rows=8, max_cols=5))
def test_equal_classes_are_equal_and_hash_equal(M):
    H = HypothesisClass.from_matrix(M)
    G = HypothesisClass.from_matrix(M.astype(bool).tolist())
    assert H == G and hash(H) == hash(G)
    assert len({H, G}) == 1
    if M.size:
        flipped = M.copy()
        flipped[0, 0] ^= 1
        assert H != HypothesisClass.from_matrix(flipped)
    assert H != HypothesisClass.from_matrix(np.vstack([M, M[:1]]))


def test_equality_compares_domain_and_names():
    M = [[0, 1], [1, 0]]
    H = HypothesisClass.from_matrix(M)
    assert H != HypothesisClass.from_matrix(M, domain=["a", "b"])
    assert H != HypothesisClass.from_matrix(M, names=["f", "g"])
    assert H != HypothesisClass.from_matrix([[0, 1, 0], [1, 0, 0]])
    assert H != M and (H == M) is False


@pytest.mark.parametrize("x", [[0], {0: 1}, {0}, np.array([0])])
def test_index_of_and_contains_with_unhashable_values(x):
    H = HypothesisClass.from_matrix([[0, 1]], domain=[0, (0,)])
    assert (x in H) is False
    with pytest.raises(KeyError):
        H.index_of(x)


def test_index_of_and_contains():
    H = HypothesisClass.from_matrix([[0, 1, 1]], domain=["a", (1, 2), 5])
    assert [H.index_of(x) for x in ("a", (1, 2), 5)] == [0, 1, 2]
    assert "a" in H and (1, 2) in H and 5 in H
    assert "b" not in H and 6 not in H and None not in H
    with pytest.raises(KeyError):
        H.index_of("b")


def test_nan_instance_is_not_in_a_domain_without_it():
    H = HypothesisClass.from_matrix([[0, 1]])
    assert math.nan not in H


# -------------------------------------------------------------- the class owns its matrix
def _cannot_be_made_writable(a: np.ndarray) -> bool:
    try:
        a.setflags(write=True)
    except ValueError:
        return True
    return False


def test_the_matrix_cannot_be_made_writable_however_the_class_is_built():
    import pickle

    source = np.array([[0, 1, 1], [1, 0, 1]], dtype=np.uint8)
    H = HypothesisClass.from_matrix(source)
    source[0, 0] = 1  # the caller's array is not the class's
    built = [H, HypothesisClass(domain=(0, 1, 2), matrix=source), HypothesisClass.from_matrix(H),
             H.restrict([1]), pickle.loads(pickle.dumps(H)), HypothesisClass.from_matrix(np.zeros((3, 0)))]
    for G in built:
        for a in (G.matrix, G.matrix.base, G.matrix[:, :1], G.matrix.T):
            assert a is None or _cannot_be_made_writable(a)
    assert H.matrix[0, 0] == 0 and pickle.loads(pickle.dumps(H)) == H
    with pytest.raises(TypeError):
        H._index[0] = 2  # the index of the domain is read-only too


def test_a_class_built_directly_is_validated():
    with pytest.raises(InvalidClassError, match="0 or 1"):
        HypothesisClass(domain=(0,), matrix=[[2]])


# ------------------------------------------------------- every constructor validates (issue 21)
def _sealed_array(data: bytes, shape: tuple) -> np.ndarray:
    """A read-only uint8 array over an immutable ``bytes``: what the class keeps, and what it once took unchecked."""
    return np.frombuffer(data, dtype=np.uint8).reshape(shape)


def test_a_sealed_matrix_given_directly_is_validated_too():
    """The reproducer of issue 21: entries 2 and 255, and a domain of 1 instance for 2 columns, were accepted."""
    m = _sealed_array(bytes([0, 2, 255, 1]), (2, 2))
    exc = _raises_naming("matrix", HypothesisClass, domain=(0, 1), matrix=m)
    assert "row 1, column 2: 2 is not 0 or 1" in str(exc)
    ok = _sealed_array(bytes([0, 1, 1, 1]), (2, 2))
    _raises_naming("domain", HypothesisClass, domain=(0,), matrix=ok)
    _raises_naming("domain", HypothesisClass, domain=(0, 0), matrix=ok)
    _raises_naming("domain", HypothesisClass, domain=({0}, 1), matrix=ok)
    _raises_naming("names", HypothesisClass, domain=(0, 1), matrix=ok, names=("only one",))
    _raises_naming("names", HypothesisClass, domain=(0, 1), matrix=ok, names="ab")
    _raises_naming("name", HypothesisClass, domain=(0, 1), matrix=ok, name=3)
    H = HypothesisClass(domain=(0, 1), matrix=ok, names=("f", "g"), name="two")
    assert H.matrix is ok  # a sealed, valid matrix is kept as it is: no copy


def test_unpickling_validates_what_it_rebuilds():
    from mistakebound.game.hypothesis_class import _rebuild

    _raises_naming("matrix", _rebuild, (0, 1), bytes([0, 7, 1, 1]), (2, 2), None, None)
    _raises_naming("domain", _rebuild, (0,), bytes([0, 1, 1, 1]), (2, 2), None, None)
    _raises_naming("names", _rebuild, (0, 1), bytes([0, 1, 1, 1]), (2, 2), ("f",), None)
    _raises_naming("matrix", _rebuild, (0, 1), bytes([0, 1, 1]), (1, 2), None, None)  # the bytes do not fit the shape


_DOMAIN_ITEMS = st.one_of(st.integers(-3, 3), st.sampled_from(["a", "b", 0.0, 1.0, True, None, (0, 1)]),
                          st.just([0]), st.just({1}))


@SETTINGS
@given(
    data=st.binary(min_size=0, max_size=24),
    rows=st.integers(0, 6),
    domain=st.one_of(st.none(), st.lists(_DOMAIN_ITEMS, max_size=6), st.just("ab"), st.just(3)),
    names=st.one_of(st.none(), st.lists(st.one_of(st.text(max_size=3), st.integers()), max_size=6), st.just("ab")),
    name=st.one_of(st.none(), st.text(max_size=3), st.integers()),
    how=st.sampled_from(["direct sealed", "direct array", "from_matrix", "unpickled"]),
)
def test_every_constructor_gives_a_valid_class_or_names_the_bad_parameter(data, rows, domain, names, name, how):
    from mistakebound.game.hypothesis_class import _rebuild

    cols = len(data) // rows if rows else 0
    raw = data[:rows * cols]
    arr = _sealed_array(raw, (rows, cols)) if how != "direct array" else np.frombuffer(raw, np.uint8).reshape(rows, cols).copy()
    dom = tuple(range(cols)) if domain is None and how != "from_matrix" else domain
    try:
        if how == "from_matrix":
            H = HypothesisClass.from_matrix(arr, dom, names, name=name)
        elif how == "unpickled":
            H = _rebuild(dom, raw, (rows, cols), names, name)
        else:
            H = HypothesisClass(domain=dom, matrix=arr, names=names, name=name)
    except InvalidClassError as exc:
        assert str(exc).split(":")[0] in ("matrix", "domain", "names", "name"), str(exc)
        return
    assert rows >= 1 and H.matrix.shape == (rows, cols) and H.matrix.dtype == np.uint8
    assert set(np.unique(H.matrix).tolist()) <= {0, 1}
    assert H.matrix.tobytes() == raw  # nothing changed on the way in
    assert isinstance(H.domain, tuple) and len(H.domain) == cols and len(set(H.domain)) == cols
    assert H.names is None or (isinstance(H.names, tuple) and len(H.names) == rows
                               and all(isinstance(n, str) for n in H.names))
    assert H.name is None or isinstance(H.name, str)
    assert not H.matrix.flags.writeable


def test_a_class_of_many_rows_and_no_instances_is_refused_before_it_is_built():
    """No entries, but a class of 10^13 rows: every constructor checks the shape against the memory budget."""
    from mistakebound.foundations.errors import InsufficientMemoryError

    empty = np.zeros((10**13, 0), dtype=np.uint8)  # numpy allocates nothing for it
    for build in (lambda: HypothesisClass.from_matrix(empty),
                  lambda: HypothesisClass(domain=(), matrix=_sealed_array(b"", (10**13, 0)))):
        with pytest.raises(InsufficientMemoryError, match=r"^matrix: the class, a 10,000,000,000,000 x 0 table: "
                                                          r"0 entries .* needs about .*; expected a smaller class$"):
            build()


# ------------------------------------------------------------------ classes of k labels
@settings(max_examples=40, deadline=None)
@given(k=st.integers(3, 12), data=st.data())
def test_a_class_of_k_labels_keeps_its_table_and_says_its_labels(k, data):
    M = data.draw(st.lists(st.lists(st.integers(0, k - 1), min_size=2, max_size=2), min_size=1, max_size=5))
    H = HypothesisClass.from_matrix(M, labels=k)
    assert H.labels == tuple(range(k)) and H.n_labels == k
    assert H.matrix.tolist() == M
    assert H.restrict([0]).n_labels == k
    import pickle

    G = pickle.loads(pickle.dumps(H))
    assert G == H and G.n_labels == k and hash(G) == hash(H)
    assert H != HypothesisClass.from_matrix(M, labels=k + 1)  # the same table in a game of more labels
    # the distinct rows are those of the labels, not of their low bits (2 and 0 are different labels)
    distinct = {tuple(row) for row in M}
    assert len(H.distinct_rows()[0]) == len(distinct)
    for j in range(2):
        masks = H.label_masks(j)
        assert sum(masks) == H.full_mask and all(a & b == 0 for a in masks for b in masks if a is not b)


def test_a_label_past_the_class_labels_is_refused_by_row_column_and_count():
    with pytest.raises(InvalidClassError, match=r"row 2, column 1: 3 is not 0, 1 or 2; .*\(labels=3\)"):
        HypothesisClass.from_matrix([[0, 1], [3, 0]], labels=3)
    with pytest.raises(InvalidClassError, match=r"2 is not 0 or 1; .*a class of more labels says how many"):
        HypothesisClass.from_matrix([[0, 2]])
    for bad in (1, 0, 257, 2.5, True, "3"):
        with pytest.raises(InvalidClassError, match=r"^labels: expected the number of labels"):
            HypothesisClass.from_matrix([[0, 1]], labels=bad)


def test_binary_searches_refuse_a_class_of_more_labels_rather_than_read_it_as_0_1():
    from mistakebound.foundations.errors import NotApplicableError
    from mistakebound.theory.littlestone import LdimSearch, ldim_engine, littlestone_dimension
    from mistakebound.theory.randomized_ldim import RLdimSearch, randomized_littlestone_dimension
    from mistakebound.theory.vc import vc_dimension
    from tests.game_oracle import oracle, randomized_oracle

    H = HypothesisClass.from_matrix([[0, 2], [1, 1], [2, 0], [2, 2]], labels=3, name="three")
    for search in (vc_dimension, LdimSearch, ldim_engine, RLdimSearch, lambda H: H.column_masks):
        with pytest.raises(NotApplicableError, match="needs a class of labels 0 and 1; three has 3 labels"):
            search(H)
    # the doors answer for any number of labels: the multiclass Ldim and its randomized value (Daniely et al. 2011)
    rows = [tuple(r) for r in H.matrix.tolist()]
    assert littlestone_dimension(H) == oracle(rows, 3, "full", 0)
    assert randomized_littlestone_dimension(H) == randomized_oracle(rows, 3, 0)
