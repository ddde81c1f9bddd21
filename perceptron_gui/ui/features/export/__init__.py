"""Export: the canvas to PNG and SVG, the window to PNG, a run or a demo to a GIF, the data.

Pictures come from an offscreen canvas (:mod:`.renderer`) whose scene is
recorded on the UI thread and whose markers are painted in a worker; an
animation is rendered on a copy of the workspace (:mod:`.animation`), each
frame with a caption strip so that consecutive frames differ. Each export is a
generator of steps (:mod:`.job`) run behind a progress dialog with Cancel
(:mod:`.runner`), or synchronously by ``perceptron-gui render``
(:mod:`.headless`). Every file is written atomically: a failure or a cancel
leaves no partial file.

The package imports only the menu's modules at launch; its functions below
import theirs on first call.
"""

from __future__ import annotations

from ....core.io import Cancelled
from .common import (
                        DEFAULT_FPS,
                        DEFAULT_GIF_SIZE,
                        DEFAULT_IMAGE_SIZE,
                        DEFAULT_RUN_FRAMES,
                        EXTENSIONS,
                        MAX_FRAMES,
                        MAX_SIZE,
                        MIN_SIZE,
                        PRESETS,
                        STEP_UNITS,
                        ExportError,
                        check_size,
                        check_writable,
                        parse_size,
                        qimage_bytes,
                        write_file,
)
from .exporter import Exporter, install


def render_file(*args, **kwargs):
    """:func:`.headless.render_file` (the ``perceptron-gui render`` command)."""
    from .headless import render_file as render

    return render(*args, **kwargs)


def render_run_gif(*args, **kwargs):
    """:func:`.animation.render_run_gif`: a run to an animated GIF."""
    from .animation import render_run_gif as render

    return render(*args, **kwargs)


def render_demo_gif(*args, **kwargs):
    """:func:`.animation.render_demo_gif`: a demo to an animated GIF."""
    from .animation import render_demo_gif as render

    return render(*args, **kwargs)


def clone_workspace(*args, **kwargs):
    """:func:`.animation.clone_workspace`: a copy of a workspace at its run position."""
    from .animation import clone_workspace as clone

    return clone(*args, **kwargs)


def export_canvas(*args, **kwargs):
    """:func:`.renderer.export_canvas`: a workspace's canvas to PNG or SVG."""
    from .renderer import export_canvas as export

    return export(*args, **kwargs)


def export_window_png(*args, **kwargs):
    """:func:`.renderer.export_window_png`: the whole window to a PNG file."""
    from .renderer import export_window_png as export

    return export(*args, **kwargs)


__all__ = [
    "ExportError",
    "Cancelled",
    "Exporter",
    "install",
    "render_file",
    "render_run_gif",
    "render_demo_gif",
    "clone_workspace",
    "export_canvas",
    "export_window_png",
    "parse_size",
    "write_file",
    "STEP_UNITS",
    "PRESETS",
    "DEFAULT_FPS",
    "DEFAULT_GIF_SIZE",
    "DEFAULT_IMAGE_SIZE",
    "DEFAULT_RUN_FRAMES",
    "EXTENSIONS",
    "MAX_FRAMES",
    "MAX_SIZE",
    "MIN_SIZE",
    "check_size",
    "check_writable",
    "qimage_bytes",
]
