"""The points of the plane a caption names, by workspace: a demo's step says them, the canvas
marks them (no import of the demos for the canvas)."""

from __future__ import annotations

import weakref

__all__ = ["clear", "named_points", "set_named"]

_NAMED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def named_points(workspace) -> tuple[tuple[float, float], ...]:
    """The points the current caption shown on ``workspace`` names, or ``()``."""
    return _NAMED.get(workspace, ())


def set_named(workspace, points) -> None:
    """``points`` (pairs of floats) are what the caption shown on ``workspace`` names now."""
    _NAMED[workspace] = tuple((float(x), float(y)) for x, y in points)


def clear(workspace) -> None:
    """No caption names a point on ``workspace`` any more."""
    _NAMED.pop(workspace, None)
