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

__all__ = ["as_float_array", "check_label_types", "describe_values", "short"]

#: How many values a message names before it gives their count.
NAMED = 5


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
    if issubclass(t, (np.datetime64, np.timedelta64)):
        return "dates or times"
    return t.__name__


def as_float_array(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` (of a non-numeric dtype) as float64, if it holds real numbers only.

    Raises
    ------
    ValueError
        For text (even ``"1.5"``), dates, booleans, complex numbers or other
        objects, and for a number beyond the range of float64; the message
        names the kind of value and one example.
    """
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
    two equal integers: mixed labels would merge into one class.  Arrays of a
    single dtype pass at once; sequences and object arrays are looked at.
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
