"""Labeled points in the plane and the edits on them.

A :class:`Dataset` is immutable. Every change is a frozen *edit* whose
:meth:`~Edit.apply` returns the new data set and the *inverse* edit, which gives
back a data set equal, bit for bit, to the old one::

    new, inverse = edit.apply(data)
    assert inverse.apply(new)[0] == data

Consecutive drags merge through :meth:`MovePoints.merge` (Orange's Paint
Data). The edits live beside the data set because each must return its exact
inverse (which makes this module long: the class, then one edit each); the edits of
the classes themselves are :mod:`.class_edits`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, fields
from operator import attrgetter

import numpy as np

from .text import fmt_count
from .values import (
    BINARY,
    check_classes,
    check_in_range,
    check_indices,
    check_labels,
    check_names,
    check_points,
    class_names_of,
    label_signs,
    readonly,
)

__all__ = ["Dataset", "Edit", "AddPoints", "InsertPoints", "DeletePoints", "MovePoints",
           "Relabel", "FlipLabels", "Clear", "ReplaceAll", "MAX_POINTS", "check_size",
           "set_fields"]

#: The most points a data set holds: every file the program writes opens again,
#: so every way of making a data set (an edit, a file, a sample, ``show``) stops here.
MAX_POINTS = 1_000_000


def check_size(n: int) -> int:
    """``n`` when a data set may hold ``n`` points; ValueError naming the limit otherwise."""
    if n > MAX_POINTS:
        raise ValueError(f"the data would have {fmt_count(n)} points; the limit is "
                         f"{fmt_count(MAX_POINTS)}")
    return n


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{fmt_count(count)} {word}s"


def _fill(obj: Dataset, X: np.ndarray, y: np.ndarray, names: tuple,
          classes: tuple = BINARY) -> Dataset:
    obj._X = readonly(np.ascontiguousarray(X, dtype=np.float64))
    obj._y = readonly(np.ascontiguousarray(y, dtype=np.int64))
    obj._n_pos = obj._bounds = obj._radius = obj._counts = None
    obj._feature_names, obj._class_names = names
    obj._classes = classes
    return obj


class Dataset:
    """An immutable set of labeled points in the plane.

    Parameters
    ----------
    X, y : array-like of shape (n, 2) and (n,), default=None
        Finite coordinates and labels in ``classes``; both None is the empty
        data set.  A class may have no point (the user builds it point by point).
    feature_names : pair of str, optional
        The axes' names.
    class_names : tuple of str, optional
        One name per class, in the order of ``classes``.  Every edit keeps them.
    classes : sequence of int, default=(-1, 1)
        The labels the data set knows, 2 to 8 in increasing order (as
        scikit-learn's ``classes_``): ``(-1, 1)``, the binary problem the
        perceptron learns; data read with more classes number them ``0 … m − 1``.

    Notes
    -----
    ``X`` and ``y`` are read-only float64 and int64 copies. Equality is bit for bit
    (``0.0`` and ``-0.0`` differ) and ignores the names. Duplicates are allowed.
    """

    __slots__ = ("_X", "_y", "_n_pos", "_bounds", "_radius", "_counts", "_feature_names",
                 "_class_names", "_classes")

    def __init__(self, X=None, y=None, *, feature_names=None, class_names=None, classes=None):
        classes = BINARY if classes is None else check_classes(classes)
        if X is None and y is None:
            X, y = np.empty((0, 2)), np.empty(0, dtype=np.int64)
        elif X is None or y is None:
            raise ValueError("X and y must be given together (or both be None)")
        else:
            X = check_points(X)
            y = check_labels(y, check_size(X.shape[0]), classes=classes)
        _fill(self, X, y, (check_names(feature_names, "feature_names"),
                           check_names(class_names, "class_names", len(classes))), classes)

    @classmethod
    def _trusted(cls, X: np.ndarray, y: np.ndarray, names=(None, None),
                 classes: tuple = BINARY) -> Dataset:
        """Wrap valid arrays owned by nobody else, and checked names, without a copy."""
        check_size(len(X))
        return _fill(cls.__new__(cls), X, y, names, classes)

    def derived(self, X: np.ndarray, y: np.ndarray) -> Dataset:
        """A data set of valid arrays ``X``, ``y`` with this one's names (what an edit returns)."""
        return Dataset._trusted(X, y, self.names, self._classes)

    def with_classes(self, X: np.ndarray, y: np.ndarray, class_names, classes) -> Dataset:
        """A data set of valid arrays ``X``, ``y`` with these classes and their names (checked)
        and this one's feature names (what an edit of the classes returns)."""
        classes = check_classes(classes)
        return Dataset._trusted(X, y, (self._feature_names, check_names(
            class_names, "class_names", len(classes))), classes)

    def with_names(self, feature_names=None, class_names=None) -> Dataset:
        """The same points (arrays shared) with these names (``None``: no names)."""
        obj = Dataset._trusted(self._X, self._y, (
            check_names(feature_names, "feature_names"),
            check_names(class_names, "class_names", self.n_classes)), self._classes)
        obj._n_pos, obj._bounds, obj._radius = self._n_pos, self._bounds, self._radius
        obj._counts = self._counts
        return obj

    @property
    def names(self) -> tuple:
        """``(feature_names, class_names)``: a pair of str or None, one name per class or
        None."""
        return (self._feature_names, self._class_names)

    feature_names = property(attrgetter("_feature_names"),
                             doc="The names of the two coordinates, or None.")
    class_names = property(attrgetter("_class_names"),
                           doc="The names of the classes in the order of ``classes``, or None.")
    classes = property(attrgetter("_classes"),
                       doc="The labels, 2 to 8 ints in increasing order; ``(-1, 1)``: binary.")
    X = property(attrgetter("_X"), doc="Coordinates, read-only float64 array of shape (n, 2).")
    y = property(attrgetter("_y"),
                 doc="Labels, read-only int64 array of shape (n,) with values in ``classes``.")

    @property
    def n_classes(self) -> int:
        """The number of classes (some may have no point)."""
        return len(self._classes)

    @property
    def listed_classes(self) -> tuple[int, ...]:
        """The classes in the order the window lists them (keys 1, 2, …): +1 and −1 first
        where they are classes (+1 before −1, as ever), then the others in order."""
        c = self._classes
        if 1 in c and -1 in c:
            return (1, -1, *(k for k in c if k not in BINARY))
        return c

    @property
    def is_binary(self) -> bool:
        """Whether the classes are −1 and +1: the problem the perceptron and its bound know."""
        return self._classes == BINARY

    def listed_index(self, y=None) -> np.ndarray:
        """The place in :attr:`listed_classes` of each label of ``y`` (default: the data's), as
        ``uint8``: the index of a class's colour and marker."""
        y = self._y if y is None else np.asarray(y)
        if self.is_binary:
            return (y < 0).view(np.uint8)  # +1 first: 0, −1: 1 (a bool is one byte)
        listed = self.listed_classes
        place = np.array([listed.index(c) for c in self._classes], dtype=np.uint8)
        return place[np.searchsorted(np.asarray(self._classes), y)]

    def class_counts(self) -> tuple[int, ...]:
        """The number of points of each class, in the order of :attr:`classes`."""
        if self._counts is None:
            if self.is_binary:
                self._counts = (self.n_neg, self.n_pos)
            else:
                at = np.searchsorted(np.asarray(self._classes), self._y)  # not listed_index:
                counts = np.bincount(at, minlength=self.n_classes)  # -1, +1 listed first
                self._counts = tuple(int(c) for c in counts)
        return self._counts

    @classmethod
    def from_labels(cls, X, labels, *, most: int = 2) -> tuple[Dataset, dict]:
        """A data set from any labels (its ``class_names``), and the map label -> class
        (:func:`~.values.label_signs`): at most two values as ±1, or with ``most`` > 2 up to
        ``most`` values as ``0 … m − 1``."""
        X_arr = check_points(X)
        y, mapping = label_signs(labels, X_arr.shape[0], most=most)
        classes = BINARY if len(mapping) <= 2 else tuple(range(len(mapping)))
        return cls._trusted(X_arr, y, (None, class_names_of(mapping)), classes), mapping

    @property
    def n(self) -> int:
        """Number of points."""
        return int(self._X.shape[0])

    def __len__(self) -> int:
        return self.n

    @property
    def n_pos(self) -> int:
        """Number of points labeled +1 (counted once: the data set is immutable)."""
        if self._n_pos is None:
            self._n_pos = int(np.count_nonzero(self._y == 1))
        return self._n_pos

    @property
    def n_neg(self) -> int:
        """Number of points labeled -1 (every label is -1 or +1)."""
        return self.n - self.n_pos

    @property
    def has_both_classes(self) -> bool:
        """Whether at least two classes have points (binary: each of the two)."""
        if self.is_binary:
            return self.n_pos > 0 and self.n_neg > 0
        return sum(c > 0 for c in self.class_counts()) >= 2

    def __eq__(self, other) -> bool:
        if not isinstance(other, Dataset):
            return NotImplemented
        return (
            self._classes == other._classes
            and self._X.shape == other._X.shape
            and self._X.tobytes() == other._X.tobytes()
            and self._y.tobytes() == other._y.tobytes()
        )

    def __hash__(self) -> int:
        return hash((self._classes, self._X.shape, self._X.tobytes(), self._y.tobytes()))

    def __repr__(self) -> str:
        if self.is_binary:
            return f"Dataset(n={self.n}, n_pos={self.n_pos}, n_neg={self.n_neg})"
        return f"Dataset(n={self.n}, classes={self._classes}, counts={self.class_counts()})"

    def bounds(self) -> tuple[float, float, float, float] | None:
        """Bounding box ``(xmin, xmax, ymin, ymax)`` of the points, or ``None`` if empty."""
        if self.n == 0:
            return None
        if self._bounds is None:  # computed once: the data set is immutable
            x, y = self._X[:, 0], self._X[:, 1]  # column by column: 20x faster than axis=0
            self._bounds = (float(x.min()), float(x.max()), float(y.min()), float(y.max()))
        return self._bounds

    def summarize(self) -> Dataset:
        """Compute the cached counts, bounds and radius now (~10 ms each at 10⁶ points)."""
        self.n_pos  # noqa: B018 - fills the cache
        self.bounds()
        self.radius()
        return self

    def radius(self) -> float:
        """``max ||x_i||`` over the points (0.0 without points), computed once.

        When the largest coordinate ``s`` is outside 1e±150, on the points scaled
        by it, so that no square overflows or underflows; ``inf`` only when the
        radius itself exceeds the largest float.
        """
        if self._radius is None:
            if self.n == 0:
                self._radius = 0.0
                return self._radius
            x0, x1, y0, y1 = self.bounds()
            s = max(-x0, x1, -y0, y1)
            if s == 0.0:
                self._radius = 0.0
            elif 1e-150 < s < 1e150:
                x, y = self._X[:, 0], self._X[:, 1]
                self._radius = math.sqrt(float((x * x + y * y).max()))
            else:
                Z = self._X / s
                Z *= Z
                with np.errstate(over="ignore"):
                    self._radius = s * math.sqrt(float((Z[:, 0] + Z[:, 1]).max()))
        return self._radius


class Edit:
    """Base class of the edits: immutable commands that know their inverse.

    What needs the data set (indices in range) is checked by :meth:`apply`
    before anything is built, so a failed edit changes nothing.

    Attributes
    ----------
    replaces_data : bool
        The edit puts new data in place of the old: what was set by hand for
        the old data (the start w₀) does not carry over.
    """

    __slots__ = ()
    replaces_data = False
    _verb = ""

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        """Return ``(new_dataset, inverse_edit)``."""
        raise NotImplementedError

    @property
    def text(self) -> str:
        """A short human description for an undo menu (``"Move 3 points"``)."""
        return f"{self._verb} {_plural(len(self.indices), 'point')}"

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        for f in fields(self):
            if not f.compare:  # e.g. ReplaceAll's data set, the same as its arrays
                continue
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                a, b = np.asarray(a), np.asarray(b)
                if a.shape != b.shape or a.dtype != b.dtype or a.tobytes() != b.tobytes():
                    return False
            elif a != b:
                return False
        return True

    __hash__ = None  # type: ignore[assignment]


def set_fields(obj, **values) -> None:
    """Set the (checked) fields of a frozen edit, arrays made read-only: every edit's
    ``__post_init__``."""
    for name, value in values.items():
        object.__setattr__(obj, name, readonly(value) if isinstance(value, np.ndarray) else value)


def _labels(y, n: int) -> np.ndarray:
    """An edit's labels, checked as integers (against the data set's classes: :func:`_members`)."""
    return check_labels(y, n, allow_scalar=True, classes=None)


def _members(y: np.ndarray, dataset: Dataset) -> None:
    """ValueError unless every label of ``y`` is one of ``dataset``'s classes."""
    check_labels(y, y.shape[0], classes=dataset.classes)


def _indexed_points(indices, X) -> tuple[np.ndarray, np.ndarray]:
    idx, X = check_indices(indices), check_points(X, allow_single=True)
    if X.shape[0] != idx.shape[0]:
        raise ValueError(f"got {idx.shape[0]} indices but {X.shape[0]} points")
    return idx, X


@dataclass(frozen=True, eq=False)
class InsertPoints(Edit):
    """Insert points so that ``X[j], y[j]`` end up at ``indices[j]`` of the result.

    ``indices`` are unique and each ``< n + k``; the old points fill the other
    positions in their old order. The inverse is ``DeletePoints(indices)``.
    """

    _verb = "Add"
    indices: np.ndarray
    X: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        idx, X = _indexed_points(self.indices, self.X)
        set_fields(self, indices=idx, X=X, y=_labels(self.y, X.shape[0]))

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        _members(self.y, dataset)
        k = self.indices.shape[0]
        total = check_size(dataset.n + k)
        check_in_range(self.indices, total)
        is_new = np.zeros(total, dtype=bool)
        is_new[self.indices] = True
        X, y = np.empty((total, 2)), np.empty(total, dtype=np.int64)
        X[self.indices], y[self.indices] = self.X, self.y
        X[~is_new], y[~is_new] = dataset.X, dataset.y
        return dataset.derived(X, y), DeletePoints(self.indices)


@dataclass(frozen=True, eq=False)
class AddPoints(Edit):
    """Append points, or insert them as one block starting at ``index <= n``.

    ``X`` may be one point ``(x, y)`` and ``y`` one label for all.
    """

    X: np.ndarray
    y: np.ndarray
    index: int | None = None

    def __post_init__(self):
        X = check_points(self.X, allow_single=True)
        if X.shape[0] == 0:
            raise ValueError("AddPoints needs at least one point")
        index = self.index
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, numbers.Integral):
                raise ValueError(f"index must be an integer or None; got {index!r}")
            index = int(index)
            if index < 0:
                raise ValueError(f"index must be >= 0; got {index}")
        set_fields(self, X=X, y=_labels(self.y, X.shape[0]), index=index)

    @property
    def text(self) -> str:
        return f"Add {_plural(self.X.shape[0], 'point')}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        n = dataset.n
        start = n if self.index is None else self.index
        if start > n:
            raise ValueError(f"index {start} is out of range for adding to {n} points")
        _members(self.y, dataset)
        k = check_size(n + self.X.shape[0]) - n
        X = np.concatenate([dataset.X[:start], self.X, dataset.X[start:]])
        y = np.concatenate([dataset.y[:start], self.y, dataset.y[start:]])
        return dataset.derived(X, y), DeletePoints(np.arange(start, start + k))


