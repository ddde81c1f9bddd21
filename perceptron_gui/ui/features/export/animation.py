"""Animations: a run or a demo rendered frame by frame to a GIF.

A run is rendered on a *copy* of the workspace (the run is deterministic), so
the run on screen does not move and a cancelled export leaves it as it was.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from ....core.learners import registry
from ....core.text import either, fmt_count, plural
from ... import style
from .common import (
    DEFAULT_GIF_SIZE,
    DEFAULT_RUN_FRAMES,
    MAX_FRAMES,
    STEP_UNITS,
    ExportError,
    check_writable,
    stop_if,
)
from .frames import GifWriter, caption_height, caption_scale, compose_frame
from .job import Offload, report, run_now
from .renderer import CanvasRenderer, compose, default_layers, paint_layer, write_checked


def can_clone(workspace) -> bool:
    """Whether a copy of ``workspace`` replays the same run (not a random order without a seed)."""
    p = workspace.all_params().get(workspace.learner_name, {})
    return not (p.get("order") == "random" and p.get("random_state") is None)


def _clone(state, from_start: bool = False, layers=None):
    """A copy of a workspace (any thread) from ``state`` read on the UI thread (the data set
    is immutable), at the run position; with ``layers``, :func:`warm` too."""
    from ....core import Workspace

    dataset, learner, params, view, step = state
    copy = Workspace(dataset=dataset, learner=learner, params=params)
    copy.view = view
    if from_start:
        copy.seek(0)
    elif copy.running and step:
        copy.seek(step)
    if layers is not None:
        warm(copy, layers)
    return copy


def warm(workspace, layers) -> None:
    """Compute (and cache) what a canvas with ``layers`` on reads of ``workspace`` (any thread),
    so that its redraw on the UI thread finds it ready (the readouts: at first Novikoff's
    certificate over every sample)."""
    if not workspace.dataset.n:
        return
    workspace.readouts()
    workspace.misclassified()
    if layers.get("max_margin"):
        workspace.max_margin  # noqa: B018 - fills the cache
    if layers.get("lda") or workspace.capabilities.class_model:
        workspace.lda  # noqa: B018 - fills the cache


def _advance_warm(workspace, unit: str, layers) -> bool:  # worker: a copy no view follows
    moved = advance(workspace, unit)
    if moved:
        warm(workspace, layers)
    return moved


def advance(workspace, unit: str) -> bool:
    """One step of ``unit`` ("sample", "update" or "epoch"); False when the run cannot move."""
    if not workspace.can_step:
        return False
    before = workspace.step_count
    {"sample": workspace.step, "update": workspace.step_update,
     "epoch": workspace.step_epoch}[unit]()
    return workspace.step_count != before


def replay_defaults(workspace) -> tuple[bool, str, int]:
    """What a GIF of the run shows by default: ``(from_start, unit, frames)``.

    Past the start, the run replayed from ``w = 0`` to the current step (a
    finished run animated from its end would be one frame), by update, else
    epoch, as :data:`MAX_FRAMES` allows; at the start, the next updates.
    """
    event = workspace.current_event if workspace.running else None
    if event is None:
        return False, "update", DEFAULT_RUN_FRAMES
    if event.k == 0:  # steps without an update yet: the samples looked at
        return True, "sample", min(event.step + 1, MAX_FRAMES)
    if event.k + 1 <= MAX_FRAMES:
        return True, "update", event.k + 1
    if event.epoch + 2 <= MAX_FRAMES:
        return True, "epoch", event.epoch + 2
    return True, "update", MAX_FRAMES


def demo_titles(names) -> list[tuple[str, str]]:
    """``(name, title)`` of each demo (its name, said unreadable, when it cannot be loaded)."""
    demos = demos_module()
    out = []
    for name in names:
        try:
            out.append((name, demos.load_demo(name).title))
        except Exception:  # noqa: BLE001 - DemoError or an OS error: listed, it fails when chosen
            out.append((name, f"{name} (cannot be read)"))
    return out


def run_caption(workspace) -> str:
    """The caption of a run frame: the run's status and Novikoff's bound."""
    r = workspace.readouts()
    parts = [r.status] if r.status else []
    if r.bound_text and r.bound_text != "—":
        parts.append(r.bound_text)
    return "   ·   ".join(parts)


def _frame(parts, layer, caption, counter, strip, scale, writer, cancelled, side=None):
    """One GIF frame (worker); the data ``layer``, painted once, is returned for the next."""
    from .views import beside

    if layer is None and parts.n_data:
        layer = yield from paint_layer(parts.size, parts.groups[:parts.n_data],
                                       parts.clip, cancelled)
    image = beside((yield from compose(parts, cancelled, layer)), side)
    if caption is not None:
        image = compose_frame(image, caption, counter, strip, scale)
    stop_if(cancelled)
    writer.add(image, caption)
    return layer


def _save(writer, path, cancelled):  # worker; a cancel before the rename writes nothing
    write_checked(path, writer.encode(), cancelled)
    return os.fspath(path)


@dataclass
class GifResult:
    """What an animation export wrote."""

    path: str
    frames: int
    size: tuple
    seconds: float
    notes: list = field(default_factory=list)


def render_run_gif(workspace, path, **options) -> GifResult:
    """:func:`run_gif_steps` now."""
    return run_now(run_gif_steps(workspace, path, **options))


def run_gif_steps(workspace, path, *, frames: int, size=DEFAULT_GIF_SIZE, fps: float = 4.0,
                  unit: str = "update", from_start: bool = False, layers=None, view=None,
                  scale=None, caption: bool = True, progress=None, cancelled=None, axes=None):
    """The steps (:mod:`.job`) of a run's animated GIF, made on a copy: the start (``w = 0``
    with ``from_start``), then a frame per ``unit`` until the run ends; ``size`` includes
    the caption strip, ``layers, view, scale, axes`` are :class:`CanvasRenderer`'s."""
    if unit not in STEP_UNITS:
        raise ExportError(f"unknown step unit {unit!r}; expected one of {', '.join(STEP_UNITS)}")
    frames = int(frames)
    if not 1 <= frames <= MAX_FRAMES:
        raise ExportError(f"bad frame count {frames}: expected 1 to {MAX_FRAMES}")
    if not workspace.running:  # a problem with the data, or a learner fitted at once
        steppers = either(registry.LEARNERS[key] for key in registry.stepping())
        raise ExportError("nothing to animate: " + (workspace.problem or (
            f"{workspace.spec.no_steps_text} Choose a learner that steps: {steppers}.")))
    check_writable(path)
    writer = GifWriter(fps)
    started = time.perf_counter()
    scale = scale or style.NORMAL
    shown = dict(layers if layers is not None else default_layers(workspace))
    restore = None
    if can_clone(workspace):  # copied, replayed and computed in a worker
        state = (workspace.dataset, workspace.learner_name, workspace.all_params(),
                 workspace.view, workspace.step_count)
        ws = yield Offload(_clone, state, from_start, shown)
    else:  # replay on the workspace itself (on this thread: the window follows it)
        ws, restore = workspace, workspace.step_count
        if from_start:
            ws.seek(0)
    try:
        # two lines: the status and the bound of a finished run need them on small frames
        strip = caption_height([], size[0], scale, max_lines=2, min_lines=2) if caption else 0
        yield
        with CanvasRenderer(ws, (size[0], size[1] - strip), layers=layers, view=view,
                            scale=scale, defer=True, axes=axes) as renderer:
            yield from renderer.build_steps()
            layer = None
            for i in range(frames):
                yield
                if i:
                    moved = (advance(ws, unit) if restore is not None
                             else (yield Offload(_advance_warm, ws, unit, shown)))
                    if not moved:
                        break
                parts = yield from renderer.parts_steps()
                text = run_caption(ws) if caption else None
                layer = yield Offload(_frame, parts, layer, text, f"step {ws.step_count}",
                                      strip, scale, writer, cancelled)
                report(progress, i + 1, frames,
                       f"Rendered frame {fmt_count(i + 1)} of {fmt_count(frames)}")
    finally:
        if restore is not None:
            workspace.seek(restore)
    yield Offload(_save, writer, path, cancelled)
    notes = []
    if len(writer) < frames:
        notes.append(f"the run ended after {plural(len(writer) - 1, 'step')}: "
                     f"{plural(len(writer), 'frame')}")
    return GifResult(os.fspath(path), len(writer), tuple(size), time.perf_counter() - started,
                     notes)


