"""The offscreen canvas's scene without its markers: what lies under them and what over them.

pyqtgraph paints each scene layer on the UI thread, but into a ``QPicture``:
recording costs a few milliseconds; rasterizing (the grid, text, regions) is
left to the worker, which plays the pictures onto the image (Qt allows
``QPainter`` on ``QImage`` and ``QPicture`` in any thread).  The items' pixel
caches are turned off first: a cached item would be recorded as a full-size
compressed image, and a pixmap may not be used outside the UI thread.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["ScenePass", "play", "split_items", "to_image_transform", "without_item_caches"]


def split_items(scene, markers) -> tuple[list, list]:
    """The scene's items painted ``(under, over)`` the ``markers`` items (between two: over;
    ancestors of the other side's in neither list: hiding one would hide both sides)."""
    order = scene.items(QtCore.Qt.SortOrder.AscendingOrder)
    marker_ids = {id(m) for m in markers}
    places = [i for i, item in enumerate(order) if id(item) in marker_ids]
    if not places:
        return [], list(order)
    lo = min(places)
    under = order[:lo]
    over = [item for item in order[lo:] if id(item) not in marker_ids]

    def ancestors(items):
        found = set()
        for item in items:
            parent = item.parentItem()
            while parent is not None:
                found.add(id(parent))
                parent = parent.parentItem()
        return found

    keep_for_over = ancestors(over) | ancestors(markers)
    under = [item for item in under if id(item) not in keep_for_over]
    return under, over


def without_item_caches(scene) -> None:
    """Paint every item of ``scene`` directly (no device or item pixel cache)."""
    none = QtWidgets.QGraphicsItem.CacheMode.NoCache
    for item in scene.items():
        if item.cacheMode() != none:
            item.setCacheMode(none)


class ScenePass:
    """One scene layer of an export, recorded by pyqtgraph (UI thread) with the ``hidden``
    items at opacity 0; ``exporter`` is made once per canvas (it builds a parameter tree)."""

    def __init__(self, exporter, size, hidden):
        self.scene = exporter.item
        self.exporter = exporter
        self.size = (int(size[0]), int(size[1]))
        self.hidden = list(hidden)
        self.background = QtGui.QColor(self.exporter.params["background"])

    def record(self) -> QtGui.QPicture:
        """The layer's paint commands, in image pixels (UI thread)."""
        w, h = self.size
        saved = [(item, item.opacity()) for item in self.hidden]
        for item, _ in saved:
            item.setOpacity(0.0)
        self.exporter.setExportMode(True, {
            "antialias": True, "background": self.background, "painter": None,
            "resolutionScale": w / self.exporter.getTargetRect().width()})
        picture = QtGui.QPicture()
        painter = QtGui.QPainter(picture)
        try:
            painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
            self.scene.render(painter, QtCore.QRectF(0, 0, w, h), self.exporter.getSourceRect(),
                              QtCore.Qt.AspectRatioMode.IgnoreAspectRatio)
        finally:
            painter.end()
            self.exporter.setExportMode(False)
            for item, opacity in saved:
                item.setOpacity(opacity)
        return picture


def play(picture: QtGui.QPicture, image: QtGui.QImage) -> None:
    """Paint a recorded layer onto ``image`` (any thread)."""
    painter = QtGui.QPainter(image)
    try:
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
        picture.play(painter)
    finally:
        painter.end()


def to_image_transform(exporter, size) -> QtGui.QTransform:
    """Scene coordinates to the export image's pixels."""
    source = exporter.getSourceRect()
    w, h = size
    tr = QtGui.QTransform()
    tr.scale(w / source.width(), h / source.height())
    tr.translate(-source.left(), -source.top())
    return tr
