"""Export: the canvas to PNG and SVG, the window to PNG, a run or a demo to a GIF, the data.

Each export is a generator of steps (:mod:`.job`), its file written atomically.
The package imports only the menu's modules at launch; its functions below
import theirs on first call.
"""

from __future__ import annotations

from .common import EXTENSIONS, MIN_SIZE, ExportError, check_writable, parse_size, write_file
from .exporter import Exporter


def export_canvas(*args, **kwargs):
    """:func:`.renderer.export_canvas`: a workspace's canvas to PNG or SVG."""
    from .renderer import export_canvas as export

    return export(*args, **kwargs)


def export_window_png(*args, **kwargs):
    """:func:`.renderer.export_window_png`: the whole window to a PNG file."""
    from .renderer import export_window_png as export

    return export(*args, **kwargs)


__all__ = ["EXTENSIONS", "MIN_SIZE", "ExportError", "Exporter", "check_writable",
           "export_canvas", "export_window_png", "parse_size", "write_file"]
