"""File ▸ Open real data set: the classic data sets shipped with the program, one click each.

Each entry opens the sample as a new, untitled and unmodified document, as
``--generate`` starts (after asking to save unsaved changes); its description
goes to the status bar.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ...core import samples
from .. import errors
from ..actions import ActionSpec
from ..window_api import WindowAPI
from .progress import Job

__all__ = ["SampleMenu"]


class SampleMenu(QtCore.QObject):
    """The "Open real data set" submenu (``menuSamples``), placed by the File menu's manager."""

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("sampleMenu")
        self._window = window
        self.menu = QtWidgets.QMenu("Open &real data set", window.menus["file"],
                                    objectName="menuSamples")
        for name in samples.names():
            info = samples.SAMPLES[name]
            action = window.actions.make(ActionSpec(
                f"sample_{name}", info.title.replace("&", "&&"),
                lambda n=name: self.open_sample(n), tip=info.description,
                name=f"actionSample_{name}"))
            action.setToolTip(errors.plain_tooltip(info.description))
            self.menu.addAction(action)
        self.menu.addSection("Every class of the file")
        for name in samples.names():
            info = samples.SAMPLES[name]
            tip = (f"{info.file} by {info.x} and {info.y}, with every class of the file, "
                   "under a learner of m classes.")
            action = window.actions.make(ActionSpec(
                f"sample_{name}_every_class", info.every_class_title.replace("&", "&&"),
                lambda n=name: self.open_sample(n, every_class=True), tip=tip,
                name=f"actionSample_{name}_every_class"))
            action.setToolTip(errors.plain_tooltip(tip))
            self.menu.addAction(action)

    def open_sample(self, name: str, learner: str | None = None,
                    every_class: bool = False) -> Job:
        """Open a sample as a new document (with ``learner`` instead of the sample's own;
        ``every_class``: all of the file's classes); the job's result is True once it shows."""
        window = self._window
        try:
            workspace, info = samples.open_workspace(name, learner, all_classes=every_class)
        except ValueError as exc:  # an unknown name, or a damaged installation
            window.report_error(f"Cannot open the sample {name!r}", exc, dialog=False)
            return Job.resolved(False)
        window.playback.stop()
        return window.files.maybe_save("opening the sample").then(
            lambda go: self._show(workspace, info) if go else False)

    def _show(self, workspace, info) -> bool:
        window = self._window
        window.files.adopt(workspace)  # untitled, clean: like --generate
        window.show_message(f"{info.description} {info.classes_note}", 30000)
        return True