@dataclass(frozen=True, eq=False)
class DeletePoints(Edit):
    """Remove the points at ``indices`` (unique, in any order); the inverse puts each back."""

    _verb = "Delete"
    indices: np.ndarray

    def __post_init__(self):
        set_fields(self, indices=check_indices(self.indices))

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        check_in_range(self.indices, dataset.n)
        keep = np.ones(dataset.n, dtype=bool)
        keep[self.indices] = False
        return (dataset.derived(dataset.X[keep], dataset.y[keep]),
                InsertPoints(self.indices, dataset.X[self.indices], dataset.y[self.indices]))


@dataclass(frozen=True, eq=False)
class MovePoints(Edit):
    """Give the points at ``indices`` the coordinates ``X`` (row ``j`` for ``indices[j]``)."""

    _verb = "Move"
    indices: np.ndarray
    X: np.ndarray

    def __post_init__(self):
        idx, X = _indexed_points(self.indices, self.X)
        set_fields(self, indices=idx, X=X)

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        check_in_range(self.indices, dataset.n)
        X = dataset.X.copy()
        X[self.indices] = self.X
        return dataset.derived(X, dataset.y), MovePoints(self.indices, dataset.X[self.indices])

    def merge(self, other: Edit) -> MovePoints | None:
        """One move equal to ``self`` then ``other``, or None when they move other points.

        For ``QUndoCommand.mergeWith``: the inverse recorded by the first move
        still restores the positions before the drag.
        """
        if not isinstance(other, MovePoints) or other.indices.shape != self.indices.shape:
            return None
        if np.array_equal(other.indices, self.indices):
            return MovePoints(self.indices, other.X)
        order_self = np.argsort(self.indices)
        order_other = np.argsort(other.indices)
        if not np.array_equal(self.indices[order_self], other.indices[order_other]):
            return None
        X = np.empty_like(other.X)
        X[order_self] = other.X[order_other]
        return MovePoints(self.indices, X)


