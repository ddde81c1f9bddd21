"""QDA and Gaussian naive Bayes everywhere a learner goes (issue 22).

The learner menu, undo of the edits made with them in use, the timeline (they
are fitted in one step), old workspace files, exports (canvas PNG and SVG, a
demo's GIF; no run to animate), the two demos played in the window (the
conic, LDA's line beside it, the pooled model's line checked against the
core's numbers), and what the window says of data with more than two classes.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image
from PySide6 import QtGui

from perceptron_gui.core import QDA, GaussianNB, Workspace, io
from perceptron_gui.core.dataset import AddPoints, Dataset, ReplaceAll
from perceptron_gui.core.learners import registry
from perceptron_gui.ui.features import export
from perceptron_gui.ui.features.export import animation
from tests.ui.helpers import finish

KEYS = ["qda", "naive_bayes"]


def _data(seed=0) -> Dataset:
    """A small tilted class +1 inside a wide class −1 (unequal covariances)."""
    rng = np.random.default_rng(seed)
    pos = rng.normal(size=(30, 2)) @ np.array([[0.7, 0.3], [0.0, 0.35]]) + (0.5, 0.5)
    neg = rng.normal((-0.5, -0.3), 1.8, size=(50, 2))
    return Dataset(np.vstack([pos, neg]), np.r_[np.ones(30), -np.ones(50)])


def _select(window, key):
    selector = window.learner_panel.selector
    selector.setCurrentIndex(selector.findData(key))


def _shown(window, key, seed) -> Dataset:
    """:func:`_data` of ``seed`` put in ``window`` (one undo step), learner ``key`` chosen."""
    data = _data(seed)
    assert window.push_edit(ReplaceAll.from_dataset(data, "two Gaussians"))
    _select(window, key)
    return data


def _legend(canvas) -> set[str]:
    return {label.text for _, label in canvas.legend.items}


def test_the_menu_lists_them_and_a_switch_is_not_an_edit(window, subtests):
    """As for every learner, the undo stack holds data edits; the switch fits at once."""
    for key in KEYS:  # one window, a subtest each
        with subtests.test(key):
            data = _data()
            assert window.push_edit(ReplaceAll.from_dataset(data, "two Gaussians"))
            selector = window.learner_panel.selector
            index = selector.findData(key)
            assert selector.itemText(index) == registry.get(key).display_name
            count = window.undo_stack.count()
            _select(window, key)
            ws = window.workspace
            assert ws.learner_name == key and ws.has_model and window.undo_stack.count() == count
            assert isinstance(ws.learner, QDA if key == "qda" else GaussianNB)


def test_undo_and_redo_of_an_edit_refit_them_exactly(window, subtests):
    for key in KEYS:  # one window, a subtest each
        with subtests.test(key):
            data = _shown(window, key, 1)
            ws = window.workspace
            first = ws.learner.predict_proba(data.X)
            assert window.push_edit(AddPoints((3.0, 3.0), 1))
            moved = ws.learner.predict_proba(data.X)
            assert not np.array_equal(moved, first) and ws.dataset.n == data.n + 1
            window.undo_stack.undo()
            assert ws.learner_name == key and ws.dataset == data
            np.testing.assert_array_equal(ws.learner.predict_proba(data.X), first)
            window.undo_stack.redo()
            np.testing.assert_array_equal(ws.learner.predict_proba(data.X), moved)
            # a parameter change keeps the data's history: undo still undoes the edit
            ws.set_params(priors=[0.3, 0.7])
            np.testing.assert_allclose(ws.learner.predict_proba(np.zeros((1, 2))).sum(), 1.0)
            window.undo_stack.undo()
            assert ws.dataset == data and ws.params["priors"] == [0.3, 0.7]
            refit = registry.get(key).cls(**ws.params).fit(data.X, data.y)
            np.testing.assert_array_equal(ws.learner.predict_proba(data.X),
                                          refit.predict_proba(data.X))


def test_the_timeline_says_they_fit_in_one_step(qtbot, window, subtests):
    for key in KEYS:  # one window, a subtest each
        with subtests.test(key):
            _shown(window, key, 2)
            name = registry.get(key).display_name
            qtbot.waitUntil(lambda n=name: window.timeline.bar.label.text() == f"{n}: no steps",
                            timeout=5000)
            for action in ("actionStep", "actionStepEpoch", "actionRunToEnd", "actionPlay"):
                assert not getattr(window, action).isEnabled(), action
            assert window.workspace.step_count == 0 and not window.workspace.capabilities.steps


def test_an_old_file_without_their_parameters_opens_and_they_start_from_defaults(
        qtbot, window, tmp_path, subtests):
    for key in KEYS:  # one window, a subtest each
        with subtests.test(key):
            data = _data(3)
            doc = json.loads(io.workspace_to_json(Workspace(data, learner="lda")))
            for old in KEYS:
                del doc["params"][old]  # a file written before QDA and naive Bayes existed
            path = tmp_path / f"old-{key}.json"
            path.write_text(json.dumps(doc), encoding="utf-8")
            assert finish(qtbot, window.files.open_path(path, ask=False))
            ws = window.workspace
            assert ws.learner_name == "lda" and ws.dataset == data
            _select(window, key)
            assert ws.params == registry.get(key).defaults and ws.has_model
            # saved again, the file names them; reopened, it is the same workspace
            again = tmp_path / f"again-{key}.json"
            assert finish(qtbot, window.files.save_to(again))
            saved = json.loads(again.read_text("utf-8"))
            assert saved["learner"] == key and set(KEYS) <= set(saved["params"])
            ws.set_learner("primal")
            assert finish(qtbot, window.files.open_path(again, ask=False))
            assert ws.learner_name == key and ws.dataset == data


def test_exports_draw_them_and_a_run_gif_is_refused_plainly(qtbot, window, tmp_path, subtests):
    for key in KEYS:  # one window, a subtest each
        with subtests.test(key):
            _shown(window, key, 4)
            exporter = window.exporter
            png, svg = tmp_path / f"{key}.png", tmp_path / f"{key}.svg"
            assert exporter.export_canvas(png, (640, 480), fmt="png") == str(png)
            image = QtGui.QImage(str(png))
            assert (image.width(), image.height()) == (640, 480)
            assert exporter.export_canvas(svg, (640, 480), fmt="svg") == str(svg)
            root = ET.parse(svg).getroot()
            assert root.tag.endswith("svg")
            assert (root.get("width"), root.get("height")) == ("640", "480")
            # the conic (QDA, unpooled naive Bayes) differs from LDA's line in the picture
            _select(window, "lda")
            lda_png = tmp_path / f"lda-{key}.png"
            exporter.export_canvas(lda_png, (640, 480), fmt="png")
            with Image.open(png) as a, Image.open(lda_png) as b:
                diff = np.abs(np.asarray(a.convert("RGB"), int) - np.asarray(b.convert("RGB"), int))
            assert (diff.sum(axis=2) > 60).sum() > 2000
            _select(window, key)
            with pytest.raises(export.ExportError, match="nothing to animate: " + re.escape(
                    registry.get(key).no_steps_text)):
                animation.render_run_gif(window.workspace, tmp_path / "run.gif", frames=3)
            assert not (tmp_path / "run.gif").exists()


def test_the_lda_vs_qda_demo_gif_has_a_frame_per_step(window, tmp_path):
    from perceptron_gui.core import demos

    demo = demos.load_demo("lda-vs-qda")
    path = tmp_path / "demo.gif"
    assert window.exporter.export_gif(path, source="demo:lda-vs-qda", size=(320, 240),
                                      fps=1.0) == str(path)
    with Image.open(path) as im:
        assert im.n_frames == len(demo.steps) + 1


def test_lda_vs_qda_played_in_the_window(qtbot, window):
    ui, ws, canvas = window.demos, window.workspace, window.canvas
    ui.play("lda-vs-qda")
    canvas.set_visible_layers(legend=True)
    assert ws.learner_name == "lda" and canvas.layers()["probability"]
    ui.next()
    assert ws.learner_name == "lda"
    ui.next()  # QDA: the conic is the zero set of its decision function
    assert ws.learner_name == "qda"
    canvas.refresh()
    contour = canvas.layer("kernel")
    assert contour.contour.isVisible()
    P = contour.contour_points()
    f = ws.learner.decision_function(P)
    assert P.shape[0] >= 20
    assert np.abs(f).max() < 0.05 * np.abs(ws.learner.decision_function(ws.dataset.X)).mean()
    overlay = canvas.layer("lda")
    assert not overlay.lda_line.isVisible()  # the overlay switch is off: QDA's model only
    ui.next()
    ui.next()  # show the LDA overlay: LDA's line beside QDA's conic
    canvas.refresh()
    assert canvas.layers()["lda"] and overlay.lda_line.isVisible()
    x, y = overlay.lda_line.getData()
    x, y = np.asarray(x, float), np.asarray(y, float)
    keep = np.isfinite(x)
    line = ws.lda.decision_function(np.column_stack([x[keep], y[keep]]))
    w, b = ws.lda.coef_[0], ws.lda.intercept_[0]
    scale = np.abs(w[0] * x[keep]) + np.abs(w[1] * y[keep]) + abs(b)
    assert np.all(np.abs(line) <= 1e-9 * scale)
    assert "LDA's boundary (shared covariance)" in _legend(canvas)
    assert "QDA means, 2σ ellipses" in _legend(canvas)
    while not ui.player.at_end:
        ui.next()
    assert ui.player.check(ui.player.demo.steps[-1]) == []


def test_naive_bayes_is_linear_played_in_the_window(qtbot, window):
    ui, ws, canvas = window.demos, window.workspace, window.canvas
    ui.play("naive-bayes-is-linear")
    ui.next()
    assert ws.learner_name == "naive_bayes" and not ws.capabilities.linear
    canvas.refresh()
    assert canvas.layer("kernel").contour.isVisible()
    ui.next()  # pooled: a line, drawn as the boundary, with w and b read out
    assert ws.capabilities.linear and ws.params["shared_variance"] is True
    canvas.refresh()
    boundary = canvas.layer("boundary").items["boundary"]
    assert boundary.isVisible() and not canvas.layer("kernel").contour.isVisible()
    x, y = (np.asarray(v, float) for v in boundary.getData())
    w, b = ws.learner.coef_[0], ws.learner.intercept_[0]
    keep = np.isfinite(x)
    scale = np.abs(w[0] * x[keep]) + np.abs(w[1] * y[keep]) + abs(b)
    assert np.all(np.abs(w[0] * x[keep] + w[1] * y[keep] + b) <= 1e-9 * scale)
    window.readouts.refresh()
    from perceptron_gui.core.text import fmt_vec

    assert window.readouts.values()["w"] == fmt_vec(w)
    while not ui.player.at_end:
        ui.next()
    assert ui.player.check(ui.player.demo.steps[-1]) == []
    canvas.refresh()
    line = canvas.layer("lda").lda_line  # LDA's line beside naive Bayes's
    assert line.isVisible()
    x, y = (np.asarray(v, float) for v in line.getData())
    keep = np.isfinite(x)
    f = ws.lda.decision_function(np.column_stack([x[keep], y[keep]]))
    assert np.abs(f).max() <= 1e-9 * (np.abs(x[keep]).max() + np.abs(y[keep]).max() + 1) \
        * np.abs(ws.lda.coef_).max()
    assert not np.allclose(ws.lda.coef_[0], w, rtol=0.01)  # two different lines


# ------------------------------------------------------------------- more than two classes


def test_a_workspace_file_with_three_classes_is_refused_saying_why(qtbot, window, tmp_path,
                                                                   warnings):
    doc = json.loads(io.workspace_to_json(Workspace(_data(5))))
    for i, label in ((0, 2), (1, 3)):
        doc["points"][i]["label"] = label
    path = tmp_path / "three.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = window.workspace.dataset
    assert not finish(qtbot, window.files.open_path(path, ask=False))
    assert window.workspace.dataset == before  # nothing lost
    assert len(warnings) == 1
    assert ("points[0].label: expected 1 or -1, got 2; the labels take more than two values, "
            'and a file of more classes lists them in "classes" (version 2)') in warnings[0][1]
    with pytest.raises(io.FormatError, match=r"points\[0\]\.label: expected 1 or -1, got 2; "
                                             "the labels take more than two values, and a "
                                             "file of more classes lists them"):
        io.workspace_from_json(json.dumps(doc))
    doc["points"][1]["label"] = 1  # two values (2 and ±1 are three: still more than two)
    doc["points"][0]["label"] = 0
    for p in doc["points"][1:]:
        p["label"] = 1 if p["label"] > 0 else 0
    with pytest.raises(io.FormatError) as two:
        io.workspace_from_json(json.dumps(doc))
    assert "more than two" not in str(two.value)  # 0/1: the old message, nothing more


def test_show_with_three_classes_shows_them_and_nine_are_refused_saying_how():
    from perceptron_gui.viewer import as_dataset

    dataset, _ = as_dataset(np.zeros((3, 2)) + np.arange(3)[:, None], [0, 1, 2])
    assert dataset.classes == (0, 1, 2)
    with pytest.raises(ValueError, match=r"found 9: .*\. The window shows at most 8 "
                                         r"classes: pass fewer, e\.g\. show\(X\[m\], y\[m\]\) "
                                         r"with m = np\.isin\(y, \[a, b\]\)\.$"):
        as_dataset(np.zeros((9, 2)) + np.arange(9)[:, None], list(range(9)))
