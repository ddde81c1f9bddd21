"""The live plots draw the core's run: updates and bound, the proof, mistakes per epoch."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from PySide6 import QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.learners import registry
from perceptron_gui.core.text import fmt
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.views import plots as plots_module
from perceptron_gui.ui.views.plots import LivePlots
from perceptron_gui.ui.widgets.axes import log_ticks
from perceptron_gui.ui.wording import problem_text


def make_plots(qtbot, ws) -> LivePlots:
    widget = LivePlots(ws)
    qtbot.addWidget(widget)
    widget.resize(380, 560)
    widget.show()
    return widget


def curve_data(item):
    x, y = item.getOriginalDataset()
    return (np.empty(0), np.empty(0)) if x is None else (np.asarray(x), np.asarray(y))


def bar_heights(widget) -> np.ndarray:
    return np.concatenate([np.asarray(widget.part("mistakes").bars.opts["height"]),
                           np.asarray(widget.part("mistakes").current_bar.opts["height"])])


@pytest.fixture
def converged():
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    ws.run_to_end()
    return ws


def test_widgets_are_named(qtbot, converged):
    widget = make_plots(qtbot, converged)
    for name in ("plotBound", "plotProof", "plotMistakes"):
        child = widget.findChild(QtWidgets.QWidget, name)
        assert child is not None and child.isVisibleTo(widget)


def test_updates_curve_is_the_update_log(qtbot, converged):
    ws = converged
    widget = make_plots(qtbot, ws)
    k = ws.learner.n_updates_
    x, y = curve_data(widget.part("bound").k_curve)
    assert len(x) == len(y) == k
    np.testing.assert_array_equal(x, ws.learner.history.updates.rows().step[:k])
    np.testing.assert_array_equal(y, np.arange(1, k + 1))
    assert curve_data(widget.part("bound").k_now)[0].tolist() == [ws.learner.step_count]


def test_bound_line_is_at_the_bound(qtbot, converged):
    widget = make_plots(qtbot, converged)
    bound = converged.readouts().bound
    assert widget.part("bound").bound_line.isVisible()
    # the k axis is logarithmic when there is a ceiling
    assert 10 ** widget.part("bound").bound_line.value() == pytest.approx(bound, rel=1e-12)
    label = widget.part("bound").bound_line.label.toPlainText()
    assert label == f"(R/γ)² = {fmt(bound)}"
    low, high = widget.part("bound").bound_plot.getPlotItem().getViewBox().viewRange()[1]
    assert low <= 0 and high > math.log10(bound)  # the ceiling and k = 1 are in view


def test_proof_curves(qtbot, converged):
    ws = converged
    widget = make_plots(qtbot, ws)
    trace = ws.proof()
    k = ws.learner.n_updates_
    x, y = curve_data(widget.part("proof").dot_curve)
    assert len(x) == k
    np.testing.assert_array_equal(y, trace.dot)
    np.testing.assert_array_equal(curve_data(widget.part("proof").norm_curve)[1], trace.norm2)
    # the bound lines are straight: their end points are the trace's
    proof = widget.part("proof")
    np.testing.assert_array_equal(curve_data(proof.lower_line)[1], trace.lower[[0, -1]])
    np.testing.assert_array_equal(curve_data(proof.upper_line)[1], trace.upper[[0, -1]])
    assert widget.proof_text == ""
    assert "γ" in widget.part("proof").dot_plot.titleLabel.text
    assert "R²" in widget.part("proof").norm_plot.titleLabel.text


def test_mistakes_bars_equal_the_core(qtbot, converged):
    ws = converged
    widget = make_plots(qtbot, ws)
    np.testing.assert_array_equal(bar_heights(widget), ws.learner.mistakes_per_epoch())
    # finished: no epoch in progress
    assert len(widget.part("mistakes").current_bar.opts["height"]) == 0
    ws.reset()
    for _ in range(4):
        ws.step_update()
    widget.refresh()
    counts = ws.learner.mistakes_per_epoch()
    np.testing.assert_array_equal(bar_heights(widget), counts)
    # the epoch in progress
    assert list(widget.part("mistakes").current_bar.opts["height"]) == [counts[-1]]


def test_step_back_shortens_the_curves(qtbot, converged):
    ws = converged
    widget = make_plots(qtbot, ws)
    ws.seek(int(ws.learner.history.updates.rows().step[4]))  # just after the 5th update
    widget.refresh()
    assert len(curve_data(widget.part("bound").k_curve)[0]) == 5
    assert len(curve_data(widget.part("proof").dot_curve)[0]) == 5
    np.testing.assert_array_equal(bar_heights(widget), ws.learner.mistakes_per_epoch())


def test_not_separable(qtbot):
    ws = Workspace(generators.xor(40, seed=1), params={"primal": {"max_iter": 30}})
    ws.run_to_end()
    widget = make_plots(qtbot, ws)
    assert not widget.part("bound").bound_line.isVisible()
    assert widget.part("bound").bound_note.isVisible()
    assert widget.part("bound").bound_note.toPlainText() == "not separable — no bound"
    assert widget.proof_text == plots_module.PROOF_NOT_SEPARABLE
    assert len(curve_data(widget.part("bound").k_curve)[0]) == ws.learner.n_updates_
    np.testing.assert_array_equal(bar_heights(widget), ws.learner.mistakes_per_epoch())
    assert len(bar_heights(widget)) == 30


def test_lda_shows_a_message(qtbot, converged):
    ws = converged
    widget = make_plots(qtbot, ws)
    assert widget.message == ""
    ws.set_learner("lda")
    widget.refresh()
    assert widget.message == registry.get("lda").no_steps_text == (
        "LDA is fitted at once, from the class means and the pooled covariance: there is no "
        "run to step through or plot.")
    assert not widget.part("bound").bound_plot.isVisibleTo(widget)
    ws.set_learner("primal")
    widget.refresh()
    assert widget.message == ""
    assert widget.part("bound").bound_plot.isVisibleTo(widget)
    assert len(curve_data(widget.part("bound").k_curve)[0]) == 0  # a new run starts at w = 0


@pytest.mark.parametrize("ds", [None, Dataset([[1.0, 2.0]], [1])])
def test_no_run(qtbot, ds):
    ws = Workspace(ds)
    widget = make_plots(qtbot, ws)
    assert widget.message == problem_text(ws)  # the UI's words for the core's problem
    ws.set_dataset(generators.separable(10, seed=1))
    widget.refresh()
    assert widget.message == ""
    assert widget.part("bound").bound_note.toPlainText() == "no update yet"
    ws.step_update()
    widget.refresh()
    assert len(curve_data(widget.part("bound").k_curve)[0]) == 1


def test_kernel_learner(qtbot):
    ws = Workspace(generators.circles(30, seed=2), learner="dual")
    ws.set_params(kernel="rbf", gamma=2.0)
    ws.run_to_end()
    widget = make_plots(qtbot, ws)
    assert widget.proof_text == plots_module.PROOF_KERNEL
    assert len(curve_data(widget.part("bound").k_curve)[0]) == ws.learner.n_updates_
    assert widget.part("bound").bound_line.isVisible()
    assert 10 ** widget.part("bound").bound_line.value() == pytest.approx(ws.readouts().bound)


def test_learning_rate_in_the_titles(qtbot):
    ws = Workspace(generators.separable(20, seed=4, margin=0.3),
                   params={"primal": {"eta0": 0.5}})
    ws.run_to_end()
    widget = make_plots(qtbot, ws)
    assert "kηγ" in widget.part("proof").dot_plot.titleLabel.text
    assert "kη²R²" in widget.part("proof").norm_plot.titleLabel.text
    np.testing.assert_array_equal(curve_data(widget.part("proof").dot_curve)[1], ws.proof().dot)


def test_signals_coalesce_into_one_redraw(qtbot, monkeypatch):
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    widget = make_plots(qtbot, ws)
    real = ws.proof
    calls = []
    monkeypatch.setattr(ws, "proof", lambda: calls.append(1) or real())
    for _ in range(5):
        ws.step_update()
    assert calls == []
    qtbot.waitUntil(lambda: len(curve_data(widget.part("bound").k_curve)[0]) == 5)
    # the proof's plot is the next pass of the same coalesced refresh
    qtbot.waitUntil(lambda: len(curve_data(widget.part("proof").dot_curve)[1]) == len(real().k))
    assert len(calls) == 1
    widget.refresh()  # nothing changed: the proof is not asked for again
    assert len(calls) == 1


def test_presenter_scale(qtbot, converged):
    widget = make_plots(qtbot, converged)
    widget.set_scale(style.PRESENTER)
    assert widget.part("bound").k_curve.opts["pen"].widthF() == style.PRESENTER.line
    np.testing.assert_array_equal(bar_heights(widget), converged.learner.mistakes_per_epoch())


def test_the_plots_draw_in_the_colour_scheme_they_restyle_in(qtbot, converged):
    """In the dark scheme the plots take its lighter hues, not the light scheme's of the
    moment the module was first imported."""
    widget = make_plots(qtbot, converged)
    parts = {name: widget.part(name) for name in ("bound", "proof", "mistakes")}
    with style.using(style.DARK) as dark:
        widget.apply_theme(dark)
        bound, proof = parts["bound"], parts["proof"]
        drawn = {
            "k": bound.k_curve.opts["pen"].color(),
            "ceiling": bound.bound_line.pen.color(),
            "ceiling label": bound.bound_line.label.color,
            "now": bound.k_now.opts["symbolBrush"].color(),
            "w·w*": proof.dot_curve.opts["pen"].color(),
            "kγ": proof.lower_line.opts["pen"].color(),
            "kR²": proof.upper_line.opts["pen"].color(),
            "epoch now": parts["mistakes"].current_bar.opts["brush"].color(),
        }
        title = proof.dot_plot.titleLabel.text
    wanted = {"k": dark.weight_color, "ceiling": dark.radius_color,
              "ceiling label": dark.radius_color, "now": dark.highlight_color,
              "w·w*": dark.weight_color, "kγ": dark.maxmargin_color,
              "kR²": dark.radius_color, "epoch now": dark.highlight_color}
    assert {k: c.name() for k, c in drawn.items()} == {
        k: QtGui.QColor(c).name() for k, c in wanted.items()}
    assert dark.maxmargin_color in title and dark.weight_color in title
    widget.apply_theme(style.LIGHT)


def test_log_ticks():
    major, minor = log_ticks(2.4)
    assert major == [(0.0, "1"), (1.0, "10"), (2.0, "100"), (3.0, "1,000")]
    assert all(label == "" for _, label in minor)
    major, minor = log_ticks(1.8)
    assert major == [(0.0, "1"), (1.0, "10"), (2.0, "100")]
    assert (math.log10(20), "20") in minor and (math.log10(5), "5") in minor
    major, minor = log_ticks(6.2)
    assert major[-1] == (7.0, "10⁷") and major[4] == (4.0, "10,000")
    assert all(label == "" for _, label in minor)


def test_refresh_after_many_updates_is_quick(qtbot):
    """Not a benchmark: prints the time of one refresh after ~10^5 updates."""
    ws = Workspace(generators.xor(1000, seed=0), params={"primal": {"max_iter": 200}})
    ws.run_to_end()
    widget = make_plots(qtbot, ws)
    ws.step_back()
    widget.refresh()
    ws.step_update()
    start = time.perf_counter()
    widget.refresh()
    QtWidgets.QApplication.processEvents()
    elapsed = time.perf_counter() - start
    print(f"\nrefresh after {ws.learner.n_updates_} updates: {elapsed * 1e3:.1f} ms")
    k = ws.learner.n_updates_
    assert k > 50_000
    # a bounded number of points, each exact: (the step of update c, c), ending at k
    x, y = curve_data(widget.part("bound").k_curve)
    assert len(x) <= 4096 and y[-1] == k and np.all(np.diff(y) > 0)
    log = ws.learner.history.updates
    for u in range(0, len(x), 97):
        assert log.step_of(int(y[u]) - 1) == x[u]


def all_axes(widget):
    """(name, axis) for the left and bottom axis of every plot."""
    proof = widget.part("proof")
    plots = {"bound": widget.part("bound").bound_plot.getPlotItem(), "dot": proof.dot_plot,
             "norm": proof.norm_plot,
             "mistakes": widget.part("mistakes").mistakes_plot.getPlotItem()}
    return [(f"{name}.{side}", plot.getAxis(side)) for name, plot in plots.items()
            for side in ("left", "bottom")]


def tick_number(text: str) -> float:
    text = text.replace("−", "-").replace(",", "")
    if text.startswith("10") and len(text) > 2 and not text[2:].isdigit():
        return 10.0 ** int(text[2:].translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
    if text.endswith("M"):
        return float(text[:-1]) * 1e6
    return float(text)


@pytest.mark.parametrize("data", ["separable", "xor"])
@pytest.mark.parametrize("k", [0, 1, 2, "mid"])
def test_every_axis_reads_well(qtbot, data, k):
    ds = (generators.separable(40, seed=3, margin=0.2) if data == "separable"
          else generators.xor(40, seed=1))
    ws = Workspace(ds, params={"primal": {"max_iter": 30}})
    if k == "mid":
        ws.run_to_end()
        ws.seek(ws.step_count // 2)
    else:
        for _ in range(k):
            ws.step_update()
    widget = make_plots(qtbot, ws)
    widget.refresh()
    left = widget.part("bound").bound_plot.getPlotItem().getAxis("left")
    qtbot.waitUntil(lambda: left.geometry().height() > 0)
    for name, axis in all_axes(widget):
        if name.startswith(("dot", "norm")) and widget.proof_text:
            continue  # the proof is not drawn (not separable): its message is shown instead
        ticks = axis.shown_ticks()
        assert ticks, name
        for text in ticks:
            assert len(text) <= 8, (name, text)
            if axis.counts:
                assert tick_number(text) >= 0, (name, text)
                assert float(tick_number(text)).is_integer(), (name, text)


def test_a_single_point_is_drawn_as_a_point(qtbot):
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    ws.step_update()
    widget = make_plots(qtbot, ws)
    widget.refresh()
    proof = widget.part("proof")
    for curve in (proof.dot_curve, proof.norm_curve, proof.lower_line, proof.upper_line):
        assert len(curve_data(curve)[0]) == 1
        assert curve.opts["symbol"] == "o"  # a zero-length line would draw nothing
    ws.step_update()
    widget.refresh()
    assert len(curve_data(widget.part("proof").dot_curve)[0]) == 2
    assert widget.part("proof").dot_curve.opts["symbol"] is None  # a line again


def test_proof_axes_hold_the_single_value(qtbot):
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    ws.step_update()
    widget = make_plots(qtbot, ws)
    widget.refresh()
    value = float(ws.proof().norm2[0])
    low, high = widget.part("proof").norm_plot.getViewBox().viewRange()[1]
    assert low <= value <= high and high - low >= value * 0.5  # not collapsed on the value


def test_axis_label_stays_when_the_axis_turns_logarithmic(qtbot):
    ws = Workspace(generators.xor(40, seed=1), params={"primal": {"max_iter": 5}})
    widget = make_plots(qtbot, ws)
    ws.run_to_end()
    widget.refresh()
    left = widget.part("bound").bound_plot.getPlotItem().getAxis("left")
    linear = left.labelText
    ws.set_dataset(generators.separable(30, seed=3, margin=0.2))
    ws.run_to_end()
    widget.refresh()
    assert left.logMode and left.labelText == linear == "updates k"


def test_a_run_of_many_epochs_draws_a_bounded_number_of_bars(qtbot):
    from perceptron_gui.ui.views.plots.mistakes import MAX_BARS

    ws = Workspace(generators.xor(4, seed=0), params={"primal": {"max_iter": 5_000}})
    ws.run_to_end()
    widget = make_plots(qtbot, ws)
    widget.refresh()
    counts = ws.learner.mistakes_per_epoch()
    assert counts.size == 5_000
    heights = bar_heights(widget)
    # each bar the largest count of its group of epochs, every epoch in one group
    assert heights.size <= MAX_BARS + 1 and heights.max() == counts.max()
    group = -(-counts.size // MAX_BARS)
    assert np.array_equal(heights, np.maximum.reduceat(counts, np.arange(0, counts.size, group)))


def test_proof_bound_lines_end_at_the_cursor_once_the_trace_is_a_sample(qtbot, converged,
                                                                         monkeypatch):
    # beyond 4,096 updates the proof's trace is a sample of them ending at k: the bound
    # lines must take the sample's ends (indexing the trace by k raised IndexError)
    from perceptron_gui.core.learners._log import UpdateLog

    monkeypatch.setattr(UpdateLog.samples, "__defaults__", (3,))
    ws = converged
    k = ws.learner.n_updates_
    trace = ws.proof()
    assert k > len(trace.k) == 3 and trace.k[-1] == k
    widget = make_plots(qtbot, ws)
    proof = widget.part("proof")
    x, y = curve_data(proof.lower_line)
    np.testing.assert_array_equal(x, trace.k[[0, -1]])
    np.testing.assert_array_equal(y, trace.lower[[0, -1]])
    np.testing.assert_array_equal(curve_data(proof.upper_line)[1], trace.upper[[0, -1]])


def _drawn_steps(curve) -> list[tuple[float, float]]:
    """The corners of a stepped curve as drawn: its path's points, in data coordinates."""
    path = curve.curve.getPath()
    return [(path.elementAt(i).x, path.elementAt(i).y) for i in range(path.elementCount())]


