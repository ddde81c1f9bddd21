"""The case under the pointer in a view's plot, shared with the canvas through the view state.

A view that draws one mark per case (a margin in the losses view, a line in
weight space) points the canvas at the case under the pointer, and the
canvas highlights it; leaving the plot, or moving off the case, lets it go.
The plot's viewport is watched for every move and the leave, not the scene's
``sigMouseMoved``, which drops moves that come fast, the last one too.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore

__all__ = ["CaseHover"]


class CaseHover(QtCore.QObject):
    """Sets ``view_state.hovered`` to the case under the pointer over ``plot``.

    Parameters
    ----------
    plot : pg.PlotWidget
        The plot watched (its viewport tracks the mouse from now on).
    case_at : callable
        ``case_at(scene_pos) -> int | None``: the case drawn at a scene position.
    view_state : ViewState
        Whose ``hovered`` is set; only the case this plot pointed at is let go,
        never one another view or the canvas points at.
    """

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
