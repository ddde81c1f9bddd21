"""The File ▸ Export submenu of the main window and the exports behind it.
"""

from __future__ import annotations

import os

from PySide6 import QtCore, QtGui, QtWidgets

from ....core.io import Cancelled
from ... import style
from .animation import GifResult, demos_module, render_demo_gif, render_run_gif
from .common import DEFAULT_GIF_SIZE, DEFAULT_RUN_FRAMES, ExportError
from .dialogs import GifDialog, SizeDialog
from .renderer import export_canvas, export_window_png

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
        return self._canvas().view_rect()

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
                                  scale=dialog.chosen_scale(), palette=_palette(dialog))

    def export_canvas(self, path, size, *, fmt: str | None = None, scale=None,
                      palette=None) -> str | None:
        """Export the canvas as it is on screen (layers, view) at ``size``; None on failure.

        The picture is drawn in ``palette`` (default :data:`style.LIGHT`, for slides).
        """
        try:
            with style.using(palette or style.LIGHT):
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
            from ....core import demos
        except ImportError:  # pragma: no cover
            return []
        return demos.listdemos_module()

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
            from_start=dialog.from_start.isChecked(), scale=dialog.chosen_scale(),
            palette=_palette(dialog))

    def export_gif(self, path, *, source: str = "run", size=DEFAULT_GIF_SIZE,
                   fps: float = 4.0, frames: int = DEFAULT_RUN_FRAMES, unit: str = "update",
                   from_start: bool = False, scale=None, palette=None) -> str | None:
        """Render the run (``source="run"``) or a demo (``"demo:NAME"``) to a GIF.

        A modal progress dialog with a Cancel button is shown while the frames
        are rendered; cancelling writes nothing.  Returns the path, or None when
        cancelled or failed.
        """
        ws = self.window.workspace
        # the frames are rendered from a copy taken now: stop the run moving under it
        # (playback and "run to end" would otherwise race a replay on the workspace)
        self.window.playback.stop()
        total = frames
        if source.startswith("demo:"):
            try:
                demo = demos_module().load_demo(source[5:])
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
            with style.using(palette or style.LIGHT):  # exports are light unless asked
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


def _palette(dialog):
    """The palette a dialog asks for: the window's, or light (the default, for slides)."""
    return style.current() if dialog.scheme_box.isChecked() else style.LIGHT


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
