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


def posterior_check(canvas, model, lut, tol: float = 4.0) -> int:
    """Pixels of the probability shading have the map's colour of ``model``'s ``P(+1 | x)``.

    On a 60×60 grid over the view, away from the points, the legend, the
    colour bar and where ``P`` changes by more than 1/100 within three
    pixels (a cell of the shading), each pixel must be
    ``lut[round(255 P(x))]`` to ``tol`` per channel.  Returns how many were checked.
    """
    from PySide6 import QtCore

    image = canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    layer = canvas.layer("probability")
    covered = [canvas.mapFromScene(layer.items[name].sceneBoundingRect()).boundingRect()
               for name in ("colour_bar", "posterior_readout")
               if layer.items[name].isVisible()]
    (x0, x1), (y0, y1) = canvas.view_rect()
    sx, sy = canvas.pixel_size()
    gx, gy = np.meshgrid(np.linspace(x0, x1, 62)[1:-1], np.linspace(y0, y1, 62)[1:-1])
    G = np.column_stack([gx.ravel(), gy.ravel()])
    P = model.predict_proba(G)[:, 1]
    steps = [model.predict_proba(G + d)[:, 1] for d in ([3 * sx, 0], [0, 3 * sy],
                                                         [-3 * sx, 0], [0, -3 * sy])]
    flat = np.max(np.abs(np.array(steps) - P), axis=0) < 0.01
    X = canvas.workspace.dataset.X
    far = (np.min(np.hypot(*(G[:, None, :] - X[None, :, :]).transpose(2, 0, 1)), axis=1)
           > 0.04 * (x1 - x0)) if len(X) else np.ones(len(G), bool)
    checked = 0
    for (x, y), p in zip(G[flat & far], P[flat & far], strict=True):
        q = canvas.data_to_widget(x, y)
        if canvas.over_legend(q) or any(r.adjusted(-4, -4, 4, 4).contains(q.toPoint())
                                        for r in covered):
            continue
        px, py = int(q.x() * ratio), int(q.y() * ratio)
        if not (2 <= px < image.width() - 2 and 2 <= py < image.height() - 2):
            continue
        c = image.pixelColor(QtCore.QPoint(px, py))
        want = lut[int(np.rint(p * 255))][:3].astype(int)
        got = np.array([c.red(), c.green(), c.blue()])
        assert np.abs(got - want).max() <= tol, ((x, y), p, got, want)
        checked += 1
    return checked


def layout_snapshot(window) -> tuple:
    """What the layout tests measure: each shown widget's place, and every shown plot's boxes.

    The widgets' geometries (name, class and rectangle in the parent), and for
    every shown pyqtgraph view its view boxes' and axes' scene rectangles and
    view ranges: two snapshots are equal when nothing a layout assertion reads
    has moved.
    """
    import pyqtgraph as pg
    from PySide6 import QtWidgets

    widgets = tuple((w.objectName(), type(w).__name__, w.geometry().getRect())
                    for w in window.findChildren(QtWidgets.QWidget) if w.isVisible())
    plots = []
    for view in window.findChildren(pg.GraphicsView):
        if not view.isVisible():
            continue
        if isinstance(view, pg.PlotWidget):
            items = [view.getPlotItem()]
        elif isinstance(view, pg.GraphicsLayoutWidget):
            items = [i for i in view.ci.items if isinstance(i, pg.PlotItem)]
        else:
            items = []
        for item in items:
            parts = [item.getViewBox(), item.getAxis("left"), item.getAxis("bottom")]
            plots.append(tuple(p.sceneBoundingRect().getRect() for p in parts))
            plots.append(tuple(map(tuple, item.getViewBox().viewRange())))
    return widgets, tuple(plots)


def settle(qtbot, window, quiet_ms: int = 120, timeout: int = 20_000, idle=None,
           sample_ms: int = 40) -> None:
    """Wait until ``window`` stands still: its layout, its plots and its background work.

    Done when the theory worker is idle, no re-layout of the canvas is under
    way (its updates are on again) and :func:`layout_snapshot` has not changed
    for ``quiet_ms`` of the event loop (and ``idle()``, when given, is true).  A
    loaded machine takes longer to get there and the wait is longer: a fixed
    wait would let the test measure a layout half done.

    The cheap checks run at every poll of ``qtbot.waitUntil`` (10 ms); the
    snapshot, a walk over every widget and plot, at most every ``sample_ms``,
    and the wait ends only on a poll that took a fresh one.
    """
    import time

    seen = {"snapshot": None, "since": 0.0, "taken": -float("inf")}

    def still():
        assert not window.theory_worker.busy, "the theory worker is busy"
        assert window.canvas.viewport().updatesEnabled(), "the canvas is being laid out"
        assert idle is None or idle(), "deferred work is waiting"
        now = time.monotonic()
        assert now - seen["taken"] >= sample_ms / 1000, "the layout still moves"
        snapshot = layout_snapshot(window)
        seen["taken"] = now
        if snapshot != seen["snapshot"]:
            seen["snapshot"], seen["since"] = snapshot, now
        assert now - seen["since"] >= quiet_ms / 1000, "the layout still moves"

    qtbot.waitUntil(still, timeout=timeout)



