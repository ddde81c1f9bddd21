"""Labels: the raw values of the label column to classes, and the classes to -1/+1.

Labels follow the rule of the CSV import: numbers are numbers (``1`` and
``1.0`` are one class), anything else is text (stripped); ``-1``/``+1`` keep
their sign, two other values are sorted and the first becomes -1, one value
becomes +1. With more than two values, ``positive=A`` alone makes A the +1
class against the rest, ``positive=A, negative=B`` keeps only those two
classes (``negative=B`` alone: B against the rest); without either,
:class:`TooManyLabels` carries the classes found.
"""

from __future__ import annotations

import math

import numpy as np

from ...dataset import Dataset
from ...values import MAX_CLASSES
from ..files import MAX_LABEL_CHARS, FormatError, short_repr

__all__ = ["MAX_LABEL_CHARS", "TooManyLabels", "class_signs", "label_keys"]


class TooManyLabels(FormatError):
    """The label column holds more than two classes and none was chosen.

    Attributes
    ----------
    classes, skipped_lines : tuple, tuple of int
        Every class found (after skipping bad rows), sorted; the lines skipped.
    """

    def __init__(self, message: str, classes=(), skipped_lines=()):
        super().__init__(message)
        self.classes = tuple(classes)
        self.skipped_lines = tuple(skipped_lines)


def label_keys(uniques, class_names) -> tuple[list, list]:
    """Class key of each unique raw label (the CSV rule) and the invalid ones' reasons."""
    raw = list(uniques)
    problems = [None] * len(raw)
    numeric = all(isinstance(v, (int, float, np.integer, np.floating)) for v in raw)
    if not numeric:
        texts = [str(v).strip() for v in raw]
        try:
            values = [float(t) for t in texts]
            numeric = all("_" not in t for t in texts)
        except ValueError:
            values = None
        if numeric and values is not None:
            raw = values
        else:
            for k, t in enumerate(texts):
                if not t:
                    problems[k] = "missing value"
                elif len(t) > MAX_LABEL_CHARS:
                    problems[k] = (f"a label of {len(t):,} characters is too long "
                                   f"(at most {MAX_LABEL_CHARS})")
            return texts, problems
    keys = []
    for k, v in enumerate(raw):
        try:
            v = float(v)
        except OverflowError:  # an integer beyond float64 (pandas keeps it a Python int)
            problems[k] = f"a number of {len(str(v).lstrip('-')):,} digits is not a label"
            keys.append(str(v))
            continue
        if not math.isfinite(v):
            problems[k] = "infinity is not a label"
            keys.append(v)
            continue
        key = int(v) if v.is_integer() else v
        if class_names is not None and isinstance(key, int) and 0 <= key < len(class_names):
            key = class_names[key]
        keys.append(key)
    return keys, problems


def _match_class(value, classes: list, option: str, column: str):
    if value is None:
        return None
    text = str(value).strip()
    if text in classes:
        return text
    for c in classes:
        if isinstance(c, str) and c.lower() == text.lower():
            return c
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None:
        key = int(number) if number.is_integer() else number
        if key in classes and not isinstance(key, bool):
            return key
    raise FormatError(f"{option} {value!r}: no such label in column {column!r}; the labels "
                      f"are {_shown(classes)}")


def _shown(classes: list) -> str:
    more = ", …" if len(classes) > 12 else ""
    return ", ".join(short_repr(str(c), 30) for c in classes[:12]) + more


def class_signs(classes: list, positive, negative, column: str, *,
                all_classes: bool = False) -> dict:
    """Each class's sign (-1 or +1): ``positive`` / ``negative`` as chosen, else the default;
    with ``all_classes`` and neither chosen, three to eight classes numbered ``0 … m − 1``.

    TooManyLabels with more than two classes and neither ``positive`` nor
    ``negative`` (or more than eight with ``all_classes``); FormatError when either is
    not one of the classes.
    """
    pos = _match_class(positive, classes, "--positive", column)
    neg = _match_class(negative, classes, "--negative", column)
    if pos is not None and neg is not None:
        if pos == neg:
            raise FormatError(f"--positive and --negative are the same label {pos!r}")
        return {pos: 1, neg: -1}
    if pos is not None:
        return {c: 1 if c == pos else -1 for c in classes}
    if neg is not None:
        return {c: -1 if c == neg else 1 for c in classes}
    if all_classes and 2 < len(classes) <= MAX_CLASSES:
        return {c: i for i, c in enumerate(classes)}
    if all_classes and len(classes) > MAX_CLASSES:
        raise TooManyLabels(
            f"column {column!r} has {len(classes)} labels ({_shown(classes)}); a data set has at "
            f"most {MAX_CLASSES} classes: choose two with --positive A --negative B, or one "
            "against the rest with --positive A", classes=classes)
    if len(classes) > 2:
        raise TooManyLabels(
            f"column {column!r} has {len(classes)} labels ({_shown(classes)}); choose two with "
            "--positive A --negative B, or one against the rest with --positive A",
            classes=classes)
    _, found = Dataset.from_labels(np.zeros((len(classes), 2)), classes)
    return {c: int(found[c]) for c in classes}

