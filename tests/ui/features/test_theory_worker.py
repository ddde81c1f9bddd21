"""The kernel margin is certified off the UI thread; the readout says so meanwhile."""

import math

import numpy as np

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll


def test_kernel_margin_arrives_from_the_worker(qtbot, window):
    ws = window.workspace
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=0.5)
    window.push_edit(ReplaceAll.from_dataset(generators.circles(400, seed=0)))
    assert ws.defer_expensive
    first = ws.readouts().bound_text
    assert first == "computing the kernel margin…" or ws.novikoff.separable
    qtbot.waitUntil(lambda: ws.novikoff.separable is True, timeout=60_000)
    assert math.isfinite(ws.readouts().bound)
    qtbot.waitUntil(lambda: "(R/γ)²" in window.readouts.values()["bound"], timeout=5000)
    # the margin can show before the worker's last job (the next one queued) has ended
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)


def test_stale_results_are_dropped_when_the_data_change(qtbot, window):
    ws = window.workspace
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=0.5)
    window.push_edit(ReplaceAll.from_dataset(generators.circles(400, seed=0)))
    window.push_edit(ReplaceAll.from_dataset(generators.circles(300, seed=1)))
    qtbot.waitUntil(lambda: ws.novikoff.separable is not None, timeout=60_000)
    qtbot.waitUntil(lambda: not window.theory_worker.busy, timeout=60_000)
    from perceptron_gui.core import theory

    fresh = theory.novikoff(ws.dataset.X, ws.dataset.y, kernel=ws.capabilities.kernel)
    assert ws.novikoff.bound == fresh.bound  # the result belongs to the current data


def test_an_edit_of_many_points_is_drawn_before_its_margin_is_certified(qtbot, window):
    from perceptron_gui.core import theory, workspace
    from perceptron_gui.core.dataset import AddPoints

    ws = window.workspace
    n = workspace.EXPENSIVE_LINEAR_N + 10
    window.push_edit(ReplaceAll.from_dataset(generators.separable(n, seed=0, margin=0.1)))
    qtbot.waitUntil(lambda: ws.novikoff.separable is True, timeout=30_000)
    messages = []
    window.statusBar().messageChanged.connect(messages.append)
    window.push_edit(AddPoints([0.1, 3.0], 1))
    assert ws.novikoff.reason == workspace.COMPUTING_LINEAR  # not yet: the edit is drawn first
    assert ws.readouts().bound_text == workspace.COMPUTING_LINEAR
    qtbot.waitUntil(lambda: ws.novikoff.separable is not None, timeout=30_000)
    exact = theory.novikoff_or_reason(ws.dataset.X, ws.dataset.y)
    assert (ws.novikoff.margin, ws.novikoff.bound) == (exact.margin, exact.bound)
    qtbot.waitUntil(lambda: "computing" not in window.readouts.values()["bound"], timeout=5000)
    assert not any("kernel margin" in m for m in messages)  # no message for milliseconds


def test_the_margin_of_many_points_is_certified_in_the_worker(qtbot, window):
    import shiboken6

    ws = window.workspace
    window.push_edit(ReplaceAll.from_dataset(generators.separable(60_000, seed=0, margin=0.1)))
    assert ws.novikoff.separable is None  # drawn first, certified after
    assert ws.readouts().bound_text == "computing the margin…"
    worker = window.theory_worker
    qtbot.waitUntil(lambda: worker._running is not None, timeout=5000)  # the job has begun
    # the window's objects may be deleted before the result comes back: the workspace
    # still gets it, and nothing calls the deleted objects
    shiboken6.delete(worker)
    qtbot.waitUntil(lambda: ws.novikoff.separable is not None, timeout=60_000)
    assert ws.novikoff.separable is True


def test_no_margin_is_computed_while_points_are_dragged(qtbot, window):
    # at 10⁶ points every move of a drag started a certificate of a second or two in
    # the worker, stale before it arrived, and the worker's core went missing from the
    # drag (the UI stalled 0.2-0.4 s a move); the margin of the drop is computed after
    from perceptron_gui.core import workspace

    ws = window.workspace
    n = workspace.EXPENSIVE_LINEAR_N + 10
    window.push_edit(ReplaceAll.from_dataset(generators.separable(n, seed=0, margin=0.1)))
    worker = window.theory_worker
    qtbot.waitUntil(lambda: ws.novikoff.separable is True and not worker.busy, timeout=30_000)
    tool, px = window.canvas.tool, window.canvas.pixel_size()
    start = ws.dataset.X[0].copy()
    assert tool.drag_start(tuple(start), px)
    for k in range(1, 6):
        tool.drag_move(tuple(start + 0.01 * k))
        qtbot.waitUntil(lambda: not worker.busy)  # it looked for work, and started none
        assert ws.novikoff.reason == workspace.COMPUTING_LINEAR
    tool.drag_finish(tuple(start + 0.06))
    qtbot.waitUntil(lambda: ws.novikoff.separable is not None, timeout=30_000)
    from perceptron_gui.core import theory

    exact = theory.novikoff_or_reason(ws.dataset.X, ws.dataset.y)
    assert np.array_equal(ws.dataset.X[0], start + 0.06)  # the margin of where it ended
    assert (ws.novikoff.margin, ws.novikoff.bound) == (exact.margin, exact.bound)


def test_a_margin_arriving_leaves_the_points_pictures_to_their_workers(qtbot, window):
    # the arrival redrew the canvas with refresh(), which finished the points' raster
    # (and the mistakes') on the UI thread: 40-100 ms at 10⁶ points, mid-drag or mid-run
    from perceptron_gui.core import workspace

    ws = window.workspace
    n = workspace.EXPENSIVE_LINEAR_N + 10
    window.push_edit(ReplaceAll.from_dataset(generators.separable(n, seed=1, margin=0.1)))
    assert ws.novikoff.separable is None
    finished = []
    for name in ("data", "mistakes"):
        layer = window.canvas.layer(name)
        layer.finish = lambda name=name: finished.append(name)
    qtbot.waitUntil(lambda: ws.novikoff.separable is True, timeout=30_000)
    assert finished == []
