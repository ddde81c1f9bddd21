"""Every use of pyqtgraph's private names by the canvas, in one place: an upgrade that
changes them breaks this file and its test, not the pictures."""

from __future__ import annotations

import functools
import importlib

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.ScatterPlotItem import drawSymbol, renderSymbol
from PySide6 import QtGui

__all__ = [
    "OBJECT_FIELDS", "draw_symbol", "render_symbol", "export_options", "fragment_array",
    "set_scatter_positions", "update_uniform_spots", "uniform_style", "widget_closed",
    "close_plot_widget", "item_svg", "svg_exporter_module", "turn_arrow_head",
]

#: The Python-object fields of a ``ScatterPlotItem``'s record array.
OBJECT_FIELDS = ("symbol", "pen", "brush", "data", "item")

#: ``drawSymbol(painter, symbol, size, pen, brush)``: one vector symbol at the origin.
draw_symbol = drawSymbol

#: ``renderSymbol(symbol, size, pen, brush, dpr=...)``: one symbol as a QImage.
render_symbol = renderSymbol


def fragment_array():
    """An empty resizable array of ``QPainter.PixmapFragment`` (pyqtgraph's Qt shim)."""
    return pg.Qt.internals.PrimitiveArray(QtGui.QPainter.PixmapFragment, 10)


def export_options(item):
    """The export options of a ``GraphicsObject`` (False when it paints for the screen)."""
    return item._exportOpts


def widget_closed(widget) -> bool:
    """Whether pyqtgraph's ``GraphicsView.close()`` ran (it deletes the scene's items)."""
    return bool(getattr(widget, "closed", False))


def close_plot_widget(widget, close) -> None:
    """Run ``close()`` (pyqtgraph's ``PlotWidget.close``), then delete what it orphaned.

    It takes the view box and the axes out of the scene before clearing it: left to
    the garbage collector, they and their children were torn down later in no set
    order (a label asked for its size with its ``__dict__`` emptied).
    """
    import shiboken6

    items = widget.scene().items()
    close()
    for item in items:  # what pyqtgraph took out of the scene (with its children)
        if shiboken6.isValid(item) and item.parentItem() is None:
            shiboken6.delete(item)


def uniform_style(data) -> bool:
    """True when no point of a scatter's record array has a style of its own."""
    if not np.all(data["size"] == -1):
        return False
    return all(np.equal(data[key], None).all() for key in ("symbol", "pen", "brush"))


def set_scatter_positions(item, pos: np.ndarray) -> None:
    """Replace a scatter's points by ``pos`` (shape (n, 2)), records built with numpy.

    pyqtgraph's ``np.empty`` fills the object fields a record at a time; zeros and one
    None per field make the same records.  Then the end of ``ScatterPlotItem.addPoints``.
    """
    item.clear()
    data = np.zeros(pos.shape[0], dtype=item.data.dtype)
    for name in OBJECT_FIELDS:
        data[name] = None
    data["x"], data["y"] = pos[:, 0], pos[:, 1]
    data["size"] = -1
    data["visible"] = True
    item.data = data
    item.prepareGeometryChange()
    item.informViewBoundsChanged()
    item.bounds = [None, None]
    item.invalidate()
    item.updateSpots(data)
    item.sigPlotChanged.emit(item)


def update_uniform_spots(item, data) -> bool:
    """``ScatterPlotItem.updateSpots`` for points that all have the item's style.

    One atlas look-up serves every point.  False, doing nothing, where it does not
    apply (per-point styles, hover, no pixel mode or cache): the caller runs pyqtgraph's.
    """
    opts = item.opts
    if not (opts["pxMode"] and opts["useCache"] and not opts["hoverable"]
            and len(data) > 1 and uniform_style(data)):
        return False
    missing = data["sourceRect"]["w"] == 0
    if missing.any():
        style = (opts["symbol"], opts["size"], opts["pen"], opts["brush"])
        (coords,) = item.fragmentAtlas[[style]]
        data["sourceRect"][missing] = tuple(coords)
    item._maybeRebuildAtlas()
    item._updateMaxSpotSizes(data=data)
    if missing.any():
        item.invalidate()
    return True


def item_svg(item, nodes: dict, root, options: dict):
    """pyqtgraph's SVG of ``item`` and its children, ``(group element, defs)``, or None hidden.

    ``nodes`` collects the element names (unique across calls), ``root`` is what the
    coordinates are relative to; it paints (UI thread), leaving them in export mode.
    """
    return svg_exporter_module()._generateItemSvg(item, nodes, root, options)


def svg_exporter_module():
    """The module of pyqtgraph's ``SVGExporter`` (imported on first use: it loads QtSvg)."""
    return importlib.import_module("pyqtgraph.exporters.SVGExporter")


_HEAD_SHAPE = ("headLen", "tipAngle", "baseAngle", "tailLen", "tailWidth", "headWidth")


@functools.lru_cache(maxsize=32)
def _head_path(shape: tuple) -> QtGui.QPainterPath:
    """pyqtgraph's arrow path of ``shape`` (:data:`_HEAD_SHAPE`'s options present), unturned."""
    return pg.functions.makeArrowPath(**dict(shape))


def turn_arrow_head(head: pg.ArrowItem, angle: float) -> None:
    """``head.setStyle(angle=angle)``: the same path (``ArrowItem``'s ``opts`` and
    ``path``), without setting its pen, brush and flags again (a run turns the heads at
    every update)."""
    if head.opts.get("angle") == angle:
        return
    head.opts["angle"] = angle
    rotation = QtGui.QTransform()
    rotation.rotate(angle)
    head.path = rotation.map(_head_path(tuple((k, head.opts[k]) for k in _HEAD_SHAPE
                                              if k in head.opts)))
    head.setPath(head.path)
