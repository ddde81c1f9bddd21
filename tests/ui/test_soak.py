"""Long animation soak: catches the PySide6 6.12.0 signal-emit reference leak and
memory growth in playback.

PySide6 6.12.0 on Python 3.11 loses a reference to ``True``/``None`` on every
signal emit; the interpreter aborts (``Fatal Python error: bool_dealloc``) within
seconds of animation.  The first test measures the leak directly; the second
plays 5,000 frames of the real window.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6 import QtCore

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll


class _Emitter(QtCore.QObject):
    flag = QtCore.Signal(bool)
    anything = QtCore.Signal(object)


def test_signal_emits_keep_references_to_true_and_none(qtbot):
    emitter = _Emitter()
    received = []
    emitter.flag.connect(received.append)
    emitter.anything.connect(received.append)
    for _ in range(100):  # warm up caches
        emitter.flag.emit(True)
        emitter.anything.emit(None)
    received.clear()
    true_before, none_before = sys.getrefcount(True), sys.getrefcount(None)
    for _ in range(20_000):
        emitter.flag.emit(True)
        emitter.anything.emit(None)
    received.clear()
    # a leak of one reference per emit would show as a drop of ~20,000
    assert sys.getrefcount(True) - true_before > -1000
    assert sys.getrefcount(None) - none_before > -1000


def _rss_bytes() -> int:
    statm = Path("/proc/self/statm")
    if statm.exists():
        import os

        return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


#: The soak's window size, in pixels.
SOAK_SIZE = (640, 400)


@pytest.mark.slow
def test_soak_5000_frames_without_crash_or_growth(qtbot, window):
    """5,000 frames of the window playing: every frame a step, its signals and a redraw.

    The window is small (:data:`SOAK_SIZE`): what is soaked is frames, not pixels; the
    canvas, the bound strip and the timeline still redraw at every frame.
    """
    window.resize(*SOAK_SIZE)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == SOAK_SIZE)
    ws = window.workspace
    window.push_edit(ReplaceAll.from_dataset(generators.xor(60, seed=0)))
    ws.set_params(max_iter=1_000_000)  # never ends: XOR is not separable
    window.canvas.fit_view()
    frames = []
    rss = {}

    def on_tick():
        frames.append(1)
        if len(frames) in (1000, 5000):
            rss[len(frames)] = _rss_bytes()

    window.playback.play_timer.timeout.connect(on_tick)
    window.actionPlay.trigger()
    window.playback.play_timer.setInterval(0)  # as fast as the loop allows: one step per frame
    # A loaded machine may give the animation little time: wait as long as
    # frames keep coming, and fail only when they stop for a minute.
    while len(frames) < 5000:
        seen = len(frames)
        qtbot.waitUntil(lambda seen=seen: len(frames) > seen, timeout=60_000)
    shown = window.canvas.isVisible(), window.bound_strip.isVisible()
    window.actionPlay.trigger()
    assert shown == (True, True), "the soak must redraw the canvas and the bound strip"
    assert not window.playback.play_timer.isActive()
    assert ws.step_count >= 5000
    growth = rss[5000] - rss[1000]
    print(f"\nsoak: {len(frames)} frames, {ws.step_count} steps, RSS growth "
          f"{growth / 2**20:.1f} MiB from frame 1000 to 5000")
    assert growth < 40 * 2**20
