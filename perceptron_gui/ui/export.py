"""Export: the canvas to PNG and SVG, the window to PNG, a run or a demo to a GIF.

Pictures for slides come from an *offscreen* canvas (:class:`CanvasRenderer`):
a second :class:`~perceptron_gui.ui.canvas.Canvas`, never shown on screen,
sized to exactly the pixels asked for, drawing the same layers and the same
view rectangle as the window's canvas, and rendered with pyqtgraph's
``ImageExporter`` (PNG, GIF frames) or ``SVGExporter`` (SVG).  The visible
window is never resized or repainted for an export.

An animation is rendered on a *copy* of the workspace (same data, learner,
parameters and run position; the run is deterministic), so the run on screen
does not move while the frames are made and a cancelled export leaves it
exactly as it was.  Frames:

* a run: frame 0 is the state at the start point (the current step, or
  ``w = 0`` when "from the start" is chosen), then one frame after each step,
  where a step is one *sample* examined, one *update* (a mistake and the
  correction it causes) or one *epoch*; the GIF is shorter when the run ends
  first;
* a demo: frame 0 is the demo's start (its description as the caption), then
  one frame after each demo step, with that step's caption.

Each frame carries a caption strip under the canvas (the demo's caption, or the
run's status and Novikoff bound) so that consecutive frames differ and a
viewer always knows where the story is.  GIFs are written with Pillow using
one palette for all frames (built from the first frame and the style's
colours, no dithering: the canvas has few colours and flat areas stay flat).

Every file is written atomically (a temporary file in the same folder, then
:func:`os.replace`): a failure or a cancel leaves no partial file.

The headless ``perceptron-gui render`` command calls :func:`render_file`.
"""

from __future__ import annotations

import io
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from ..core.io import Cancelled, atomic_write_bytes
from . import style

__all__ = [
    "ExportError",
    "Cancelled",
    "CanvasRenderer",
    "GifWriter",
    "Exporter",
    "SizeDialog",
    "GifDialog",
    "install",
    "render_file",
    "render_run_gif",
    "render_demo_gif",
    "export_canvas",
    "export_window_png",
    "parse_size",
    "write_file",
    "STEP_UNITS",
    "PRESETS",
]

#: Preset export sizes (width, height) offered besides the canvas's own size.
PRESETS = {"1920 × 1080": (1920, 1080), "1280 × 720": (1280, 720)}
#: How a run advances between two GIF frames: one sample, one update or one epoch.
STEP_UNITS = ("update", "sample", "epoch")
MIN_SIZE, MAX_SIZE = 16, 8192
MAX_FRAMES = 2000
#: Default sizes and frame counts of the headless renderer.
DEFAULT_IMAGE_SIZE = (960, 720)
DEFAULT_GIF_SIZE = (640, 480)
DEFAULT_RUN_FRAMES = 60
DEFAULT_FPS = {"run": 4.0, "demo": 0.5}
EXTENSIONS = (".png", ".svg", ".gif")


class ExportError(Exception):
    """An export that cannot be done; the message is one line, for a dialog or stderr."""


# ============================================================================ files