@pytest.mark.parametrize("separable", [True, False])
def test_the_staircase_rises_at_the_step_of_each_update(qtbot, separable):
    # k_i is drawn from the step of the i-th update on, never before it
    data = (generators.separable(30, seed=3, margin=0.2) if separable
            else generators.overlapping(30, seed=3))
    ws = Workspace(data, params={"primal": {"max_iter": 3}})
    for _ in range(40):
        ws.step()
    widget = make_plots(qtbot, ws)
    widget.refresh()
    rows = ws.learner.history.updates.rows(0, ws.learner.n_updates_)
    steps = np.asarray(rows.step, dtype=float)
    assert len(steps) >= 3
    log = widget.part("bound").bound_plot.getPlotItem().ctrl.logYCheck.isChecked()
    assert log == separable  # a ceiling puts k on a log axis
    corners = [(x, 10 ** y if log else y) for x, y in _drawn_steps(widget.part("bound").k_curve)]
    for i, s in enumerate(steps, start=1):
        # the drawn k just before the step is i - 1 (nothing before the first), at it i
        level_at = [k for x, k in corners if x == s]
        assert max(level_at) == pytest.approx(i)
        before = [k for x, k in corners if x < s]
        assert not before or max(before) == pytest.approx(i - 1)


@pytest.mark.parametrize("size", [(290, 110), (300, 180)])
def test_no_update_yet_leaves_the_ceilings_label_readable(qtbot, size):
    from perceptron_gui.ui.views.plots.strip import BoundStrip

    ws = Workspace(generators.separable(12, seed=5, margin=0.4))
    strip = BoundStrip(ws)  # the side panel's strip: short, the note and the label close
    qtbot.addWidget(strip)
    strip.resize(*size)
    strip.show()
    strip.refresh()
    bound = strip.plot
    qtbot.waitUntil(lambda: bound.bound_note.isVisible() and bound.bound_line.isVisible())
    assert bound.bound_note.toPlainText() == "no update yet"
    label = bound.bound_line.label
    assert label.toPlainText().startswith("(R/γ)² = ")

    def scene_rect(item):
        return item.mapRectToScene(item.boundingRect())

    box = bound.bound_plot.getPlotItem().getViewBox()
    qtbot.waitUntil(lambda: not scene_rect(bound.bound_note).intersects(scene_rect(label)))
    assert scene_rect(box).contains(scene_rect(bound.bound_note))  # inside the plot
    # the label is at the left, the note at the right: apart at any height of the plot
    assert scene_rect(bound.bound_note).left() > scene_rect(label).right()


