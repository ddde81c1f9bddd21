"""The timeline and the update log: scrubbing shows each step exactly as it happened."""

from __future__ import annotations

import math
import time
import tracemalloc

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from perceptron_gui.core import Dataset, Workspace, generators, report, report_latex
from perceptron_gui.core.dataset import AddPoints, MovePoints, ReplaceAll
from perceptron_gui.core.text import fmt
from perceptron_gui.ui import errors
from perceptron_gui.ui.widgets.timeline_bar import TimelineBar
from perceptron_gui.ui.widgets.update_log import UpdateLogModel, UpdateLogView

GREY = QtCore.Qt.ItemDataRole.ForegroundRole

RUNS = {
    "primal": (lambda: generators.separable(16, seed=4, margin=0.15), "primal", {}),
    "dual-rbf": (lambda: generators.circles(20, noise=0.2, seed=2), "dual",
                 {"kernel": "rbf", "gamma": 1.0}),
    "random-order": (lambda: generators.separable(16, seed=8, margin=0.15), "primal",
                     {"order": "random", "random_state": 7}),
    "multiclass": (lambda: _three_groups(), "multiclass_perceptron",
                   {"order": "random", "random_state": 3}),
}


def _three_groups() -> Dataset:
    """Three named classes of eight points, side by side (the middle one between)."""
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal((cx, 0.3 * cx), 0.5, (8, 2)) for cx in (-3.0, 0.0, 3.0)])
    return Dataset(X, np.repeat([0, 1, 2], 8), classes=(0, 1, 2),
                   class_names=("left", "middle", "right"))


def flush() -> None:
    QtWidgets.QApplication.processEvents()


def setup(window, name: str) -> Workspace:
    make, learner, params = RUNS[name]
    ws = window.workspace
    ws.set_learner(learner)
    if params:
        ws.set_params(**params)
    window.push_edit(ReplaceAll.from_dataset(make()))
    window.canvas.fit_view()
    flush()
    return ws


def fresh_workspace(name: str) -> Workspace:
    make, learner, params = RUNS[name]
    ws = Workspace(make(), learner=learner)
    if params:
        ws.set_params(**params)
    return ws


def same(a, b) -> bool:
    """Equal, NaN equal to NaN, arrays compared exactly."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is not None and b is not None and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


def core_state(ws: Workspace) -> dict:
    """The run's state at the cursor, from the core."""
    learner = ws.learner
    ev = ws.current_event
    state = {f"ro.{k}": v for k, v in vars(ws.readouts()).items()}
    state.update({
        "coef_": getattr(learner, "coef_", None), "intercept_": learner.intercept_,
        "alpha_": getattr(learner, "alpha_", None), "n_updates_": learner.n_updates_,
        "margins": ws.training_margins(),
        "event": None if ev is None else dict(vars(ev)),
    })
    return state


def drawn_state(window) -> dict:
    """What the window's canvas, readout panel and plots show."""
    canvas, plots = window.canvas, window.plots
    for view in (canvas, window.readouts, plots):
        view.refresh()
    drawn = {}
    for layer, name in (("boundary", "boundary"), ("kernel", "contour"), ("update", "ghost_line"),
                        ("update", "delta_line"), ("weight", "weight_line"),
                        ("examined", "highlight"), ("mistakes", "mistake_marks"),
                        ("margin_band", "band_edges"), ("kernel", "region_image")):
        item = canvas.layer(layer).items[name]  # a hidden item may keep stale data: not shown
        visible = item.isVisible()
        data = item.image if name == "region_image" else item.getData()
        drawn[name] = (visible, *data) if visible else (False,)
    head = canvas.layer("weight").items["weight_head"]
    drawn["weight_head"] = (True, head.pos().x(), head.pos().y()) if head.isVisible() else (False,)
    drawn.update({
        "panel": window.readouts.values(),
        "k_curve": plots.part("bound").k_curve.getData(),
        "k_now": plots.part("bound").k_now.getData(),
        "dot": plots.part("proof").dot_curve.getData(),
        "norm": plots.part("proof").norm_curve.getData(),
        "bars": (plots.part("mistakes").bars.opts["height"],),
    })
    return drawn