def check_writable(path) -> Path:
    """Raise :class:`ExportError` unless a file can be created at ``path``."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"cannot write {str(path)!r}: the folder {str(folder)!r} does not exist")
    if path.is_dir():
        raise ExportError(f"cannot write {str(path)!r}: it is a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ExportError(f"cannot write {str(path)!r}: permission denied")
    return path


def write_file(path, data: bytes) -> None:
    """Write ``data`` to ``path`` with :func:`~perceptron_gui.core.io.atomic_write_bytes`.

    On any error the temporary file is removed, ``path`` is untouched, and an
    :class:`ExportError` says why in one line.
    """
    try:
        atomic_write_bytes(path, [data])
    except OSError as exc:
        raise ExportError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}") from exc


def qimage_bytes(image: QtGui.QImage, fmt: str = "PNG") -> bytes:
    """Encode a QImage (PNG by default) to bytes."""
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, fmt):
        raise ExportError(f"could not encode the image as {fmt}")
    return bytes(buffer.data())


def parse_size(text: str) -> tuple[int, int]:
    """``"800x600"`` (or ``800×600``) to ``(800, 600)``; ExportError when malformed."""
    cleaned = str(text).strip().lower().replace("×", "x")
    parts = cleaned.split("x")
    try:
        if len(parts) != 2:
            raise ValueError
        w, h = int(parts[0]), int(parts[1])
    except ValueError:
        raise ExportError(f"bad size {text!r}: expected WIDTHxHEIGHT, e.g. 800x600") from None
    check_size(w, h)
    return w, h


def check_size(w: int, h: int) -> None:
    """ExportError unless ``MIN_SIZE <= w, h <= MAX_SIZE``."""
    if not (MIN_SIZE <= w <= MAX_SIZE and MIN_SIZE <= h <= MAX_SIZE):
        raise ExportError(f"bad size {w}x{h}: width and height must be between "
                          f"{MIN_SIZE} and {MAX_SIZE} pixels")


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
    from .canvas import LAYERS

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
        from .canvas import Canvas

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
        self.canvas.getViewBox().setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

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
        with _closed_paths_as_lines():
            data = exporter.export(toBytes=True)
        # pyqtgraph writes only a viewBox: give the picture its size as well
        return data.replace(b"<svg ", f'<svg width="{w}" height="{h}" '.encode(), 1)


def _close_subpaths(d: str) -> str:
    """SVG path data with each ``Z`` replaced by a line back to its subpath's start.

    Qt 6's SVG generator closes paths with ``Z``, which pyqtgraph 0.14's SVG
    exporter cannot parse (pyqtgraph issue #3495); a line to the start draws
    the same outline and fill.
    """
    out, start = [], None
    for token in d.split():
        if token in ("Z", "z"):
            if start is not None:
                out.append(f"L{start}")
            continue
        if token[0] in "Mm":
            start = token[1:]
        out.append(token)
    return " ".join(out)


def _ellipse_to_path(shape) -> None:
    """Replace an SVG ``circle``/``ellipse`` element by a fine polygon ``path``.

    pyqtgraph bakes the transform of paths into their coordinates but leaves
    circles inside a scaling transform, where renderers without
    ``vector-effect`` support (librsvg, many converters) scale the stroke too:
    the 1-px R circle became tens of pixels wide.
    """
    def number(name, default=0.0):
        try:
            return float(shape.getAttribute(name) or default)
        except ValueError:
            return default

    cx, cy = number("cx"), number("cy")
    if shape.tagName == "circle":
        rx = ry = number("r")
    else:
        rx, ry = number("rx"), number("ry")
    n = 180
    points = [(cx + rx * math.cos(2 * math.pi * i / n), cy + ry * math.sin(2 * math.pi * i / n))
              for i in range(n + 1)]
    d = "M" + " L".join(f"{x:.6g},{y:.6g}" for x, y in points)
    path = shape.ownerDocument.createElement("path")
    for name, value in shape.attributes.items():
        if name not in ("cx", "cy", "r", "rx", "ry"):
            path.setAttribute(name, value)
    path.setAttribute("d", d)
    shape.parentNode.replaceChild(path, shape)


class _closed_paths_as_lines:  # noqa: N801 - used as a context manager
    """Patch pyqtgraph's SVG coordinate fixer for the duration of one export."""

    def __enter__(self):
        import importlib

        self._module = importlib.import_module("pyqtgraph.exporters.SVGExporter")
        self._original = original = self._module.correctCoordinates

        def correct(node, defs, item, options):
            for tag in ("circle", "ellipse"):
                for shape in list(node.getElementsByTagName(tag)):
                    _ellipse_to_path(shape)
            for path in node.getElementsByTagName("path"):
                d = path.getAttribute("d")
                if "Z" in d or "z" in d:
                    path.setAttribute("d", _close_subpaths(d))
            return original(node, defs, item, options)

        self._module.correctCoordinates = correct
        return self

    def __exit__(self, *exc):
        self._module.correctCoordinates = self._original


# ============================================================================ frames


def _caption_font(scale: style.Scale) -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPixelSize(max(9, round(scale.font_pt * 1.15 * 96 / 72)))
    return font


def caption_height(texts, width: int, scale: style.Scale, max_lines: int = 4,
                   min_lines: int = 1) -> int:
    """Height of a caption strip that fits the longest of ``texts`` (in min..max lines)."""
    metrics = QtGui.QFontMetrics(_caption_font(scale))
    pad = metrics.height() // 2
    inner = max(1, width - 2 * pad - metrics.horizontalAdvance("00 / 00") - pad)
    lines = min_lines
    for text in texts:
        rect = metrics.boundingRect(QtCore.QRect(0, 0, inner, 10 ** 6),
                                    int(QtCore.Qt.TextFlag.TextWordWrap), text)
        lines = max(lines, math.ceil(rect.height() / metrics.lineSpacing()))
    return min(lines, max_lines) * metrics.lineSpacing() + 2 * pad


def compose_frame(canvas_image: QtGui.QImage, caption: str, counter: str, strip: int,
                  scale: style.Scale) -> QtGui.QImage:
    """The canvas image with a caption strip of ``strip`` pixels under it."""
    w, h = canvas_image.width(), canvas_image.height() + strip
    frame = QtGui.QImage(w, h, QtGui.QImage.Format.Format_RGB32)
    frame.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(frame)
    try:
        painter.drawImage(0, 0, canvas_image)
        if strip > 0:
            font = _caption_font(scale)
            metrics = QtGui.QFontMetrics(font)
            pad = metrics.height() // 2
            painter.fillRect(0, h - strip, w, strip, QtGui.QColor("#f2f2f2"))
            painter.setPen(QtGui.QPen(QtGui.QColor("#cccccc"), 1))
            painter.drawLine(0, h - strip, w, h - strip)
            painter.setFont(font)
            painter.setPen(QtGui.QColor(style.FOREGROUND))
            counter_w = metrics.horizontalAdvance(counter) if counter else 0
            right = QtCore.QRect(w - pad - counter_w, h - strip + pad, counter_w, strip - 2 * pad)
            if counter:
                painter.setPen(QtGui.QColor("#777777"))
                painter.drawText(right, int(QtCore.Qt.AlignmentFlag.AlignRight
                                            | QtCore.Qt.AlignmentFlag.AlignTop), counter)
                painter.setPen(QtGui.QColor(style.FOREGROUND))
            box = QtCore.QRect(pad, h - strip + pad, w - 3 * pad - counter_w, strip - 2 * pad)
            lines = max(1, box.height() // metrics.lineSpacing())
            text = _fit_lines(caption, metrics, box.width(), lines)
            painter.drawText(box, int(QtCore.Qt.AlignmentFlag.AlignLeft
                                      | QtCore.Qt.AlignmentFlag.AlignTop
                                      | QtCore.Qt.TextFlag.TextWordWrap), text)
    finally:
        painter.end()
    return frame


def _fit_lines(text: str, metrics: QtGui.QFontMetrics, width: int, lines: int) -> str:
    """``text`` shortened with an ellipsis so that it wraps into at most ``lines`` lines."""
    flags = int(QtCore.Qt.TextFlag.TextWordWrap)

    def fits(t):
        rect = metrics.boundingRect(QtCore.QRect(0, 0, width, 10 ** 6), flags, t)
        return rect.height() <= lines * metrics.lineSpacing()

    if fits(text):
        return text
    words = text.split()
    lo, hi = 0, len(words)
    while lo < hi:  # the most words that fit with an ellipsis
        mid = (lo + hi + 1) // 2
        if fits(" ".join(words[:mid]) + " …"):
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo]) + " …"