def demos_module():
    from ....core import demos

    return demos


def _caption(text: str) -> str:
    """A demo caption as the caption bar shows it: bounded, its long words breakable."""
    from ..demo_caption import SHOWN_CAPTION_CHARS, breakable

    return breakable(text, SHOWN_CAPTION_CHARS)


def next_checked(player):
    """The player's next step; ExportError when a check fails (the captions state the
    demo's numbers) or the step budget is passed."""
    step = _next(player, demos_module())
    failures = player.check(step) if step is not None else []
    if failures:
        shown = "; ".join(failures[:2]) + ("; …" if len(failures) > 2 else "")
        raise ExportError(f"{player.demo.source}: a check failed at step {player.index} "
                          f"({step.action}): {shown[:200]}")
    return step


def _next(player, demos):
    try:
        return player.next()
    except demos.DemoError as exc:
        raise ExportError(str(exc)) from exc


def render_demo_gif(demo, path, **options) -> GifResult:
    """:func:`demo_gif_steps` now."""
    return run_now(demo_gif_steps(demo, path, **options))


def demo_gif_steps(demo, path, *, size=DEFAULT_GIF_SIZE, fps: float = 0.5,
                   frames: int | None = None, scale=None, progress=None, cancelled=None,
                   step_budget: int | None = None, checked: bool = False, views=()):
    """The steps (:mod:`.job`) of a demo's animated GIF: its start, then a frame per step.

    ``demo`` is a loaded demo or a name or path; 0.5 fps gives a caption a few
    seconds.  More run steps than ``step_budget``, or with ``checked`` a failed
    check, is an ExportError and nothing is written.
    """
    demo = load_for_export(demo)
    check_writable(path)
    started = time.perf_counter()
    writer = GifWriter(fps)
    yield from demo_frames_steps(demo, writer, size=size, frames=frames, scale=scale,
                                 progress=progress, cancelled=cancelled,
                                 step_budget=step_budget, checked=checked, views=views)
    yield Offload(_save, writer, path, cancelled)
    return GifResult(os.fspath(path), len(writer), tuple(size), time.perf_counter() - started)


