"""QDA and Gaussian naive Bayes in the window, through the seams (issue 22's first increment).

Each is a class and one registry entry: the learner panel selects it and builds
its form from its ParamSpecs; QDA's conic is the contour of its
``decision_function``, checked at the pixel level; the class-model overlay
draws each class's own 2σ ellipse; the probability shading is its
``predict_proba``; the file saves and reopens.  Pooled naive Bayes is a line,
with ``w`` and ``b`` drawn and read out.
"""

from __future__ import annotations

import numpy as np

from perceptron_gui.core import QDA, GaussianNB
from perceptron_gui.core.commands import SetLayers
from perceptron_gui.core.dataset import Dataset, ReplaceAll
from perceptron_gui.core.text import fmt_vec
from tests.ui.helpers import finish, region_check


def _data(seed=0) -> Dataset:
    """A tight, tilted class +1 inside a wide class −1: QDA's boundary is an ellipse."""
    rng = np.random.default_rng(seed)
    pos = rng.normal(size=(30, 2)) @ np.array([[0.7, 0.3], [0.0, 0.35]]) + (0.5, 0.5)
    neg = rng.normal((-0.5, -0.3), 1.8, size=(50, 2))
    return Dataset(np.vstack([pos, neg]), np.r_[np.ones(30), -np.ones(50)])


def _mahalanobis(P, mean, cov):
    D = P - mean
    return np.sqrt(np.einsum("ij,jk,ik->i", D, np.linalg.inv(cov), D))


