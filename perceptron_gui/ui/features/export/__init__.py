"""Export: the canvas to PNG and SVG, the window to PNG, a run or a demo to a GIF, the data.

Pictures for slides come from an *offscreen* canvas (:class:`.renderer.CanvasRenderer`):
a second :class:`~perceptron_gui.ui.widgets.canvas.Canvas`, never shown on screen,
sized to exactly the pixels asked for, drawing the same layers and the same
view rectangle as the window's canvas, but no data points.  A picture (PNG,
GIF frame) is the scene under the markers and the scene over them, recorded
by pyqtgraph as ``QPicture`` s on the UI thread (:mod:`.passes`), with the
markers (data points from the data set, mistake crosses) painted between them
by ``QPainter`` in a worker (:mod:`.points`), where the pictures are played
too.  An SVG is written by pyqtgraph one item at a time on the UI thread, each
marker item a placeholder, and serialized with its markers in a worker
(:mod:`.svg`).  Each export is a generator of steps (:mod:`.job`) that the
window runs from its event loop with progress and Cancel, and the headless
renderer runs synchronously.  The visible window is never resized or
repainted for an export.

An animation is rendered on a *copy* of the workspace (same data, learner,
parameters and run position; the run is deterministic), made, replayed and
stepped in a worker, so the run on screen does not move while the frames are
made and a cancelled export leaves it exactly as it was.  Frames:

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

The data exports (the update log as CSV or LaTeX, the points as CSV;
:mod:`.tables`) run the same way: the file's blocks are written in a worker,
with progress in rows and Cancel.  A LaTeX table holds at most
:data:`perceptron_gui.core.report_latex.LATEX_MAX_ROWS` rows; for a longer log a
dialog (:class:`.dialogs.RangeDialog`) asks which updates to export.

Every file is written atomically (a temporary file in the same folder, then
:func:`os.replace`): a failure or a cancel leaves no partial file.

The headless ``perceptron-gui render`` command calls
:func:`.headless.render_file`.

Modules: :mod:`.common` (sizes, errors, atomic writes), :mod:`.job` (steps
run now or from the event loop), :mod:`.runner` (a job behind a progress
dialog with Cancel: every export's one way to run), :mod:`.tables` (the data
exports), :mod:`.renderer` (the offscreen canvas, PNG
and SVG), :mod:`.passes` (the scene under and over the markers, as pictures),
:mod:`.points` (the markers, painted in a worker), :mod:`.svg` (the scene an
item at a time, the markers as text, fix-ups of pyqtgraph's SVG),
:mod:`.frames` (captions and the GIF writer), :mod:`.animation` (runs and
demos to GIFs), :mod:`.headless` (``perceptron-gui render``), :mod:`.dialogs`
and :mod:`.exporter` (the File ▸ Export submenu).

The package imports only the menu's modules: the window builds the Export
menu at launch, the renderer and the GIF maker when an export is asked for.
Its functions below import theirs on first call; the classes are in their
modules (``export.renderer.CanvasRenderer``, ``export.dialogs.SizeDialog``).
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
