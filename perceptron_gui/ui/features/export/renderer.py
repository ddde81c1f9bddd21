"""An offscreen canvas of a workspace at an exact size, rendered to PNG or SVG.

The canvas is never shown and draws no data points: the export paints those
in a worker (:mod:`.points`) between the scene recorded under and over them
(:mod:`.passes`).  The visible window is never resized for an export.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from ....core.text import fmt_count
from .common import (
    ExportError,
    check_size,
    check_writable,
    deliver_layout,
    qimage_bytes,
    stop_if,
    write_file,
)
from .job import Offload, consume, report, run_now
from .passes import ScenePass, play, split_items, to_image_transform, without_item_caches
from .points import MarkerGroup, data_groups, paint_markers, rows_group
from .svg import RasterGroup, document_text, markers_document, scene_svg_steps


def default_layers(workspace) -> dict:
    """The canvas layers of a fresh window (the class-model overlay on with such a learner)."""
    from ...widgets.canvas import LAYERS

    layers = dict(LAYERS)
    if workspace.capabilities.class_model:
        layers["lda"] = True
    return layers


def _without_points(canvas, workspace) -> None:
    """Let the offscreen ``canvas`` draw no data markers: the export paints them itself.

    Up to ``marker_max`` points the data layer's items stay empty (no record per
    point in pyqtgraph on the UI thread; the scatters keep the markers' style);
    beyond, it draws the view's raster as on screen, computed in the workers.
    """
    data = canvas.layer("data")
    if workspace.dataset.n <= data.marker_max:
        data.update = lambda frame: None
    canvas.layer("mistakes").draws = False
    for name in ("data", "mistakes"):
        canvas.layer(name).hold_work()


def measure_axes(canvas) -> None:
    """Let the axes of ``canvas`` size themselves to the tick labels they show now.

    pyqtgraph's ``AxisItem`` learns its labels' width only when it paints (a
    canvas never painted keeps 30 pixels): paint each into a throwaway picture.
    """
    option = QtWidgets.QStyleOptionGraphicsItem()
    pi = canvas.getPlotItem()
    for name in ("left", "bottom"):
        axis = pi.getAxis(name)
        if not axis.isVisible():
            continue
        picture = QtGui.QPicture()
        painter = QtGui.QPainter(picture)
        try:
            axis.paint(painter, option, None)
        finally:
            painter.end()


class CanvasRenderer:
    """An offscreen canvas (``WA_DontShowOnScreen``) of a workspace at an exact size.

    ``view``, ``((x0, x1), (y0, y1))`` or ``(x0, x1, y0, y1)``, is widened to the
    image's aspect ratio (default: "fit view"); ``pyqtgraph_points`` lets the canvas
    draw the points itself; ``axes``: :meth:`Canvas.axis_space` (else measured).
    """

    def __init__(self, workspace, size, *, layers=None, view=None, scale=None,
                 defer: bool = False, pyqtgraph_points: bool = False, axes=None):
        self.workspace = workspace
        self.size = (int(size[0]), int(size[1]))
        check_size(*self.size)
        self.canvas = None
        self._settings = (layers, view, scale, axes)
        self.pyqtgraph_points = pyqtgraph_points
        self._exporter = None  # the scene's ImageExporter, made once
        if not defer:
            run_now(self.build_steps())

    def build_steps(self):
        """Make the offscreen canvas in UI-thread slices (run by the constructor unless ``defer``).

        Laid out, styled and given its layers and view while it draws an empty
        workspace (each redraw is cheap then), it is given the workspace last,
        which it draws but does not follow.
        """
        from ....core import Workspace
        from ... import style
        from ...widgets.canvas import Canvas

        layers, view, scale, axes = self._settings
        self.canvas = Canvas(Workspace())
        self.canvas.setObjectName("exportCanvas")
        if not self.pyqtgraph_points:
            _without_points(self.canvas, self.workspace)
        yield
        self.canvas.setAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen)
        self.canvas.resize(*self.size)
        self.canvas.show()
        # never painted by the event loop: exports render its scene themselves
        self.canvas.setUpdatesEnabled(False)
        deliver_layout()
        yield
        if scale is not None and scale != style.NORMAL:
            self.canvas.set_scale(scale)
            yield
        yield from self.canvas.layer_steps()
        if axes is not None:
            self.canvas.axis_space(axes)
        self.set_layers(layers if layers is not None else default_layers(self.workspace))
        self.canvas.workspace = self.workspace
        self.canvas.tool.set_dataset(self.workspace.dataset)
        self.set_view(view)
        self.canvas.refresh()

    def __enter__(self) -> CanvasRenderer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Destroy the offscreen canvas and its scene now."""
        canvas = self.canvas
        if canvas is None:
            return
        self.canvas = self._exporter = None
        canvas.close()
        canvas.deleteLater()
        # delivered now, so that the canvas disconnects from the workspace even when no
        # event loop runs (the headless renderer)
        QtCore.QCoreApplication.sendPostedEvents(canvas, QtCore.QEvent.Type.DeferredDelete)

    def set_layers(self, layers: dict) -> None:
        """Show or hide layers by name (unknown names are ignored)."""
        known = self.canvas.layers()
        self.canvas.set_visible_layers(**{k: bool(v) for k, v in layers.items() if k in known})

    def set_view(self, view=None) -> None:
        """Show the data rectangle ``view`` (None: fit the data and the origin)."""
        deliver_layout()
        if view is None:
            self.canvas.fit_view()
            return
        flat = [float(v) for v in (view if len(view) == 4 else (*view[0], *view[1]))]
        x0, x1, y0, y1 = flat
        if not all(math.isfinite(v) for v in flat) or x1 <= x0 or y1 <= y0:
            self.canvas.fit_view()
            return
        self.canvas.set_view_rect((x0, x1), (y0, y1))

    def _prepare_steps(self):
        # a redraw can change the legend or the tick labels, hence the layout, hence
        # the view box's size, which needs another redraw: repeat until it is settled
        vb = self.canvas.getViewBox()
        for i in range(6):
            if i:
                yield
            deliver_layout()
            before = (vb.sceneBoundingRect(), vb.viewRange())
            self.canvas.refresh()
            for name in ("data", "mistakes"):  # the rasters of many points, in a worker
                work = self.canvas.layer(name).take_work()
                if work is not None:
                    func, args, apply = work
                    apply((yield Offload(func, *args)))
            measure_axes(self.canvas)
            deliver_layout()
            if (vb.sceneBoundingRect(), vb.viewRange()) == before:
                break
        return self.canvas.scene()

    def marker_items(self) -> list[tuple[str, object]]:
        """``(name, item)`` of the items whose markers the export paints itself."""
        data, mistakes = self.canvas.layer("data").items, self.canvas.layer("mistakes").items
        return [(name, item) for name, item in data.items() if name.startswith("scatter_")] + [
            ("mistake_marks", mistakes["mistake_marks"])]

    def parts_steps(self):
        """The canvas now, in :class:`Parts` to compose; a generator of UI-thread slices."""
        scene = yield from self._prepare_steps()
        yield
        without_item_caches(scene)
        # the rasters of many points are painted in the worker too: recorded in a
        # QPicture, an image of the view's size cost the UI thread about 0.2 s a pass
        rasters = [item for _name, item in self.raster_items()]
        markers = [item for _name, item in self.marker_items()] + rasters
        under, over = split_items(scene, markers)
        if self._exporter is None:
            from pyqtgraph.exporters import ImageExporter

            self._exporter = ImageExporter(scene)
        below = ScenePass(self._exporter, self.size, markers + over)
        under_picture = below.record()
        yield
        over_picture = ScenePass(self._exporter, self.size, markers + under).record()
        to_image = to_image_transform(self._exporter, self.size)
        shown = [(item.image, item.device_rect(item.sceneTransform() * to_image))
                 for item in rasters if item.isVisible() and item.opacity() > 0]
        return Parts(under_picture, over_picture, below.background, self.size,
                     *self._groups(to_image), [(im, r) for im, r in shown if r is not None])

    def raster_items(self) -> list[tuple[str, object]]:
        """``(name, item)`` of the items holding the rasters of many points."""
        return [(name, self.canvas.layer(layer).items[name])
                for layer, name in (("data", "point_raster"), ("mistakes", "mistake_raster"))]

    def _groups(self, to_image) -> tuple[list[MarkerGroup], QtCore.QRect, int]:
        """The marker groups in drawing order, the view box in pixels, how many are data."""
        canvas = self.canvas
        # at large n the view's exact raster, as on screen, rather than a blob of markers
        data = ([] if canvas.layer("data").mode == "raster"
                else data_groups(self.workspace.dataset, canvas, to_image))
        mistakes = canvas.layer("mistakes")
        crosses = None if mistakes.mode == "raster" else rows_group(
            "mistake_marks", mistakes.items["mistake_marks"], mistakes.marked_dataset,
            mistakes.marked, to_image)
        first = canvas.layer("data").items["scatter_0"]
        clip = (first.sceneTransform() * to_image).mapRect(first.viewRect()).toAlignedRect()
        return data + ([crosses] if crosses is not None else []), clip, len(data)

    def image(self) -> QtGui.QImage:
        """The canvas now, as a QImage of exactly :attr:`size` pixels (synchronously)."""
        return consume(compose, run_now(self.parts_steps()))

    def svg_steps(self):
        """The canvas now as :class:`.svg.SvgParts`; a generator of UI-thread slices."""
        from pyqtgraph.exporters import SVGExporter

        scene = yield from self._prepare_steps()
        yield
        exporter = _sized(SVGExporter(scene), *map(float, self.size))
        # pyqtgraph's SVG export calls paint() directly; items that compute their
        # geometry in boundingRect() (InfiniteLine's end points) must do so first
        for item in scene.items():
            item.boundingRect()
        groups, clip, n_data = self._groups(QtGui.QTransform())  # in scene coordinates
        # the rasters of many points are written by the worker too (a PNG each), in the
        # scene's order: the points' after their scatters, the mistakes' after the crosses
        rasters = [RasterGroup(name, item.image, item.device_rect(item.sceneTransform()))
                   if item.isVisible() and item.image is not None else None
                   for name, item in self.raster_items()]
        ordered = [*groups[:n_data], rasters[0], *groups[n_data:], rasters[1]]
        named = self.marker_items() + self.raster_items()
        shown = [g for g in ordered
                 if g is not None and not (isinstance(g, RasterGroup) and g.rect is None)]
        return (yield from scene_svg_steps(exporter, named, shown, clip))


