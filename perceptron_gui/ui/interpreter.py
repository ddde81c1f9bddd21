"""Python's interpreter under Qt: when garbage is collected, and how often threads switch.

Importing this module loads no Qt.

Garbage collection
------------------
Left automatic, a collection runs inside whatever allocation crosses its
threshold, on whatever thread, in the middle of whatever call.  With Qt that
hangs or crashes:

- ``QObject::disconnect`` holds a signal-slot mutex while PySide looks up a
  Python ``disconnectNotify``; a collection started there that destroys a
  ``QObject`` whose destructor needs the same mutex waits on itself for ever
  (seen in the tests: pyqtgraph's ``itemChange`` disconnecting a view while a
  cycle holding a legend's text items was collected);
- a collection started on a worker thread destroys the UI thread's Qt wrappers.

So once the window shows, a timer collects instead (:func:`start`), by Python's
own thresholds: on the UI thread, between two events, never inside a Qt call.

The switch interval
-------------------
While a worker runs, Python hands the GIL between threads every
:data:`SWITCH_INTERVAL_S` instead of every 5 ms: a worker running Python makes
the UI thread wait up to 5 ms each time an event needs Python, and one repaint
becomes a 60-120 ms stall.  The workers count themselves in and out (not by a
signal's slot: the count never depends on a connection made in time).
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading

__all__ = ["INTERVAL_MS", "SWITCH_INTERVAL_S", "active", "collect_due", "no_collection",
           "pause_collection", "start", "stop", "worker_finished", "worker_started",
           "workers_running"]

#: How often the collector looks at the allocation counts (ms).
INTERVAL_MS = 100

# ============================================================================ collection

_timer = None  # the QTimer, made by start()


def collect_due() -> int:
    """Collect as the automatic collector would: the oldest generation whose count passed
    its threshold, with everything younger; the number freed."""
    t0, t1, t2 = gc.get_threshold()
    c0, c1, c2 = gc.get_count()
    if c0 <= t0:
        return 0
    if c2 > t2:
        return gc.collect(2)
    return gc.collect(1 if c1 > t1 else 0)


def start() -> bool:
    """Automatic collection off, :func:`collect_due` every :data:`INTERVAL_MS` (False: no app)."""
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


@contextlib.contextmanager
def no_collection():
    """No automatic collection inside the block (the warm-up allocates much, frees little)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def pause_collection():
    """Garbage collection off until the window's first frame; returns what resumes it.

    A launch allocates some 10⁶ objects and frees few: the collector ran ~150 times,
    for 60-100 ms.  Resuming freezes what is alive (once) and hands collection to
    :func:`start`'s timer; ``resume(final=True)`` restores it as it was.
    """
    collecting = gc.isenabled()
    gc.disable()
    frozen, ended = [], []

    def resume(final: bool = False) -> None:
        if ended:
            return  # main has returned: a first-frame timer that fires later does nothing
        if not frozen:
            frozen.append(True)
            gc.freeze()
        qt = "PySide6.QtCore" in sys.modules
        if not final and qt and start():
            return
        if final and qt:
            stop()
        if final:
            ended.append(True)
        (gc.enable if collecting else gc.disable)()

    return resume


# ============================================================================ switch interval

#: The GIL's switch interval while at least one worker runs (s).
SWITCH_INTERVAL_S = 0.001

_sharing_lock = threading.Lock()
_sharing = {"workers": 0, "restore": None}


def workers_running() -> int:
    """The number of workers counted in by :func:`worker_started` and not out yet."""
    with _sharing_lock:
        return _sharing["workers"]


def worker_started() -> None:
    """A worker starts: the short switch interval (the old one kept for when none runs)."""
    with _sharing_lock:
        if _sharing["workers"] == 0:
            _sharing["restore"] = sys.getswitchinterval()
            sys.setswitchinterval(min(_sharing["restore"], SWITCH_INTERVAL_S))
        _sharing["workers"] += 1


def worker_finished() -> None:
    """A worker finished (returned, raised or quit): the old interval once none runs."""
    with _sharing_lock:
        _sharing["workers"] -= 1
        if _sharing["workers"] == 0:
            sys.setswitchinterval(_sharing["restore"])
