"""Fix-ups of pyqtgraph's SVG export (closed paths, circles), applied for one export.
"""

from __future__ import annotations

import math


def close_subpaths(d: str) -> str:
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


def ellipse_to_path(shape) -> None:
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


class closed_paths_as_lines:  # noqa: N801 - used as a context manager
    """Patch pyqtgraph's SVG coordinate fixer for the duration of one export."""

    def __enter__(self):
        import importlib

        self._module = importlib.import_module("pyqtgraph.exporters.SVGExporter")
        self._original = original = self._module.correctCoordinates

        def correct(node, defs, item, options):
            for tag in ("circle", "ellipse"):
                for shape in list(node.getElementsByTagName(tag)):
                    ellipse_to_path(shape)
            for path in node.getElementsByTagName("path"):
                d = path.getAttribute("d")
                if "Z" in d or "z" in d:
                    path.setAttribute("d", close_subpaths(d))
            return original(node, defs, item, options)

        self._module.correctCoordinates = correct
        return self

    def __exit__(self, *exc):
        self._module.correctCoordinates = self._original
