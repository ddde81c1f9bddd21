"""The application's exception hook: log every error, show at most one dialog at a time.

An unexpected exception in a slot must neither kill the program (losing the
user's points) nor bury them under dialogs: it is logged with its traceback,
and one dialog says what happened; errors that follow within
``FLOOD_SECONDS`` are only logged, and counted in the next dialog.
"""

from __future__ import annotations

import logging
import sys
import time
import traceback

from PySide6 import QtWidgets

__all__ = ["install_excepthook", "ExceptionHook"]

log = logging.getLogger("perceptron_gui")
FLOOD_SECONDS = 10.0


class ExceptionHook:
    """A ``sys.excepthook`` replacement (see the module docstring)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None, show_dialog: bool = True):
        self.parent = parent
        self.show_dialog = show_dialog
        self._last_dialog = -float("inf")
        self._suppressed = 0
        self._showing = False
        self.count = 0

    def __call__(self, exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        self.count += 1
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        log.error("Unexpected error:\n%s", text)
        now = time.monotonic()
        if self._showing or now - self._last_dialog < FLOOD_SECONDS:
            self._suppressed += 1
            return
        self._last_dialog = now
        if not self.show_dialog or QtWidgets.QApplication.instance() is None:
            return
        more = (f"\n\n({self._suppressed} further errors were logged without a dialog.)"
                if self._suppressed else "")
        self._suppressed = 0
        self._showing = True
        try:
            box = QtWidgets.QMessageBox(
                QtWidgets.QMessageBox.Warning, "Unexpected error",
                f"Something went wrong: {exc_type.__name__}: {exc}\n\nYour points are "
                f"unchanged; you can keep working and save.{more}", parent=self.parent)
            box.setDetailedText(text)
            box.exec()
        finally:
            self._showing = False


def install_excepthook(parent=None) -> ExceptionHook:
    """Install and return the hook (``sys.excepthook``)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    hook = ExceptionHook(parent)
    sys.excepthook = hook
    return hook
