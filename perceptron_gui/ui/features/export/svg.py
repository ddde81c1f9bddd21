"""SVG export: pyqtgraph writes the scene an item at a time, the export writes the markers.

pyqtgraph's ``SVGExporter`` writes the whole scene in one call on the UI
thread, every marker through an XML DOM.  Here it writes one item per call,
children first, in short UI-thread slices (through its ``generateSvg`` hook),
and a marker item only a placeholder; a worker then writes the markers into
the placeholders: one symbol definition per item and one ``<use>`` per point.
"""

from __future__ import annotations

import contextlib
import math
import secrets
import time
import xml.dom.minidom
from dataclasses import dataclass, field

import numpy as np
from PySide6 import QtCore, QtGui

from ...widgets.canvas.items import pyqtgraph_internals as internals
from .common import qimage_bytes, stop_if
from .points import CHUNK, MarkerGroup

#: UI-thread time spent writing items before a slice ends, in seconds.
SLICE_S = 0.015


def close_subpaths(d: str) -> str:
    """SVG path data with each ``Z`` a line back to its subpath's start (pyqtgraph 0.14's
    SVG exporter cannot parse Qt 6's ``Z``, pyqtgraph issue #3495)."""
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


def ellipse_to_path(shape) -> None:
    """Replace an SVG ``circle``/``ellipse`` by a fine polygon ``path``: pyqtgraph leaves
    circles in a scaling transform, where renderers without ``vector-effect`` (librsvg)
    scale the stroke too (the 1-px R circle became tens of pixels wide)."""
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


@contextlib.contextmanager
def closed_paths_as_lines():
    """Patch pyqtgraph's SVG coordinate fixer for the duration of one export."""
    module = internals.svg_exporter_module()
    original = module.correctCoordinates

    def correct(node, defs, item, options):
        for tag in ("circle", "ellipse"):
            for shape in list(node.getElementsByTagName(tag)):
                ellipse_to_path(shape)
        for path in node.getElementsByTagName("path"):
            d = path.getAttribute("d")
            if "Z" in d or "z" in d:
                path.setAttribute("d", close_subpaths(d))
        return original(node, defs, item, options)

    module.correctCoordinates = correct
    try:
        yield
    finally:
        module.correctCoordinates = original


@dataclass
class SvgParts:
    """An SVG before it is serialized and its markers written: ``tree`` is the scene's group
    and definitions as pyqtgraph makes them, ``tokens`` the placeholder of each of ``groups``."""

    tree: tuple | None = None
    size: tuple = (0.0, 0.0)
    background: QtGui.QColor | None = None
    groups: list[MarkerGroup] = field(default_factory=list)
    tokens: list[bytes] = field(default_factory=list)
    clip: object = None


@contextlib.contextmanager
def marker_placeholders(named_items, groups, clip=None):
    """While pyqtgraph writes the SVG, each ``(name, item)`` writes the placeholder of its
    group (by ``group.name``), or nothing; yields the :class:`SvgParts` to fill in."""
    parts = SvgParts(clip=clip)
    by_item = {}
    for group in groups:
        parts.groups.append(group)
        token = f"perceptron-gui markers {secrets.token_hex(8)}"
        parts.tokens.append(f"<desc>{token}</desc>".encode())
        by_item[group.name] = token

    def placeholder(token):
        def generate(nodes):
            if token is None:
                return None
            # a group with a child: pyqtgraph removes empty groups
            doc = xml.dom.minidom.parseString(f"<g><desc>{token}</desc></g>")
            return doc.documentElement, []
        return generate

    hooked = []
    try:
        for name, item in named_items:
            item.generateSvg = placeholder(by_item.get(name))
            hooked.append(item)
        yield parts
    finally:
        for item in hooked:
            del item.generateSvg


def _children_first(scene, skip):
    """The scene's shown items, each after its children (``skip``: not descended into)."""
    order = []

    def visit(item):
        if not item.isVisible():
            return
        if id(item) not in skip:
            for child in item.childItems():
                visit(child)
        order.append(item)

    for item in scene.items():
        if item.parentItem() is None:
            visit(item)
    return order