def test_qda_in_the_window_conic_ellipses_posteriors_and_files(qtbot, window, tmp_path):
    from perceptron_gui.ui.widgets.canvas.layers.boundary import region_colors

    ws, panel, canvas = window.workspace, window.learner_panel, window.canvas
    data = _data()
    assert window.push_edit(ReplaceAll.from_dataset(data, "two Gaussians"))
    index = panel.selector.findData("qda")
    assert index >= 0 and panel.selector.itemText(index) == "QDA"
    reg = panel.control("qda", "reg_param")
    assert (reg.minimum(), reg.maximum()) == (0.0, 1.0)
    panel.selector.setCurrentIndex(index)
    assert ws.learner_name == "qda" and ws.has_model and not ws.capabilities.steps
    assert isinstance(ws.learner, QDA) and ws.learner.covariance_.shape == (2, 2, 2)
    assert ws.weights() is None and not ws.capabilities.linear  # a conic: no w, b

    # the conic: the contour of decision_function, and its regions, to the pixel
    canvas.set_visible_layers(legend=False)
    canvas.getViewBox().setRange(xRange=(-4, 4), yRange=(-4, 4), padding=0)
    canvas.refresh()
    contour = canvas.layer("kernel")
    assert contour.contour.isVisible() and contour.region_image.isVisible()
    assert not canvas.layer("boundary").items["boundary"].isVisible()
    P = contour.contour_points()
    assert P.shape[0] >= 20
    f = ws.learner.decision_function(P)
    assert np.abs(f).max() < 0.05 * np.abs(ws.learner.decision_function(data.X)).mean()
    counts = region_check(canvas, ws, region_colors())
    assert counts[1] >= 10 and counts[-1] >= 10, counts
    wrong = np.flatnonzero(data.y * ws.learner.decision_function(data.X) <= 0)
    np.testing.assert_array_equal(ws.misclassified(), wrong)

    # the class-model overlay: each class's own mean and 2σ ellipse (not LDA's pooled one)
    overlay = canvas.layer("lda")
    # (the switch comes on with a learner of class models: LDA's line is drawn beside,
    # dashed, for the comparison the course makes; unchecking the switch hides both)
    assert overlay.lda_ellipses.isVisible() and overlay.lda_line.isVisible()
    ex, ey = overlay.lda_ellipses.getData()
    curves = np.split(np.column_stack([ex, ey]), np.flatnonzero(np.isnan(ex)))
    curves = [c[~np.isnan(c[:, 0])] for c in curves]
    assert len(curves) == 2
    for k in range(2):
        d = _mahalanobis(curves[k], ws.learner.means_[k], ws.learner.covariance_[k])
        np.testing.assert_allclose(d, 2.0, rtol=1e-9)
    assert not np.allclose(ws.learner.covariance_[0], ws.learner.covariance_[1], rtol=0.1)

    # the readouts: the classifier's rows and each class's covariance
    window.readouts.refresh()
    values = window.readouts.values()
    assert values["status"] == "QDA fitted"
    assert values["error"].endswith(f"({wrong.size} of {data.n})")
    assert values["w"] == "— (the boundary is not a line)"
    assert values["priors"] == fmt_vec(ws.learner.priors_)
    (a, b), (c, d) = ([fmt_vec(row) for row in block] for block in ws.learner.covariance_)
    assert values["covariance"] == f"Σ₋ {a}\n   {b}\nΣ₊ {c}\n   {d}"
    qtbot.waitUntil(lambda: window.timeline.bar.label.text() == "QDA: no steps", timeout=5000)

    # the probability shading is predict_proba, and follows reg_param (the overlay off:
    # its lines would sit on the pixels checked)
    window.dispatch(SetLayers({"lda": False}))
    canvas.set_visible_layers(probability=True)
    canvas.refresh()
    assert not overlay.lda_line.isVisible() and not overlay.lda_ellipses.isVisible()
    shading = canvas.layer("probability")
    assert shading.items["probability_image"].isVisible()
    x0, x1, y0, y1, grid = shading.grid
    ny, nx = grid.shape
    xs = x0 + (x1 - x0) / nx * (np.arange(nx) + 0.5)
    ys = y0 + (y1 - y0) / ny * (np.arange(ny) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    want = ws.learner.predict_proba(np.column_stack([gx.ravel(), gy.ravel()]))[:, 1]
    np.testing.assert_allclose(grid.ravel(), want, rtol=0, atol=1e-12)
    assert grid.min() < 0.01 and grid.max() > 0.9
    image = canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    seen = {"pos": 0, "neg": 0}
    (vx0, vx1), (vy0, vy1) = canvas.view_rect()
    inside = np.meshgrid(np.linspace(vx0, vx1, 42)[1:-1], np.linspace(vy0, vy1, 42)[1:-1])
    for px_, py_ in np.column_stack([inside[0].ravel(), inside[1].ravel()]):
        on_ellipse = any(abs(_mahalanobis(np.array([[px_, py_]]), m, c)[0] - 2.0) < 0.2
                         for m, c in zip(ws.learner.means_, ws.learner.covariance_, strict=True))
        if (np.min(np.hypot(*(data.X - (px_, py_)).T)) < 0.15 or min(abs(px_), abs(py_)) < 0.1
                or on_ellipse):
            continue  # a point's marker, the axes x = 0, y = 0 or a 2σ ellipse
        p = ws.learner.predict_proba(np.array([[px_, py_]]))[0, 1]
        q = canvas.data_to_widget(px_, py_)
        c = image.pixelColor(int(q.x() * ratio), int(q.y() * ratio))
        if p > 0.8:
            assert c.blue() > c.red(), (p, c.getRgb())
            seen["pos"] += 1
        elif p < 0.2:
            assert c.red() > c.blue(), (p, c.getRgb())
            seen["neg"] += 1
    assert seen["pos"] >= 5 and seen["neg"] >= 50, seen
    before = grid.copy()
    reg.setValue(0.5)
    assert ws.params == {"priors": None, "reg_param": 0.5} and ws.has_model
    canvas.refresh()
    assert not np.array_equal(canvas.layer("probability").grid[4], before)
    np.testing.assert_allclose(
        ws.learner.covariance_[1],
        0.5 * np.cov(data.X[data.y > 0], rowvar=False) + 0.5 * np.eye(2), rtol=1e-12)

    # save, change everything, reopen
    path = tmp_path / "qda.json"
    assert finish(qtbot, window.files.save_to(path))
    ws.set_learner("primal")
    assert finish(qtbot, window.files.open_path(path, ask=False))
    assert ws.learner_name == "qda" and ws.params == {"priors": None, "reg_param": 0.5}
    assert ws.dataset == data and ws.has_model and isinstance(ws.learner, QDA)
    assert panel.selector.currentData() == "qda"


def test_a_singular_class_and_too_few_points_are_stated_plainly(window):
    ws = window.workspace
    ws.set_learner("qda")
    ws.set_dataset(Dataset(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [3, 1.0], [4, 4.0]]),
                           np.array([1.0, 1.0, -1.0, -1.0, -1.0])))
    assert ws.problem == ("QDA needs at least 6 points (3 of each class: in the plane a "
                          "class's covariance is invertible only from 3 points not on a line).")
    t = np.arange(4.0)
    X = np.vstack([np.column_stack([t, 2 * t + 1]), [[0, 0], [1, 3], [4, 1], [2, -2.0]]])
    ws.set_dataset(Dataset(X, np.r_[np.ones(4), -np.ones(4)]))  # class +1 on a line
    assert not ws.has_model
    assert "covariance of class +1 is singular" in ws.problem and "reg_param" in ws.problem
    window.readouts.refresh()
    assert window.readouts.values()["status"].startswith("QDA cannot be fitted: the covariance")
    ws.set_params(reg_param=0.01)  # the suggested cure
    assert ws.has_model and ws.problem is None


