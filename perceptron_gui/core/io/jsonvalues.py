"""Parsed JSON values checked one by one, with messages that name the field.

``NaN`` and the infinities parse to :class:`Constant` and repeated keys are
recorded (:class:`DupDict`), so that a reader can refuse them where they stand.
"""

from __future__ import annotations

import math

from .files import FormatError, Progress, report_progress, short_repr

#: JSON objects parsed between two cancellation checks (about 15 ms of parsing).
OBJECTS_PER_CHECK = 2**14


class Constant:
    """What ``NaN``/``Infinity``/``-Infinity`` parse to: rejected where they are used."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class DupDict(dict):
    """A JSON object that had repeated keys (the last value kept, as json does)."""

    duplicates: list


def object_hook(pairs):
    """A parsed JSON object as a dict (a :class:`DupDict` naming keys given twice)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        dups = []
        for key, _ in pairs:
            if key in seen and key not in dups:
                dups.append(key)
            seen.add(key)
        obj = DupDict(obj)
        obj.duplicates = dups
    return obj


def describe(value) -> str:
    """A JSON value as a message shows it."""
    if isinstance(value, Constant):
        return value.name
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return short_repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() < 200:
            return str(value)
        return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    return type(value).__name__


def strict_object(value, path: str) -> dict:
    if not isinstance(value, dict):
        raise FormatError(f"{path}: expected an object, got {describe(value)}")
    if isinstance(value, DupDict):
        raise FormatError(f"{path}: duplicate key {value.duplicates[0]!r}")
    return value


def require(obj: dict, key: str, path: str):
    if key not in obj:
        where = f"{path}.{key}" if path else key
        raise FormatError(f"{where}: missing")
    return obj[key]


def number(value, path: str) -> float:
    """A finite float64 from a JSON number, or FormatError naming ``path``."""
    if isinstance(value, Constant):
        raise FormatError(f"{path}: {value.name} is not allowed")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FormatError(f"{path}: expected a number, got {describe(value)}")
    try:
        result = float(value)
    except OverflowError:
        result = math.inf
    if not math.isfinite(result):
        raise FormatError(f"{path}: {describe(value) if isinstance(value, int) else 'the number'}"
                          " is beyond the range of float64")
    return result


def integer(value, path: str, minimum: int | None = None) -> int:
    if isinstance(value, Constant):
        raise FormatError(f"{path}: {value.name} is not allowed")
    if (isinstance(value, bool) or not isinstance(value, int)
            or (minimum is not None and value < minimum)):
        cond = "an integer" if minimum is None else f"an integer >= {minimum}"
        raise FormatError(f"{path}: expected {cond}, got {describe(value)}")
    return value


def boolean(value, path: str) -> bool:
    if not isinstance(value, bool):
        raise FormatError(f"{path}: expected true or false, got {describe(value)}")
    return value


def checking_hook(text: str, progress: Progress | None, share: tuple[float, float]):
    """:func:`object_hook`, reporting progress (and so checking Cancel) every
    :data:`OBJECTS_PER_CHECK` objects: the parse of 10⁶ points takes a second."""
    if progress is None:
        return object_hook
    lo, hi = share
    expected = max(1, text.count("{"))
    parsed = [0]

    def hook(pairs):
        parsed[0] += 1
        if not parsed[0] % OBJECTS_PER_CHECK:
            report_progress(progress, lo + (hi - lo) * min(1.0, parsed[0] / expected))
        return object_hook(pairs)

    return hook
