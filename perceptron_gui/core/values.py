"""Values handed over from Python, checked: coordinates are numbers, labels are of one type.

NumPy converts generously: ``np.asarray(["1.5"]).astype(float)`` reads text,
datetime64 values convert to their tick count, and ``[1, "1"]`` becomes two
equal strings.  The data set's constructors call these checks first, so that
such values are refused with a short message rather than silently turned into
something else (or, for an integer of 400 digits, an :class:`OverflowError`).
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["BINARY", "MAX_CLASSES", "as_array", "as_float_array", "check_classes",
           "check_in_range", "check_integer", "check_indices", "check_label_types", "check_names",
           "check_labels", "check_points", "class_names_of", "describe_values", "label_signs",
           "readonly", "short"]

#: How many values a message names before it gives their count.
NAMED = 5
#: The classes of a binary problem, and the most classes a data set holds.
BINARY = (-1, 1)
MAX_CLASSES = 8


def readonly(a: np.ndarray) -> np.ndarray:
    """``a``, made read-only (the program's arrays handed out are never written)."""
    a.flags.writeable = False
    return a


def short(value, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters (an integer's digits are counted)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        digits = len(str(abs(int(value)))) if int(value).bit_length() > 128 else 0
        if digits:
            return f"an integer of {digits} digits"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_integer(value, message: str, minimum: int = 0) -> int:
    """``value`` as an int when it is an integer ``>= minimum`` (a bool is not);
    ValueError ``"{message}; got {value}"`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{message}; got {short(value)}")
    return int(value)


def describe_values(values) -> str:
    """The first few of ``values`` as a list, e.g. ``"['a', 'b', 'c', 'd', 'e', …]"``."""
    values = list(values[: NAMED + 1]) if len(values) > NAMED else list(values)
    named = ", ".join(short(v) for v in values[:NAMED])
    return "[" + named + (", …]" if len(values) > NAMED else "]")


def _kind(t: type) -> str:
    if issubclass(t, (bool, np.bool_)):
        return "booleans"
    if issubclass(t, (str, bytes, np.str_, np.bytes_)):
        return "text"
    if issubclass(t, numbers.Number):
        return "numbers"
    return "dates or times" if issubclass(t, (np.datetime64, np.timedelta64)) else t.__name__


def as_float_array(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` (of a non-numeric dtype) as float64, if it holds real numbers only (even
    ``"1.5"`` is refused, with its kind and an example named)."""
    if arr.dtype.kind in "USa":
        example = arr.ravel()[0] if arr.size else ""
        raise ValueError(f"{name} must contain numbers only, not text such as {short(example)}")
    if arr.dtype.kind in "Mm":
        raise ValueError(f"{name} must contain numbers only, not dates or times")
    if arr.dtype.kind == "O":
        flat = arr.ravel()
        for t in set(map(type, flat.tolist())):
            kind = _kind(t)
            if kind != "numbers" or issubclass(t, numbers.Complex) and not issubclass(
                    t, numbers.Real):
                example = next(v for v in flat if type(v) is t)
                raise ValueError(f"{name} must contain real numbers only, not "
                                 f"{'complex numbers' if kind == 'numbers' else kind} "
                                 f"such as {short(example)}")
    try:
        return arr.astype(np.float64)
    except OverflowError:
        big = next((v for v in arr.ravel() if _too_big(v)), None)
        raise ValueError(f"{name} holds {short(big)}, beyond the range of float64") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must contain numbers only: {short(str(exc), 120)}") from None


def _too_big(value) -> bool:
    try:
        float(value)
    except OverflowError:
        return True
    except (TypeError, ValueError):
        return False
    return False


def check_label_types(labels) -> None:
    """Raise ValueError when ``labels`` mix numbers, text and booleans.

    ``np.asarray([1, "1"])`` is two equal strings and ``np.asarray([True, 1])``
    two equal integers: mixed labels would merge into one class.
    """
    if isinstance(labels, np.ndarray) and labels.dtype.kind != "O":
        return
    flat = labels if isinstance(labels, list) else None
    types = set(map(type, flat)) if flat is not None else {list}
    if list in types or tuple in types or np.ndarray in types:  # not a flat list
        try:
            flat = np.asarray(labels, dtype=object).ravel().tolist()
        except (TypeError, ValueError):
            return  # a ragged sequence: its shape is refused where it is converted
        types = set(map(type, flat))
    kinds: dict[str, object] = {}
    for t in types:
        kinds.setdefault(_kind(t), t)
    if len(kinds) > 1:
        names = sorted(kinds)
        examples = [short(next(v for v in flat if type(v) is kinds[k])) for k in names]
        raise ValueError(f"labels mix {' and '.join(names)} (such as {' and '.join(examples)}),"
                         " which could merge into one class; give every label the same type")


def label_signs(labels, n: int, *, most: int = 2) -> tuple[np.ndarray, dict]:
    """``n`` labels as int64 classes, and the map label -> class.

    At most two values: labels within ``{-1, +1}`` keep their value; otherwise
    two labels are sorted, the first maps to ``-1`` and the second to ``+1``
    (``{0, 1}`` gives ``0 -> -1``, as scikit-learn's ``classes_[1]`` is the
    positive class); a single label maps to ``+1``.  Three to ``most`` values
    (``most`` > 2) map in sorted order to ``0 … m − 1``.  The map's keys are
    Python scalars.
    """
    check_label_types(labels)  # [1, "1"] would be two equal strings
    lab = np.asarray(labels)
    if lab.ndim != 1:
        raise ValueError(f"labels must have shape (n,), got {lab.shape}")
    if lab.shape[0] != n:
        raise ValueError(f"X has {n} points but labels has {lab.shape[0]}")
    if lab.dtype.kind == "f" and np.isnan(lab).any():
        row = int(np.flatnonzero(np.isnan(lab))[0])
        raise ValueError(f"labels must not be NaN; found NaN at row {row}")
    try:
        classes, inverse = np.unique(lab, return_inverse=True)
    except TypeError as exc:  # objects that do not sort
        raise ValueError(f"labels could not be sorted: {exc}") from exc
    keys = [c.item() if isinstance(c, np.generic) else c for c in classes]
    if len(keys) > max(most, 2):
        limit = "two" if most <= 2 else f"{most}"
        raise ValueError(f"labels must take at most {limit} distinct values; found "
                         f"{len(keys):,}: {describe_values(keys)}")
    if len(keys) > 2:
        codes = list(range(len(keys)))
    elif lab.dtype.kind in "iuf" and all(k in (-1, 1) for k in keys):
        codes = [int(k) for k in keys]
    else:
        codes = [-1, 1] if len(keys) == 2 else [1] * len(keys)
    y = np.asarray(codes, dtype=np.int64)[inverse.reshape(-1)] if keys else np.empty(0, np.int64)
    return y, dict(zip(keys, codes, strict=True))


def as_array(values, name: str) -> np.ndarray:
    """``np.asarray(values)``, or a ValueError naming ``name``."""
    try:
        return np.asarray(values)
    except Exception as exc:  # ragged nested lists and the like
        raise ValueError(f"{name} could not be converted to an array: {exc}") from exc


def check_points(X, *, name: str = "X", allow_single: bool = False) -> np.ndarray:
    """``X`` as a fresh C-contiguous float64 array of shape (n, 2) (``[]``: no points)."""
    arr = as_array(X, name)
    if arr.dtype.kind == "b":
        raise ValueError(f"{name} must contain numbers, not booleans")
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} must contain real numbers, not complex numbers")
    if arr.dtype.kind not in "iuf":
        arr = as_float_array(arr, name)  # text, dates, huge integers: refused, named
    if arr.ndim == 1 and arr.shape[0] == 0:
        arr = arr.reshape(0, 2)
    elif allow_single and arr.shape == (2,):
        arr = arr.reshape(1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name} must have shape (n, 2), got {arr.shape}")
    arr = np.array(arr, dtype=np.float64, order="C", copy=True)
    bad = ~np.isfinite(arr)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        kind = "a NaN" if np.isnan(arr[row, col]) else "an infinite"
        raise ValueError(f"point {row} has {kind} coordinate")
    return arr


def _labels_text(classes) -> str:
    if classes is None:
        return "labels must be integers"
    if tuple(classes) == BINARY:
        return "labels must be -1 or +1"
    return f"labels must be one of the classes {', '.join(map(str, classes))}"


def check_labels(y, n: int, *, name: str = "y", allow_scalar: bool = False,
                 classes=BINARY) -> np.ndarray:
    """``y`` as a fresh int64 array of shape (n,) with values in ``classes`` (None: any
    integers below 2³¹ in magnitude, for an edit checked against its data set later)."""
    arr = as_array(y, name)
    what = _labels_text(classes)
    if arr.dtype.kind == "b":
        raise ValueError(f"{what}, not booleans")
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{what}; got an array of dtype {arr.dtype}")
    if allow_scalar and arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.ndim == 1 and arr.shape[0] == 0:
        arr = arr.reshape(0)
    if arr.ndim != 1:
        raise ValueError(f"{name} must have shape (n,), got {arr.shape}")
    if arr.shape[0] != n:
        raise ValueError(f"X has {n} points but {name} has {arr.shape[0]} labels")
    with np.errstate(invalid="ignore"):  # NaN compares unequal, so it is caught here too
        if classes is None:
            bad = ~((np.abs(arr) < 2**31) & (arr == np.round(arr)))
        elif tuple(classes) == BINARY:
            bad = (arr != 1) & (arr != -1)
        else:
            bad = ~np.isin(arr, classes)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = arr[row].item()
        raise ValueError(f"{what}; found {value!r} at row {row}")
    return np.array(arr, dtype=np.int64, copy=True)


def _items(values, one_string: str, not_a_sequence: str) -> list:
    """``list(values)``; ValueError ``one_string`` for a string (a sequence of characters, not
    of items), ``not_a_sequence`` for a value that is no sequence."""
    if isinstance(values, (str, bytes)):
        raise ValueError(one_string)
    try:
        return list(values)
    except TypeError:
        raise ValueError(not_a_sequence) from None


def check_classes(classes) -> tuple[int, ...]:
    """``classes`` as a tuple of 2 to :data:`MAX_CLASSES` distinct integers, in increasing
    order (as scikit-learn's ``classes_``)."""
    items = _items(classes, f"classes must be integers, not the string {short(classes)}",
                   f"classes must be a sequence of integers; got {short(classes)}")
    for c in items:
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, numbers.Integral) \
                or abs(int(c)) >= 2**31:
            raise ValueError(f"classes must be integers below 2³¹; got {short(c)}")
    out = tuple(int(c) for c in items)
    if not 2 <= len(out) <= MAX_CLASSES:
        raise ValueError(f"a data set has 2 to {MAX_CLASSES} classes; got {len(out):,}")
    if any(a >= b for a, b in zip(out, out[1:], strict=False)):
        raise ValueError(f"classes must be distinct and in increasing order; got {list(out)}")
    return out


def check_indices(indices, *, name: str = "indices") -> np.ndarray:
    """``indices`` (or one integer) as a fresh int64 array: 1-D, non-empty, unique, >= 0."""
    arr = np.asarray(indices)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must not be empty")
    whole = arr.dtype.kind == "f" and np.isfinite(arr).all() and (arr == np.round(arr)).all()
    if arr.dtype.kind not in "iu" and not whole:  # 3.0 is accepted as 3
        raise ValueError(f"{name} must be integers, got dtype {arr.dtype}")
    arr = np.array(arr, dtype=np.int64, copy=True)
    if (arr < 0).any():
        raise ValueError(f"{name} must be >= 0; found {int(arr[arr < 0][0])}")
    uniq, counts = np.unique(arr, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"{name} must be unique; {int(uniq[counts > 1][0])} is repeated")
    return arr


def check_in_range(indices: np.ndarray, n: int, *, name: str = "index") -> None:
    over = indices >= n
    if over.any():
        raise ValueError(
            f"{name} {int(indices[over][0])} is out of range for a data set of {n} points"
        )


def check_names(names, what: str, count: int = 2) -> tuple[str, ...] | None:
    """``count`` names (of the axes, or one per class) as a tuple of str, or None.

    Each at most 200 characters: they go on axes and into a legend.
    """
    if names is None:
        return None
    want = "two names" if count == 2 else f"{count} names"
    items = _items(names, f"{what} must be {want}, not one string {short(names)}",
                   f"{what} must be {want}; got {short(names)}")
    if len(items) != count:
        raise ValueError(f"{what} must be {want}; got {len(items):,}")
    out = []
    for item in items:
        text = str(item.item() if isinstance(item, np.generic) else item).strip()
        if not text:
            raise ValueError(f"{what} must not be empty")
        if len(text) > 200:
            raise ValueError(f"{what} must be at most 200 characters; got {len(text):,}")
        out.append(text)
    return tuple(out)


def class_names_of(mapping: dict, column: str = "") -> tuple[str, ...] | None:
    """The names of the classes in order (−1 and +1, or 0 … m − 1) from a label mapping
    ``{label: class}``, or None.

    None when the labels already are −1 and +1 (a name would only repeat the
    sign).  Numbers are named with their ``column`` (``"class 2"``).
    """
    by_class = {}
    for label, code in mapping.items():
        by_class.setdefault(int(code), label)
    if len(by_class) < 2 or (len(by_class) == 2 and set(by_class) != {-1, 1}):
        return None
    labels = [by_class[c] for c in sorted(by_class)]
    if not any(isinstance(v, str) for v in labels) and set(labels) == {-1, 1}:
        return None
    texts = [str(v.item() if isinstance(v, np.generic) else v).strip() for v in labels]
    if column and not any(isinstance(v, str) for v in labels):
        texts = [f"{column} {t}" for t in texts]
    texts = [t[:200] for t in texts]
    return tuple(texts) if all(texts) else None
