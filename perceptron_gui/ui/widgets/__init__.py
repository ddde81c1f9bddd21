"""The window's widgets: the canvas, the panels and the bars (the views: ``ui/views``)."""

from __future__ import annotations

from ...core.text import MINUS
from ..deferred import YieldingTimer

__all__ = ["Guard", "follow_run", "signed"]


class Guard:
    """True inside ``with guard:``: the owner's own changes, which its slots ignore."""

    def __init__(self):
        self._on = False

    def __bool__(self) -> bool:
        return self._on

    def __enter__(self) -> None:
        self._on = True

    def __exit__(self, *_exc) -> None:
        self._on = False


def signed(v: float) -> str:
    """A label as ``+1`` or ``−1``."""
    return "+1" if v > 0 else MINUS + "1"


def follow_run(owner, workspace, refresh, name: str, *, theory: bool = False) -> YieldingTimer:
    """A timer calling ``refresh`` once after a burst of changes to the run, the learner or
    the data (``theory``: and to the theory's results and the shaped model)."""
    timer = YieldingTimer(owner, refresh, name=name)
    events = workspace.events
    more = (events.theory_changed, workspace.view_state.events.shaping_changed) if theory else ()
    for event in (events.run_changed, events.learner_changed, events.dataset_changed, *more):
        event.connect(timer.schedule)
    return timer