def assert_same_state(got: dict, want: dict, where: str) -> None:
    assert got.keys() == want.keys()
    for key in want:
        a, b = got[key], want[key]
        if isinstance(b, dict):
            assert a is not None and a.keys() == b.keys(), (where, key)
            for sub in b:
                assert same(a[sub], b[sub]), (where, key, sub, a[sub], b[sub])
        elif isinstance(b, tuple):
            assert len(a) == len(b), (where, key)
            assert all(same(x, y) for x, y in zip(a, b, strict=True)), (where, key)
        else:
            assert same(a, b), (where, key, a, b)


# ----------------------------------------------------------------------------- scrubbing


def test_scrubbed_state_equals_a_fresh_run(qtbot, window, subtests):
    for name in RUNS:  # one window: each run starts from its own data, learner and view
        with subtests.test(name):
            _check_scrubbed_state(window, name)


def _check_scrubbed_state(window, name):
    ws = setup(window, name)
    # a view set by hand (not the fit, which the data's kept points may grow): the
    # picture of a step is then the same whether stepped to or scrubbed back to
    (x0, x1), (y0, y1) = window.canvas.view_rect()
    window.canvas.set_view_rect((2 * x0, 2 * x1), (2 * y0, 2 * y1))
    ref = fresh_workspace(name)
    ref.run_to_end()
    end = ref.learner.end_step
    assert ref.learner.n_updates_ >= 6 and end > 20
    rng = np.random.default_rng(1)
    targets = sorted({0, 1, end, end - 1, *rng.integers(0, end, 5).tolist(),
                      *ref.learner.history.updates.rows().step[:3].tolist()})
    # step through the run in the window, recording what it shows as it happens, and the
    # core's state after j fresh steps on a new workspace
    ref = fresh_workspace(name)
    shown, core = {}, {}
    for j in range(end + 1):
        if j:
            window.actionStepSample.trigger()
            ref.step()
        if j in targets:
            flush()
            shown[j], core[j] = drawn_state(window), core_state(ref)
    assert ws.finished
    tl = window.timeline
    tl.refresh()
    assert (tl.slider.minimum(), tl.slider.maximum(), tl.slider.value()) == (0, end, end)
    # scrub through the slider in a shuffled order, forwards and backwards
    for j in rng.permutation(targets).tolist():
        tl.slider.setValue(j)
        flush()
        assert ws.step_count == j
        tl.refresh()
        assert tl.bar.label.text() == f"run step {j:,} / {end:,}"
        assert_same_state(core_state(ws), core[j], f"{name} core at step {j}")
        assert_same_state(drawn_state(window), shown[j], f"{name} drawn at step {j}")


# ----------------------------------------------------------------------------- the log


def test_log_rows_equal_the_core_update_log(qtbot, window):
    ws = setup(window, "primal")
    ws.run_to_end()
    tl = window.timeline
    tl.refresh()
    model, view = tl.model, tl.view
    assert view.objectName() == "updateLog" and view.model() is model
    assert tl.dock.windowTitle() == "Update log"
    log = ws.learner.history.updates.rows()
    assert model.rowCount() == len(log.step) > 5
    assert model.columnCount() == 7
    headers = [model.headerData(c, QtCore.Qt.Orientation.Horizontal) for c in range(7)]
    assert headers == ["k", "step", "epoch", "sample", "y", "y·f(x) before", "update"]
    for u, row in enumerate(report.update_rows(ws)):
        texts = [model.index(u, c).data() for c in range(7)]
        # counts with thousands separators; samples numbered from 1, as in the readouts
        assert texts[:5] == [f"{u + 1:,}", f"{log.step[u]:,}", f"{row.epoch:,}",
                             f"{log.index[u] + 1:,}",
                             "+1" if ws.dataset.y[log.index[u]] > 0 else "−1"]
        assert texts[5] == fmt(log.margin[u])
        # the update shows w and b on lines of their own; exports take it on one line
        assert texts[6] == row.formula and texts[6].startswith("w ← ") and "\nb ← " in texts[6]
        assert model.row_texts(u)[6] == row.formula.replace("\n", "   ")
    # the row at the cursor reads like the readout panel's last update
    last = model.index(len(log.step) - 1, 6).data()
    assert last == ws.readouts().last_update
    assert model.update_lines() == 2


