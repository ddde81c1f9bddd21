"""The window's status bar: messages that fit, and notices that go with their state.

A message wider than the room left of the permanent widgets is elided (the whole
in its tooltip), not cut under them; a notice about the workspace's state goes
when that state goes (:meth:`StatusBar.show_notice`).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["StatusBar"]

_MARGIN = 6  # Qt's own: the message starts 6 px from the left edge


class StatusBar(QtWidgets.QStatusBar):
    """A status bar whose messages never run under its permanent widgets; ``notice``: the
    workspace notice shown, while it shows."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("statusBar")
        self._permanent: list[QtWidgets.QWidget] = []
        self.notice: str | None = None
        self._notice_step = 0
        self.messageChanged.connect(self._on_message)

    def addPermanentWidget(self, widget, stretch: int = 0) -> None:  # noqa: N802 - Qt's name
        self._permanent.append(widget)
        super().addPermanentWidget(widget, stretch)

    def message_rect(self) -> QtCore.QRect:
        """Where the message is drawn: from the left margin to the first permanent widget."""
        right = min([self.width() - 2 * _MARGIN] + [w.x() - 2 for w in self._shown_permanent()])
        return QtCore.QRect(_MARGIN, 0, max(0, right - _MARGIN), self.height())

    def shown_text(self) -> str:
        """The message as drawn: the whole of it, or its start and "…"."""
        text = self.currentMessage()
        if not text:
            return ""
        metrics = self.fontMetrics()
        return metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight,
                                  self.message_rect().width())

    def _shown_permanent(self) -> list[QtWidgets.QWidget]:
        return [w for w in self._permanent if w.parent() is not None and w.isVisible()]

    def _on_message(self, text: str) -> None:
        self._update_tip(text)
        if self.notice is not None and text != self.notice:
            self.notice = None  # replaced by another message, or cleared / timed out

    def _update_tip(self, text: str | None = None) -> None:
        text = self.currentMessage() if text is None else text
        self.setToolTip(text if text and self.shown_text() != text else "")

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._update_tip()

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:  # noqa: N802 - Qt's name
        """Qt's painting, with the message elided to :meth:`message_rect`."""
        text = self.currentMessage()
        if not text:
            super().paintEvent(event)
            return
        painter = QtGui.QPainter(self)
        option = QtWidgets.QStyleOption()
        option.initFrom(self)
        style = self.style()
        style.drawPrimitive(QtWidgets.QStyle.PrimitiveElement.PE_PanelStatusBar, option,
                            painter, self)
        for widget in self._shown_permanent():  # the frames Qt draws around them
            option.rect = widget.geometry().adjusted(-2, -1, 2, 1)
            style.drawPrimitive(QtWidgets.QStyle.PrimitiveElement.PE_FrameStatusBarItem,
                                option, painter, widget)
        painter.setPen(self.palette().windowText().color())
        align = (QtCore.Qt.AlignmentFlag.AlignLeading | QtCore.Qt.AlignmentFlag.AlignVCenter
                 | QtCore.Qt.TextFlag.TextSingleLine)
        painter.drawText(self.message_rect(), align, self.shown_text())
        painter.end()

    def show_notice(self, text: str, step: int = 0, msecs: int = 8000) -> None:
        """Show a notice about the state at the run's ``step``; it goes with that state."""
        self.showMessage(text, msecs)
        self.notice, self._notice_step = text, int(step)

    def state_changed(self) -> None:
        """The data or the learner was replaced: a notice about the old state goes."""
        if self.notice is not None and self.currentMessage() == self.notice:
            self.clearMessage()
        self.notice = None

    def run_moved(self, step: int) -> None:
        """The run's cursor is at ``step``: a notice of a later step goes."""
        if self.notice is not None and step < self._notice_step:
            self.state_changed()
