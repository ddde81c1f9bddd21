"""Helpers shared by the Qt layer's tests."""

from __future__ import annotations


def window_state(window) -> tuple:
    """Everything a failed load or a refused file must not change in ``window``."""
    ws = window.workspace
    return (ws.dataset, ws.learner_name, ws.all_params(), ws.step_count,
            window.undo_stack.count(), window.undo_stack.index(), window.windowTitle())


def load_long_kernel_run(window):
    """Give ``window`` a run to the end long enough to watch: 10,000 overlapping points,
    the dual perceptron with an RBF kernel, at most 5 epochs (a few seconds of slices)."""
    from perceptron_gui.core import generators
    from perceptron_gui.core.dataset import ReplaceAll

    window.push_edit(ReplaceAll.from_dataset(generators.overlapping(10_000, seed=3)))
    window.canvas.fit_view()
    ws = window.workspace
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=0.5, max_iter=5)
    return ws


def finish(qtbot, job, timeout: int = 30_000):
    """Wait until a file job (:class:`perceptron_gui.ui.features.progress.Job`) is done;
    its result."""
    qtbot.waitUntil(lambda: job.done, timeout=timeout)
    return job.result
