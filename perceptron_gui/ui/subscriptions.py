"""Tie a widget's subscriptions to the workspace's signals to the widget's lifetime.

The workspace's signals are plain callback lists (the core has no Qt), and the
workspace often outlives the widgets that draw it (scripts, tests, a reloaded
panel): a slot left connected would call into a deleted C++ object.  Every
widget and feature subscribes through this module, in one of two ways:

- :func:`connect_for_lifetime`: call ``slot`` on every emission;
- :func:`refresh_coalesced`: many emissions in one pass of the event loop (a
  run to the end, a drag) become one call of ``refresh`` a little later, on a
  :class:`~perceptron_gui.ui.deferred.YieldingTimer`.
"""

from __future__ import annotations

from PySide6 import QtCore

from .deferred import YieldingTimer

__all__ = ["connect_for_lifetime", "refresh_coalesced"]


def connect_for_lifetime(widget: QtCore.QObject, signals, slot) -> None:
    """Connect ``slot`` to each of ``signals``; disconnect when ``widget`` is destroyed.

    Parameters
    ----------
    widget : QObject
        The owner: its ``destroyed`` signal ends the subscription.
    signals : iterable of Signal
        The workspace's (Qt-free) signals.
    slot : callable
        Called with the signal's arguments.
    """
    signals = tuple(signals)
    for signal in signals:
        signal.connect(slot)

    def detach(*_args) -> None:
        for signal in signals:
            signal.disconnect(slot)

    widget.destroyed.connect(detach)


def refresh_coalesced(widget: QtCore.QObject, signals, refresh, interval_ms: int = 0,
                      name: str | None = None) -> YieldingTimer:
    """Call ``refresh()`` once, ``interval_ms`` after the first of a burst of emissions.

    Parameters
    ----------
    widget : QObject
        The owner of the timer and of the subscription (see :func:`connect_for_lifetime`).
    signals : iterable of Signal
        The signals that make ``refresh`` due.
    refresh : callable
        ``refresh()``, called on the UI thread by a single-shot timer.
    interval_ms : int, default=0
        The delay; 0 means "in the next pass of the event loop".
    name : str, optional
        The timer's objectName (default: the widget's name + ``RefreshTimer``).

    Returns
    -------
    YieldingTimer
        The single-shot timer (``refresh`` may stop it when called directly).
    """
    timer = YieldingTimer(widget, refresh, interval_ms=interval_ms,
                          name=name or f"{widget.objectName()}RefreshTimer")
    signals = tuple(signals)

    def schedule(*_args) -> None:
        try:
            if not timer.isActive():
                timer.start()
        except RuntimeError:  # the C++ object is gone before ``destroyed`` ran
            for signal in signals:
                signal.disconnect(schedule)

    connect_for_lifetime(widget, signals, schedule)
    return timer
