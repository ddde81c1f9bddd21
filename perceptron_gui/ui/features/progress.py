"""Run a file job off the UI thread behind a cancellable progress dialog, and wait for it.

The work runs in :mod:`..workers` (the Qt layer's one worker type); the
caller waits in a local event loop, so the window repaints and the dialog's
Cancel button works while a file is read or written.
"""

from __future__ import annotations

import threading

from PySide6 import QtCore, QtGui, QtWidgets

from .. import workers

__all__ = ["APP_NAME", "fit_title", "run_with_progress"]

APP_NAME = "perceptron-gui"


def fit_title(dialog: QtWidgets.QDialog) -> None:
    """Make ``dialog`` at least as wide as its title needs in a window manager's title bar.

    A progress dialog is as wide as its label and bar, narrower than a title
    such as "Export the update log as CSV", which the window manager then
    cuts in the middle ("Export th… g as CSV").  The title is measured in a
    bold font a quarter larger than the dialog's (as title bars write), and
    room is left for the title bar's icon and buttons (ten lines of text high).
    """
    font = QtGui.QFont(dialog.font())  # title bars write in a larger, bold font
    font.setBold(True)
    font.setPointSizeF(font.pointSizeF() * 1.25)
    title = QtGui.QFontMetrics(font).horizontalAdvance(dialog.windowTitle())
    dialog.setMinimumWidth(title + 10 * dialog.fontMetrics().height())


def run_with_progress(parent: QtWidgets.QWidget, label: str, func, *, delay_ms: int = 400,
                      started=None, cancellable: bool = True):
    """Run ``func(progress)`` in a worker while the UI stays responsive; return its result.

    A window-modal :class:`QtWidgets.QProgressDialog` (objectName
    ``fileProgress``) with a Cancel button appears when the work takes longer
    than ``delay_ms``; Cancel makes the next ``progress(fraction)`` call
    return False, which the readers of :mod:`perceptron_gui.core.io` answer
    by raising :class:`~perceptron_gui.core.io.Cancelled`.

    Parameters
    ----------
    parent : QWidget
        The window the dialog belongs to.
    label : str
        What the dialog says is happening.
    func : callable
        ``func(progress) -> result``; it must not touch Qt objects.
    delay_ms : int, default=400
        How long the work may take before the dialog shows.
    started : callable, optional
        Called with the dialog before the work starts (tests use it).
    cancellable : bool, default=True
        False: no Cancel button and a busy indicator (``func`` reports no progress).

    Returns
    -------
    object
        What ``func`` returned.

    Raises
    ------
    Exception
        Whatever ``func`` raised (e.g. :class:`~perceptron_gui.core.io.FormatError`,
        :class:`~perceptron_gui.core.io.Cancelled`).
    """
    cancel = threading.Event()
    relay = workers.ProgressRelay()

    def progress(fraction: float) -> bool:
        relay.report(fraction)
        return not cancel.is_set()

    dialog = QtWidgets.QProgressDialog("", "Cancel", 0, 1000, parent)
    text = QtWidgets.QLabel(dialog)
    text.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # it quotes a file name
    dialog.setLabel(text)
    dialog.setLabelText(label)
    dialog.setObjectName("fileProgress")
    dialog.setWindowTitle(APP_NAME)
    fit_title(dialog)
    dialog.setWindowModality(QtCore.Qt.WindowModal)
    dialog.setAutoReset(False)
    dialog.setAutoClose(False)
    dialog.setMinimumDuration(max(0, delay_ms))
    dialog.canceled.connect(cancel.set)
    if not cancellable:
        dialog.setCancelButton(None)
        dialog.setRange(0, 0)
    loop = QtCore.QEventLoop()
    outcome: dict = {}

    def finish(ok: bool, value) -> None:
        if "ok" not in outcome:
            outcome["ok"], outcome["value"] = ok, value
        loop.quit()

    if cancellable:  # Cancel, Esc and closing the dialog emit canceled (connected above)
        relay.changed.connect(lambda fraction: cancel.is_set() or dialog.setValue(
            round(1000 * fraction)))
    if started is not None:
        started(dialog)
    dialog.setValue(0)
    workers.start(func, progress, returned=lambda value: finish(True, value),
                  errored=lambda exc: finish(False, exc))
    if "ok" not in outcome:
        loop.exec()
    relay.blockSignals(True)  # a step still queued must not reach the closed dialog
    relay.deleteLater()
    dialog.canceled.disconnect(cancel.set)
    dialog.reset()
    dialog.hide()
    dialog.deleteLater()
    if outcome["ok"]:
        return outcome["value"]
    raise outcome["value"]
