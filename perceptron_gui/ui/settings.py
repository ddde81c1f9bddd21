"""The one reader of the program's settings: each value of its type, or its default.

A settings file may have been written by a person, another program or version:
in an INI file ``colourScheme=dark, light`` reads back as a list,
``recent=@Point(1 2)`` as a ``QPoint``, ``geometry=hello`` as text where the window
wants bytes.  A setting not of (or not exactly convertible to) the kind asked for
gives the default, said once in the log: it never stops the program.
"""

from __future__ import annotations

import json
import logging

from PySide6 import QtCore

__all__ = ["KINDS", "value"]

log = logging.getLogger(__name__)


def _text(raw) -> str:
    if not isinstance(raw, str):
        raise TypeError
    return raw


def _texts(raw) -> list[str]:
    if isinstance(raw, str):  # a one-element list reads back as a string
        return [raw]
    if not isinstance(raw, (list, tuple)) or not all(isinstance(v, str) for v in raw):
        raise TypeError
    return list(raw)


def _bytes(raw) -> QtCore.QByteArray:
    if isinstance(raw, QtCore.QByteArray):
        return raw
    if isinstance(raw, (bytes, bytearray)):
        return QtCore.QByteArray(bytes(raw))
    raise TypeError


def _integer(raw) -> int:
    if isinstance(raw, bool):
        raise TypeError
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        return int(raw.strip())  # ValueError for text that is not one
    raise TypeError


def _boolean(raw) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    raise TypeError


def _json(raw) -> dict:
    value = json.loads(_text(raw))  # ValueError for text that is not JSON
    if not isinstance(value, dict):
        raise TypeError
    return value


#: The kinds a setting may be read as, each with what it accepts.
KINDS = {"text": _text, "texts": _texts, "bytes": _bytes, "integer": _integer,
         "boolean": _boolean, "json": _json}

_said: set[str] = set()


def value(key: str, kind: str, default=None):
    """The setting ``key`` as ``kind`` (a key of :data:`KINDS`: ``"texts"`` takes one string,
    ``"integer"`` and ``"boolean"`` the INI file's text, ``"json"`` a JSON object kept as
    text), or ``default``."""
    convert = KINDS[kind]
    raw = QtCore.QSettings().value(key)
    if raw is None:
        return default
    try:
        return convert(raw)
    except (TypeError, ValueError):
        if key not in _said:
            _said.add(key)
            log.warning("ignored the setting %s: expected %s, got %s %.60r", key, kind,
                        type(raw).__name__, raw)
        return default