def _style_swatch(width: int) -> QtGui.QImage:
    """A strip of the style's colours and their blends with white (for the GIF palette)."""
    colors = [style.POS_COLOR, style.NEG_COLOR, style.BOUNDARY_COLOR, style.WEIGHT_COLOR,
              style.DELTA_COLOR, style.GHOST_COLOR, style.HIGHLIGHT_COLOR, style.MISTAKE_COLOR,
              style.MAXMARGIN_COLOR, style.RADIUS_COLOR, style.LDA_COLOR, style.FOREGROUND]
    regions = [QtGui.QColor(*style.POS_REGION), QtGui.QColor(*style.NEG_REGION)]
    cells = []
    for c in colors:
        base = QtGui.QColor(c)
        for alpha in (1.0, 0.75, 0.5, 0.25):
            cells.append(_blend(base, QtGui.QColor("white"), alpha))
            for region in regions:  # the colour over a shaded region
                cells.append(_blend(base, _blend(region, QtGui.QColor("white"),
                                                 region.alphaF()), alpha))
    for region in regions:
        cells.append(_blend(region, QtGui.QColor("white"), region.alphaF()))
    cell = max(1, width // len(cells))
    image = QtGui.QImage(max(width, cell * len(cells)), 8, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    for i, c in enumerate(cells):
        painter.fillRect(i * cell, 0, cell, 8, c)
    painter.end()
    return image


def _blend(top: QtGui.QColor, bottom: QtGui.QColor, alpha: float) -> QtGui.QColor:
    return QtGui.QColor(*(round(alpha * a + (1 - alpha) * b) for a, b in
                          zip(top.getRgb()[:3], bottom.getRgb()[:3], strict=True)))


def qimage_to_pil(image: QtGui.QImage):
    """A QImage as an RGB Pillow image (copied)."""
    from PIL import Image

    rgb = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    data = bytes(rgb.constBits())[: stride * h]
    return Image.frombuffer("RGB", (w, h), data, "raw", "RGB", stride, 1).copy()


class GifWriter:
    """Collects frames (QImages of one size) and encodes an animated GIF with Pillow.

    Frames are kept PNG-compressed until :meth:`encode`, which builds *one*
    palette for the whole animation — median cut (256 colours) over up to
    :attr:`PALETTE_SAMPLES` frames spread over the animation plus a swatch of
    the style's colours — and maps every frame to it without dithering, so the
    flat areas of the canvas stay flat and no colour flickers between frames.

    Parameters
    ----------
    fps : float
        Frames per second (each frame lasts ``1000 / fps`` ms, rounded by the
        GIF format to 10 ms).
    """

    PALETTE_SAMPLES = 8

    def __init__(self, fps: float):
        if not (0.01 <= fps <= 100):
            raise ExportError(f"bad frame rate {fps}: expected 0.01 to 100 frames per second")
        self.fps = float(fps)
        self.frames: list[bytes] = []
        self._size = None

    def __len__(self) -> int:
        return len(self.frames)

    def add(self, image: QtGui.QImage) -> None:
        """Keep one frame (compressed)."""
        size = (image.width(), image.height())
        if self._size is None:
            self._size = size
        elif size != self._size:
            raise ExportError(f"frame size {size} differs from the first frame's {self._size}")
        buffer = QtCore.QBuffer()
        buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG", 90)  # light compression: fast, and lossless
        self.frames.append(bytes(buffer.data()))

    def _frame(self, i: int):
        from PIL import Image

        with Image.open(io.BytesIO(self.frames[i])) as im:
            return im.convert("RGB")

    def palette(self):
        """The shared palette, as a "P" image (median cut over sampled frames and the style)."""
        from PIL import Image

        n = len(self.frames)
        count = min(n, self.PALETTE_SAMPLES)
        picks = sorted({round(i * (n - 1) / max(1, count - 1)) for i in range(count)})
        w, h = self._size
        swatch = qimage_to_pil(_style_swatch(w))
        montage = Image.new("RGB", (w, h * len(picks) + swatch.size[1]), "white")
        for row, i in enumerate(picks):
            montage.paste(self._frame(i), (0, row * h))
        montage.paste(swatch, (0, h * len(picks)))
        return montage.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                dither=Image.Dither.NONE)

    def encode(self) -> bytes:
        """The GIF file's bytes (loops for ever)."""
        from PIL import Image

        if not self.frames:
            raise ExportError("no frames to write")
        palette = self.palette()
        frames = [self._frame(i).quantize(palette=palette, dither=Image.Dither.NONE)
                  for i in range(len(self.frames))]
        out = io.BytesIO()
        frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                       duration=round(1000.0 / self.fps), loop=0, optimize=False, disposal=1)
        return out.getvalue()

    def save(self, path) -> None:
        """Encode and write atomically."""
        write_file(path, self.encode())


