"""The offscreen canvas's scene without its markers: what lies under them and what over them.

An export picture is composed of three layers in the scene's own stacking
order: the scene *under* the markers (background, regions, bands, lines…),
the markers (:mod:`.points`, painted in a worker), and the scene *over* them
(on a transparent background: whatever the canvas stacks above the points,
such as the arrows, labels, axes and grid, the legend).  The two scene layers
are rendered by pyqtgraph on the UI thread in horizontal strips, one strip per
call, so that no call holds the UI for long.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui

__all__ = ["ScenePass", "split_items", "strip_count"]

#: Pixels rendered per strip (about).
STRIP_PIXELS = 160_000


def strip_count(width: int, height: int) -> int:
    """How many strips an image of ``width`` × ``height`` is rendered in."""
    return max(1, min(height, math.ceil(width * height / STRIP_PIXELS)))


def split_items(scene, markers) -> tuple[list, list]:
    """The scene's items painted under and over the ``markers`` items: ``(under, over)``.

    By Qt's stacking order (the order the scene paints in).  Ancestors of items
    of the other side are in neither list (hiding one would hide both sides),
    nor are the markers; items stacked between two marker items count as over.
    """
    order = scene.items(QtCore.Qt.SortOrder.AscendingOrder)
    marker_ids = {id(m) for m in markers}
    places = [i for i, item in enumerate(order) if id(item) in marker_ids]
    if not places:
        return [], [item for item in order]
    lo = min(places)
    under = [item for item in order[:lo]]
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


class ScenePass:
    """One scene layer of an export: pyqtgraph renders it strip by strip into :attr:`image`.

    Parameters
    ----------
    scene : pyqtgraph GraphicsScene
        The offscreen canvas's scene (its view is exactly the image's size).
    size : (int, int)
    hidden : sequence of QGraphicsItem
        Items not drawn in this layer (given opacity 0 while a strip renders).
    background : QColor or None
        The layer's background (transparent for the layer over the markers;
        None: the canvas's own, as pyqtgraph's ``ImageExporter`` takes it).
    """

    def __init__(self, scene, size, hidden, background: QtGui.QColor):
        from pyqtgraph.exporters import ImageExporter

        self.scene = scene
        self.exporter = ImageExporter(scene)
        self.size = (int(size[0]), int(size[1]))
        self.hidden = list(hidden)
        self.image = QtGui.QImage(*self.size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        if background is None:
            background = QtGui.QColor(self.exporter.params["background"])
        self.image.fill(background)
        self.background = background
        w, h = self.size
        n = strip_count(w, h)
        edges = [round(i * h / n) for i in range(n + 1)]
        self.strips = [QtCore.QRect(0, a, w, b - a) for a, b in zip(edges, edges[1:],
                                                                      strict=False)]

    def begin(self) -> None:
        """Hide :attr:`hidden` and put the scene's items in export mode (until :meth:`end`)."""
        w, _ = self.size
        self.saved = [(item, item.opacity()) for item in self.hidden]
        for item, _ in self.saved:
            item.setOpacity(0.0)
        self.exporter.setExportMode(True, {
            "antialias": True, "background": self.background, "painter": None,
            "resolutionScale": w / self.exporter.getTargetRect().width()})

    def end(self) -> None:
        """Undo :meth:`begin`."""
        self.exporter.setExportMode(False)
        for item, opacity in self.saved:
            item.setOpacity(opacity)
        self.saved = []

    def render_strip(self, strip: QtCore.QRect) -> None:
        """Render the part ``strip`` of the layer (UI thread; inside :meth:`begin`, :meth:`end`)."""
        w, h = self.size
        source = self.exporter.getSourceRect()
        painter = QtGui.QPainter(self.image)
        try:
            painter.setClipRect(strip)
            painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
            # the strip of the source: the same mapping as the whole, and the scene
            # paints only the items that meet the strip
            ky = source.height() / h
            part = QtCore.QRectF(source.left(), source.top() + strip.top() * ky,
                                 source.width(), strip.height() * ky)
            self.scene.render(painter, QtCore.QRectF(strip), part,
                              QtCore.Qt.AspectRatioMode.IgnoreAspectRatio)
        finally:
            painter.end()

    def steps(self):
        """Render every strip, yielding after each (a generator for the UI-thread driver)."""
        self.begin()
        try:
            for strip in self.strips:
                self.render_strip(strip)
                yield
        finally:
            self.end()


def to_image_transform(exporter, size) -> QtGui.QTransform:
    """Scene coordinates to the export image's pixels."""
    source = exporter.getSourceRect()
    w, h = size
    tr = QtGui.QTransform()
    tr.scale(w / source.width(), h / source.height())
    tr.translate(-source.left(), -source.top())
    return tr
