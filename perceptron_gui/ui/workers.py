"""Work off the UI thread: one worker type for the whole Qt layer (superqt's).

:func:`start` runs a function (or a generator, which may ``yield`` progress
and is stopped by ``worker.quit()``) in Qt's global thread pool through
:func:`superqt.utils.create_worker`; its ``returned``, ``errored``,
``yielded`` and ``finished`` signals arrive on the UI thread.  The
application imports superqt in the background soon after launch
(:func:`preload`), so that the first worker does not wait for it.
"""

from __future__ import annotations

from PySide6 import QtCore

__all__ = ["preload", "start", "wait_for_all"]


def start(func, *args, returned=None, errored=None, yielded=None, finished=None, **kwargs):
    """Run ``func(*args, **kwargs)`` in a worker thread; returns the superqt worker.

    Called from a thread with a running event loop, the worker is queued to
    the pool at the loop's next turn (superqt's rule), not at once: never
    block the UI thread waiting for a worker to begin.

    Parameters
    ----------
    func : callable
        A function, or a generator function (then ``yielded`` receives what it
        yields and ``worker.quit()`` stops it at its next ``yield``). It must
        not touch Qt widgets.
    returned, errored, yielded, finished : callable, optional
        Slots called on the UI thread with the result, the exception, each
        yielded value, and at the end.
    """
    from superqt.utils import create_worker

    connect = {name: slot for name, slot in (("returned", returned), ("errored", errored),
                                             ("yielded", yielded), ("finished", finished))
               if slot is not None}
    return create_worker(func, *args, _start_thread=True, _connect=connect, **kwargs)


def preload() -> None:
    """Import superqt's worker module now (blocking; meant for a background thread).

    The first :func:`start` would otherwise import superqt (its package
    imports all its widgets) on the UI thread: ~0.15 s.  Imported from a
    thread, the import holds the GIL only in short stretches.  Never raises:
    a failed preload only means :func:`start` imports superqt itself (and
    reports why).
    """
    try:
        from superqt.utils import create_worker  # noqa: F401
    except Exception:  # noqa: BLE001, S110 - start() will raise it where it matters
        pass


def wait_for_all(msecs: int = 10_000) -> bool:
    """Wait up to ``msecs`` for every running worker to finish (the window closes)."""
    return QtCore.QThreadPool.globalInstance().waitForDone(msecs)