def _sized(exporter, width, height):
    """``exporter`` set to ``width`` × ``height`` without its aspect-ratio coupling."""
    exporter.params.param("width").setValue(width, blockSignal=exporter.widthChanged)
    exporter.params.param("height").setValue(height, blockSignal=exporter.heightChanged)
    return exporter


@dataclass
class Parts:
    """A canvas picture before composing: the scene under and over the markers, and them
    (the first ``n_data`` groups the data; ``rasters``, ``(QImage, QRect)`` of many points)."""

    under: QtGui.QPicture
    over: QtGui.QPicture
    background: QtGui.QColor
    size: tuple
    groups: list[MarkerGroup]
    clip: QtCore.QRect
    n_data: int
    rasters: list = field(default_factory=list)


def paint_layer(size, groups, clip, cancelled=None):
    """Markers painted on a transparent image of ``size`` (worker); a generator returning it."""
    image = QtGui.QImage(int(size[0]), int(size[1]),
                         QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QtCore.Qt.GlobalColor.transparent)
    yield from paint_markers(image, groups, clip, cancelled)
    return image


def compose(parts: Parts, cancelled=None, layer: QtGui.QImage | None = None):
    """Under, the markers (the data's already painted in ``layer`` by :func:`paint_layer`),
    over (worker); a generator returning an RGB32 image."""
    image = QtGui.QImage(*parts.size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(parts.background)
    play(parts.under, image)
    if parts.rasters:
        painter = QtGui.QPainter(image)
        painter.setClipRect(parts.clip)
        for raster, rect in parts.rasters:
            painter.drawImage(rect, raster)  # one image pixel per pixel: no smoothing
        painter.end()
    groups = parts.groups
    if layer is not None:
        painter = QtGui.QPainter(image)
        painter.drawImage(0, 0, layer)
        painter.end()
        groups = groups[parts.n_data:]
    yield from paint_markers(image, groups, parts.clip, cancelled)
    stop_if(cancelled)
    play(parts.over, image)
    return image.convertToFormat(QtGui.QImage.Format.Format_RGB32)


def write_checked(path, data: bytes, cancelled=None) -> None:
    """Write atomically unless ``cancelled()``: a cancel before the rename leaves no file."""
    def chunks():
        yield data
        stop_if(cancelled)

    write_file(path, chunks())


def _encode_png_and_write(parts: Parts, path, cancelled, side=None):
    from .views import beside

    image = beside((yield from compose(parts, cancelled)), side)
    write_checked(path, qimage_bytes(image), cancelled)
    return os.fspath(path)


def _write_svg(parts, path, cancelled):
    """Write the SVG (worker); a cancel before the worker started opens no file."""
    stop_if(cancelled)
    text = document_text(parts)
    write_file(path, markers_document(parts, cancelled, text))
    return os.fspath(path)


def canvas_steps(workspace, path, size, *, fmt: str | None = None, layers=None, view=None,
                 scale=None, progress=None, cancelled=None, axes=None, views=(), like=None,
                 views_share=None):
    """The steps of a canvas export to PNG or SVG (see :mod:`.job`); returns the path.

    ``fmt`` defaults to the file's extension; ``views`` are drawn to the right
    of the canvas (PNG only) as their namesakes ``like`` on screen, in
    ``views_share`` of the width (default :data:`.views.VIEWS_SHARE`).
    """
    from .views import ViewsRenderer, check_views, side_height, split

    fmt = (fmt or Path(path).suffix.lstrip(".")).lower()
    if fmt not in ("png", "svg"):
        raise ExportError(f"unknown picture format {fmt!r}: choose .png or .svg")
    views = check_views(views or ())
    if views and fmt != "png":
        raise ExportError("the views beside the canvas are exported as PNG only")
    check_writable(path)
    width, side_width = split(size[0], len(views), *(() if views_share is None
                                                     else (views_share,)))
    side = None

    report(progress, 0, 3, "Drawing the canvas…")
    with CanvasRenderer(workspace, (width, size[1]), layers=layers, view=view, scale=scale,
                        defer=True, axes=axes) as renderer:
        yield from renderer.build_steps()
        yield
        report(progress, 1, 3, "Drawing the lines and labels…")
        parts = yield from (renderer.svg_steps() if fmt == "svg" else renderer.parts_steps())
    if views:
        from ... import style

        yield
        with ViewsRenderer(workspace, views, (side_width, side_height(like, side_width,
                                                                      size[1])),
                           scale=None if scale is None else style.pane_scale(scale, side_width),
                           like=like) as drawn:
            side = drawn.image()
    report(progress, 2, 3, f"{'Writing' if fmt == 'svg' else 'Painting'} "
                           f"{fmt_count(sum(len(g) for g in parts.groups))} markers…")
    result = yield (Offload(_write_svg, parts, path, cancelled) if fmt == "svg" else
                    Offload(_encode_png_and_write, parts, path, cancelled, side))
    report(progress, 3, 3, "Done")
    return result


def export_canvas(workspace, path, size, **options) -> str:
    """Write the canvas of ``workspace`` to a PNG or SVG file now (:func:`canvas_steps`)."""
    return run_now(canvas_steps(workspace, path, size, **options))


def export_window_png(window: QtWidgets.QWidget, path) -> tuple[int, int]:
    """Write the whole window (``window.grab()``) to a PNG file; returns its pixel size."""
    check_writable(path)
    pixmap = window.grab()
    write_file(path, qimage_bytes(pixmap.toImage()))
    return pixmap.width(), pixmap.height()

