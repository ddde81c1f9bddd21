"""The readout panel shows the core's numbers, and only the rows that mean something."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6 import QtGui, QtWidgets

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.text import fmt, fmt_vec
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.readouts import FIELDS, ReadoutPanel
from perceptron_gui.ui.wording import problem_text

PERCEPTRON_ONLY = ("epoch", "position", "k", "mistakes", "R", "gamma", "bound", "update")


def make_panel(qtbot, ws) -> ReadoutPanel:
    panel = ReadoutPanel(ws)
    qtbot.addWidget(panel)
    panel.show()
    return panel


@pytest.fixture
def converged():
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    ws.run_to_end()
    return ws


def test_values_equal_the_core(qtbot, converged):
    ws = converged
    panel = make_panel(qtbot, ws)
    r = ws.readouts()
    v = panel.values()
    assert v["k"] == str(ws.learner.n_updates_) == str(r.k)
    assert v["bound"] == r.bound_text
    assert v["bound"].startswith(f"k = {r.k} ≤ (R/γ)² = ")
    assert v["update"] == r.last_update
    assert v["update"].count("\n") == 1  # w and b on two lines
    assert v["w"] == fmt_vec(ws.learner.coef_[0])
    assert v["b"] == fmt(ws.learner.intercept_[0])
    assert v["margin"] == fmt(r.margin)
    assert v["R"] == fmt(r.radius)
    assert v["gamma"] == fmt(r.gamma)
    assert v["epoch"] == str(ws.learner.n_epochs_)
    assert v["position"] == f"{ws.dataset.n} / {ws.dataset.n}"
    assert v["mistakes"] == "0"
    assert v["error"].startswith("0 %")
    assert v["status"] == r.status
    assert v["note"] == "R and γ are of the augmented vectors x̃ = (x, c), c = 1.00."


def test_each_value_has_a_named_label_and_a_tooltip(qtbot, converged):
    panel = make_panel(qtbot, converged)
    for key, value in panel.values().items():
        label = panel.findChild(QtWidgets.QLabel, f"readout_{key}")
        assert label is not None and label.text() == value
        assert label.toolTip()
    gamma = panel.findChild(QtWidgets.QLabel, "readout_gamma")
    tip = gamma.toolTip()
    assert "minᵢyᵢw*·x̃ᵢ" in tip.replace(" ", "") and "geometric margin" in tip
    assert {f[0] for f in FIELDS} >= set(panel.values())


def test_mid_run_and_step_back(qtbot):
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    panel = make_panel(qtbot, ws)
    assert panel.values()["update"] == "— (no update yet)"
    assert panel.values()["position"] == "— / 30"
    for _ in range(3):
        ws.step_update()
    ws.step()
    panel.refresh()
    r = ws.readouts()
    v = panel.values()
    assert (v["epoch"], v["position"], v["k"]) == ("1", f"{r.position} / 30", "3")
    assert v["mistakes"] == str(r.epoch_mistakes) == "3"
    wrong = ws.misclassified().size
    assert v["error"] == f"{fmt(100 * r.training_error, 1)} %  ({wrong} of 30)"
    ws.step_back()
    ws.step_back()
    panel.refresh()
    assert panel.values()["k"] == str(ws.learner.n_updates_) == "2"
    assert panel.values()["update"] == ws.readouts().last_update


def test_not_separable_says_so(qtbot):
    ws = Workspace(generators.xor(40, seed=1), params={"primal": {"max_iter": 20}})
    ws.run_to_end()
    panel = make_panel(qtbot, ws)
    v = panel.values()
    assert v["bound"] == "not separable — no bound"
    assert v["gamma"] == "— (not separable)"
    assert panel.findChild(QtWidgets.QLabel, "readout_bound").font().bold()
    assert "not linearly separable" in v["status"]


def test_bound_exceeded_is_red(qtbot, converged, monkeypatch):
    ws = converged
    real = ws.readouts()
    fake = dataclasses.replace(real, k=int(real.bound) + 5,
                               bound_text=f"k = {int(real.bound) + 5} > (R/γ)² = 268.80")
    monkeypatch.setattr(ws, "readouts", lambda: fake)
    panel = make_panel(qtbot, ws)
    label = panel.findChild(QtWidgets.QLabel, "readout_bound")
    assert label.text() == fake.bound_text
    color = label.palette().color(QtGui.QPalette.ColorRole.WindowText)
    assert color == QtGui.QColor(style.current().neg_color)
    monkeypatch.setattr(ws, "readouts", lambda: real)
    panel.refresh()
    color = label.palette().color(QtGui.QPalette.ColorRole.WindowText)
    assert color != QtGui.QColor(style.current().neg_color)
    assert not label.font().bold()


def test_lda_hides_the_perceptron_rows(qtbot, converged):
    ws = converged
    panel = make_panel(qtbot, ws)
    ws.set_learner("lda")
    panel.refresh()
    v = panel.values()
    for key in PERCEPTRON_ONLY + ("note",):
        assert key not in v
        assert not panel.findChild(QtWidgets.QLabel, f"readout_{key}").isVisibleTo(panel)
    assert not panel.findChild(QtWidgets.QLabel, "readoutLabel_k").isVisibleTo(panel)
    lda = ws.lda
    assert v["w"] == fmt_vec(lda.coef_[0])
    assert v["b"] == fmt(lda.intercept_[0])
    assert v["priors"] == fmt_vec(lda.priors_)
    assert v["covariance"].splitlines() == [fmt_vec(row) for row in lda.covariance_]
    assert v["status"] == ws.readouts().status
    ws.set_learner("primal")
    panel.refresh()
    assert "priors" not in panel.values()
    assert panel.values()["k"] == "0"


@pytest.mark.parametrize("learner", ["qda", "naive_bayes"])
def test_each_class_covariance_is_named_and_shown_whole_in_a_narrow_panel(qtbot, learner):
    # at 1280 x 800 QDA's "Pooled covariance Σ" showed Σ₋ cut after its first row and
    # no Σ₊: a wrapped row squeezed by the form, and not a pooled covariance at all
    ws = Workspace(generators.blobs(40, seed=1), learner=learner)
    panel = make_panel(qtbot, ws)
    panel.resize(280, 900)
    panel.refresh()
    name = panel.findChild(QtWidgets.QLabel, "readoutLabel_covariance")
    value = panel.findChild(QtWidgets.QLabel, "readout_covariance")
    assert name.text() == "Covariances Σ₋, Σ₊" and "each class" in name.toolTip()
    lines = value.text().splitlines()
    assert [line[:3] for line in lines] == ["Σ₋ ", "   ", "Σ₊ ", "   "]
    qtbot.waitUntil(lambda: value.height() >= len(lines) * value.fontMetrics().lineSpacing(),
                    timeout=5000)
    ws.set_learner("lda")
    panel.refresh()
    assert name.text() == "Pooled covariance Σ" and "shared by both" in name.toolTip()


def test_kernel_learner(qtbot):
    ws = Workspace(generators.circles(30, seed=2), learner="dual")
    ws.set_params(kernel="rbf", gamma=2.0)
    ws.run_to_end()
    panel = make_panel(qtbot, ws)
    v = panel.values()
    assert v["w"] == "in feature space (kernel)"
    assert v["k"] == str(ws.learner.n_updates_)
    assert v["update"] == ws.readouts().last_update
    assert v["update"].startswith("α[")
    assert v["bound"] == ws.readouts().bound_text
    assert "feature space" in v["note"]


@pytest.mark.parametrize("points", [0, 1])
def test_no_run_yet(qtbot, points):
    ws = Workspace(Dataset([[1.0, 2.0]], [1]) if points else None)
    panel = make_panel(qtbot, ws)
    v = panel.values()
    assert v["status"] == problem_text(ws)  # the UI's words for the core's problem
    assert ("click to add a point" if points == 0 else "add a point of class −1") in v["status"]
    assert v["k"] == "0" and v["w"] == "—" and v["bound"] == "—"


def test_without_bias_no_augmented_note(qtbot):
    ws = Workspace(generators.separable(30, seed=3, margin=0.2),
                   params={"primal": {"fit_intercept": False}})
    panel = make_panel(qtbot, ws)
    assert "note" not in panel.values()


def test_signals_coalesce_into_one_redraw(qtbot, monkeypatch):
    ws = Workspace(generators.separable(30, seed=3, margin=0.2))
    panel = make_panel(qtbot, ws)
    real = ws.readouts
    calls = []
    monkeypatch.setattr(ws, "readouts", lambda: calls.append(1) or real())
    for _ in range(5):
        ws.step()
    ws.step_update()
    assert calls == []  # nothing redrawn synchronously
    qtbot.waitUntil(lambda: panel.values()["k"] == str(ws.learner.n_updates_))
    qtbot.wait(20)
    assert len(calls) == 1


def test_presenter_scale_enlarges_the_text(qtbot, converged):
    panel = make_panel(qtbot, converged)
    label = panel.findChild(QtWidgets.QLabel, "readout_k")
    formula = panel.findChild(QtWidgets.QLabel, "readout_update")
    small, small_formula = label.fontInfo().pointSizeF(), formula.fontInfo().pointSizeF()
    panel.set_scale(style.PRESENTER)
    assert label.fontInfo().pointSizeF() == pytest.approx(2 * small, rel=0.1)
    assert formula.fontInfo().pointSizeF() == pytest.approx(2 * small_formula, rel=0.1)
    assert formula.fontInfo().fixedPitch()


def test_a_deleted_panel_stops_listening(qtbot, converged):
    ws = converged
    before = len(ws.events.run_changed._slots)
    panel = ReadoutPanel(ws)
    assert len(ws.events.run_changed._slots) == before + 1
    panel.deleteLater()
    qtbot.waitUntil(lambda: len(ws.events.run_changed._slots) == before)
    ws.step_back()  # must not raise


def test_small_error_reads_as_a_percentage(qtbot):
    ws = Workspace(generators.overlapping(2000, seed=1))
    for _ in range(3):
        ws.step_update()
    panel = make_panel(qtbot, ws)
    error = panel.values()["error"]
    assert "e" not in error.split("%")[0] and error.split(" %")[0].replace(".", "").replace(
        "< 0", "").strip().isdigit()
    assert "(" in error and "of 2,000)" in error


def test_problem_goes_away_when_it_stops_being_true(qtbot):
    ws = Workspace(Dataset([[1.0, 2.0]], [1]))
    panel = make_panel(qtbot, ws)
    bar = QtWidgets.QStatusBar()
    qtbot.addWidget(bar)

    def clear(text):  # what the window's clear_message does
        if bar.currentMessage() == text:
            bar.clearMessage()

    panel.bind_messages(bar.showMessage, clear)
    assert bar.currentMessage() == panel.problem == problem_text(ws)
    assert "Only class +1 so far" in bar.currentMessage()
    with qtbot.waitSignal(panel.problemChanged, timeout=2000) as blocker:
        ws.set_dataset(Dataset([[1.0, 2.0], [-1.0, -2.0]], [1, -1]))
    assert blocker.args == [""]
    assert bar.currentMessage() == "" and panel.problem == ""
    # a problem that comes back shows again; another message is left alone when it goes
    with qtbot.waitSignal(panel.problemChanged, timeout=2000):
        ws.set_dataset(Workspace().dataset)
    assert bar.currentMessage().startswith("No points yet: click to add a point")
    bar.showMessage("Saved.")
    with qtbot.waitSignal(panel.problemChanged, timeout=2000):
        ws.set_dataset(generators.separable(10, seed=1))
    assert bar.currentMessage() == "Saved."


def test_kernel_run_that_does_not_separate_does_not_say_linearly(qtbot):
    ws = Workspace(generators.xor(40, seed=1), learner="dual",
                   params={"dual": {"max_iter": 3}})
    ws.set_params(kernel="rbf", gamma=0.001)
    ws.run_to_end()
    panel = make_panel(qtbot, ws)
    status = panel.values()["status"]
    assert ws.finished and not ws.learner.converged_
    assert "linearly" not in status and "kernel's feature space" in status


def test_big_counts_have_thousands_separators(qtbot):
    ws = Workspace(generators.xor(1500, seed=0), params={"primal": {"max_iter": 2}})
    ws.run_to_end()
    panel = make_panel(qtbot, ws)
    v = panel.values()
    assert v["k"] == f"{ws.learner.n_updates_:,}" and "," in v["k"]
    assert v["position"].endswith("/ 1,500")


def test_a_panel_made_when_shown_reads_as_one_made_at_once(qtbot, converged):
    # the window's panel sits in a folded section: its rows are made when it shows
    later = ReadoutPanel(converged, build_when_shown=True)
    qtbot.addWidget(later)
    assert later.findChild(QtWidgets.QLabel, "readout_k") is None
    seen = []
    later.problemChanged.connect(seen.append)
    data = converged.dataset
    converged.set_dataset(Dataset([[1.0, 2.0]], [1]))  # the data problem is followed
    later.refresh()  # before the rows exist
    assert later.problem == problem_text(converged) != "" and seen == [later.problem]
    converged.set_dataset(data)
    converged.run_to_end()
    later.refresh()
    assert later.problem == "" and seen[-1] == ""
    later.set_scale(style.PRESENTER)
    later.setVisible(True)  # the section unfolds: the rows exist before the first frame
    k = later.findChild(QtWidgets.QLabel, "readout_k")
    assert k.text() == str(converged.learner.n_updates_)
    now = make_panel(qtbot, converged)
    now.set_scale(style.PRESENTER)
    assert later.values() == now.values()
    assert later.font().pointSizeF() == now.font().pointSizeF() == style.PRESENTER.font_pt
    assert (later.findChild(QtWidgets.QLabel, "readout_update").font().family()
            == now.findChild(QtWidgets.QLabel, "readout_update").font().family())


def test_values_make_the_rows_of_a_panel_never_shown(qtbot, converged):
    panel = ReadoutPanel(converged, build_when_shown=True)
    qtbot.addWidget(panel)
    assert panel.values()["k"] == str(converged.learner.n_updates_)
    assert panel.findChild(QtWidgets.QLabel, "readoutLabel_k") is not None


def test_gamma_says_which_margin_it_is(qtbot, converged):
    """γ is the geometric margin of a unit separator: its row and its tooltip say so,
    and which functional margin it is not."""
    panel = make_panel(qtbot, converged)
    row = panel.findChild(QtWidgets.QLabel, "readoutLabel_gamma")
    assert row is not None and "geometric" in row.text()
    tip = panel.findChild(QtWidgets.QLabel, "readout_gamma").toolTip()
    assert "w* of length 1" in tip and "functional margin" in tip


def test_no_row_overlaps_the_next_after_the_learner_changes(window, qtbot):
    # after LDA then QDA the form kept its old row heights: QDA's 'QDA fitted' was drawn
    # over the last two rows of its covariances (1280 x 800, the lda-vs-qda demo)
    from tests.ui.helpers import settle

    for section in window.side_panel.sections.values():
        section.set_expanded(True)
    window.demos.play("lda-vs-qda")
    panel = window.readouts
    for status in ("LDA fitted", "QDA fitted"):
        window.demos.next()
        qtbot.waitUntil(lambda s=status: panel.values()["status"] == s, timeout=10_000)
    settle(qtbot, window)
    rows = sorted((label.geometry() for label in panel.findChildren(QtWidgets.QLabel)
                   if label.isVisibleTo(panel) and label.objectName().startswith("readout_")),
                  key=lambda g: g.top())
    assert len(rows) > 5
    assert [(a, b) for a, b in zip(rows, rows[1:], strict=False)
            if b.top() <= a.bottom()] == []


@pytest.mark.parametrize("learner", ["lda", "qda"])
def test_three_classes_are_named_as_three_not_as_plus_and_minus(qtbot, learner):
    from perceptron_gui.core import samples

    data, _info = samples.load("iris-versicolor-virginica-petal", all_classes=True)
    ws = Workspace(data, learner)
    panel = make_panel(qtbot, ws)
    values = panel.values()
    label = {key: panel.findChild(QtWidgets.QLabel, f"readoutLabel_{key}").text()
             for key in ("priors", "covariance")}
    assert label["priors"] == "Priors π₁ … πₘ"
    assert values["priors"] == fmt_vec(ws.learner.priors_)
    assert values["w"] == "one wₖ a class (3 classes)"
    assert values["classes"] == "setosa: 50\nversicolor: 50\nvirginica: 50\n" \
        "x₁: petal_length\nx₂: petal_width"
    if learner == "qda":
        assert label["covariance"] == "Covariances Σ₁ … Σₘ"
        assert values["covariance"].startswith("Σ₁ ") and "\nΣ₃ " in values["covariance"]
    else:
        assert label["covariance"] == "Pooled covariance Σ"