def load_for_export(demo):
    """``demo`` loaded (a Demo, or a name or path), or an ExportError saying why not."""
    demos = demos_module()
    if isinstance(demo, demos.Demo):
        return demo
    try:
        return demos.load_demo(demo)
    except demos.DemoError as exc:
        raise ExportError(str(exc)) from exc


def demo_frames_steps(demo, sink, *, size=DEFAULT_GIF_SIZE, frames: int | None = None,
                      scale=None, progress=None, cancelled=None, step_budget: int | None = None,
                      checked: bool = False, views=()):
    """Render a loaded demo's frames into ``sink.add(image, caption)`` (a GIF or slides);
    the number of frames."""
    from ....core import Workspace
    from .views import ViewsRenderer, check_views, split

    demos = demos_module()
    total = len(demo.steps) + 1 if frames is None else int(frames)
    if not 1 <= total <= MAX_FRAMES:
        raise ExportError(f"bad frame count {total}: expected 1 to {MAX_FRAMES}")
    total = min(total, len(demo.steps) + 1)
    scale = scale or style.NORMAL
    ws = Workspace()
    player = demos.DemoPlayer(ws, demo, step_budget=step_budget)
    captions = [_caption(demo.description)] + [_caption(s.caption or s.text)
                                                for s in demo.steps[: total - 1]]
    # the captions and the views at the sizes their room holds (as the window's)
    words = caption_scale(captions, size[0], scale)
    strip = caption_height(captions, size[0], words)
    views = check_views(views or ())
    width, side_width = split(size[0], len(views))
    side = ViewsRenderer(ws, views, (side_width, size[1] - strip),
                         scale=style.pane_scale(scale, side_width),
                         controls=False) if views else None
    try:
        with CanvasRenderer(ws, (width, size[1] - strip), scale=scale, defer=True) as renderer:
            yield from renderer.build_steps()
            shown = None
            for i in range(total):
                yield
                if i and checked:
                    next_checked(player)
                elif i:
                    _next(player, demos)
                renderer.set_layers({**default_layers(ws), **player.layers})
                if ws.dataset is not shown:  # new data: frame it
                    renderer.set_view(None)
                    shown = ws.dataset
                parts = yield from renderer.parts_steps()
                beside = side.image() if side is not None else None
                # the view can change between steps: the data layer is painted for each frame
                yield Offload(_frame, parts, None, _caption(player.caption),
                              f"{i + 1} / {total}", strip, words, sink, cancelled, beside)
                report(progress, i + 1, total, f"Rendered frame {i + 1} of {total}")
    finally:
        if side is not None:
            side.close()
    return total
