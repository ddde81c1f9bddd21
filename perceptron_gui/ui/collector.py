"""Python's cyclic garbage collection, run by a timer on the UI thread between events.

Left automatic, a collection runs inside whatever allocation crosses its
threshold, on whatever thread, in the middle of whatever call.  With Qt that is
unsafe in two ways:

- **a hang**: ``QObject::disconnect`` holds one of Qt's internal signal-slot
  mutexes while PySide looks up a Python override of ``disconnectNotify``; an
  allocation there can start a collection, and when it destroys a garbage
  ``QObject`` whose destructor needs the same mutex, the process waits on
  itself for ever (seen in the test suite: pyqtgraph's ``itemChange``
  disconnecting a view while a cycle holding a legend's text items was
  collected);
- **a crash**: a collection started by an allocation on a worker thread
  destroys Qt wrappers of the UI thread from the wrong thread.

So the application turns automatic collection off once its window shows and
collects here instead, generation by generation by Python's own thresholds,
from a timer: always on the UI thread, always between two events, never inside
a Qt call.  :func:`start` is called by :func:`perceptron_gui.app.main` (after
the first frame) and :func:`stop` on its way out.  The test suite collects
with :func:`collect_due` between tests; importing this module loads no Qt.
"""

from __future__ import annotations

import gc

__all__ = ["INTERVAL_MS", "collect_due", "start", "stop", "active"]

#: How often the collector looks at the allocation counts (ms).
INTERVAL_MS = 100

_timer = None  # the QTimer, made by start()


def collect_due() -> int:
    """Collect the generations whose counts passed Python's thresholds; the number freed.

    This is the choice Python's automatic collector makes once the youngest
    generation holds more new objects than its threshold: the oldest
    generation whose count (of collections of the one below it) passed its own
    threshold, with everything younger.
    """
    t0, t1, t2 = gc.get_threshold()
    c0, c1, c2 = gc.get_count()
    if c0 <= t0:
        return 0
    if c2 > t2:
        return gc.collect(2)
    if c1 > t1:
        return gc.collect(1)
    return gc.collect(0)


def start() -> bool:
    """Automatic collection off, :func:`collect_due` every :data:`INTERVAL_MS`; False without Qt.

    Needs a ``QCoreApplication`` (the timer runs in its event loop); calling it
    again does nothing.
    """
    global _timer
    from PySide6 import QtCore

    app = QtCore.QCoreApplication.instance()
    if app is None:
        return False
    if _timer is None or not _alive(_timer):
        _timer = QtCore.QTimer(app)
        _timer.setInterval(INTERVAL_MS)
        _timer.timeout.connect(collect_due)
    gc.disable()
    _timer.start()
    return True


def stop() -> None:
    """Stop the timer and turn Python's automatic collection back on."""
    if _timer is not None and _alive(_timer):
        _timer.stop()
    gc.enable()


def active() -> bool:
    """Whether the timer collects (and automatic collection is off)."""
    return _timer is not None and _alive(_timer) and _timer.isActive() and not gc.isenabled()


def _alive(timer) -> bool:
    import shiboken6

    return shiboken6.isValid(timer)