# ============================================================================ runs and demos


def clone_workspace(workspace):
    """A new workspace with the same data, learner, parameters, view and run position.

    Returns None when the copy would not replay the same run (a random order
    without a fixed ``random_state``).
    """
    from ..core import Workspace

    params = workspace.all_params()
    p = params.get(workspace.learner_name, {})
    if p.get("order") == "random" and p.get("random_state") is None:
        return None
    copy = Workspace(dataset=workspace.dataset, learner=workspace.learner_name, params=params)
    copy.view = workspace.view
    if copy.running and workspace.step_count:
        copy.seek(workspace.step_count)
    return copy


def _advance(workspace, unit: str) -> bool:
    """One step of ``unit`` ("sample", "update" or "epoch"); False when the run cannot move."""
    if not workspace.can_step:
        return False
    before = workspace.step_count
    {"sample": workspace.step, "update": workspace.step_update,
     "epoch": workspace.step_epoch}[unit]()
    return workspace.step_count != before


def run_caption(workspace) -> str:
    """The caption of a run frame: the run's status and Novikoff's bound (from the core)."""
    r = workspace.readouts()
    parts = [r.status] if r.status else []
    if r.bound_text and r.bound_text != "—":
        parts.append(r.bound_text)
    return "   ·   ".join(parts)


def _progress(progress, done: int, total: int) -> None:
    if progress is not None and progress(done, total) is False:
        raise Cancelled("export cancelled")


@dataclass
class GifResult:
    """What an animation export wrote."""

    path: str
    frames: int
    size: tuple
    seconds: float
    notes: list = field(default_factory=list)


def render_run_gif(workspace, path, *, frames: int, size=DEFAULT_GIF_SIZE, fps: float = 4.0,
                   unit: str = "update", from_start: bool = False, layers=None, view=None,
                   scale=None, caption: bool = True, progress=None) -> GifResult:
    """Render a run to an animated GIF, one frame per step.

    Parameters
    ----------
    workspace : Workspace
        The run to animate; it is copied (:func:`clone_workspace`) and never moved.
    path : path-like
        The GIF to write (atomically; nothing is written on error or cancel).
    frames : int
        Number of frames: the start, then one per step (fewer when the run ends).
    size : (int, int)
        Frame size in pixels (the caption strip, if any, is inside it).
    fps : float
        Frames per second.
    unit : {"update", "sample", "epoch"}
        What one step is.
    from_start : bool
        Start at ``w = 0`` instead of the current step.
    layers, view, scale
        As for :class:`CanvasRenderer`.
    caption : bool
        Draw the caption strip (status and bound) under the canvas.
    progress : callable, optional
        ``progress(done, total)``; returning False cancels (raises :class:`Cancelled`).
    """
    if unit not in STEP_UNITS:
        raise ExportError(f"unknown step unit {unit!r}; expected one of {', '.join(STEP_UNITS)}")
    frames = int(frames)
    if not 1 <= frames <= MAX_FRAMES:
        raise ExportError(f"bad frame count {frames}: expected 1 to {MAX_FRAMES}")
    if not workspace.running:
        raise ExportError("nothing to animate: " + (
            workspace.problem or "LDA has no run; choose the primal or dual perceptron"))
    check_writable(path)
    writer = GifWriter(fps)
    started = time.perf_counter()
    ws = clone_workspace(workspace)
    restore = None
    if ws is None:  # replay on the workspace itself, and put it back afterwards
        ws, restore = workspace, workspace.step_count
    scale = scale or style.NORMAL
    try:
        if from_start:
            ws.seek(0)
        # two lines: the status and the bound of a finished run need them on small frames
        strip = caption_height([], size[0], scale, max_lines=2, min_lines=2) if caption else 0
        with CanvasRenderer(ws, (size[0], size[1] - strip), layers=layers, view=view,
                            scale=scale) as renderer:
            for i in range(frames):
                if i and not _advance(ws, unit):
                    break
                image = renderer.image()
                if caption:
                    counter = f"step {ws.step_count}"
                    image = compose_frame(image, run_caption(ws), counter, strip, scale)
                writer.add(image)
                _progress(progress, i + 1, frames)
        writer.save(path)
    finally:
        if restore is not None:
            workspace.seek(restore)
    notes = []
    if len(writer) < frames:
        notes.append(f"the run ended after {len(writer) - 1} steps: {len(writer)} frames")
    return GifResult(os.fspath(path), len(writer), tuple(size), time.perf_counter() - started,
                     notes)


def _demos():
    try:
        from ..core import demos
    except ImportError:  # pragma: no cover - the demos module ships with the package
        raise ExportError("demos are not available in this installation") from None
    return demos


