"""The File ▸ Export submenu of the main window and the exports behind it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ....core.text import fmt, plural
from ... import settings, style
from ...actions import ActionSpec
from ...window_api import WindowAPI, action_id
from ..recent_files import insert_menu_above
from .common import DEFAULT_GIF_SIZE, DEFAULT_RUN_FRAMES, ExportError

if TYPE_CHECKING:
    from .animation import GifResult
    from .job import StepsJob

# The renderer, the GIF maker, the job and the dialogs are imported when an export is
# asked for: the menu is built at launch, the exports are not.

class Exporter(QtCore.QObject):
    """The File ▸ Export submenu of a main window (above Quit), and the exports behind it."""

    #: ``(done, total)`` after each GIF frame.
    frameRendered = QtCore.Signal(int, int)

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("exporter")
        self.window = window
        self.progress_dialog: QtWidgets.QProgressDialog | None = None
        self.job: StepsJob | None = None
        self.last_result: GifResult | None = None
        self.menu = QtWidgets.QMenu("E&xport", window, objectName="menuExport")

        self.actionCanvasPng, self.actionCanvasSvg, self.actionWindowPng, self.actionGif = (
            window.actions.make(ActionSpec(action_id(name), text, slot, keys, tip))
            for name, text, slot, keys, tip in (
                ("actionExportCanvasPng", "Canvas as &PNG…", lambda: self.ask_canvas("png"),
                 ("Ctrl+Shift+E",), "Save the canvas as a PNG picture of a chosen size"),
                ("actionExportCanvasSvg", "Canvas as &SVG…", lambda: self.ask_canvas("svg"),
                 (), "Save the canvas as an SVG drawing of a chosen size"),
                ("actionExportWindowPng", "&Window as PNG…", self.ask_window, (),
                 "Save a picture of the whole window"),
                ("actionExportGif", "Run or demo as animated &GIF…", self.ask_gif, (),
                 "Animate the run (one frame per step) or a demo (one frame per demo "
                 "step) to a GIF")))
        self.menu.addActions([self.actionCanvasPng, self.actionCanvasSvg, self.actionWindowPng])
        self.menu.addSeparator()
        self.menu.addAction(self.actionGif)
        insert_menu_above(window.menus["file"], self.menu, window.actions["quit"])

    @property
    def busy(self) -> bool:
        """True while an export runs."""
        return self.job is not None

    def _run(self, make_steps, *, title: str, name: str, gif: bool, done_text, wait: bool,
             palette):
        """Run an export's steps in ``palette`` (default light) behind a progress dialog;
        ``done_text(result)`` is the status-bar message of a success."""
        from . import runner

        if self.job is not None:
            self._fail(ExportError("an export is already under way"))
            return None
        job, dialog = runner.start(
            self.window, lambda progress, cancelled: in_palette(
                make_steps(progress, cancelled), palette or style.LIGHT),
            title=title, name=name, minimum_ms=0 if gif else 300, parent=self)
        self.progress_dialog = dialog
        self.job = job

        def progressed(done, total, _text):
            if gif and done:
                self.frameRendered.emit(done, total)

        def finished(result):
            self.progress_dialog = None
            self.job = None
            if job.error is not None:
                self._fail(job.error if isinstance(job.error, ExportError)
                           else ExportError(f"{type(job.error).__name__}: {job.error}"))
            elif job.cancelled:
                self.window.show_message(f"{title}: cancelled, nothing was written.")
            else:
                self.window.show_message(done_text(result))

        job.progressed.connect(progressed)
        job.finished.connect(finished)
        return runner.wait(job) if wait else job

    def _as_on_screen(self, scale) -> dict:
        """The canvas's ``layers``, ``view`` and ``scale``, and at that scale its ``axes``: at
        its size every mark lands on its pixel on screen.  At other fonts, or with no canvas
        on screen (its axes not measured yet), the axes fit their own labels."""
        canvas = self.window.canvas
        own = style.PRESENTER if self.window.presenting else style.NORMAL
        scale = scale or own
        same = scale == own and canvas.viewport().isVisible()
        return {"layers": canvas.layers(), "view": canvas.view_rect(), "scale": scale,
                "axes": canvas.axis_space() if same else None}

    def _ask_path(self, title: str, suffix: str, filt: str, dialog=None) -> str | None:
        """A file to write, once ``dialog`` (if any) was accepted; None when declined."""
        if dialog is not None and dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return None
        folder = settings.value("export/lastFolder", "text") or \
            QtCore.QStandardPaths.writableLocation(
                QtCore.QStandardPaths.StandardLocation.PicturesLocation) or os.getcwd()
        suggestion = os.path.join(str(folder), f"perceptron{suffix}")
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self.window, title, suggestion, filt)
        if not path:
            return None
        if not path.lower().endswith(suffix):
            path += suffix
        QtCore.QSettings().setValue("export/lastFolder", os.path.dirname(path))
        return path

    def _fail(self, exc: Exception) -> None:
        self.window.report_error("Export failed", str(exc))

    def ask_canvas(self, fmt: str) -> str | None:
        """Ask for a size and a file, then export the canvas as ``fmt`` ("png" or "svg")."""
        from .dialogs import SizeDialog

        canvas = self.window.canvas
        shown = self.views_shown() if fmt == "png" else None
        both = None if shown is None else (canvas.width() + shown.width(),
                                           max(canvas.height(), shown.height()))
        dialog = SizeDialog((canvas.width(), canvas.height()), self.window.presenting,
                            f"Export the canvas as {fmt.upper()}", self.window, views_size=both)
        filt = "PNG pictures (*.png)" if fmt == "png" else "SVG drawings (*.svg)"
        path = self._ask_path(f"Export the canvas as {fmt.upper()}", f".{fmt}", filt, dialog)
        if path is None:
            return None
        return self.export_canvas(path, dialog.chosen_size(), fmt=fmt,
                                  scale=dialog.chosen_scale(), palette=_palette(dialog),
                                  views=dialog.include_views())

    def views_shown(self):
        """The view shown beside the canvas (the views area's current tab), or None."""
        area = self.window.views
        view = area.currentWidget()
        return view if area.isVisible() and view is not None else None

    def export_canvas(self, path, size, *, fmt: str | None = None, scale=None,
                      wait: bool = True, palette=None, views: bool = False):
        """Export the canvas as on screen at ``size`` (with ``views``, a PNG: the view shown
        beside it, to its right); the path (None on failure) with ``wait``, else the job."""
        from .renderer import canvas_steps

        ws, canvas = self.window.workspace, self.window.canvas
        screen = self._as_on_screen(scale)
        shown = self.views_shown() if views else None
        names, like, share = (), None, None
        if shown is not None:
            names, like = (shown.name,), {shown.name: shown}
            share = shown.width() / (shown.width() + canvas.width())

        def steps(progress, cancelled):
            return canvas_steps(ws, path, size, fmt=fmt, progress=progress, cancelled=cancelled,
                                views=names, like=like, views_share=share, **screen)

        result = self._run(steps, title="Export the canvas", name="exportProgress", gif=False,
                           done_text=lambda _r: f"Exported the canvas to {path} "
                                                f"({size[0]} × {size[1]}).", wait=wait,
                           palette=palette)
        return os.fspath(result) if wait and result is not None else result

    def ask_window(self) -> str | None:
        """Ask for a file, then save a picture of the window."""
        path = self._ask_path("Export the window as PNG", ".png", "PNG pictures (*.png)")
        return None if path is None else self.export_window(path)

    def export_window(self, path) -> str | None:
        """Save ``window.grab()`` as PNG; None on failure."""
        from .renderer import export_window_png

        try:
            w, h = export_window_png(self.window, path)
        except ExportError as exc:
            self._fail(exc)
            return None
        self.window.show_message(f"Exported the window to {path} ({w} × {h}).")
        return os.fspath(path)

    def ask_gif(self) -> str | None:
        """Ask what to animate (the run first, then the demos) and a file; then render."""
        from .animation import demo_titles, demos_module, replay_defaults
        from .dialogs import GifDialog

        canvas, ws = self.window.canvas, self.window.workspace
        dialog = GifDialog((canvas.width(), canvas.height()), self.window.presenting,
                           demo_titles(demos_module().list_demos()), can_run=ws.running,
                           parent=self.window, replay=replay_defaults(ws))
        if dialog.source.count() == 0:
            self._fail(ExportError("nothing to animate: " + (ws.problem or "no run and no demo")))
            return None
        path = self._ask_path("Export an animated GIF", ".gif", "GIF animations (*.gif)", dialog)
        if path is None:
            return None
        return self.export_gif(
            path, source=dialog.chosen_source(), size=dialog.chosen_size(), fps=dialog.fps.value(),
            frames=dialog.frames.value(), unit=dialog.unit.currentData(),
            from_start=dialog.from_start.isChecked(), scale=dialog.chosen_scale(),
            palette=_palette(dialog))

    def export_gif(self, path, *, source: str = "run", size=DEFAULT_GIF_SIZE,
                   fps: float = 4.0, frames: int = DEFAULT_RUN_FRAMES, unit: str = "update",
                   from_start: bool = False, scale=None, wait: bool = True,
                   palette=None):
        """Render the run (``source="run"``) or a demo (``"demo:NAME"``) to a GIF; the path
        (None on failure or cancel) with ``wait``, else the job."""
        from .animation import demo_gif_steps, demos_module, run_gif_steps

        ws = self.window.workspace
        if source.startswith("demo:"):
            try:
                demo = demos_module().load_demo(source[5:])
            except Exception as exc:  # DemoError or ExportError: one message
                self._fail(ExportError(str(exc)))
                return None

            def steps(progress, cancelled):
                return demo_gif_steps(demo, path, size=size, fps=fps, scale=scale,
                                      progress=progress, cancelled=cancelled)
        else:
            screen = self._as_on_screen(scale)

            def steps(progress, cancelled):
                return run_gif_steps(ws, path, frames=frames, size=size, fps=fps, unit=unit,
                                     from_start=from_start, progress=progress,
                                     cancelled=cancelled, **screen)

        def done_text(result):
            self.last_result = result
            extra = f" ({'; '.join(result.notes)})" if result.notes else ""
            return (f"Exported {plural(result.frames, 'frame')} to {path} in "
                    f"{fmt(result.seconds, 1)} s{extra}.")

        result = self._run(steps, title="Export an animated GIF", name="gifProgress", gif=True,
                           done_text=done_text, wait=wait, palette=palette)
        return os.fspath(result.path) if wait and result is not None else result


def in_palette(steps, palette):
    """Run an export's step generator with ``palette`` active during its own steps only (the
    window repaints between them in its own scheme)."""
    value, send = None, True
    while True:
        with style.using(palette):
            try:
                item = steps.send(value) if send else steps.throw(value)
            except StopIteration as stop:
                return stop.value
        try:
            value, send = (yield item), True
        except GeneratorExit:
            steps.close()
            raise
        except BaseException as exc:  # noqa: BLE001 - handed to the steps, as a Job throws
            value, send = exc, False


def _palette(dialog):
    """The palette a dialog asks for: the window's, or light (the default, for slides)."""
    return style.current() if dialog.scheme_box.isChecked() else style.LIGHT

