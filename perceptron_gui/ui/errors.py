"""How the program shows errors and asks questions: plain text, and at most one dialog at a time.

Every message box of the program is made here, its text *plain text*: a message
quotes file names, paths and values from files, and Qt would render a first line
that looks like HTML as rich text (a path containing ``<img src=/dev/zero>`` made
Qt read ``/dev/zero``); a tooltip that quotes such a string goes through
:func:`plain_tooltip`.  The exception hook logs an unexpected exception with its
traceback and says so in one dialog, never killing the program (losing the user's
points) nor burying it under dialogs: errors within ``FLOOD_SECONDS`` are only logged.
"""

from __future__ import annotations

import logging
import sys
import time
import traceback

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["ERROR_MSECS", "report", "install_excepthook", "ExceptionHook", "message_box",
           "warn", "ask", "about", "error_text", "plain_tooltip"]

log = logging.getLogger("perceptron_gui")
FLOOD_SECONDS = 10.0
#: How long an error reported in the status bar stays, in ms.
ERROR_MSECS = 8000

_B = QtWidgets.QMessageBox


def message_box(icon: QtWidgets.QMessageBox.Icon, title: str, text: str,
                buttons=_B.StandardButton.Ok, parent: QtWidgets.QWidget | None = None,
                default=None) -> QtWidgets.QMessageBox:
    """A message box showing ``text`` as plain text (never rendered as HTML)."""
    box = QtWidgets.QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(QtCore.Qt.TextFormat.PlainText)
    if default is not None:
        box.setDefaultButton(default)
    return box


def warn(parent: QtWidgets.QWidget | None, title: str, text: str) -> None:
    """Show a warning (plain text) and wait for OK: the one way to say that something failed."""
    message_box(_B.Icon.Warning, title, text, _B.StandardButton.Ok, parent).exec()


def ask(parent: QtWidgets.QWidget | None, title: str, text: str, buttons,
        default=None) -> QtWidgets.QMessageBox.StandardButton:
    """Ask a question (plain text); returns the standard button chosen."""
    box = message_box(_B.Icon.Question, title, text, buttons, parent, default)
    return _B.StandardButton(box.exec())


def about(parent: QtWidgets.QWidget | None, title: str, heading: str, text: str) -> None:
    """The About box: ``heading`` over ``text``, as plain text, with the window's icon."""
    box = message_box(_B.Icon.Information, title, f"{heading}\n\n{text}", _B.StandardButton.Ok,
                      parent)
    box.setIconPixmap(parent.windowIcon().pixmap(64, 64) if parent is not None else
                      QtGui.QPixmap())
    box.exec()


def report(window, summary: str, detail: str | BaseException | None = None, *,
           dialog: bool = True, msecs: int = ERROR_MSECS) -> None:
    """The one way an error (``summary``: what failed, ``detail``: why) reaches ``window``'s
    user, logged and announced: a box that waits for OK (a file or an export failed), or
    (``dialog=False``) the status bar for ``msecs`` (a value refused as typed)."""
    text = error_text(detail)
    exc = detail if isinstance(detail, BaseException) else None
    log.warning("%s%s", summary, f": {text}" if text else "",
                exc_info=(type(exc), exc, exc.__traceback__) if exc is not None else None)
    window.errorReported.emit(summary, text)
    if dialog:
        warn(window, summary, text or summary)
    else:
        window.statusBar().showMessage(f"{summary}: {text}" if text else summary, msecs)


def error_text(detail: str | BaseException | None) -> str:
    """The text of an error's detail: a string, an exception's message (else its type's name)."""
    if detail is None:
        return ""
    if isinstance(detail, BaseException):
        return str(detail) or type(detail).__name__
    return str(detail)


def plain_tooltip(text: str) -> str:
    """A tooltip showing ``text`` as it is, escaped in a rich-text paragraph (Qt renders a
    tooltip that looks like HTML as HTML)."""
    return QtGui.Qt.convertFromPlainText(text, QtCore.Qt.WhiteSpaceMode.WhiteSpaceNormal)


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
            what = str(exc)
            if len(what) > 200:  # the whole of it is in the details
                what = what[:200] + "…"
            box = message_box(
                _B.Icon.Warning, "Unexpected error",
                f"Something went wrong: {exc_type.__name__}: {what}\n\nYour points are "
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