def settle_when_done(qtbot, window, idle=None, timeout: int = 20_000) -> None:
    """Wait until ``window``'s own deferred work is done and the event loop moves nothing.

    The app defers work only by a :class:`~perceptron_gui.ui.deferred.YieldingTimer`,
    a signal or a worker (``tests/test_house_rules.py``).  A poll is quiet when the
    theory worker is idle, no worker runs, the canvas is not being laid out, no
    timer of the window is due (the autosave's, 3 s away, draws nothing) and
    ``idle()``, when given, is true, both before and after the events posted so far
    (layout requests, repaints that lay pyqtgraph's views out) are delivered.  The
    wait ends at the third quiet poll in a row that finds :func:`layout_snapshot` as
    the one before: two passes of the event loop that moved nothing, instead of
    :func:`settle`'s fixed span of quiet.  Between polls the event loop runs until
    the next timer of the window is due (1 ms when none is, at most 10 ms).
    """
    import time

    from PySide6 import QtCore

    from perceptron_gui.ui import workers
    from perceptron_gui.ui.deferred import YieldingTimer

    seen = {"snapshot": None, "quiet": 0, "due": 1}

    def busy() -> str:
        seen["due"] = 1
        if window.theory_worker.busy or workers.running():
            return "a worker is busy"
        if not window.canvas.viewport().updatesEnabled():
            return "the canvas is being laid out"
        due = [t.remainingTime() for t in window.findChildren(YieldingTimer)
               if t.objectName() != "autosaveTimer" and t.isActive()]
        if due:
            seen["due"] = min(10, max(1, min(due)))
            return "deferred work is waiting"
        return "" if idle is None or idle() else "the test's condition is not met"

    def still():
        why = busy()
        if not why:
            QtCore.QCoreApplication.sendPostedEvents()
            why = busy()
        if why:
            seen["quiet"] = 0
            raise AssertionError(why)
        snapshot = layout_snapshot(window)
        same = snapshot == seen["snapshot"]
        seen["snapshot"], seen["quiet"] = snapshot, seen["quiet"] + 1 if same else 0
        assert seen["quiet"] >= 2, "the layout still moves"

    end = time.monotonic() + timeout / 1000
    while True:
        try:
            still()
            return
        except AssertionError as why:
            if time.monotonic() > end:
                raise TimeoutError(f"not settled in {timeout} ms: {why}") from why
        qtbot.wait(seen["due"])


def weights_view(qtbot, window):
    """The window's weight-space view, shown and drawn (its tab current)."""
    window.set_views_visible(True)
    view = window.views.view("weights")
    window.views.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.isVisible())
    view.refresh()
    return view


def protocol_members(protocol) -> dict:
    """A protocol's members with its roles' (its bases in the same module): name -> the
    function, property or annotation."""
    members: dict = {}
    for cls in reversed([c for c in protocol.__mro__ if c.__module__ == protocol.__module__]):
        members.update({name: value for name, value in vars(cls).items()
                        if not name.startswith("_")
                        and (callable(value) or isinstance(value, property))})
        members.update({name: annotation for name, annotation in
                        vars(cls).get("__annotations__", {}).items()
                        if not name.startswith("_")})
    return members


def run_main(qtbot, monkeypatch, argv, ready, look):
    """Run the command line, ``perceptron_gui.app.main(argv)``, in this process.

    Its event loop (``QApplication.exec``) is a wait until ``ready(window)``
    holds for the window ``main`` opened; ``look(window)`` is taken then and the
    loop returns 0, as the application's would on quitting.  Returns ``main``'s
    exit code and what ``look`` saw.
    """
    import sys

    import shiboken6
    from PySide6 import QtWidgets

    from perceptron_gui import app
    from perceptron_gui.ui.main_window import MainWindow

    def address(widget) -> int:
        return shiboken6.getCppPointer(widget)[0]

    earlier = {address(w) for w in QtWidgets.QApplication.topLevelWidgets()}
    seen = []

    def loop(_app=None) -> int:
        window, = [w for w in QtWidgets.QApplication.topLevelWidgets()
                   if isinstance(w, MainWindow) and w.isVisible()
                   and address(w) not in earlier]
        window.files.force_close = True
        qtbot.waitUntil(lambda: ready(window), timeout=20_000)
        seen.append(look(window))
        return 0

    monkeypatch.setattr(QtWidgets.QApplication, "exec", loop)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # main installs the app's own
    code = app.main(list(argv))
    return code, seen[0]