def test_kernel_log_uses_the_alpha_form(qtbot, window):
    ws = setup(window, "dual-rbf")
    ws.run_to_end()
    window.timeline.refresh()
    model = window.timeline.model
    log = ws.learner.history.updates.rows()
    assert model.rowCount() == len(log.step)
    i = int(log.index[0]) + 1  # the log numbers samples from 1
    assert model.index(0, 6).data().startswith(f"α[{i}] ← α[{i}] + 1 = 1\nb ← ")
    rows = list(report.update_rows(ws))
    for u, r in enumerate(rows):  # α counts the updates on the same sample so far
        assert f"+ 1 = {r.alpha_before + 1}   b" in model.row_texts(u)[6]
    assert max(r.alpha_before for r in rows) >= 1  # some sample was updated twice
    assert f"α[{i}] = 1 after this update" in model.index(0, 6).data(
        QtCore.Qt.ItemDataRole.ToolTipRole)


def test_rows_after_the_cursor_are_grey(qtbot, window):
    ws = setup(window, "primal")
    ws.run_to_end()
    log = ws.learner.history.updates.rows()
    tl = window.timeline
    tl.refresh()
    changed = []
    tl.model.dataChanged.connect(lambda a, b, roles: changed.append((a.row(), b.row())))
    ws.seek(int(log.step[2]))  # the cursor on update k = 3
    tl.refresh()
    grey = [tl.model.index(u, 0).data(GREY) is not None for u in range(len(log.step))]
    assert grey == [False] * 3 + [True] * (len(log.step) - 3)
    assert "After the cursor" in tl.model.index(3, 6).data(QtCore.Qt.ItemDataRole.ToolTipRole)
    assert changed == [(3, len(log.step) - 1)]  # only the rows whose state changed
    ws.seek(int(log.step[4]))
    tl.refresh()
    assert changed[-1] == (3, 4)
    assert [tl.model.index(u, 6).data(GREY) is not None for u in range(6)] == [False] * 5 + [True]