def render_demo_gif(demo, path, *, size=DEFAULT_GIF_SIZE, fps: float = 0.5,
                    frames: int | None = None, scale=None, progress=None) -> GifResult:
    """Render a demo to an animated GIF: its start, then one frame per step, with captions.

    Parameters
    ----------
    demo : Demo or str
        A loaded demo, or a name or path for :func:`perceptron_gui.core.demos.load_demo`.
    path : path-like
        The GIF to write (atomically).
    size : (int, int)
        Frame size in pixels, caption strip included.
    fps : float
        Frames per second (a caption needs a few seconds: the default is 0.5).
    frames : int, optional
        At most this many frames (default: all, ``len(demo.steps) + 1``).
    scale : style.Scale, optional
    progress : callable, optional
        ``progress(done, total)``; returning False cancels.
    """
    from ..core import Workspace

    demos = _demos()
    if not isinstance(demo, demos.Demo):
        try:
            demo = demos.load_demo(demo)
        except demos.DemoError as exc:
            raise ExportError(str(exc)) from exc
    total = len(demo.steps) + 1 if frames is None else int(frames)
    if not 1 <= total <= MAX_FRAMES:
        raise ExportError(f"bad frame count {total}: expected 1 to {MAX_FRAMES}")
    total = min(total, len(demo.steps) + 1)
    check_writable(path)
    scale = scale or style.NORMAL
    started = time.perf_counter()
    ws = Workspace()
    player = demos.DemoPlayer(ws, demo)
    captions = [demo.description] + [s.caption for s in demo.steps[: total - 1]]
    strip = caption_height(captions, size[0], scale)
    writer = GifWriter(fps)
    with CanvasRenderer(ws, (size[0], size[1] - strip), scale=scale) as renderer:
        shown = None
        for i in range(total):
            if i:
                player.next()
            renderer.set_layers({**default_layers(ws), **player.layers})
            if ws.dataset is not shown:  # new data: frame it
                renderer.set_view(None)
                shown = ws.dataset
            image = renderer.image()
            writer.add(compose_frame(image, player.caption, f"{i} / {len(demo.steps)}", strip,
                                     scale))
            _progress(progress, i + 1, total)
    writer.save(path)
    return GifResult(os.fspath(path), len(writer), tuple(size), time.perf_counter() - started)


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


# ============================================================================ headless


def _load_source(source: str):
    """A workspace file or a demo (name or file): returns ("workspace", ws) or ("demo", demo)."""
    from ..core import io as core_io
    from ..core.sources import load_source

    try:
        return load_source(source)
    except core_io.FormatError as exc:  # the core's one-line reason, naming the file
        raise ExportError(str(exc)) from exc


def render_file(source: str, out: str, *, steps: int | None = None, size=None,
                fps: float | None = None, unit: str = "update", scale=None) -> str:
    """The ``perceptron-gui render`` command: render a workspace file or a demo to a file.

    Parameters
    ----------
    source : str
        A workspace file (:func:`perceptron_gui.core.io.load_workspace`), a demo
        name (:func:`perceptron_gui.core.demos.list_demos`) or a demo file.
    out : str
        The file to write, ending in ``.png``, ``.svg`` or ``.gif``.
    steps : int, optional
        PNG/SVG: steps to take before rendering (workspace: ``unit`` steps
        from the file's stored position; demo: demo steps from its start);
        default 0.  GIF: the number of frames (default: a demo's start and
        every step; a workspace's position and the next
        :data:`DEFAULT_RUN_FRAMES` − 1 steps, or until the run ends).
    size : (int, int), optional
        Image size (default 960×720 for pictures, 640×480 for GIFs).
    fps : float, optional
        GIF frame rate (default 4 for a run, 0.5 for a demo).
    unit : {"update", "sample", "epoch"}
        What one step of a workspace's run is.

    Returns
    -------
    str
        A one-line summary of what was written.

    Raises
    ------
    ExportError
        With a one-line reason; nothing is written then.
    """
    ext = Path(out).suffix.lower()
    if ext not in EXTENSIONS:
        raise ExportError(f"unknown output type {ext or '(none)'!r} for {out!r}: "
                          "use .png, .svg or .gif")
    least = 1 if ext == ".gif" else 0
    if steps is not None and steps < least:
        raise ExportError(f"bad --steps {steps}: expected a number >= {least}")
    if unit not in STEP_UNITS:
        raise ExportError(f"unknown step unit {unit!r}; expected one of {', '.join(STEP_UNITS)}")
    check_writable(out)
    size = tuple(size) if size is not None else (
        DEFAULT_GIF_SIZE if ext == ".gif" else DEFAULT_IMAGE_SIZE)
    check_size(*size)
    kind, obj = _load_source(source)
    started = time.perf_counter()
    if ext == ".gif":
        if kind == "demo":
            result = render_demo_gif(obj, out, size=size, fps=fps or DEFAULT_FPS["demo"],
                                     frames=steps, scale=scale)
        else:
            result = render_run_gif(obj, out, frames=steps or DEFAULT_RUN_FRAMES, size=size,
                                    fps=fps or DEFAULT_FPS["run"], unit=unit,
                                    layers=default_layers(obj), view=obj.view, scale=scale)
        return (f"wrote {out}: {result.frames} frames, {size[0]}x{size[1]}, "
                f"{time.perf_counter() - started:.1f} s")
    if kind == "demo":
        from ..core import Workspace

        ws = Workspace()
        player = _demos().DemoPlayer(ws, obj)
        for _ in range(steps or 0):
            if player.next() is None:
                break
        layers, view = {**default_layers(ws), **player.layers}, None
    else:
        ws = obj
        for _ in range(steps or 0):
            if not _advance(ws, unit):
                break
        layers, view = default_layers(ws), ws.view
    export_canvas(ws, out, size, layers=layers, view=view, scale=scale)
    return f"wrote {out}: {size[0]}x{size[1]}, {time.perf_counter() - started:.1f} s"


