"""Helpers shared by the Qt layer's tests."""

from __future__ import annotations

import numpy as np


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


def region_check(canvas, ws, regions):
    """Pixels well inside each region of ``decision_function`` have that region's colour.

    Returns how many pixels of each side were checked.
    """
    image = canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    (x0, x1), (y0, y1) = canvas.view_rect()
    gx, gy = np.meshgrid(np.linspace(x0, x1, 81)[1:-1], np.linspace(y0, y1, 81)[1:-1])
    G = np.column_stack([gx.ravel(), gy.ravel()])
    f = ws.learner.decision_function(G)
    X = ws.dataset.X
    far = np.min(np.hypot(*(G[:, None, :] - X[None, :, :]).transpose(2, 0, 1)), axis=1)
    keep = (np.abs(f) > 0.25 * min(f.max(), -f.min())) & (far > 0.03 * (x1 - x0))
    pos, neg = (np.array(c[:3], dtype=float) for c in regions)
    counts = {1: 0, -1: 0}
    for (x, y), value in zip(G[keep], f[keep], strict=True):
        p = canvas.data_to_widget(x, y)
        px, py = int(p.x() * ratio), int(p.y() * ratio)
        if not (0 <= px < image.width() and 0 <= py < image.height()):
            continue
        c = image.pixelColor(px, py)
        rgb = np.array([c.red(), c.green(), c.blue()], dtype=float)
        if min(np.abs(rgb - pos).sum(), np.abs(rgb - neg).sum()) > 30:
            continue  # under the legend, a tick label or a point's halo
        closer_pos = np.abs(rgb - pos).sum() < np.abs(rgb - neg).sum()
        assert closer_pos == (value > 0), ((x, y), value, c.getRgb())
        counts[1 if value > 0 else -1] += 1
    return counts