def test_selecting_a_row_seeks_and_the_cursor_selects_its_row(qtbot, window):
    ws = setup(window, "primal")
    ws.run_to_end()
    tl = window.timeline
    tl.refresh()
    log = ws.learner.history.updates.rows()
    view = tl.view
    assert view.selected_row() == len(log.step) - 1  # at the end: the last update is selected
    view.selectRow(2)
    assert ws.step_count == log.step[2]
    tl.refresh()
    assert tl.slider.value() == log.step[2] and view.selected_row() == 2
    # a click on a row does the same
    rect = view.visualRect(tl.model.index(4, 1))
    qtbot.mouseClick(view.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert ws.step_count == log.step[4]
    # the cursor moving by other means selects the latest update at or before it, no seek
    seeks = []
    real_seek = ws.seek
    ws.seek = lambda step: (seeks.append(step), real_seek(step))[1]
    window.actionStepBack.trigger()  # one step before update 5: update 4 is the latest
    tl.refresh()
    assert view.selected_row() == 3 and seeks == []
    window.actionReset.trigger()
    tl.refresh()
    assert view.selected_row() is None and seeks == []
    # the slider moved to a step between two updates selects the update before it
    ws.seek = real_seek
    tl.slider.setValue(int(log.step[3]) + 1 if log.step[4] > log.step[3] + 1 else int(log.step[3]))
    tl.refresh()
    assert view.selected_row() == 3


def test_log_follows_a_growing_run(qtbot, window):
    ws = setup(window, "primal")
    tl = window.timeline
    inserted = []
    tl.model.rowsInserted.connect(lambda parent, a, b: inserted.append((a, b)))
    window.actionStep.trigger()
    window.actionStep.trigger()
    tl.refresh()
    assert tl.model.rowCount() == 2 and tl.view.selected_row() == 1
    window.actionStep.trigger()
    tl.refresh()
    assert inserted == [(0, 1), (2, 2)]
    resets = []
    tl.model.modelReset.connect(lambda: resets.append(1))
    ws.set_params(bias_scale=2.0)  # a new run: the log starts over
    tl.refresh()
    assert resets == [1] and tl.model.rowCount() == 0


def test_standalone_widgets_seek_themselves(qtbot):
    ws = Workspace(generators.separable(12, seed=1, margin=0.2))
    ws.run_to_end()
    bar = TimelineBar(ws)
    model = UpdateLogModel(ws)
    view = UpdateLogView(model)
    qtbot.addWidget(bar)
    qtbot.addWidget(view)
    bar.slider.setValue(3)
    assert ws.step_count == 3
    view.selectRow(1)
    assert ws.step_count == ws.learner.history.updates.rows().step[1]


@pytest.mark.serial  # timing: the UI thread's CPU time per call
def test_model_over_a_long_run_is_lazy(qtbot):
    # two copies of a point with opposite labels: every step is an update
    ds = Dataset([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], [1, -1, 1])
    ws = Workspace(ds, params={"primal": {"max_iter": 50_000}})
    ws.run_to_end()
    n = len(ws.learner.history.updates)
    assert n >= 100_000
    # the UI thread's CPU time: what the work costs, whatever else runs on the machine
    tracemalloc.start()
    t0 = time.thread_time()
    model = UpdateLogModel(ws)
    spent = time.thread_time() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert model.rowCount() == n
    assert spent < 0.2, spent  # ~1 ms: nothing per row
    assert peak < 200_000, peak  # no Python object per row
    view = UpdateLogView(model)
    qtbot.addWidget(view)
    view.resize(700, 300)
    t0 = time.thread_time()
    view.show()
    view.follow_cursor()
    flush()
    assert time.thread_time() - t0 < 2.0
    assert view.selected_row() == n - 1
    assert len(model._cache) < 100  # only the rows on screen were formatted
    assert model.index(n - 1, 0).data() == f"{n:,}"
    bar = TimelineBar(ws)
    qtbot.addWidget(bar)
    bar.resize(800, 40)
    t0 = time.thread_time()
    assert not bar.grab().isNull()  # the ticks of 10^5 updates paint at once
    assert time.thread_time() - t0 < 1.0


# ----------------------------------------------------------------------------- the edit guard


@pytest.fixture
def scrubbed(window):
    ws = setup(window, "primal")
    ws.run_to_end()
    ws.seek(7)
    flush()
    return ws


def answer(monkeypatch, button):
    asked = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return button

    monkeypatch.setattr(errors, "ask", question)
    return asked


def test_edit_while_scrubbed_back_no_cancels(window, scrubbed, monkeypatch):
    ws = scrubbed
    asked = answer(monkeypatch, QtWidgets.QMessageBox.StandardButton.No)
    before, frontier = ws.dataset, ws.learner.frontier
    depth = window.undo_stack.count()
    assert not window.push_edit(AddPoints([[0.5, 0.5]], [1]))
    assert len(asked) == 1
    assert asked[0].startswith(f"Discard the {frontier - 7} later steps of the run?")
    assert ws.dataset == before and window.undo_stack.count() == depth
    assert ws.step_count == 7 and ws.learner.frontier == frontier


def test_edit_while_scrubbed_back_yes_applies_and_undoes(window, scrubbed, monkeypatch):
    ws = scrubbed
    asked = answer(monkeypatch, QtWidgets.QMessageBox.StandardButton.Yes)
    before = ws.dataset
    coef = ws.learner.coef_.copy()
    assert window.push_edit(AddPoints([[0.5, 0.5]], [1]))
    assert len(asked) == 1 and ws.dataset.n == before.n + 1 and ws.step_count == 0
    window.actionUndo.trigger()
    assert ws.dataset == before and ws.step_count == 7
    np.testing.assert_array_equal(ws.learner.coef_, coef)
    window.actionRedo.trigger()
    assert ws.dataset.n == before.n + 1
    assert len(asked) == 1  # undo/redo never ask


def test_no_question_at_the_frontier(window, monkeypatch):
    setup(window, "primal")
    asked = answer(monkeypatch, QtWidgets.QMessageBox.StandardButton.No)
    for _ in range(4):
        window.actionStepSample.trigger()
    assert window.push_edit(AddPoints([[0.5, 0.5]], [1]))
    assert asked == []
    window.actionStepSample.trigger()
    window.actionStepSample.trigger()
    window.actionStepBack.trigger()
    assert not window.push_edit(AddPoints([[0.7, 0.5]], [1]))
    assert asked == ["Discard the 1 later step of the run?" + asked[0].split("run?", 1)[1]]


def test_one_drag_asks_once(window, scrubbed, monkeypatch):
    ws = scrubbed
    asked = answer(monkeypatch, QtWidgets.QMessageBox.StandardButton.No)
    before = ws.dataset
    x = before.X[0]
    for dx in (0.1, 0.2, 0.3):
        assert not window.push_edit(MovePoints([0], [x + dx]))
    assert len(asked) == 1 and ws.dataset == before
    window.canvas.dragFinished.emit()  # the next drag asks again
    assert not window.push_edit(MovePoints([0], [x + 0.4]))
    assert len(asked) == 2


def test_a_real_drag_asks_once_and_undoes(qtbot, window, scrubbed, monkeypatch):
    ws = scrubbed
    before = ws.dataset
    viewport = window.canvas.viewport()
    start = window.canvas.data_to_widget(*before.X[0]).toPoint()

    def drag():
        qtbot.mousePress(viewport, QtCore.Qt.MouseButton.LeftButton, pos=start)
        for dx in (5, 10, 20, 30):
            qtbot.mouseMove(viewport, start + QtCore.QPoint(dx, 0))
        qtbot.mouseRelease(viewport, QtCore.Qt.MouseButton.LeftButton,
                           pos=start + QtCore.QPoint(30, 0))
        flush()

    asked = answer(monkeypatch, QtWidgets.QMessageBox.StandardButton.No)
    drag()
    qtbot.mouseMove(viewport, start + QtCore.QPoint(60, 10))  # no button: no drag
    flush()
    assert len(asked) == 1 and ws.dataset == before and ws.step_count == 7
    asked = answer(monkeypatch, QtWidgets.QMessageBox.StandardButton.Yes)
    drag()
    assert len(asked) == 1 and ws.dataset.X[0, 0] > before.X[0, 0] and ws.step_count == 0
    window.actionUndo.trigger()  # the whole drag is one undo step, back to step 7
    assert ws.dataset == before and ws.step_count == 7


# ----------------------------------------------------------------------------- exports


def test_a_multiclass_run_lists_its_classes_and_both_moves(qtbot, window, tmp_path):
    ws = setup(window, "multiclass")
    ws.run_to_end()
    tl = window.timeline
    tl.refresh()
    model = tl.model
    log = ws.learner.history.updates.rows()
    assert ws.multiclass and model.rowCount() == len(log.step) >= 3
    headers = [model.headerData(c, QtCore.Qt.Orientation.Horizontal) for c in range(7)]
    assert headers == ["k", "step", "epoch", "sample", "class", "μ before", "update"]
    names = ("left", "middle", "right")
    for u, row in enumerate(report.update_rows(ws)):
        texts = [model.index(u, c).data() for c in range(7)]
        assert texts[4] == names[row.label] and texts[5] == fmt(log.margin[u])
        lines = texts[6].split("\n")  # μ, then the sample's class gains x̃, the rival loses it
        assert lines[0].startswith("μ = w_" + names[row.label])
        assert lines[1].startswith(f"w_{names[row.label]} ← ")
        assert lines[2].startswith(f"w_{names[row.rival]} ← ") and row.rival != row.label
        W0, W1 = np.asarray(row.w_before), np.asarray(row.w_after)
        z = ws.learner.augmented_X[row.sample]
        np.testing.assert_array_equal(W1[row.label], W0[row.label] + z)
        np.testing.assert_array_equal(W1[row.rival], W0[row.rival] - z)
    assert model.index(len(log.step) - 1, 6).data() == ws.readouts().last_update
    assert model.update_lines() == 3
    # the CSV: every class's w and b before and after each update, read back bit for bit
    report.log_to_csv(ws, tmp_path / "run.csv")
    data = np.loadtxt(tmp_path / "run.csv", delimiter=",", skiprows=1, ndmin=2)
    header = (tmp_path / "run.csv").read_text(encoding="utf-8").split("\n")[0].split(",")
    assert header[:9] == ["k", "step", "epoch", "sample", "y", "x1", "x2", "margin", "rival"]
    last = ws.learner.weights_after(len(log.step))
    after = data[-1, header.index("w1_1_after"):].reshape(3, 3)
    np.testing.assert_array_equal(after[:, :2], last[:, :2])
    np.testing.assert_array_equal(after[:, 2], last[:, 2])  # c = 1: b = w₀
    tex = report_latex.log_to_latex(ws)
    assert r"$\mu_i$ before" in tex and r"w_{\mathrm{left}}" in tex


def test_export_actions_write_csv_and_latex(window, monkeypatch, tmp_path):
    ws = setup(window, "primal")
    tl = window.timeline
    file_menu = window.menus["file"]
    assert tl.actionExportLogCsv in file_menu.actions()
    assert tl.actionExportLogLatex in file_menu.actions()
    assert tl.actionExportLogCsv.text().startswith("Export update log as &CSV")
    assert not tl.actionExportLogCsv.isEnabled()  # nothing to export yet
    ws.run_to_end()
    ws.seek(3)
    assert tl.actionExportLogCsv.isEnabled() and tl.actionExportLogLatex.isEnabled()
    target = {"path": str(tmp_path / "run")}
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (target["path"], ""))
    tl.actionExportLogCsv.trigger()  # written in a worker: the menu does not wait
    assert tl.table_export.wait()
    data = np.loadtxt(tmp_path / "run.csv", delimiter=",", skiprows=1, ndmin=2)
    log = ws.learner.history.updates.rows()
    assert data.shape[0] == len(log.step)  # the whole computed run, not only up to the cursor
    assert data[:, 11:13].tobytes() == np.asarray(log.w).tobytes()
    assert data[:, 7].tobytes() == np.asarray(log.margin).tobytes()
    target["path"] = str(tmp_path / "run.tex")
    tl.actionExportLogLatex.trigger()
    assert tl.table_export.wait()
    assert (tmp_path / "run.tex").read_text(encoding="utf-8") == report_latex.log_to_latex(ws)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.csv", "run.tex"]
    assert "written to" in window.statusBar().currentMessage()
    # cancelling the dialog writes nothing; a failed write says so and leaves no file
    target["path"] = ""
    assert not tl.export_csv()
    warned = []
    monkeypatch.setattr(errors, "warn", lambda *a: warned.append(a[2]))
    assert not tl.export_csv(str(tmp_path / "missing" / "x.csv"))
    assert warned and "Could not write" in warned[0]