def test_a_note_wider_than_its_plot_wraps_instead_of_being_cut(qtbot):
    import pyqtgraph as pg

    from perceptron_gui.ui.views.plots.items import Note

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(110, 120)
    widget.show()
    qtbot.waitExposed(widget)
    vb = widget.getPlotItem().getViewBox()
    note = Note(vb)
    for where in ("bottom", "center", "corner"):
        note.show_text("no update yet: k = 0", where)
        box = vb.boundingRect()
        shown = note.mapRectToParent(note.boundingRect())
        assert box.width() < 100  # narrower than the note's one line
        assert box.contains(shown), (where, box, shown)
    note.show_text("k", "bottom")  # a short text takes its one line again
    assert note.textItem.textWidth() < 0


def test_the_strip_builds_its_plot_for_the_first_run_it_draws(qtbot):
    import pyqtgraph as pg

    from perceptron_gui.ui.views.plots.strip import BoundStrip

    ws = Workspace()
    strip = BoundStrip(ws)
    qtbot.addWidget(strip)
    strip.show()
    strip.refresh()
    assert strip.message and not strip.findChildren(pg.PlotWidget)  # "no points yet"
    ws.set_dataset(generators.separable(12, seed=5, margin=0.4))
    strip.refresh()
    assert not strip.message and strip.findChildren(pg.PlotWidget) == [strip.plot.bound_plot]
    assert strip.plot.bound_plot.isVisible() and strip.plot.bound_plot.objectName() == "stripBound"