def scene_svg_steps(exporter, named_items, groups, clip):
    """The scene as :class:`SvgParts`: a generator of UI-thread slices of :data:`SLICE_S`
    (``exporter``: pyqtgraph's ``SVGExporter`` of the scene, its width and height set)."""
    scene = exporter.item
    params = exporter.params
    options = {child.name(): child.value() for child in params.children()}
    options.update(background=params["background"], width=params["width"], height=params["height"])
    markers = {id(item) for _name, item in named_items}
    written = []
    with closed_paths_as_lines(), marker_placeholders(named_items, groups, clip) as parts:
        try:
            nodes: dict = {}
            started = time.perf_counter()
            for item in _children_first(scene, markers):
                if id(item) in markers:
                    continue
                done = internals.item_svg(item, nodes, scene, options)
                item.generateSvg = lambda _nodes, done=done: done
                written.append(item)
                if time.perf_counter() - started > SLICE_S:
                    yield
                    started = time.perf_counter()
            parts.tree = internals.item_svg(scene, nodes, scene, options)
        finally:
            for item in written:
                del item.generateSvg
            for item in scene.items():
                if hasattr(item, "setExportMode"):
                    item.setExportMode(False)
    parts.size = (float(options["width"]), float(options["height"]))
    parts.background = QtGui.QColor(options["background"])
    return parts


def frame_clips(node, defs, size, background: QtGui.QColor) -> None:
    """After each group clipped to a rectangle, paint what lies outside it ``background``.

    SVG Tiny 1.2 renderers (QtSvg, many slide tools) ignore pyqtgraph's
    ``clip-path``: the regions and lines spread over the axes.  With this frame
    (the axes come after it) the picture is the same either way.
    """
    rects = {}
    for clip in [*node.getElementsByTagName("clipPath"),
                 *(c for d in defs for c in d.getElementsByTagName("clipPath"))]:
        paths = clip.getElementsByTagName("path")
        if paths:
            rects[clip.getAttribute("id")] = _rect_of(paths[0].getAttribute("d"))
    w, h = size
    for group in list(node.getElementsByTagName("g")):
        ref = group.getAttribute("clip-path")
        rect = rects.get(ref[5:-1]) if ref.startswith("url(#") else None
        if rect is None:
            continue
        x0, y0, x1, y1 = rect
        corners = ((0, 0), (w, 0), (w, h), (0, h), (0, 0), (x0, y0), (x0, y1), (x1, y1),
                   (x1, y0), (x0, y0))
        frame = group.ownerDocument.createElement("path")
        frame.setAttribute("d", " ".join(f"{'M' if i in (0, 5) else 'L'}{_number(x)},{_number(y)}"
                                         for i, (x, y) in enumerate(corners)))
        frame.setAttribute("fill", background.name())
        frame.setAttribute("fill-rule", "evenodd")
        frame.setAttribute("stroke", "none")
        group.parentNode.insertBefore(frame, group.nextSibling)


def _rect_of(d: str):
    """``(x0, y0, x1, y1)`` of an axis-aligned rectangle's path data, or None."""
    try:
        points = [tuple(float(v) for v in token[1:].split(","))
                  for token in d.split() if token[:1] in "ML"]
    except ValueError:
        return None
    xs, ys = sorted({p[0] for p in points}), sorted({p[1] for p in points})
    return None if len(xs) != 2 or len(ys) != 2 else (xs[0], ys[0], xs[1], ys[1])


def document_text(parts: SvgParts) -> bytes:
    """The document pyqtgraph's ``generateSvg`` makes of the tree, with ``width`` and
    ``height`` and its clipped groups framed (any thread: DOM only)."""
    module = internals.svg_exporter_module()
    node, defs = parts.tree
    module.cleanXml(node)
    w, h = parts.size
    c = parts.background
    frame_clips(node, defs, parts.size, c)
    text = (module.xmlHeader % f' viewBox ="0 0 {int(w)} {int(h)}"'
            + f'<rect width="100%" height="100%" fill="{c.name()}" fill-opacity="{c.alphaF()}" />\n'
            + "<defs>\n" + "".join(d.toprettyxml(indent="    ") for d in defs) + "</defs>\n"
            + node.toprettyxml(indent="    ") + "\n</svg>\n")
    return text.encode("utf-8").replace(b"<svg ", f'<svg width="{int(w)}" height="{int(h)}" '
                                        .encode(), 1)


def _number(v: float) -> str:
    return f"{v:.6g}"


def _color(color: QtGui.QColor) -> tuple[str, str]:
    return color.name(), _number(color.alphaF())


def symbol_path(symbol) -> QtGui.QPainterPath:
    """A pyqtgraph symbol (its name or a path) as a path of unit size around the origin."""
    from pyqtgraph.graphicsItems.ScatterPlotItem import Symbols

    if isinstance(symbol, QtGui.QPainterPath):
        return symbol
    if isinstance(symbol, str):
        return Symbols[symbol]
    return list(Symbols.values())[int(symbol) % len(Symbols)]