def test_ticks_mark_the_updates_past_and_future(qtbot):
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    ws.run_to_end()
    ws.seek(40)
    bar = TimelineBar(ws)
    qtbot.addWidget(bar)
    bar.resize(800, 40)
    bar.show()
    qtbot.waitExposed(bar)
    s = bar.slider
    image = s.grab().toImage()
    # where the style puts the handle's centre for a value = where a tick for it goes
    opt = QtWidgets.QStyleOptionSlider()
    s.initStyleOption(opt)
    style = s.style()
    cc, sc = QtWidgets.QStyle.ComplexControl, QtWidgets.QStyle.SubControl
    groove = style.subControlRect(cc.CC_Slider, opt, sc.SC_SliderGroove, s)
    handle = style.subControlRect(cc.CC_Slider, opt, sc.SC_SliderHandle, s)
    span = groove.width() - handle.width()
    x0 = groove.x() + handle.width() / 2
    steps = ws.learner.history.updates.rows().step
    px = np.round(x0 + steps / s.maximum() * span).astype(int)
    y = image.height() - 1
    colours = {x: image.pixelColor(x, y).name() for x in range(image.width())}
    past = {x for x, c in colours.items() if c == "#cc79a7"}  # the update colour
    future = {x for x, c in colours.items() if c == "#c8c8c8"}
    assert past == set(px[steps <= 40].tolist()) and len(past) >= 5
    assert future == set(px[steps > 40].tolist()) and len(future) >= 2


