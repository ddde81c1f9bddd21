"""Qt's pixmap cache sized for the canvas's device-cached items."""

from __future__ import annotations

from PySide6 import QtGui

__all__ = ["CACHED_ITEMS", "ensure_pixmap_cache"]

#: How many view-sized pixmaps Qt's pixmap cache must hold: the items drawn from a
#: device cache (the two axes with their grid, the two data scatters, the
#: mistakes' marks, the legend, the maximum margin's supports, the LDA overlay).
CACHED_ITEMS = 8


def ensure_pixmap_cache(screen) -> None:
    """Make Qt's pixmap cache hold :data:`CACHED_ITEMS` pixmaps of ``screen``'s size.

    ``QPixmapCache``'s default limit (10 MB) holds three pixmaps of a 1280×800
    view: the axes, the scatters and the marks then pushed one another out and
    were redrawn at every frame of a run.  A screen counts as at least 1920×1080
    (a window may be larger than an offscreen screen); the limit only ever rises.
    """
    pixels, ratio = 1920 * 1080, 1.0
    if screen is not None:
        pixels = max(pixels, screen.size().width() * screen.size().height())
        ratio = screen.devicePixelRatio()
    kib = int(CACHED_ITEMS * pixels * ratio * ratio * 4 / 1024)
    if kib > QtGui.QPixmapCache.cacheLimit():
        QtGui.QPixmapCache.setCacheLimit(kib)