# ============================================================================ dialogs


class SizeDialog(QtWidgets.QDialog):
    """Choose the size of an exported picture: width, height, presets, presenter sizes.

    Parameters
    ----------
    canvas_size : (int, int)
        The canvas's size on screen, the default and the first preset.
    presenter : bool
        Whether "large fonts and lines" starts checked.
    title : str
    """

    def __init__(self, canvas_size, presenter: bool = False, title: str = "Export size",
                 parent=None):
        super().__init__(parent)
        self.setObjectName("exportSizeDialog")
        self.setWindowTitle(title)
        self._form = QtWidgets.QFormLayout(self)
        self._form.setObjectName("exportForm")
        self.preset = QtWidgets.QComboBox(objectName="exportPreset")
        cw, ch = int(canvas_size[0]), int(canvas_size[1])
        self._presets = {f"Canvas size ({cw} × {ch})": (cw, ch), **PRESETS, "Custom": None}
        self.preset.addItems(list(self._presets))
        self.width_box = self._spin("exportWidth", cw)
        self.height_box = self._spin("exportHeight", ch)
        self.presenter_box = QtWidgets.QCheckBox("Large fonts and lines (presenter sizes)",
                                                 objectName="exportPresenterSizes")
        self.presenter_box.setChecked(presenter)
        self._form.addRow("Preset", self.preset)
        self._form.addRow("Width", self.width_box)
        self._form.addRow("Height", self.height_box)
        self._form.addRow("", self.presenter_box)
        self._extra_rows()
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel, objectName="exportButtons")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._form.addRow(buttons)
        self.preset.currentTextChanged.connect(self._on_preset)
        self.width_box.valueChanged.connect(self._on_edited)
        self.height_box.valueChanged.connect(self._on_edited)

    def _spin(self, name: str, value: int) -> QtWidgets.QSpinBox:
        box = QtWidgets.QSpinBox(objectName=name)
        box.setRange(MIN_SIZE, MAX_SIZE)
        box.setValue(min(max(value, MIN_SIZE), MAX_SIZE))
        box.setSuffix(" px")
        return box

    def _extra_rows(self) -> None:
        """Subclasses add their rows here (before the buttons)."""

    def _on_preset(self, text: str) -> None:
        size = self._presets.get(text)
        if size is None:
            return
        for box, value in ((self.width_box, size[0]), (self.height_box, size[1])):
            box.blockSignals(True)
            box.setValue(value)
            box.blockSignals(False)

    def _on_edited(self, _value) -> None:
        current = (self.width_box.value(), self.height_box.value())
        name = next((k for k, v in self._presets.items() if v == current), "Custom")
        self.preset.blockSignals(True)
        self.preset.setCurrentText(name)
        self.preset.blockSignals(False)

    def chosen_size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.width_box.value(), self.height_box.value()

    def chosen_scale(self) -> style.Scale:
        """:data:`style.PRESENTER` or :data:`style.NORMAL`."""
        return style.PRESENTER if self.presenter_box.isChecked() else style.NORMAL


class GifDialog(SizeDialog):
    """Choose what to animate (the run or a demo), frames, step unit, frame rate and size."""

    def __init__(self, canvas_size, presenter: bool = False, demo_names=(), can_run=True,
                 parent=None):
        self._demo_names = list(demo_names)
        self._can_run = can_run
        super().__init__(canvas_size, presenter, "Export an animated GIF", parent)
        self.setObjectName("exportGifDialog")

    def _extra_rows(self) -> None:
        self.source = QtWidgets.QComboBox(objectName="gifSource")
        if self._can_run:
            self.source.addItem("The run", "run")
        for name in self._demo_names:
            self.source.addItem(f"Demo: {name}", f"demo:{name}")
        self.from_start = QtWidgets.QCheckBox("From the start (w = 0)", objectName="gifFromStart")
        self.unit = QtWidgets.QComboBox(objectName="gifUnit")
        for unit, text in (("update", "one update (mistake)"), ("sample", "one sample"),
                           ("epoch", "one epoch")):
            self.unit.addItem(text, unit)
        self.frames = QtWidgets.QSpinBox(objectName="gifFrames")
        self.frames.setRange(1, MAX_FRAMES)
        self.frames.setValue(DEFAULT_RUN_FRAMES)
        self.frames.setToolTip("The first frame shows the start; each further frame one step.")
        self.fps = QtWidgets.QDoubleSpinBox(objectName="gifFps")
        self.fps.setRange(0.1, 50.0)
        self.fps.setDecimals(1)
        self.fps.setSingleStep(0.5)
        self.fps.setValue(DEFAULT_FPS["run"])
        self.fps.setSuffix(" frames/s")
        # what to animate first, then how; the size rows follow
        for row, (label, widget) in enumerate((("Animate", self.source), ("", self.from_start),
                                               ("One frame per", self.unit),
                                               ("Frames", self.frames),
                                               ("Frame rate", self.fps))):
            self._form.insertRow(row, label, widget)
        self.source.currentIndexChanged.connect(self._on_source)
        self._on_source()

    def _on_source(self, *_args) -> None:
        run = self.source.currentData() == "run"
        for w in (self.from_start, self.unit):
            w.setEnabled(run)
        self.frames.setEnabled(run)
        self.fps.setValue(DEFAULT_FPS["run" if run else "demo"])

    def chosen_source(self) -> str:
        """"run" or "demo:NAME"."""
        return self.source.currentData() or ""


