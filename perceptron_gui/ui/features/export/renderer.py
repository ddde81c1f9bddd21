"""An offscreen canvas of a workspace at an exact size, rendered to PNG or SVG.

:class:`CanvasRenderer` is a second canvas, never shown on screen, sized to
exactly the pixels asked for, drawing the same layers and view rectangle as
the window's canvas; pyqtgraph's ``ImageExporter`` and ``SVGExporter`` render
it.  The visible window is never resized or repainted for an export.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from .common import ExportError, check_size, check_writable, qimage_bytes, write_file
from .svg import closed_paths_as_lines

# ============================================================================ rendering


def _layout(widget: QtWidgets.QWidget) -> None:
    """Deliver pending layout requests (only those) so the widget has its final geometry."""
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)


def fit_plot(canvas) -> None:
    """Lay a canvas's plot out again so that it fits the canvas's present width.

    The canvas chooses its legend's columns from the width of its view box,
    and the legend's minimum width in turn holds the view box wide: after a
    wider layout (full screen, a larger window, the widget's default size
    before an export resizes it) the plot stays wider than the canvas and is
    clipped on the right.  Showing no layer for a moment shrinks the legend to
    two entries, the plot is fitted to the widget again, and the layers come
    back with columns that fit.
    """
    layers = canvas.layers()
    canvas.set_visible_layers(**{name: False for name in layers})
    canvas.refresh()
    _layout(canvas)
    viewport = canvas.viewport().rect()
    canvas.getPlotItem().setGeometry(QtCore.QRectF(0, 0, viewport.width(), viewport.height()))
    _layout(canvas)
    canvas.set_visible_layers(**layers)
    canvas.refresh()
    _layout(canvas)
    canvas.refresh()  # the model again, for the view box's final size


def default_layers(workspace) -> dict:
    """The canvas layers of a fresh window (LDA's layer on when the learner is LDA)."""
    from ...widgets.canvas import LAYERS

    layers = dict(LAYERS)
    if workspace.learner_name == "lda":
        layers["lda"] = True
    return layers


class CanvasRenderer:
    """An offscreen canvas of a workspace at an exact size, rendered to images or SVG.

    Parameters
    ----------
    workspace : Workspace
        The workspace drawn (the renderer listens to it like any canvas).
    size : (int, int)
        Width and height of the images, in pixels.
    layers : dict, optional
        Layer visibility (default: :func:`default_layers`).
    view : sequence, optional
        The data rectangle to show, ``((x0, x1), (y0, y1))`` or
        ``(x0, x1, y0, y1)``; it is widened along one axis to the image's
        aspect ratio (the canvas keeps one unit the same length on both axes).
        Default: the canvas's "fit view" of the data.
    scale : style.Scale, optional
        Marker, line and font sizes (default :data:`style.NORMAL`).

    Notes
    -----
    The canvas is a real widget with ``WA_DontShowOnScreen``: it has a
    geometry and lays itself out like the visible one, but no window appears.
    Call :meth:`close` (or use ``with``) when done.
    """

    def __init__(self, workspace, size, *, layers=None, view=None, scale=None):
        from ...widgets.canvas import Canvas

        self.workspace = workspace
        self.size = (int(size[0]), int(size[1]))
        check_size(*self.size)
        self.canvas = Canvas(workspace)
        self.canvas.setObjectName("exportCanvas")
        self.canvas.setAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen)
        self.canvas.resize(*self.size)
        self.canvas.show()
        _layout(self.canvas)
        if scale is not None:
            self.canvas.set_scale(scale)
        self.set_layers(layers if layers is not None else default_layers(workspace))
        fit_plot(self.canvas)  # it was laid out at a default size first
        self.set_view(view)

    def __enter__(self) -> CanvasRenderer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Destroy the offscreen canvas (it stops listening to the workspace)."""
        if self.canvas is not None:
            self.canvas.close()
            self.canvas.deleteLater()
            # deliver the deferred delete now, so the canvas disconnects from the
            # workspace even when no event loop runs (the headless renderer)
            QtCore.QCoreApplication.sendPostedEvents(self.canvas,
                                                     QtCore.QEvent.Type.DeferredDelete)
            self.canvas = None

    def set_layers(self, layers: dict) -> None:
        """Show or hide layers by name (unknown names are ignored)."""
        known = self.canvas.layers()
        self.canvas.set_visible_layers(**{k: bool(v) for k, v in layers.items() if k in known})

    def set_view(self, view=None) -> None:
        """Show the data rectangle ``view`` (None: fit the data and the origin)."""
        _layout(self.canvas)
        if view is None:
            self.canvas.fit_view()
            return
        flat = [float(v) for v in (view if len(view) == 4 else (*view[0], *view[1]))]
        x0, x1, y0, y1 = flat
        if not all(math.isfinite(v) for v in flat) or x1 <= x0 or y1 <= y0:
            self.canvas.fit_view()
            return
        self.canvas.set_view_rect((x0, x1), (y0, y1))

    def _prepare(self):
        # a redraw can change the legend, hence the layout, hence the view box's
        # size, which needs another redraw: repeat until the layout is settled
        vb = self.canvas.getViewBox()
        for _ in range(4):
            _layout(self.canvas)
            before = (vb.boundingRect(), vb.viewRange())
            self.canvas.refresh()
            _layout(self.canvas)
            if (vb.boundingRect(), vb.viewRange()) == before:
                break
        return self.canvas.scene()

    def image(self) -> QtGui.QImage:
        """The canvas now, as a QImage of exactly :attr:`size` pixels (pyqtgraph ImageExporter)."""
        from pyqtgraph.exporters import ImageExporter

        scene = self._prepare()
        exporter = ImageExporter(scene)
        w, h = self.size
        # set both without the exporter's aspect-ratio coupling (the canvas is w x h)
        exporter.params.param("width").setValue(w, blockSignal=exporter.widthChanged)
        exporter.params.param("height").setValue(h, blockSignal=exporter.heightChanged)
        exporter.params["antialias"] = True
        image = exporter.export(toBytes=True)
        if image.width() != w or image.height() != h:  # pragma: no cover - defensive
            image = image.scaled(w, h)
        return image.convertToFormat(QtGui.QImage.Format.Format_RGB32)

    def svg(self) -> bytes:
        """The canvas now, as SVG (pyqtgraph SVGExporter), ``width``/``height`` set to the size."""
        from pyqtgraph.exporters import SVGExporter

        scene = self._prepare()
        exporter = SVGExporter(scene)
        w, h = self.size
        exporter.params.param("width").setValue(float(w), blockSignal=exporter.widthChanged)
        exporter.params.param("height").setValue(float(h), blockSignal=exporter.heightChanged)
        # pyqtgraph's SVG export calls paint() directly; items that compute their
        # geometry in boundingRect() (InfiniteLine's end points) must do so first
        for item in scene.items():
            item.boundingRect()
        with closed_paths_as_lines():
            data = exporter.export(toBytes=True)
        # pyqtgraph writes only a viewBox: give the picture its size as well
        return data.replace(b"<svg ", f'<svg width="{w}" height="{h}" '.encode(), 1)



def export_canvas(workspace, path, size, *, fmt: str | None = None, layers=None, view=None,
                  scale=None) -> str:
    """Write the canvas of ``workspace`` to a PNG or SVG file of ``size`` pixels.

    ``fmt`` is "png" or "svg" (default: from the file's extension).  Returns the path.
    """
    fmt = (fmt or Path(path).suffix.lstrip(".")).lower()
    if fmt not in ("png", "svg"):
        raise ExportError(f"unknown picture format {fmt!r}: choose .png or .svg")
    check_writable(path)
    with CanvasRenderer(workspace, size, layers=layers, view=view, scale=scale) as renderer:
        data = qimage_bytes(renderer.image()) if fmt == "png" else renderer.svg()
    write_file(path, data)
    return os.fspath(path)


def export_window_png(window: QtWidgets.QWidget, path) -> tuple[int, int]:
    """Write the whole window (``window.grab()``) to a PNG file; returns its pixel size."""
    check_writable(path)
    pixmap = window.grab()
    write_file(path, qimage_bytes(pixmap.toImage()))
    return pixmap.width(), pixmap.height()
