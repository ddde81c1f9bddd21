"""The edits on a data set's classes: add one, rename one, remove one with its points.

Each returns the new data set and its exact inverse, as the point edits of
:mod:`.dataset` do, so that the undo stack takes them alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dataset import Dataset, Edit, ReplaceAll, set_fields
from .text import MINUS, class_label
from .values import BINARY, MAX_CLASSES, check_names

__all__ = ["AddClass", "RemoveClass", "RenameClass", "SetClassNames", "class_text", "class_texts",
           "default_class_name"]


def default_class_name(label: int, binary: bool = False) -> str:
    """What a class without a name is called: ``"class −1"``, ``"class 2"`` (``binary``:
    ``"class +1"``)."""
    sign = "+" if binary and label > 0 else MINUS if label < 0 else ""
    return f"class {sign}{abs(label)}"


def _names(dataset: Dataset) -> list[str]:
    """The class names of ``dataset``, each class without one given its default."""
    names = dataset.class_names
    return list(names) if names is not None else [
        default_class_name(c, dataset.is_binary) for c in dataset.classes]


def _check_name(name) -> str:
    return check_names([name], "a class name", 1)[0]


def _position(dataset: Dataset, label) -> int:
    if label not in dataset.classes:
        raise ValueError(f"there is no class {label!r}; the classes are "
                         f"{', '.join(map(str, dataset.classes))}")
    return dataset.classes.index(label)


@dataclass(frozen=True, eq=False)
class AddClass(Edit):
    """Add a class with no point, named ``name``, labelled one more than the largest label;
    the inverse puts the data set back as it was (its names too)."""

    name: str

    def __post_init__(self):
        set_fields(self, name=_check_name(self.name))

    @property
    def text(self) -> str:
        return f"Add class {self.name}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        if dataset.n_classes >= MAX_CLASSES:
            raise ValueError(f"a data set has at most {MAX_CLASSES} classes")
        label = max(dataset.classes) + 1
        _check_unused(dataset, self.name)
        new = dataset.with_classes(dataset.X, dataset.y, [*_names(dataset), self.name],
                                   [*dataset.classes, label])
        return new, ReplaceAll.from_dataset(dataset, f"Remove class {self.name}")  # exact


@dataclass(frozen=True, eq=False)
class RemoveClass(Edit):
    """Remove the class ``label`` and its points (two classes stay at least); the inverse
    puts the data set back as it was.

    Two classes left become the binary problem the perceptron learns: the first
    listed +1, the other −1 (their places, so their colours and keys, kept).
    """

    label: int

    def __post_init__(self):
        set_fields(self, label=int(self.label))

    @property
    def text(self) -> str:
        return f"Remove class {self.label}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        k = _position(dataset, self.label)
        if dataset.n_classes <= 2:
            raise ValueError("a data set keeps at least two classes")
        keep = dataset.y != self.label
        names = _names(dataset)
        named, removed = dict(zip(dataset.classes, names, strict=True)), names[k]
        classes = dataset.classes[:k] + dataset.classes[k + 1:]
        y = dataset.y[keep]
        if len(classes) == 2:
            first, second = (c for c in dataset.listed_classes if c != self.label)
            y = np.where(y == first, 1, -1)
            classes, names = BINARY, [named[second], named[first]]
        else:
            names = [named[c] for c in classes]
        new = dataset.with_classes(dataset.X[keep], y, names, classes)
        inverse = ReplaceAll.from_dataset(dataset, f"Restore class {removed}")
        return new, inverse


@dataclass(frozen=True, eq=False)
class RenameClass(Edit):
    """Give the class ``label`` the name ``name``; the inverse gives the names back as they
    were (none, when the data set named no class)."""

    label: int
    name: str

    def __post_init__(self):
        set_fields(self, label=int(self.label), name=_check_name(self.name))

    @property
    def text(self) -> str:
        return f"Rename class to {self.name}"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        k = _position(dataset, self.label)
        names = _names(dataset)
        _check_unused(dataset, self.name, but=k)
        names[k] = self.name
        new = dataset.with_names(dataset.feature_names, names)
        return new, SetClassNames(dataset.class_names)


def _check_unused(dataset: Dataset, name: str, but: int | None = None) -> None:
    """ValueError when another class than the ``but``-th already has the name ``name``."""
    taken = [n for k, n in enumerate(_names(dataset)) if k != but]
    if name in taken:
        raise ValueError(f"a class is already named {name!r}: two classes would look the same")


@dataclass(frozen=True, eq=False)
class SetClassNames(Edit):
    """Give the classes the names ``names`` (one per class, or None: no names); the inverse
    gives the old ones back.  The points are the same, their arrays shared."""

    names: tuple | None = None

    def __post_init__(self):
        set_fields(self, names=None if self.names is None else tuple(self.names))

    text = "Rename classes"

    def apply(self, dataset: Dataset) -> tuple[Dataset, Edit]:
        new = dataset.with_names(dataset.feature_names, self.names)
        return new, SetClassNames(dataset.class_names)


def class_text(dataset, c: int) -> str:
    """The name of class ``c`` as the legend writes it (:func:`class_texts`)."""
    return class_texts(dataset)[dataset.listed_classes.index(c)]


def class_texts(dataset) -> list[str]:
    """The legend's name of each class, in the order listed: ``"setosa (−1)"``, ``"class +1"``
    for two classes; the class's name (or ``"class 2"``) for more."""
    if dataset.is_binary:
        return [class_label(dataset.class_names, c) for c in dataset.listed_classes]
    names = dataset.class_names
    return [names[dataset.classes.index(c)] if names is not None else default_class_name(c)
            for c in dataset.listed_classes]