# ============================================================================ the menu


class Exporter(QtCore.QObject):
    """The File ▸ Export submenu of a main window, and the exports behind it.

    Each action asks for the size (or the GIF settings) and a file name, then
    calls :meth:`export_canvas`, :meth:`export_window` or :meth:`export_gif`,
    which tests call directly.

    Attributes
    ----------
    menu : QtWidgets.QMenu
        The "Export" submenu (objectName ``menuExport``).
    progress_dialog : QtWidgets.QProgressDialog or None
        The progress dialog of the GIF being rendered (None otherwise).
    frameRendered : Signal(int, int)
        ``(done, total)`` after each GIF frame.
    """

    frameRendered = QtCore.Signal(int, int)

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("exporter")
        self.window = window
        self.progress_dialog: QtWidgets.QProgressDialog | None = None
        self.last_result: GifResult | None = None
        self.menu = QtWidgets.QMenu("E&xport", window)
        self.menu.setObjectName("menuExport")

        def action(name, text, slot, shortcut=None, tip=""):
            act = QtGui.QAction(text, window)
            act.setObjectName(name)
            if shortcut:
                act.setShortcut(QtGui.QKeySequence(shortcut))
            act.setStatusTip(tip)
            act.setToolTip(tip)
            act.triggered.connect(lambda _=False: slot())
            window.addAction(act)
            self.menu.addAction(act)
            return act

        self.actionCanvasPng = action("actionExportCanvasPng", "Canvas as &PNG…",
                                      lambda: self.ask_canvas("png"), "Ctrl+Shift+E",
                                      "Save the canvas as a PNG picture of a chosen size")
        self.actionCanvasSvg = action("actionExportCanvasSvg", "Canvas as &SVG…",
                                      lambda: self.ask_canvas("svg"), None,
                                      "Save the canvas as an SVG drawing of a chosen size")
        self.actionWindowPng = action("actionExportWindowPng", "&Window as PNG…",
                                      self.ask_window, None,
                                      "Save a picture of the whole window")
        self.menu.addSeparator()
        self.actionGif = action("actionExportGif", "Run or demo as animated &GIF…",
                                self.ask_gif, None,
                                "Animate the run (one frame per step) or a demo (one frame "
                                "per demo step) to a GIF")

    # -- helpers -----------------------------------------------------------------------
    def _canvas(self):
        return self.window.canvas

    def _presenter_on(self) -> bool:
        mode = getattr(self.window, "presenter", None)
        return bool(getattr(mode, "active", False))

    def _canvas_scale(self):
        return style.PRESENTER if self._presenter_on() else style.NORMAL

    def _view(self):
        return self._canvas().getViewBox().viewRange()

    def _ask_path(self, title: str, suffix: str, filt: str) -> str | None:
        settings = QtCore.QSettings()
        folder = settings.value("export/lastFolder") or QtCore.QStandardPaths.writableLocation(
            QtCore.QStandardPaths.StandardLocation.PicturesLocation) or os.getcwd()
        suggestion = os.path.join(str(folder), f"perceptron{suffix}")
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self.window, title, suggestion, filt)
        if not path:
            return None
        if not path.lower().endswith(suffix):
            path += suffix
        settings.setValue("export/lastFolder", os.path.dirname(path))
        return path

    def _fail(self, exc: Exception) -> None:
        QtWidgets.QMessageBox.warning(self.window, "Export failed", str(exc))

    def _done(self, text: str) -> None:
        show = getattr(self.window, "show_message", None)
        if show is not None:
            show(text)

    # -- canvas and window -------------------------------------------------------------
    def ask_canvas(self, fmt: str) -> str | None:
        """Ask for a size and a file, then export the canvas as ``fmt`` ("png" or "svg")."""
        canvas = self._canvas()
        dialog = SizeDialog((canvas.width(), canvas.height()), self._presenter_on(),
                            f"Export the canvas as {fmt.upper()}", self.window)
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return None
        filt = "PNG pictures (*.png)" if fmt == "png" else "SVG drawings (*.svg)"
        path = self._ask_path(f"Export the canvas as {fmt.upper()}", f".{fmt}", filt)
        if path is None:
            return None
        return self.export_canvas(path, dialog.chosen_size(), fmt=fmt,
                                  scale=dialog.chosen_scale())

    def export_canvas(self, path, size, *, fmt: str | None = None, scale=None) -> str | None:
        """Export the canvas as it is on screen (layers, view) at ``size``; None on failure."""
        try:
            export_canvas(self.window.workspace, path, size, fmt=fmt,
                          layers=self._canvas().layers(), view=self._view(),
                          scale=scale or self._canvas_scale())
        except ExportError as exc:
            self._fail(exc)
            return None
        self._done(f"Exported the canvas to {path} ({size[0]} × {size[1]}).")
        return os.fspath(path)

    def ask_window(self) -> str | None:
        """Ask for a file, then save a picture of the window."""
        path = self._ask_path("Export the window as PNG", ".png", "PNG pictures (*.png)")
        return None if path is None else self.export_window(path)

    def export_window(self, path) -> str | None:
        """Save ``window.grab()`` as PNG; None on failure."""
        try:
            w, h = export_window_png(self.window, path)
        except ExportError as exc:
            self._fail(exc)
            return None
        self._done(f"Exported the window to {path} ({w} × {h}).")
        return os.fspath(path)

    # -- animations --------------------------------------------------------------------
    def _demo_names(self) -> list[str]:
        try:
            from ..core import demos
        except ImportError:  # pragma: no cover
            return []
        return demos.list_demos()

    def ask_gif(self) -> str | None:
        """Ask what to animate and how, and a file; then render with a progress dialog."""
        canvas = self._canvas()
        ws = self.window.workspace
        dialog = GifDialog((canvas.width(), canvas.height()), self._presenter_on(),
                           self._demo_names(), can_run=ws.running, parent=self.window)
        if dialog.source.count() == 0:
            self._fail(ExportError("nothing to animate: " + (ws.problem or "no run and no demo")))
            return None
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return None
        path = self._ask_path("Export an animated GIF", ".gif", "GIF animations (*.gif)")
        if path is None:
            return None
        source = dialog.chosen_source()
        return self.export_gif(
            path, source=source, size=dialog.chosen_size(), fps=dialog.fps.value(),
            frames=dialog.frames.value(), unit=dialog.unit.currentData(),
            from_start=dialog.from_start.isChecked(), scale=dialog.chosen_scale())

    def export_gif(self, path, *, source: str = "run", size=DEFAULT_GIF_SIZE,
                   fps: float = 4.0, frames: int = DEFAULT_RUN_FRAMES, unit: str = "update",
                   from_start: bool = False, scale=None) -> str | None:
        """Render the run (``source="run"``) or a demo (``"demo:NAME"``) to a GIF.

        A modal progress dialog with a Cancel button is shown while the frames
        are rendered; cancelling writes nothing.  Returns the path, or None when
        cancelled or failed.
        """
        ws = self.window.workspace
        # the frames are rendered from a copy taken now: stop the run moving under it
        # (playback and "run to end" would otherwise race a replay on the workspace)
        if hasattr(self.window, "set_playing"):
            self.window.set_playing(False)
        if getattr(self.window, "running_to_end", False):
            self.window.cancel_run()
        total = frames
        if source.startswith("demo:"):
            try:
                demo = _demos().load_demo(source[5:])
            except Exception as exc:  # DemoError or ExportError: one message
                self._fail(ExportError(str(exc)))
                return None
            total = len(demo.steps) + 1
        dialog = QtWidgets.QProgressDialog("Rendering the GIF…", "Cancel", 0, total, self.window)
        dialog.setObjectName("gifProgress")
        dialog.setWindowTitle("Export an animated GIF")
        dialog.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(0)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setValue(0)
        self.progress_dialog = dialog

        def progress(done, total_):
            dialog.setMaximum(total_)
            dialog.setLabelText(f"Rendering frame {done} of {total_}…")
            dialog.setValue(done)
            self.frameRendered.emit(done, total_)
            QtCore.QCoreApplication.processEvents()
            return not dialog.wasCanceled()

        try:
            if source.startswith("demo:"):
                result = render_demo_gif(demo, path, size=size, fps=fps, scale=scale,
                                         progress=progress)
            else:
                result = render_run_gif(ws, path, frames=frames, size=size, fps=fps, unit=unit,
                                        from_start=from_start, layers=self._canvas().layers(),
                                        view=self._view(), scale=scale or self._canvas_scale(),
                                        progress=progress)
        except Cancelled:
            self._done("GIF export cancelled: nothing was written.")
            return None
        except ExportError as exc:
            self._fail(exc)
            return None
        finally:
            dialog.close()
            dialog.deleteLater()
            self.progress_dialog = None
        self.last_result = result
        extra = f" ({'; '.join(result.notes)})" if result.notes else ""
        self._done(f"Exported {result.frames} frames to {path} in {result.seconds:.1f} s{extra}.")
        return os.fspath(path)


def install(window) -> Exporter:
    """Add the File ▸ Export submenu to ``window``."""
    exporter = Exporter(window)
    file_menu = getattr(window, "menus", {}).get("file")
    if file_menu is not None:
        quit_action = getattr(window, "actionQuit", None)
        before = None
        if quit_action is not None and quit_action in file_menu.actions():
            # above the separator that precedes Quit
            actions = file_menu.actions()
            i = actions.index(quit_action)
            before = actions[i - 1] if i and actions[i - 1].isSeparator() else quit_action
        if before is not None:
            file_menu.insertMenu(before, exporter.menu)
        else:
            file_menu.addMenu(exporter.menu)
    return exporter
