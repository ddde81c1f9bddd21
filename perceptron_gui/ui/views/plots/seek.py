"""A click on a live plot goes to that step, as the timeline, the update log and weight space do.

The bound plot's horizontal axis counts steps, the proof's two plots count updates.
"""

from __future__ import annotations

import math

from PySide6 import QtCore

from ....core.commands import Seek
from ...widgets.timeline_bar import run_length

__all__ = ["UNITS", "ClickToSeek", "step_at"]

#: What a plot's horizontal axis counts.
UNITS = ("step", "update")


def step_at(learner, unit: str, x: float) -> int | None:
    """The step of the run at abscissa ``x`` of a plot counting ``unit`` (of the nearest
    update ``k`` for ``"update"``), within the steps computed, or None."""
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; expected one of {', '.join(UNITS)}")
    if learner is None or not math.isfinite(x):
        return None
    last = run_length(learner)
    if unit == "step":
        return int(min(max(0, round(x)), last))
    log = learner.history.updates
    known = len(log)
    k = int(min(max(0, round(x)), known))
    return 0 if k == 0 else int(min(int(log.rows(k - 1, k).step[0]), last))


class ClickToSeek(QtCore.QObject):
    """Left clicks in ``plot_item``'s data area ``emit`` a ``Seek`` in the run of ``learner()``."""

    def __init__(self, plot_item, unit: str, learner, emit, parent=None):
        super().__init__(parent)
        if unit not in UNITS:
            raise ValueError(f"unknown unit {unit!r}; expected one of {', '.join(UNITS)}")
        self.plot_item, self.unit = plot_item, unit
        self._learner, self._emit = learner, emit
        plot_item.scene().sigMouseClicked.connect(self.clicked)

    def step_of(self, scene_pos) -> int | None:
        """The step a click at ``scene_pos`` goes to (None outside the data area)."""
        vb = self.plot_item.getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return None
        return step_at(self._learner(), self.unit, vb.mapSceneToView(scene_pos).x())

    def clicked(self, event) -> None:
        if event.button() != QtCore.Qt.MouseButton.LeftButton or event.double():
            return
        step = self.step_of(event.scenePos())
        if step is not None:
            event.accept()
            self._emit(Seek(step))
