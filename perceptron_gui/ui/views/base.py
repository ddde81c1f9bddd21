"""The base of a view beside the canvas: name, title, presenter scale, theme, subscriptions."""

from __future__ import annotations

from typing import ClassVar

from PySide6 import QtCore, QtWidgets

from .. import style
from ..deferred import YieldingTimer
from ..wording import problem_text

__all__ = ["REFRESH_MS", "Paged", "View", "workspace_events"]

#: Least time between two repaints of a costly view during playback (ms).
REFRESH_MS = 40


def workspace_events(workspace) -> tuple:
    """The workspace's four change events: learner, run, data set, theory."""
    events = workspace.events
    return (events.learner_changed, events.run_changed, events.dataset_changed,
            events.theory_changed)


class Paged:
    """Mixin of a widget that shows its page, or a message instead of it."""

    def _paged(self, message_name: str, page: QtWidgets.QWidget | None = None,
               margin: int = 12, host: QtWidgets.QWidget | None = None
               ) -> QtWidgets.QVBoxLayout | None:
        """Stack ``page`` (default: a new one, whose column is returned) and the message,
        a centred, wrapping label, in ``host`` (default: this widget)."""
        self._stack = QtWidgets.QStackedLayout(host or self)
        column = None
        if page is None:
            page = QtWidgets.QWidget(objectName=f"{self.objectName()}Page")
            column = QtWidgets.QVBoxLayout(page)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(4)
        self._message = QtWidgets.QLabel(objectName=message_name, wordWrap=True, margin=margin,
                                         alignment=QtCore.Qt.AlignmentFlag.AlignCenter)
        self._stack.addWidget(page)
        self._stack.addWidget(self._message)
        return column

    @property
    def message(self) -> str:
        """The message shown instead of the page ("" when the page is shown)."""
        return self._message.text() if self._stack.currentIndex() == 1 else ""

    def set_message(self, text: str) -> None:
        """Show ``text`` instead of the page (a subclass may extend it, calling super)."""
        self._message.setText(text)
        self._stack.setCurrentIndex(1)

    def _page_for(self, ws, no_steps: str, no_run: str) -> bool:
        """Show the page (True), or why ``ws`` has no run to draw (False)."""
        if not ws.capabilities.steps:
            self.set_message(no_steps)
        elif not ws.running:
            self.set_message(problem_text(ws) or no_run)
        else:
            self._stack.setCurrentIndex(0)
            return True
        return False


class View(Paged, QtWidgets.QWidget):
    """A widget beside the canvas that draws the workspace.

    A subclass sets :attr:`name` (its key in ``VIEW_TYPES``) and :attr:`title`
    (its tab's text) and draws in :meth:`refresh`.  A burst of its
    :meth:`subscriptions` is one call of :meth:`workspace_changed`, at most
    every :attr:`refresh_ms`.
    """

    #: A command the view's gestures make (a click on a step: ``Seek``), for the window.
    commandIssued = QtCore.Signal(object)

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: Least time between two coalesced refreshes (ms; 0: the next pass of the event loop).
    refresh_ms: ClassVar[int] = 0
    #: Whether a change redraws the view while it is hidden (False: when next shown; a
    #: view whose redraw costs milliseconds at 10⁵ points spares a hidden tab them).
    redraw_hidden: ClassVar[bool] = True
    #: The widget's objectName (default ``view_<name>``).
    object_name: ClassVar[str] = ""

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName(self.object_name or f"view_{self.name}")
        self._workspace = workspace
        self._scale = style.NORMAL
        self._stale = False  # a change came while hidden: redraw when next shown
        # coalesce and cap: the first change starts the timer, later ones ride on it
        self._refresh_timer = YieldingTimer(self, self.workspace_changed,
                                            interval_ms=self.refresh_ms,
                                            name=f"{self.objectName()}RefreshTimer")
        for event in self.subscriptions(workspace):
            event.connect(self._refresh_timer.schedule)

    # -- what a view is ---------------------------------------------------------------------
    @property
    def workspace(self):
        """The workspace drawn."""
        return self._workspace

    @property
    def scale(self) -> style.Scale:
        """The sizes drawn with: :data:`style.NORMAL`, or :data:`style.PRESENTER`."""
        return self._scale

    def set_scale(self, scale: style.Scale) -> None:
        """Draw with the line widths and font sizes of ``scale`` (presenter mode)."""
        self._scale = scale
        self.restyle()

    def apply_theme(self, palette: style.Palette) -> None:
        """The colour scheme changed to ``palette``: restyle."""
        self.restyle()

    def subscriptions(self, workspace) -> tuple:
        """The workspace's signals that make the view due to redraw (default: all four)."""
        return workspace_events(workspace)

    def hide_controls(self) -> None:
        """Hide the controls a picture of the view has no use for (a slide); default: none."""

    def copy_state_from(self, other: View) -> None:
        """Take what the user chose on ``other``, a view of the same kind (an export's copy)."""

    # -- drawing ------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw from the workspace now."""
        raise NotImplementedError

    def workspace_changed(self) -> None:
        """The coalesced reaction to the subscriptions: :meth:`refresh` (with
        :attr:`redraw_hidden` False, when next shown)."""
        self.refresh() if self.redraw_hidden else self.refresh_shown()

    def refresh_shown(self) -> None:
        """:meth:`refresh` now if shown, else when next shown (a restyle in presenter mode,
        which hides the views, spares a redraw of 10⁶ margins)."""
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._stale:
            self._stale = False
            self.refresh()

    def restyle(self) -> None:
        """Take :attr:`scale` and the current palette (default: :meth:`refresh`)."""
        self.refresh()

    def stop_pending_refresh(self) -> None:
        """Drop a coalesced refresh that is due (a direct :meth:`refresh` made it moot)."""
        self._refresh_timer.stop()
