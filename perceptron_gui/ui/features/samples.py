"""File ▸ Open sample data: the classic data sets shipped with the program, one click each.

Each entry (:func:`perceptron_gui.core.samples.names`) replaces the points by
the sample's (one undo step), switches to its learner and parameters, shows
its view, and puts its description in the status bar.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from ...core import samples
from ...core.dataset import ReplaceAll
from ..window_api import WindowAPI

__all__ = ["SampleMenu", "install"]


class SampleMenu(QtCore.QObject):
    """The "Open sample data" submenu and what its entries do.

    Parameters
    ----------
    window : WindowAPI
        The window the samples open in.

    Attributes
    ----------
    menu : QMenu
        The submenu (objectName ``menuSamples``), one action per sample
        (objectName ``actionSample_<name>``).
    """

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("sampleMenu")
        self._window = window
        file_menu = window.menus["file"]
        self.menu = QtWidgets.QMenu("Open &sample data", file_menu)
        self.menu.setObjectName("menuSamples")
        for name in samples.names():
            info = samples.SAMPLES[name]
            action = QtGui.QAction(name, self.menu)
            action.setObjectName(f"actionSample_{name}")
            action.setToolTip(info.description)
            action.setStatusTip(info.description)
            action.triggered.connect(lambda _checked=False, n=name: self.open_sample(n))
            self.menu.addAction(action)
            window.add_action(f"sample_{name}", action)
        before = window.actions["save"]
        if before in file_menu.actions():
            file_menu.insertMenu(before, self.menu)
        else:
            file_menu.addMenu(self.menu)

    def open_sample(self, name: str) -> bool:
        """Show a sample: its points (one undo step), learner, parameters and view.

        Returns False (with a message) when the sample cannot be read or an
        edit guard refused the edit; nothing changes then.
        """
        window = self._window
        try:
            dataset, info = samples.load(name)
        except ValueError as exc:  # an unknown name, or a damaged installation
            window.report_error(f"Cannot open the sample {name!r}", exc, dialog=False)
            return False
        window.playback.stop()
        if not window.push_edit(ReplaceAll.from_dataset(dataset, f"open sample {name}")):
            return False
        ws = window.workspace
        ws.set_learner(info.learner)
        if info.params:
            ws.set_params(**dict(info.params))
        (x0, x1), (y0, y1) = info.view
        window.canvas.set_view_rect((x0, x1), (y0, y1))
        window.show_message(f"{info.description} {info.classes_note}", 30000)
        return True


def install(window: WindowAPI) -> SampleMenu:
    """Add File ▸ Open sample data to ``window``; returns the :class:`SampleMenu`."""
    return SampleMenu(window)
