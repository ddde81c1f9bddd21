"""Helpers shared by the Qt layer's tests."""

from __future__ import annotations


def window_state(window) -> tuple:
    """Everything a failed load or a refused file must not change in ``window``."""
    ws = window.workspace
    return (ws.dataset, ws.learner_name, ws.all_params(), ws.step_count,
            window.undo_stack.count(), window.undo_stack.index(), window.windowTitle())