@dataclass(frozen=True, eq=False)
class Relabel(Edit):
    """Give the points at ``indices`` the labels ``y`` (or one label for all)."""

    _verb = "Relabel"
    indices: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        idx = check_indices(self.indices)
        set_fields(self, indices=idx, y=_labels(self.y, idx.shape[0]))

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        check_in_range(self.indices, dataset.n)
        _members(self.y, dataset)
        y = dataset.y.copy()
        y[self.indices] = self.y
        return dataset.derived(dataset.X, y), Relabel(self.indices, dataset.y[self.indices])


@dataclass(frozen=True, eq=False)
class FlipLabels(Edit):
    """Negate the labels of the points at ``indices``; it is its own inverse."""

    indices: np.ndarray

    def __post_init__(self):
        set_fields(self, indices=check_indices(self.indices))

    @property
    def text(self) -> str:
        k = len(self.indices)
        return "Flip label" if k == 1 else f"Flip {fmt_count(k)} labels"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        if not dataset.is_binary:
            raise ValueError(f"only the labels of two classes, −1 and +1, flip; this data set "
                             f"has {dataset.n_classes} classes: relabel the points instead")
        check_in_range(self.indices, dataset.n)
        y = dataset.y.copy()
        y[self.indices] = -y[self.indices]
        return dataset.derived(dataset.X, y), self


