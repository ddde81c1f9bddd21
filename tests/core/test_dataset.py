"""Tests for perceptron_gui.core.dataset: validation, queries and invertible edits."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_gui.core.dataset import (
    AddPoints,
    Clear,
    Dataset,
    DeletePoints,
    FlipLabels,
    InsertPoints,
    MovePoints,
    Relabel,
    ReplaceAll,
)


def make(n: int, seed: int = 0) -> Dataset:
    rng = np.random.default_rng(seed)
    return Dataset(rng.normal(size=(n, 2)), rng.choice([-1, 1], size=n))


# --------------------------------------------------------------------------- Dataset


def test_empty_default():
    d = Dataset()
    assert d.n == len(d) == 0
    assert d.X.shape == (0, 2) and d.X.dtype == np.float64
    assert d.y.shape == (0,) and d.y.dtype == np.int64
    assert not d.has_both_classes
    assert d.bounds() is None
    assert Dataset([], []) == d


def test_arrays_are_readonly_contiguous_copies():
    X = np.asfortranarray([[1.0, 2.0], [3.0, 4.0]])
    y = np.array([1, -1])
    d = Dataset(X, y)
    assert d.X.flags.c_contiguous and not d.X.flags.writeable
    assert not d.y.flags.writeable
    X[0, 0] = 99.0
    y[0] = -1
    assert d.X[0, 0] == 1.0 and d.y[0] == 1
    with pytest.raises(ValueError):
        d.X[0, 0] = 5.0


def test_counts_and_classes():
    d = Dataset([[0, 0], [1, 1], [2, 2]], [1, 1, -1])
    assert (d.n_pos, d.n_neg) == (2, 1)
    assert d.has_both_classes
    one = Dataset([[0, 0]], [-1])
    assert (one.n_pos, one.n_neg, one.has_both_classes) == (0, 1, False)
    assert d.y.dtype == np.int64 and d.X.dtype == np.float64


def test_float_labels_accepted():
    d = Dataset([[0, 0], [1, 1]], [1.0, -1.0])
    assert d.y.tolist() == [1, -1] and d.y.dtype == np.int64


@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        (np.zeros((5, 3)), np.ones(5), r"X must have shape \(n, 2\), got \(5, 3\)"),
        (np.zeros(4), np.ones(2), r"X must have shape \(n, 2\), got \(4,\)"),
        ([[0, 0], [1, 1], [2, 2], [3, np.nan]], [1] * 4, r"^point 3 has a NaN coordinate$"),
        ([[0, 0], [np.inf, 1]], [1, 1], r"^point 1 has an infinite coordinate$"),
        ([[0, 0], [1, 1]], [1], r"X has 2 points but y has 1 labels"),
        ([[0, 0]] * 5, [1, 1, -1, 1, 2], r"^labels must be -1 or \+1; found 2 at row 4$"),
        ([[0, 0]] * 2, [1, 0.5], r"labels must be -1 or \+1; found 0.5 at row 1"),
        ([[0, 0]] * 2, [1, np.nan], r"labels must be -1 or \+1; found nan at row 1"),
        ([[0, 0]] * 2, [True, False], r"not booleans"),
        ([[0, 0]] * 2, ["a", "b"], r"labels must be -1 or \+1"),
        ([["a", "b"]], [1], r"X must contain numbers only"),
        ([[0, 0]], [[1]], r"y must have shape \(n,\), got \(1, 1\)"),
    ],
)
def test_validation_messages(X, y, match):
    with pytest.raises(ValueError, match=match):
        Dataset(X, y)


def test_x_and_y_together():
    with pytest.raises(ValueError, match="X and y must be given together"):
        Dataset([[0, 0]], None)
    with pytest.raises(ValueError, match="X and y must be given together"):
        Dataset(None, [1])


def test_first_offending_row_is_named():
    X = np.zeros((6, 2))
    X[2, 1] = np.inf
    X[4, 0] = np.nan
    with pytest.raises(ValueError, match="^point 2 has an infinite coordinate$"):
        Dataset(X, np.ones(6))


def test_equality_is_bitwise():
    a = Dataset([[0.0, 1.0]], [1])
    assert a == Dataset([[0.0, 1.0]], [1])
    assert hash(a) == hash(Dataset([[0.0, 1.0]], [1]))
    assert a != Dataset([[-0.0, 1.0]], [1])
    assert a != Dataset([[0.0, 1.0]], [-1])
    assert a != Dataset([[0.0, np.nextafter(1.0, 2.0)]], [1])
    assert a != Dataset()
    assert a != "not a dataset"


def test_duplicates_allowed():
    d = Dataset([[1, 1], [1, 1]], [1, -1])
    assert d.n == 2


def test_from_labels_two_values_sorted():
    d, mapping = Dataset.from_labels([[0, 0], [1, 1], [2, 2]], ["dog", "cat", "dog"])
    assert mapping == {"cat": -1, "dog": 1}
    assert d.y.tolist() == [1, -1, 1]
    d, mapping = Dataset.from_labels([[0, 0], [1, 1]], [1, 0])
    assert mapping == {0: -1, 1: 1} and d.y.tolist() == [1, -1]
    assert all(type(k) is int for k in mapping)


def test_from_labels_keeps_plus_minus_one():
    d, mapping = Dataset.from_labels([[0, 0], [1, 1]], [-1, -1])
    assert mapping == {-1: -1} and d.y.tolist() == [-1, -1]
    d, mapping = Dataset.from_labels([[0, 0], [1, 1]], [1.0, -1.0])
    assert mapping == {-1.0: -1, 1.0: 1} and d.y.tolist() == [1, -1]


def test_from_labels_single_and_empty():
    d, mapping = Dataset.from_labels([[0, 0], [1, 1]], [7, 7])
    assert mapping == {7: 1} and d.y.tolist() == [1, 1]
    d, mapping = Dataset.from_labels(np.empty((0, 2)), [])
    assert mapping == {} and d == Dataset()


def test_from_labels_errors():
    with pytest.raises(ValueError, match=r"at most two distinct values; found 3: \[0, 1, 2\]"):
        Dataset.from_labels([[0, 0]] * 3, [0, 1, 2])
    with pytest.raises(ValueError, match="found NaN at row 1"):
        Dataset.from_labels([[0, 0]] * 2, [0.0, np.nan])
    with pytest.raises(ValueError, match="X has 2 points but labels has 3"):
        Dataset.from_labels([[0, 0]] * 2, [0, 1, 1])


def test_bounds():
    d = Dataset([[0, -1], [3, 4], [-2, 0]], [1, 1, -1])
    assert d.bounds() == (-2.0, 3.0, -1.0, 4.0)
    X = np.random.default_rng(3).normal(size=(1001, 2)) * 1e-3
    d = Dataset(X, np.ones(1001))
    assert d.bounds() == (X[:, 0].min(), X[:, 0].max(), X[:, 1].min(), X[:, 1].max())
    assert d.bounds() is d.bounds()  # computed once


@pytest.mark.parametrize("scale", [1.0, 1e-200, 1e200])
def test_radius_is_the_largest_norm_at_any_scale(scale):
    X = np.random.default_rng(4).normal(size=(999, 2))
    d = Dataset(X * scale, np.where(X[:, 0] > 0, 1, -1))
    expected = float(np.max(np.hypot(X[:, 0], X[:, 1]))) * scale
    assert d.radius() == pytest.approx(expected, rel=1e-15)
    assert Dataset().radius() == 0.0 and Dataset([[0.0, 0.0]], [1]).radius() == 0.0
    huge = Dataset([[1.5e308, 1.5e308]], [1])
    assert huge.radius() == float("inf")  # the radius itself exceeds the largest float


def test_counts_are_kept_and_neg_is_the_rest():
    d = make(11)
    assert d.n_pos == int(np.sum(d.y == 1)) and d.n_neg == int(np.sum(d.y == -1))
    assert d.n_pos + d.n_neg == d.n


# --------------------------------------------------------------------------- edits


def roundtrip(edit, d):
    new, inverse = edit.apply(d)
    back, again = inverse.apply(new)
    assert back == d
    # the inverse of the inverse redoes the edit
    redo, _ = again.apply(back)
    assert redo == new
    return new, inverse


def test_add_points_append_and_insert():
    d = Dataset([[0, 0], [1, 1]], [1, -1])
    new, inv = roundtrip(AddPoints([5, 5], 1), d)
    assert new.X.tolist() == [[0, 0], [1, 1], [5, 5]] and new.y.tolist() == [1, -1, 1]
    assert inv == DeletePoints([2])
    new, inv = roundtrip(AddPoints([[5, 5], [6, 6]], [-1, 1], index=1), d)
    assert new.X.tolist() == [[0, 0], [5, 5], [6, 6], [1, 1]]
    assert new.y.tolist() == [1, -1, 1, -1]
    assert inv == DeletePoints([1, 2])
    new, _ = roundtrip(AddPoints([[2, 2]], [-1]), Dataset())
    assert new == Dataset([[2, 2]], [-1])


def test_delete_restores_positions_and_order():
    d = Dataset([[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]], [1, -1, 1, -1, 1])
    new, inv = roundtrip(DeletePoints([3, 0]), d)
    assert new.X.tolist() == [[1, 1], [2, 2], [4, 4]]
    assert isinstance(inv, InsertPoints)
    assert inv.indices.tolist() == [3, 0] and inv.X.tolist() == [[3, 3], [0, 0]]


def test_insert_points_semantics():
    d = Dataset([[0, 0], [1, 1]], [1, 1])
    new, inv = roundtrip(InsertPoints([3, 0], [[9, 9], [8, 8]], [-1, -1]), d)
    assert new.X.tolist() == [[8, 8], [0, 0], [1, 1], [9, 9]]
    with pytest.raises(ValueError, match="index 4 is out of range for a data set of 4 points"):
        InsertPoints([4, 0], [[9, 9], [8, 8]], [-1, -1]).apply(d)


def test_move_relabel_flip():
    d = Dataset([[0, 0], [1, 1], [2, 2]], [1, -1, 1])
    new, inv = roundtrip(MovePoints([2, 0], [[7, 7], [6, 6]]), d)
    assert new.X.tolist() == [[6, 6], [1, 1], [7, 7]] and np.array_equal(new.y, d.y)
    assert inv == MovePoints([2, 0], [[2, 2], [0, 0]])
    new, inv = roundtrip(Relabel([0, 1], -1), d)
    assert new.y.tolist() == [-1, -1, 1] and inv == Relabel([0, 1], [1, -1])
    new, inv = roundtrip(FlipLabels([0, 1]), d)
    assert new.y.tolist() == [-1, 1, 1] and inv == FlipLabels([0, 1])


def test_clear_and_replace_all():
    d = make(7)
    new, inv = roundtrip(Clear(), d)
    assert new == Dataset() and isinstance(inv, ReplaceAll)
    other = make(3, seed=1)
    new, inv = roundtrip(ReplaceAll.from_dataset(other, "New data set: blobs"), d)
    assert new == other
    assert inv.text == "New data set: blobs"
    roundtrip(Clear(), Dataset())


def test_an_edit_of_all_points_shares_the_read_only_arrays():
    d, other = make(7), make(5, seed=1)
    edit = ReplaceAll.from_dataset(other, "b")
    assert edit.X is other.X and edit.y is other.y  # valid and immutable: no copy
    new, inverse = edit.apply(d)
    assert new.X is other.X and new.y is other.y
    assert inverse.X is d.X and inverse.y is d.y
    back, _ = inverse.apply(new)
    assert back == d and not back.X.flags.writeable
    # an edit made from the user's arrays still copies and checks them
    X = other.X.copy()
    mine = ReplaceAll(X, other.y)
    X[0, 0] = 99.0
    assert mine.X[0, 0] == other.X[0, 0]
    with pytest.raises(ValueError, match="NaN"):
        ReplaceAll([[np.nan, 0.0]], [1])


def test_edits_of_labels_or_positions_share_the_unchanged_array():
    d = make(6)
    moved, _ = MovePoints([1], [[9.0, 9.0]]).apply(d)
    assert moved.y is d.y and moved.X is not d.X
    flipped, _ = FlipLabels([0]).apply(d)
    assert flipped.X is d.X and flipped.y[0] == -d.y[0] and d.y[0] != flipped.y[0]


def test_edit_texts():
    assert AddPoints([0, 0], 1).text == "Add point"
    assert AddPoints([[0, 0], [1, 1]], 1).text == "Add 2 points"
    assert DeletePoints([4]).text == "Delete point"
    assert DeletePoints([1, 2]).text == "Delete 2 points"
    assert MovePoints([1, 2, 3], np.zeros((3, 2))).text == "Move 3 points"
    assert MovePoints(0, [1, 1]).text == "Move point"
    assert Relabel([1], 1).text == "Relabel point"
    assert FlipLabels([1, 2]).text == "Flip 2 labels"
    assert Clear().text == "Clear points"
    assert ReplaceAll(np.zeros((1, 2)), [1]).text == "Replace data set"


@pytest.mark.parametrize(
    ("factory", "match"),
    [
        (lambda: DeletePoints([1, 1]), "indices must be unique; 1 is repeated"),
        (lambda: DeletePoints([]), "indices must not be empty"),
        (lambda: DeletePoints([-1]), "indices must be >= 0; found -1"),
        (lambda: DeletePoints([0.5]), "indices must be integers"),
        (lambda: DeletePoints([True]), "indices must be integers"),
        (lambda: DeletePoints([[0, 1]]), "indices must be one-dimensional"),
        (lambda: MovePoints([0, 1], [[0, 0]]), "got 2 indices but 1 points"),
        (lambda: MovePoints([0], [[np.nan, 0]]), "point 0 has a NaN coordinate"),
        (lambda: AddPoints([[0, 0], [1, np.inf]], 1), "point 1 has an infinite coordinate"),
        (lambda: AddPoints([[0, 0]], 0.5), r"labels must be integers; found 0.5 at row 0"),
        (lambda: AddPoints(np.empty((0, 2)), []), "at least one point"),
        (lambda: AddPoints([0, 0], 1, index=-1), "index must be >= 0; got -1"),
        (lambda: AddPoints([0, 0], 1, index=1.5), "index must be an integer or None"),
        (lambda: Relabel([0, 1], [1, np.nan]), r"labels must be integers; found nan at row 1"),
        (lambda: ReplaceAll(np.zeros((2, 3)), [1, 1]), r"got \(2, 3\)"),
    ],
)
def test_edit_construction_errors(factory, match):
    with pytest.raises(ValueError, match=match):
        factory()


@pytest.mark.parametrize(
    "edit",
    [
        DeletePoints([0, 3]),
        MovePoints([3], [[0, 0]]),
        Relabel([5], 1),
        FlipLabels([1, 9]),
        AddPoints([0, 0], 1, index=4),
    ],
)
def test_edit_range_errors_change_nothing(edit):
    d = make(3)
    before = (d.X.copy(), d.y.copy())
    with pytest.raises(ValueError, match="out of range"):
        edit.apply(d)
    assert np.array_equal(d.X, before[0]) and np.array_equal(d.y, before[1])


def test_edits_are_frozen_and_own_their_arrays():
    X = np.array([[1.0, 2.0]])
    e = MovePoints([0], X)
    X[0, 0] = 5.0
    assert e.X[0, 0] == 1.0
    assert not e.X.flags.writeable and not e.indices.flags.writeable
    with pytest.raises(AttributeError):
        e.X = X


# --------------------------------------------------------------------------- merge


def test_move_merge_then_inverse_restores_start():
    a = make(5)
    m1 = MovePoints([1, 3], [[10, 10], [11, 11]])
    m2 = MovePoints([1, 3], [[20, 20], [21, 21]])
    b, inv1 = m1.apply(a)
    c, _ = m2.apply(b)
    merged = m1.merge(m2)
    assert merged is not None and merged.indices.tolist() == [1, 3]
    c2, inv_merged = merged.apply(a)
    assert c2 == c
    # the QUndoCommand keeps inv1; it (and the merged edit's own inverse) restore a
    assert inv1.apply(c)[0] == a
    assert inv_merged.apply(c)[0] == a


def test_move_merge_same_set_other_order():
    a = make(5)
    m1 = MovePoints([1, 3], [[10, 10], [11, 11]])
    m2 = MovePoints([3, 1], [[21, 21], [20, 20]])
    merged = m1.merge(m2)
    assert merged == MovePoints([1, 3], [[20, 20], [21, 21]])
    assert merged.apply(a)[0] == m2.apply(m1.apply(a)[0])[0]


def test_move_merge_refuses_different_points():
    m1 = MovePoints([1, 3], [[10, 10], [11, 11]])
    assert m1.merge(MovePoints([1], [[0, 0]])) is None
    assert m1.merge(MovePoints([1, 2], [[0, 0], [1, 1]])) is None
    assert m1.merge(DeletePoints([1, 3])) is None


# --------------------------------------------------------------------------- hypothesis

coord = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@st.composite
def datasets(draw, min_size=0, max_size=12):
    n = draw(st.integers(min_size, max_size))
    X = draw(st.lists(st.tuples(coord, coord), min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n))
    return Dataset(np.array(X, dtype=np.float64).reshape(n, 2), y)


@st.composite
def dataset_and_edit(draw):
    d = draw(datasets())
    n = d.n
    kinds = ["add", "insert", "clear", "replace"]
    if n:
        kinds += ["delete", "move", "relabel", "flip"]
    kind = draw(st.sampled_from(kinds))

    def some_indices(limit):
        return draw(st.lists(st.integers(0, limit - 1), min_size=1, max_size=limit, unique=True))

    def points(k):
        return np.array(draw(st.lists(st.tuples(coord, coord), min_size=k, max_size=k)))

    def labels(k):
        return draw(st.lists(st.sampled_from([-1, 1]), min_size=k, max_size=k))

    if kind == "add":
        k = draw(st.integers(1, 4))
        index = draw(st.one_of(st.none(), st.integers(0, n)))
        edit = AddPoints(points(k), labels(k), index=index)
    elif kind == "insert":
        k = draw(st.integers(1, 4))
        idx = draw(st.lists(st.integers(0, n + k - 1), min_size=k, max_size=k, unique=True))
        edit = InsertPoints(idx, points(k), labels(k))
    elif kind == "clear":
        edit = Clear()
    elif kind == "replace":
        edit = ReplaceAll.from_dataset(draw(datasets()))
    elif kind == "delete":
        edit = DeletePoints(some_indices(n))
    elif kind == "move":
        idx = some_indices(n)
        edit = MovePoints(idx, points(len(idx)))
    elif kind == "relabel":
        idx = some_indices(n)
        edit = Relabel(idx, labels(len(idx)))
    else:
        edit = FlipLabels(some_indices(n))
    return d, edit


@settings(max_examples=150, deadline=None, derandomize=True)
@given(dataset_and_edit())
def test_every_edit_roundtrips_bitwise(case):
    d, edit = case
    new, inverse = edit.apply(d)
    assert new.X.shape == (new.n, 2) and new.y.shape == (new.n,)
    assert not new.X.flags.writeable and not new.y.flags.writeable
    back, _ = inverse.apply(new)
    assert back == d
    assert back.X.tobytes() == d.X.tobytes() and back.y.tobytes() == d.y.tobytes()


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(dataset_and_edit(), min_size=1, max_size=1), st.integers(1, 6), st.data())
def test_edit_sequences_undo_to_start(cases, length, data):
    d0, first = cases[0]
    history = []
    d = d0
    edit = first
    for _ in range(length):
        d, inverse = edit.apply(d)
        history.append(inverse)
        if d.n:
            idx = data.draw(st.lists(st.integers(0, d.n - 1), min_size=1, max_size=d.n,
                                     unique=True))
            edit = data.draw(st.sampled_from([DeletePoints(idx), FlipLabels(idx),
                                              MovePoints(idx, np.zeros((len(idx), 2)))]))
        else:
            edit = AddPoints([0.5, -0.25], 1)
    for inverse in reversed(history):
        d, _ = inverse.apply(d)
    assert d == d0


@settings(max_examples=60, deadline=None, derandomize=True)
@given(datasets(min_size=1), st.data())
def test_merged_drags_equal_sequential(d, data):
    idx = data.draw(st.lists(st.integers(0, d.n - 1), min_size=1, max_size=d.n, unique=True))
    k = len(idx)
    steps = data.draw(st.integers(2, 5))
    moves = []
    for _ in range(steps):
        perm = data.draw(st.permutations(idx))
        pts = data.draw(st.lists(st.tuples(coord, coord), min_size=k, max_size=k))
        moves.append(MovePoints(perm, np.array(pts)))
    current, first_inverse = moves[0].apply(d)
    merged = moves[0]
    for m in moves[1:]:
        current, _ = m.apply(current)
        merged = merged.merge(m)
        assert merged is not None
    assert merged.apply(d)[0] == current
    assert first_inverse.apply(current)[0] == d


def test_summarize_fills_what_the_ui_asks_for_and_returns_the_data_set():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(500, 2)) * 1e200, np.where(rng.random(500) > 0.3, 1, -1)
    ds = Dataset(X, y)
    assert ds.summarize() is ds
    fresh = Dataset(X, y)
    assert (ds.n_pos, ds.bounds(), ds.radius()) == (fresh.n_pos, fresh.bounds(), fresh.radius())
    # computed: asking again does not read the points again (zeros would change them)
    ds._X, ds._y = np.zeros_like(X), np.zeros_like(y)
    assert (ds.n_pos, ds.bounds(), ds.radius()) == (fresh.n_pos, fresh.bounds(), fresh.radius())


def test_replace_all_from_a_data_set_installs_it_and_undo_gives_back_the_old_one():
    # the same immutable objects, with the counts, bounds and radius they computed
    rng = np.random.default_rng(5)
    old = Dataset(rng.normal(size=(50, 2)), np.where(rng.random(50) > 0.5, 1, -1)).summarize()
    new = Dataset(rng.normal(size=(70, 2)), np.where(rng.random(70) > 0.5, 1, -1)).summarize()
    edit = ReplaceAll.from_dataset(new, "import")
    result, inverse = edit.apply(old)
    assert result is new
    back, again = inverse.apply(result)
    assert back is old and again.apply(back)[0] is new
    assert edit == ReplaceAll(new.X, new.y, "import")  # equal to the same edit made of arrays
    made = ReplaceAll(new.X, new.y, "import").apply(old)[0]
    assert made == new and made is not new
