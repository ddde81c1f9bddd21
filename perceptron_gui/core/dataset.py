"""Labeled points in the plane and the edits on them.

A :class:`Dataset` is an immutable set of ``n`` points ``X`` (shape ``(n, 2)``)
with labels ``y`` in ``{-1, +1}``. It is never changed in place: every change is
a small immutable *edit* (a frozen dataclass) whose :meth:`~Edit.apply` returns
the new data set together with the *inverse* edit, which applied to the new data
set gives back a data set equal, bit for bit, to the old one::

    new, inverse = edit.apply(data)
    old, _ = inverse.apply(new)
    assert old == data

The Qt undo stack only stores these edits and calls :func:`transform` (the
pattern of Orange's Paint Data widget); consecutive drags of the same points
merge through :meth:`MovePoints.merge`.

Edits
-----
==============================  ================================================
:class:`AddPoints`              append (or insert at one position) points
:class:`InsertPoints`           put points at given final positions
:class:`DeletePoints`           remove points (inverse: :class:`InsertPoints`)
:class:`MovePoints`             give points new coordinates
:class:`Relabel`                give points new labels
:class:`FlipLabels`             negate the labels of points (its own inverse)
:class:`Clear`                  remove every point (inverse: :class:`ReplaceAll`)
:class:`ReplaceAll`             replace the whole data set (generators, files)
==============================  ================================================

The data set and its edits share a module because each edit must return its
exact inverse, which is easiest to check beside the class it edits.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, fields

import numpy as np

from .text import fmt_count
from .values import (
    check_in_range,
    check_indices,
    check_label_types,
    check_labels,
    check_names,
    check_points,
    class_names_of,
    describe_values,
)

__all__ = [
    "Dataset",
    "Edit",
    "AddPoints",
    "InsertPoints",
    "DeletePoints",
    "MovePoints",
    "Relabel",
    "FlipLabels",
    "Clear",
    "ReplaceAll",
    "transform",
    "MAX_POINTS",
    "check_size",
]

#: The most points a data set holds: every file the program writes opens again,
#: so every way of making a data set (an edit, a file, a sample, ``show``) stops here.
MAX_POINTS = 1_000_000


# --------------------------------------------------------------------------- validation


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.flags.writeable = False
    return arr


def check_size(n: int) -> int:
    """``n`` when a data set may hold ``n`` points; ValueError naming the limit otherwise.

    Raises
    ------
    ValueError
        When ``n`` is more than :data:`MAX_POINTS`.
    """
    if n > MAX_POINTS:
        raise ValueError(f"the data would have {fmt_count(n)} points; the limit is "
                         f"{fmt_count(MAX_POINTS)}")
    return n


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{fmt_count(count)} {word}s"


# --------------------------------------------------------------------------- Dataset


class Dataset:
    """An immutable set of labeled points in the plane.

    Parameters
    ----------
    X : array-like of shape (n, 2), default=None
        The point coordinates; must be finite. ``None`` (together with
        ``y=None``) gives the empty data set. ``n`` may be 0, and a data set with
        one class only is valid (the user builds it point by point).
    y : array-like of shape (n,), default=None
        The labels, each ``-1`` or ``+1``.
    feature_names : pair of str, optional
        What the two coordinates are (a table's column names, ``("sepal length",
        "sepal width")``): the canvas's axes say so.
    class_names : pair of str, optional
        What the classes ``-1`` and ``+1`` are, in that order (``("setosa",
        "versicolor")``): the legend and readouts say so.

    Attributes
    ----------
    X : ndarray of shape (n, 2), float64
        Read-only, C-contiguous copy of the coordinates.
    y : ndarray of shape (n,), int64
        Read-only copy of the labels.
    feature_names, class_names : tuple of two str or None
        The names given (every edit keeps them; :meth:`with_names` changes them).

    Raises
    ------
    ValueError
        For a wrong shape (``"X must have shape (n, 2), got (5, 3)"``), a NaN or
        infinite coordinate (``"point 3 has a NaN coordinate"``), mismatched
        lengths, or a label other than -1/+1
        (``"labels must be -1 or +1; found 2 at row 4"``).

    Notes
    -----
    Equality is exact: two data sets are equal when their arrays are equal bit
    for bit (so ``0.0`` and ``-0.0`` differ); the names do not take part (they
    change no result).  Duplicate points are allowed.
    """

    __slots__ = ("_X", "_y", "_n_pos", "_bounds", "_radius", "_feature_names", "_class_names")

    def __init__(self, X=None, y=None, *, feature_names=None, class_names=None):
        if X is None and y is None:
            X_arr = np.empty((0, 2), dtype=np.float64)
            y_arr = np.empty(0, dtype=np.int64)
        elif X is None or y is None:
            raise ValueError("X and y must be given together (or both be None)")
        else:
            X_arr = check_points(X)
            check_size(X_arr.shape[0])
            y_arr = check_labels(y, X_arr.shape[0])
        self._X = _frozen(X_arr)
        self._y = _frozen(y_arr)
        self._n_pos = None
        self._bounds = None
        self._radius = None
        self._feature_names = check_names(feature_names, "feature_names")
        self._class_names = check_names(class_names, "class_names")

    @classmethod
    def _trusted(cls, X: np.ndarray, y: np.ndarray, names=(None, None)) -> Dataset:
        """Wrap arrays that are already valid and owned by nobody else (no copy).

        ``names`` is ``(feature_names, class_names)``, already checked.
        """
        check_size(len(X))
        obj = cls.__new__(cls)
        obj._X = _frozen(np.ascontiguousarray(X, dtype=np.float64))
        obj._y = _frozen(np.ascontiguousarray(y, dtype=np.int64))
        obj._n_pos = None
        obj._bounds = None
        obj._radius = None
        obj._feature_names, obj._class_names = names
        return obj

    def derived(self, X: np.ndarray, y: np.ndarray) -> Dataset:
        """A data set of valid arrays ``X``, ``y`` with this one's names (what an edit returns)."""
        return Dataset._trusted(X, y, self.names)

    def with_names(self, feature_names=None, class_names=None) -> Dataset:
        """The same points (arrays shared) with these names (``None``: no names).

        Raises ValueError for names that are not two non-empty strings.
        """
        names = (check_names(feature_names, "feature_names"),
                 check_names(class_names, "class_names"))
        obj = Dataset._trusted(self._X, self._y, names)
        obj._n_pos, obj._bounds, obj._radius = self._n_pos, self._bounds, self._radius
        return obj

    @property
    def names(self) -> tuple:
        """``(feature_names, class_names)``, each a pair of str or None."""
        return (self._feature_names, self._class_names)

    @property
    def feature_names(self) -> tuple[str, str] | None:
        """The names of the two coordinates, or None."""
        return self._feature_names

    @property
    def class_names(self) -> tuple[str, str] | None:
        """The names of the classes −1 and +1 (in that order), or None."""
        return self._class_names

    @classmethod
    def from_labels(cls, X, labels) -> tuple[Dataset, dict]:
        """Build a data set from arbitrary labels with at most two distinct values.

        Parameters
        ----------
        X : array-like of shape (n, 2)
            The point coordinates.
        labels : array-like of shape (n,)
            Any labels (numbers or strings) with at most two distinct values.

        Returns
        -------
        dataset : Dataset
            The points with labels mapped to -1/+1, the two labels as its
            ``class_names`` (none when they are -1 and +1 already).
        mapping : dict
            Original label -> -1 or +1 (keys are Python scalars).

        Notes
        -----
        Labels that are already a subset of ``{-1, +1}`` keep their value. Otherwise
        two distinct labels are sorted and the first maps to ``-1``, the second to
        ``+1`` (so ``{0, 1}`` gives ``0 -> -1, 1 -> +1``, as scikit-learn's
        ``classes_[1]`` is the positive class); a single distinct label maps to
        ``+1``. Empty labels give an empty mapping.

        Raises
        ------
        ValueError
            For more than two distinct labels (naming them), NaN labels, or the
            validation errors of :class:`Dataset`.
        """
        X_arr = check_points(X)
        check_label_types(labels)  # [1, "1"] would be two equal strings
        lab = np.asarray(labels)
        if lab.ndim == 1 and lab.shape[0] == 0:
            lab = lab.reshape(0)
        if lab.ndim != 1:
            raise ValueError(f"labels must have shape (n,), got {lab.shape}")
        if lab.shape[0] != X_arr.shape[0]:
            raise ValueError(f"X has {X_arr.shape[0]} points but labels has {lab.shape[0]}")
        if lab.dtype.kind == "f" and np.isnan(lab).any():
            row = int(np.flatnonzero(np.isnan(lab))[0])
            raise ValueError(f"labels must not be NaN; found NaN at row {row}")
        if lab.dtype.kind == "O":
            try:
                classes, inverse = np.unique(lab, return_inverse=True)
            except TypeError as exc:
                raise ValueError(f"labels could not be sorted: {exc}") from exc
        else:
            classes, inverse = np.unique(lab, return_inverse=True)
        inverse = inverse.reshape(-1)
        keys = [c.item() if isinstance(c, np.generic) else c for c in classes]
        if len(keys) > 2:
            raise ValueError(f"labels must take at most two distinct values; found "
                             f"{len(keys):,}: {describe_values(keys)}")
        numeric = lab.dtype.kind in "iuf"
        if numeric and all(k in (-1, 1) for k in keys):
            signs = [int(k) for k in keys]
        elif len(keys) == 2:
            signs = [-1, 1]
        else:
            signs = [1] * len(keys)
        mapping = dict(zip(keys, signs, strict=True))
        y = np.asarray(signs, dtype=np.int64)[inverse] if keys else np.empty(0, np.int64)
        return cls._trusted(X_arr, y, (None, class_names_of(mapping))), mapping

    # ------------------------------------------------------------------ properties

    @property
    def X(self) -> np.ndarray:
        """Coordinates, read-only float64 array of shape (n, 2)."""
        return self._X

    @property
    def y(self) -> np.ndarray:
        """Labels, read-only int64 array of shape (n,) with values in {-1, +1}."""
        return self._y

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
        """Whether at least one point of each class is present."""
        return self.n_pos > 0 and self.n_neg > 0

    # ------------------------------------------------------------------ comparison

    def __eq__(self, other) -> bool:
        if not isinstance(other, Dataset):
            return NotImplemented
        return (
            self._X.shape == other._X.shape
            and self._X.tobytes() == other._X.tobytes()
            and self._y.tobytes() == other._y.tobytes()
        )

    def __hash__(self) -> int:
        return hash((self._X.shape, self._X.tobytes(), self._y.tobytes()))

    def __repr__(self) -> str:
        return f"Dataset(n={self.n}, n_pos={self.n_pos}, n_neg={self.n_neg})"

    # ------------------------------------------------------------------ queries

    def nearest(self, point, radius: float | None = None) -> int | None:
        """Index of the point nearest to ``point`` (Euclidean distance).

        Parameters
        ----------
        point : array-like of shape (2,)
            The query position.
        radius : float, optional
            When given, only points at distance ``<= radius`` count.

        Returns
        -------
        int or None
            The index (the lowest one on a tie), or ``None`` when the data set is
            empty or no point lies within ``radius``.
        """
        p = np.asarray(point, dtype=np.float64)
        if p.shape != (2,):
            raise ValueError(f"point must have shape (2,), got {p.shape}")
        if not np.isfinite(p).all():
            raise ValueError("point must have finite coordinates")
        if radius is not None:
            if not isinstance(radius, numbers.Real) or not np.isfinite(radius) or radius < 0:
                raise ValueError(f"radius must be a finite number >= 0; got {radius!r}")
        if self.n == 0:
            return None
        diff = self._X - p
        d2 = np.einsum("ij,ij->i", diff, diff)
        i = int(np.argmin(d2))
        if radius is not None and np.sqrt(d2[i]) > radius:
            return None
        return i

    def bounds(self) -> tuple[float, float, float, float] | None:
        """Bounding box ``(xmin, xmax, ymin, ymax)`` of the points, or ``None`` if empty."""
        if self.n == 0:
            return None
        if self._bounds is None:  # computed once: the data set is immutable
            x, y = self._X[:, 0], self._X[:, 1]  # column by column: 20x faster than axis=0
            self._bounds = (float(x.min()), float(x.max()), float(y.min()), float(y.max()))
        return self._bounds

    def summarize(self) -> Dataset:
        """Compute the cached summaries now (class counts, bounds, radius); returns ``self``.

        Each is computed once anyway, when first asked for; a worker that makes a
        large data set calls this so that the UI thread, which asks for all of
        them when the data arrive, finds them ready (a pass over 10⁶ points
        costs ~10 ms each).
        """
        self.n_pos  # noqa: B018 - fills the cache
        self.bounds()
        self.radius()
        return self

    def radius(self) -> float:
        """``max ||x_i||`` over the points (0.0 without points), computed once.

        When the largest coordinate ``s`` is far from 1 (outside 1e±150), on the
        points scaled by it, so that no square overflows or underflows; ``inf``
        only when the radius itself exceeds the largest float.  Otherwise the
        squares cannot overflow, and the largest norm cannot underflow.
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


# --------------------------------------------------------------------------- edits


class Edit:
    """Base class of the edits: immutable commands that know their inverse.

    Subclasses are frozen dataclasses whose array fields are read-only copies
    validated at construction. Validation that needs the data set (indices in
    range) happens in :meth:`apply`, which raises ``ValueError`` before anything
    is built; data sets are immutable, so a failed edit changes nothing.

    Attributes
    ----------
    replaces_data : bool
        The edit puts new data in place of the old (a generated, loaded or
        cleared data set), rather than changing some points: what was set by
        hand for the old data (the start w₀) does not carry over.
    """

    __slots__ = ()
    replaces_data = False

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        """Return ``(new_dataset, inverse_edit)``."""
        raise NotImplementedError

    @property
    def text(self) -> str:
        """A short human description for an undo menu (``"Move 3 points"``)."""
        raise NotImplementedError

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


def transform(edit: Edit, dataset: Dataset) -> tuple[Dataset, Edit]:
    """Apply ``edit`` to ``dataset``: return ``(new_dataset, inverse_edit)``."""
    return edit.apply(dataset)


def _set(obj, name: str, value) -> None:
    object.__setattr__(obj, name, value)


@dataclass(frozen=True, eq=False)
class InsertPoints(Edit):
    """Insert points so that they end up at the given positions.

    Parameters
    ----------
    indices : array-like of int, shape (k,)
        Positions of the new points *in the resulting data set* (unique, each
        ``< n + k``); ``X[j], y[j]`` lands at ``indices[j]`` and the old points
        fill the remaining positions in their old order.
    X : array-like of shape (k, 2)
        Coordinates of the new points.
    y : array-like of shape (k,)
        Labels of the new points.

    Notes
    -----
    This is the inverse of :class:`DeletePoints`; its inverse is
    ``DeletePoints(indices)``.
    """

    indices: np.ndarray
    X: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        idx = check_indices(self.indices)
        X = check_points(self.X, allow_single=True)
        if X.shape[0] != idx.shape[0]:
            raise ValueError(f"got {idx.shape[0]} indices but {X.shape[0]} points")
        y = check_labels(self.y, X.shape[0], allow_scalar=True)
        _set(self, "indices", _frozen(idx))
        _set(self, "X", _frozen(X))
        _set(self, "y", _frozen(y))

    @property
    def text(self) -> str:
        return f"Add {_plural(len(self.indices), 'point')}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        k = self.indices.shape[0]
        total = check_size(dataset.n + k)
        check_in_range(self.indices, total)
        is_new = np.zeros(total, dtype=bool)
        is_new[self.indices] = True
        X = np.empty((total, 2), dtype=np.float64)
        y = np.empty(total, dtype=np.int64)
        X[self.indices] = self.X
        y[self.indices] = self.y
        X[~is_new] = dataset.X
        y[~is_new] = dataset.y
        return dataset.derived(X, y), DeletePoints(self.indices)


@dataclass(frozen=True, eq=False)
class AddPoints(Edit):
    """Append points, or insert them as one block starting at ``index``.

    Parameters
    ----------
    X : array-like of shape (k, 2) or (2,)
        Coordinates of the new points (a single point may be given as ``(x, y)``).
    y : int or array-like of shape (k,)
        Labels of the new points; a single label is used for all of them.
    index : int, optional
        Where the first new point goes (``0 <= index <= n``); default: the end.

    Notes
    -----
    The inverse is ``DeletePoints(range(index, index + k))``.
    """

    X: np.ndarray
    y: np.ndarray
    index: int | None = None

    def __post_init__(self):
        X = check_points(self.X, allow_single=True)
        if X.shape[0] == 0:
            raise ValueError("AddPoints needs at least one point")
        y = check_labels(self.y, X.shape[0], allow_scalar=True)
        index = self.index
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, numbers.Integral):
                raise ValueError(f"index must be an integer or None; got {index!r}")
            index = int(index)
            if index < 0:
                raise ValueError(f"index must be >= 0; got {index}")
        _set(self, "X", _frozen(X))
        _set(self, "y", _frozen(y))
        _set(self, "index", index)

    @property
    def text(self) -> str:
        return f"Add {_plural(self.X.shape[0], 'point')}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        n = dataset.n
        start = n if self.index is None else self.index
        if start > n:
            raise ValueError(f"index {start} is out of range for adding to {n} points")
        k = check_size(n + self.X.shape[0]) - n
        X = np.concatenate([dataset.X[:start], self.X, dataset.X[start:]])
        y = np.concatenate([dataset.y[:start], self.y, dataset.y[start:]])
        return dataset.derived(X, y), DeletePoints(np.arange(start, start + k))


@dataclass(frozen=True, eq=False)
class DeletePoints(Edit):
    """Remove the points at ``indices`` (unique, in any order).

    Notes
    -----
    The inverse is ``InsertPoints(indices, X_old[indices], y_old[indices])``,
    which puts every point back at exactly its old position.
    """

    indices: np.ndarray

    def __post_init__(self):
        _set(self, "indices", _frozen(check_indices(self.indices)))

    @property
    def text(self) -> str:
        return f"Delete {_plural(len(self.indices), 'point')}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        check_in_range(self.indices, dataset.n)
        keep = np.ones(dataset.n, dtype=bool)
        keep[self.indices] = False
        new = dataset.derived(dataset.X[keep], dataset.y[keep])
        inverse = InsertPoints(self.indices, dataset.X[self.indices], dataset.y[self.indices])
        return new, inverse


@dataclass(frozen=True, eq=False)
class MovePoints(Edit):
    """Give the points at ``indices`` the coordinates ``X`` (row ``j`` for ``indices[j]``).

    Notes
    -----
    The inverse is ``MovePoints(indices, X_old[indices])``. Consecutive moves of
    the same points combine with :meth:`merge`.
    """

    indices: np.ndarray
    X: np.ndarray

    def __post_init__(self):
        idx = check_indices(self.indices)
        X = check_points(self.X, allow_single=True)
        if X.shape[0] != idx.shape[0]:
            raise ValueError(f"got {idx.shape[0]} indices but {X.shape[0]} points")
        _set(self, "indices", _frozen(idx))
        _set(self, "X", _frozen(X))

    @property
    def text(self) -> str:
        return f"Move {_plural(len(self.indices), 'point')}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        check_in_range(self.indices, dataset.n)
        X = dataset.X.copy()
        X[self.indices] = self.X
        inverse = MovePoints(self.indices, dataset.X[self.indices])
        return dataset.derived(X, dataset.y), inverse  # read-only arrays are shared

    def merge(self, other: Edit) -> MovePoints | None:
        """Combine ``self`` followed by ``other`` into one move, if possible.

        Returns
        -------
        MovePoints or None
            When ``other`` moves the same set of points (in any order), a move
            with ``self``'s index order and ``other``'s final coordinates: applying
            it equals applying ``self`` then ``other``. Otherwise ``None``.

        Notes
        -----
        For ``QUndoCommand.mergeWith``: keep the inverse recorded when the first
        move was applied (it restores the positions before the drag) and replace
        the command's edit by the merged one.
        """
        if not isinstance(other, MovePoints):
            return None
        if other.indices.shape != self.indices.shape:
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
    """Give the points at ``indices`` the labels ``y`` (a single label for all is fine).

    Notes
    -----
    The inverse is ``Relabel(indices, y_old[indices])``.
    """

    indices: np.ndarray
    y: np.ndarray

    def __post_init__(self):
        idx = check_indices(self.indices)
        y = check_labels(self.y, idx.shape[0], allow_scalar=True)
        _set(self, "indices", _frozen(idx))
        _set(self, "y", _frozen(y))

    @property
    def text(self) -> str:
        return f"Relabel {_plural(len(self.indices), 'point')}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        check_in_range(self.indices, dataset.n)
        y = dataset.y.copy()
        y[self.indices] = self.y
        inverse = Relabel(self.indices, dataset.y[self.indices])
        return dataset.derived(dataset.X, y), inverse


@dataclass(frozen=True, eq=False)
class FlipLabels(Edit):
    """Negate the labels of the points at ``indices``; it is its own inverse."""

    indices: np.ndarray

    def __post_init__(self):
        _set(self, "indices", _frozen(check_indices(self.indices)))

    @property
    def text(self) -> str:
        k = len(self.indices)
        return "Flip label" if k == 1 else f"Flip {fmt_count(k)} labels"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        check_in_range(self.indices, dataset.n)
        y = dataset.y.copy()
        y[self.indices] = -y[self.indices]
        return dataset.derived(dataset.X, y), self


@dataclass(frozen=True, eq=False)
class ReplaceAll(Edit):
    """Replace the whole data set by ``(X, y)`` (generators and file loads).

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,)
    description : str, default=""
        Undo-menu text, e.g. ``"New data set: blobs"``; empty means
        ``"Replace data set"``. The inverse keeps the same description.
    feature_names, class_names : pair of str, optional
        The new data's names (see :class:`Dataset`); the inverse restores the old ones.
    """

    replaces_data = True

    X: np.ndarray
    y: np.ndarray
    description: str = field(default="")
    feature_names: tuple | None = None
    class_names: tuple | None = None
    _dataset: Dataset | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        X = check_points(self.X)
        check_size(X.shape[0])
        y = check_labels(self.y, X.shape[0])
        _set(self, "X", _frozen(X))
        _set(self, "y", _frozen(y))
        _set(self, "description", str(self.description))
        _set(self, "feature_names", check_names(self.feature_names, "feature_names"))
        _set(self, "class_names", check_names(self.class_names, "class_names"))

    @classmethod
    def from_dataset(cls, dataset: Dataset, description: str = "") -> ReplaceAll:
        """The edit that replaces everything by ``dataset`` itself.

        :meth:`apply` returns ``dataset`` (immutable, so it can be shared), with
        the counts, bounds and radius it has computed: undoing or redoing the
        replacement of 10⁶ points does not compute them again.
        """
        edit = cls.__new__(cls)  # a data set's arrays are valid and never change
        _set(edit, "X", dataset.X)
        _set(edit, "y", dataset.y)
        _set(edit, "description", str(description))
        _set(edit, "feature_names", dataset.feature_names)
        _set(edit, "class_names", dataset.class_names)
        _set(edit, "_dataset", dataset)
        return edit

    @property
    def text(self) -> str:
        return self.description or "Replace data set"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        # the edit's arrays are read-only: the new data set shares them
        new = (self._dataset if self._dataset is not None else
               Dataset._trusted(self.X, self.y, (self.feature_names, self.class_names)))
        return new, ReplaceAll.from_dataset(dataset, self.description)


@dataclass(frozen=True, eq=False)
class Clear(Edit):
    """Remove every point; the inverse is ``ReplaceAll(X_old, y_old)``."""

    replaces_data = True

    @property
    def text(self) -> str:
        return "Clear points"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        return Dataset(), ReplaceAll.from_dataset(dataset, "Restore points")