def test_log_columns_fit_seven_digit_counts(qtbot, window):
    ws = setup(window, "primal")
    ws.run_to_end()
    view = window.timeline.view
    fm = view.fontMetrics()
    for col in range(4):  # k, step, epoch, sample
        assert view.columnWidth(col) >= fm.horizontalAdvance("9,999,999")


def test_ticks_of_millions_of_updates_never_copy_the_steps(qtbot):
    # the columns' edges are asked as whole numbers: float edges made numpy convert
    # every step to float first (16 MB here, 0.1 s a paint on a long run)
    from types import SimpleNamespace

    k = 2_000_000
    steps = np.arange(1, k + 1, dtype=np.int64) * 3
    bar = TimelineBar(Workspace())
    qtbot.addWidget(bar)
    bar.resize(800, 40)
    s = bar.slider
    s.setRange(0, int(steps[-1]))
    # the log's query API over int64 steps (UpdateLog answers the same way, exactly)
    log = SimpleNamespace(
        thinned=False,
        counts_before=lambda t: np.searchsorted(steps, np.asarray(t, np.int64), side="right"),
        steps_of=lambda u: steps[np.asarray(u, np.int64)])
    s.set_marks(log, k, k // 2)
    tracemalloc.start()
    image = s.grab().toImage()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < k  # O(width), not 8 bytes per update
    y = image.height() - 1
    colours = {image.pixelColor(x, y).name() for x in range(image.width())}
    assert {"#cc79a7", "#c8c8c8"} <= colours  # the past and the future ticks were drawn