def test_pooled_naive_bayes_is_a_line_with_w_and_b(qtbot, window):
    ws, panel, canvas = window.workspace, window.learner_panel, window.canvas
    data = _data(1)
    assert window.push_edit(ReplaceAll.from_dataset(data, "two Gaussians"))
    panel.selector.setCurrentIndex(panel.selector.findData("naive_bayes"))
    assert isinstance(ws.learner, GaussianNB) and not ws.capabilities.linear
    assert ws.weights() is None
    canvas.refresh()
    assert canvas.layer("kernel").contour.isVisible()  # unpooled: a conic, drawn as a contour

    shared = panel.control("naive_bayes", "shared_variance")
    shared.setChecked(True)
    caps = ws.capabilities
    assert ws.params["shared_variance"] is True and caps.linear and caps.posteriors
    w, b = ws.weights()
    np.testing.assert_array_equal(w, ws.learner.coef_[0])
    assert b == ws.learner.intercept_[0]
    # the line is the log-odds' zero set: the course text's point, made visible
    Xn, Xp = data.X[data.y < 0], data.X[data.y > 0]
    s2 = (((Xn - Xn.mean(0)) ** 2).sum(0) + ((Xp - Xp.mean(0)) ** 2).sum(0)) / data.n
    s2 = s2 + 1e-9 * data.X.var(axis=0).max()
    np.testing.assert_allclose(w, (Xp.mean(0) - Xn.mean(0)) / s2, rtol=1e-12)
    canvas.refresh()
    assert canvas.layer("boundary").items["boundary"].isVisible()
    assert not canvas.layer("kernel").contour.isVisible()
    window.readouts.refresh()
    values = window.readouts.values()
    assert values["status"] == "Gaussian naive Bayes fitted"
    assert values["w"] == fmt_vec(w)
    # the overlay draws its axis-aligned Gaussians: the ellipses of its diagonal variances
    ex, ey = canvas.layer("lda").lda_ellipses.getData()
    first = np.column_stack([ex, ey])[: np.flatnonzero(np.isnan(ex))[0]]
    d = (((first - ws.learner.theta_[0]) ** 2) / ws.learner.var_[0]).sum(axis=1)
    np.testing.assert_allclose(d, 4.0, rtol=1e-9)


def test_render_draws_them(window, tmp_path, capsys, qtbot, subtests):
    from perceptron_gui.app import main

    ws = window.workspace
    assert window.push_edit(ReplaceAll.from_dataset(_data(2), "two Gaussians"))
    for key in ("qda", "naive_bayes"):  # one window, a subtest each
        with subtests.test(key):
            ws.set_learner(key)
            path = tmp_path / f"{key}.json"
            assert finish(qtbot, window.files.save_to(path))
            out = tmp_path / f"{key}.png"
            assert main(["render", str(path), "-o", str(out), "--size", "320x320"]) == 0, \
                capsys.readouterr().err
            assert out.stat().st_size > 1000