def path_data(path: QtGui.QPainterPath, scale: float) -> str:
    """SVG path data of ``path`` scaled by ``scale`` (subpaths closed by a line, as Qt does)."""
    out = []
    kinds = QtGui.QPainterPath.ElementType
    i, n = 0, path.elementCount()
    while i < n:
        e = path.elementAt(i)
        if e.type in (kinds.MoveToElement, kinds.LineToElement):
            out.append(f"{'M' if e.type == kinds.MoveToElement else 'L'}"
                       f"{_number(e.x * scale)},{_number(e.y * scale)}")
        else:  # a cubic: this element and the next two
            c1, c2, end = e, path.elementAt(i + 1), path.elementAt(i + 2)
            out.append("C" + " ".join(f"{_number(q.x * scale)},{_number(q.y * scale)}"
                                      for q in (c1, c2, end)))
            i += 2
        i += 1
    return " ".join(out)


def symbol_definition(group: MarkerGroup, ident: str) -> str:
    """The ``<path>`` of one marker (pyqtgraph's ``drawSymbol``: scaled, pen and brush)."""
    pen, brush = group.pen, group.brush
    attrs = [f'id="{ident}"', f'd="{path_data(symbol_path(group.symbol), group.size)}"']
    if brush.style() == QtCore.Qt.BrushStyle.NoBrush:
        attrs.append('fill="none"')
    else:
        fill, opacity = _color(brush.color())
        attrs.append(f'fill="{fill}" fill-opacity="{opacity}"')
    if pen.style() == QtCore.Qt.PenStyle.NoPen:
        attrs.append('stroke="none"')
    else:
        stroke, opacity = _color(pen.color())
        # a cosmetic pen keeps its width in pixels; a zero width is one pixel in Qt
        width = (pen.widthF() if pen.isCosmetic() else pen.widthF() * group.size) or 1.0
        attrs.append(f'stroke="{stroke}" stroke-opacity="{opacity}" '
                     f'stroke-width="{_number(width)}"')
    return f"<path {' '.join(attrs)}/>"


def _uses(ident: str, xy: np.ndarray) -> bytes:
    """``<use>`` elements of the symbol ``ident`` at the rows of ``xy`` (flat lists: a list
    per point is tracked by the garbage collector, whose full collections hold the UI)."""
    rounded = np.round(xy, 2)
    xs, ys = rounded[:, 0].tolist(), rounded[:, 1].tolist()
    head = f'<use xlink:href="#{ident}" x="'
    return "".join([f'{head}{x:g}" y="{y:g}"/>\n' for x, y in zip(xs, ys, strict=True)]).encode()


def group_svg(group: MarkerGroup, ident: str, clip=None, cancelled=None):
    """The SVG of one marker group, a generator of byte chunks (worker)."""
    xy = group.image_xy()
    if clip is not None:
        pad = group.size + max(group.pen.widthF(), 1.0)
        keep = ((xy[:, 0] > clip.left() - pad) & (xy[:, 0] < clip.right() + 1 + pad)
                & (xy[:, 1] > clip.top() - pad) & (xy[:, 1] < clip.bottom() + 1 + pad))
        xy = xy[keep]
    yield f"<defs>{symbol_definition(group, ident)}</defs>\n".encode()
    for start in range(0, len(xy), CHUNK):
        stop_if(cancelled)
        yield _uses(ident, xy[start:start + CHUNK])


@dataclass(frozen=True)
class RasterGroup:
    """The raster of many points, written as one ``<image>`` over ``rect`` (None: nothing)."""

    name: str
    image: QtGui.QImage
    rect: object

    def __len__(self) -> int:
        return 0  # no marker


def raster_svg(group: RasterGroup) -> bytes:
    """The ``<image>`` of a raster (worker: the PNG is encoded here), drawn pixel for pixel."""
    import base64

    r = group.rect
    data = base64.b64encode(qimage_bytes(group.image)).decode("ascii")
    return (f'<image x="{r.x()}" y="{r.y()}" width="{r.width()}" height="{r.height()}" '
            f'preserveAspectRatio="none" image-rendering="optimizeSpeed" '
            f'style="image-rendering:pixelated" '
            f'xlink:href="data:image/png;base64,{data}"/>\n').encode()


def markers_document(parts: SvgParts, cancelled=None, text: bytes | None = None):
    """pyqtgraph's document (``text`` if already serialized by :func:`document_text`) with
    the markers in its placeholders, as byte chunks (worker)."""
    if text is None:
        text = document_text(parts)
    at = 0
    for i, (group, token) in enumerate(zip(parts.groups, parts.tokens, strict=True)):
        where = text.find(token, at)
        if where < 0:  # the item was not written (hidden): neither are its markers
            continue
        yield text[at:where]
        if isinstance(group, RasterGroup):
            yield raster_svg(group)
        else:
            yield from group_svg(group, f"marker{i}", parts.clip, cancelled)
        at = where + len(token)
    stop_if(cancelled)
    yield text[at:]
