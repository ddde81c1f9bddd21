"""Hostile inputs made at run time: FIFOs, and calls that must return instead of hang."""

from __future__ import annotations

import os
import threading

import pytest

#: How long a reader may take to refuse a FIFO before the test calls it hung.
PATIENCE = 20.0

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def make_fifo(path) -> str:
    """Create a FIFO (named pipe) at ``path``; returns its path as a string."""
    os.mkfifo(path)
    return os.fspath(path)


def release(fifo: str) -> None:
    """Let a reader blocked on ``fifo`` go: open it for writing (non-blocking), then close.

    A reader waiting in ``open()`` then reads end-of-file; without one
    waiting, opening fails (ENXIO) and nothing happens.
    """
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return
    os.close(fd)


def outcome(func, *fifos: str, patience: float = PATIENCE):
    """Run ``func()`` in a thread; return what it raised (or returned), failing if it hangs.

    If ``func`` has not returned after ``patience`` seconds, the FIFOs are
    released so the thread can end, and the test fails: a reader waited on
    a FIFO instead of refusing it.
    """
    result: dict = {}

    def run():
        try:
            result["value"] = func()
        except BaseException as exc:  # handed back to the test
            result["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(patience)
    if thread.is_alive():
        for fifo in fifos:
            release(fifo)
        thread.join(5)
        pytest.fail(f"still waiting after {patience} s: the reader blocked on a FIFO")
    return result.get("error", result.get("value"))
