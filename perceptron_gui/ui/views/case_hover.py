"""The case under the pointer in a view's plot, shared with the canvas through the view state.

The viewport is watched, not the scene's ``sigMouseMoved``, which drops fast moves, the last too.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore

__all__ = ["CaseHover"]


class CaseHover(QtCore.QObject):
    """Sets ``view_state.hovered`` to the case ``case_at(scene_pos)`` under the pointer over
    ``plot``; leaving lets go only of the case this plot pointed at."""

    def __init__(self, plot, case_at: Callable, view_state):
        super().__init__(plot)
        self._plot = plot
        self._case_at = case_at
        self._state = view_state
        self.pointed: int | None = None  # the case this plot pointed at
        plot.viewport().setMouseTracking(True)
        plot.viewport().installEventFilter(self)

    def _moved(self, scene_pos) -> None:
        i = self._case_at(scene_pos)
        if i is not None:
            self.pointed = i
            self._state.set_hovered(i)
        elif self.pointed is not None:
            self._let_go()

    def _let_go(self) -> None:
        if self._state.hovered == self.pointed:
            self._state.set_hovered(None)
        self.pointed = None

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if (kind == QtCore.QEvent.Type.MouseMove
                and event.buttons() == QtCore.Qt.MouseButton.NoButton):
            self._moved(self._plot.mapToScene(event.position().toPoint()))
        elif kind == QtCore.QEvent.Type.Leave and self.pointed is not None:
            self._let_go()
        return super().eventFilter(watched, event)
