"""The ``perceptron-gui render`` command: a workspace file or a demo to PNG, SVG or GIF.
"""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

from ....core.io import runstep
from ....core.text import fmt, fmt_short, plural
from .animation import advance, demos_module, next_checked, render_demo_gif, render_run_gif
from .common import (
    DEFAULT_FPS,
    DEFAULT_GIF_SIZE,
    DEFAULT_IMAGE_SIZE,
    DEFAULT_RUN_FRAMES,
    EXTENSIONS,
    RENDER_STEP_BUDGET,
    STEP_UNITS,
    ExportError,
    check_size,
    check_writable,
)
from .renderer import default_layers, export_canvas


def _load_source(source: str):
    """``("workspace", ws)`` or ``("demo", demo)`` of a workspace file or a demo."""
    from ....core import io as core_io
    from ....core.sources import load_source

    if not isinstance(source, (str, os.PathLike)):  # a Workspace the command line built
        return "workspace", source
    try:
        return load_source(source)
    except core_io.FormatError as exc:  # the core's one-line reason, naming the file
        raise ExportError(str(exc)) from exc


def _views_of(views: str | None, kind: str, obj) -> tuple:
    """The views to draw beside the canvas: ``--views`` as given, or with no names the demo's."""
    from .views import check_views

    if views is None:
        return ()
    names = tuple(n.strip() for n in views.split(",") if n.strip())
    if not names:
        if kind != "demo":
            raise ExportError("--views without names takes a demo's views: name the views "
                              "to draw beside the canvas, e.g. --views weights")
        names = tuple(obj.views)
        if not names:
            raise ExportError(f"the demo {obj.name!r} names no views: name the views to draw "
                              "beside the canvas, e.g. --views weights")
    return check_views(names)


def render_file(source: str, out: str, *, steps: int | None = None, size=None,
                fps: float | None = None, unit: str = "update", scale=None,
                views: str | None = None) -> str:
    """The ``perceptron-gui render`` command: a workspace file or a demo (name or file) to
    ``out``, a ``.png``, ``.svg`` or ``.gif`` file, or for a demo a folder of slides (an
    existing one, or a path ending in ``/``); a one-line summary of what was written.

    ``steps``: for a PNG or SVG the ``unit`` (or demo) steps taken first; for a
    GIF the frames (default: a demo's start and every step; the run's
    :data:`DEFAULT_RUN_FRAMES`).  ``views``: names separated by commas drawn
    right of the canvas, or ``""`` for the demo's.  An ExportError (nothing
    written) gives a one-line reason: for a demo also a failed check, or runs
    of more than :data:`RENDER_STEP_BUDGET` steps.
    """
    folder = is_folder_output(out)
    ext = "" if folder else Path(out).suffix.lower()
    if not folder and ext not in EXTENSIONS:
        raise ExportError(f"unknown output type {ext or '(none)'!r} for {out!r}: "
                          "use .png, .svg or .gif")
    least = 0 if ext in (".png", ".svg") else 1  # a GIF's frames, or slides
    if steps is not None and steps < least:
        raise ExportError(f"bad --steps {steps}: expected a number >= {least}")
    size = tuple(size) if size is not None else (
        DEFAULT_GIF_SIZE if ext == ".gif" else DEFAULT_IMAGE_SIZE)
    check_size(*size)
    if folder:
        return _render_slides(source, out, steps=steps, size=size, scale=scale, views=views)
    if unit not in STEP_UNITS:
        raise ExportError(f"unknown step unit {unit!r}; expected one of {', '.join(STEP_UNITS)}")
    check_writable(out)
    kind, obj = _load_source(source)
    shown = _views_of(views, kind, obj)
    if shown and (ext == ".svg" or (ext == ".gif" and kind != "demo")):
        raise ExportError("the views beside the canvas are drawn in a PNG, a demo's GIF or "
                          "its slides, not in " + ("an SVG" if ext == ".svg" else "a run's GIF"))
    if kind == "workspace" and obj.open_note:  # its stored position was not recomputed
        raise ExportError(f"{source}: its stored run position could take more than "
                          f"{fmt_short(runstep.RESTORE_SECONDS)} s to recompute, so it cannot be "
                          "rendered (the window opens such a file at the start of its run)")
    started = time.perf_counter()
    if ext == ".gif":
        if kind == "demo":
            result = render_demo_gif(obj, out, size=size, fps=fps or DEFAULT_FPS["demo"],
                                     frames=steps, scale=scale, step_budget=RENDER_STEP_BUDGET,
                                     checked=True, views=shown)
        else:
            result = render_run_gif(obj, out, frames=steps or DEFAULT_RUN_FRAMES, size=size,
                                    fps=fps or DEFAULT_FPS["run"], unit=unit,
                                    layers=default_layers(obj), view=obj.view, scale=scale)
        return (f"wrote {out}: {plural(result.frames, 'frame')}, {size[0]}x{size[1]}, "
                f"{fmt(time.perf_counter() - started, 1)} s")
    if kind == "demo":
        from ....core import Workspace

        ws = Workspace()
        player = demos_module().DemoPlayer(ws, obj, step_budget=RENDER_STEP_BUDGET)
        for _ in range(steps or 0):
            if next_checked(player) is None:
                break
        layers, view = {**default_layers(ws), **player.layers}, None
    else:
        ws = obj
        for _ in range(steps or 0):
            if not advance(ws, unit):
                break
        layers, view = default_layers(ws), ws.view
    export_canvas(ws, out, size, layers=layers, view=view, scale=scale, views=shown)
    return f"wrote {out}: {size[0]}x{size[1]}, {fmt(time.perf_counter() - started, 1)} s"


def is_folder_output(out: str) -> bool:
    """Whether ``out`` names a folder (slides): an existing folder or a path ending in /."""
    return out.endswith(("/", os.sep)) or Path(out).is_dir()


def _render_slides(source, out, *, steps, size, scale, views=None) -> str:
    """A demo to a folder of slides, every rendered step's checks verified."""
    from .slides import render_demo_slides

    kind, obj = _load_source(source)
    if kind != "demo":
        raise ExportError(f"{out}: a folder takes a demo's slides, and {source!r} is not a "
                          "demo; write a .png, .svg or .gif")
    shown = _views_of(views, kind, obj)
    started = time.perf_counter()
    # the start and the steps that give ``steps`` slides in all
    demo = obj if steps is None else dataclasses.replace(obj, steps=obj.steps[:steps - 1])
    result = render_demo_slides(demo, out, size=size, scale=scale,
                                step_budget=RENDER_STEP_BUDGET, checked=True, views=shown)
    return (f"wrote {result.frames} slides to {out} ({size[0]}x{size[1]}, slides.md, "
            f"slides.html), {fmt(time.perf_counter() - started, 1)} s")