@dataclass(frozen=True, eq=False)
class ReplaceAll(Edit):
    """Replace the whole data set by ``(X, y)`` (generators and file loads).

    ``description`` is the undo-menu text (``"New data set: blobs"``; empty:
    ``"Replace data set"``), which the inverse keeps; ``classes`` (None: −1 and +1)
    those of the new data set.
    """

    replaces_data = True

    X: np.ndarray
    y: np.ndarray
    description: str = field(default="")
    feature_names: tuple | None = None
    class_names: tuple | None = None
    classes: tuple | None = None
    _dataset: Dataset | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        X = check_points(self.X)
        classes = BINARY if self.classes is None else check_classes(self.classes)
        set_fields(self, X=X, y=check_labels(self.y, check_size(X.shape[0]), classes=classes),
             description=str(self.description),
             feature_names=check_names(self.feature_names, "feature_names"),
             class_names=check_names(self.class_names, "class_names", len(classes)),
             classes=classes)

    @classmethod
    def from_dataset(cls, dataset: Dataset, description: str = "") -> ReplaceAll:
        """The edit that puts ``dataset`` itself back, so that its cached summaries survive undo."""
        edit = cls.__new__(cls)  # a data set's arrays are valid and never change
        set_fields(edit, X=dataset.X, y=dataset.y, description=str(description),
             feature_names=dataset.feature_names, class_names=dataset.class_names,
             classes=dataset.classes, _dataset=dataset)
        return edit

    @property
    def text(self) -> str:
        return self.description or "Replace data set"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        # the edit's arrays are read-only: the new data set shares them
        new = (self._dataset if self._dataset is not None else Dataset._trusted(
            self.X, self.y, (self.feature_names, self.class_names), self.classes))
        return new, ReplaceAll.from_dataset(dataset, self.description)


@dataclass(frozen=True, eq=False)
class Clear(Edit):
    """Remove every point; the inverse is ``ReplaceAll(X_old, y_old)``."""

    replaces_data = True
    text = "Clear points"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        # more than two classes stay, named, for the points placed next
        new = Dataset() if dataset.is_binary else Dataset(
            class_names=dataset.class_names, classes=dataset.classes)
        return new, ReplaceAll.from_dataset(dataset, "Restore points")
