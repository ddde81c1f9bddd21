"""The window's widgets: the canvas, the panels and the bars (the views: ``ui/views``)."""

from __future__ import annotations

from ..deferred import YieldingTimer

__all__ = ["follow_run"]


def follow_run(owner, workspace, refresh, name: str, *, theory: bool = False) -> YieldingTimer:
    """A timer that calls ``refresh`` once after a burst of changes to the run, the learner
    or the data (with ``theory``, also to the theory's results and the shaped model)."""
    timer = YieldingTimer(owner, refresh, name=name)
    events = workspace.events
    more = (events.theory_changed, workspace.view_state.events.shaping_changed) if theory else ()
    for event in (events.run_changed, events.learner_changed, events.dataset_changed, *more):
        event.connect(timer.schedule)
    return timer
