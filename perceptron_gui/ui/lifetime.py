"""Tie a widget's subscriptions to the workspace's signals to the widget's lifetime.

The workspace's signals are plain callback lists (the core has no Qt), and the
workspace often outlives the widgets that draw it (scripts, tests, a reloaded
panel): a slot left connected would call into a deleted C++ object.
"""

from __future__ import annotations

from PySide6 import QtCore

__all__ = ["connect_for_lifetime"]


def connect_for_lifetime(widget: QtCore.QObject, signals, slot) -> None:
    """Connect ``slot`` to each of ``signals``; disconnect when ``widget`` is destroyed."""
    signals = tuple(signals)
    for signal in signals:
        signal.connect(slot)

    def detach(*_args) -> None:
        for signal in signals:
            signal.disconnect(slot)

    widget.destroyed.connect(detach)
