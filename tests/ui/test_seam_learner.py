"""The learner seam: a learner defined here alone, registered with one call, works everywhere.

The learner is a Gaussian nearest-centroid classifier (each class a mean and
its own isotropic variance): its boundary is a circle, so the window draws it
as the contour of its ``decision_function``.  The test drives it through the
real window (the learner panel selects it, it is fitted, the contour is
checked against ``decision_function`` at the pixel level, the readouts show
it, the file is saved and reopened) and through ``perceptron-gui render``;
it touches no file of the package.  ``docs/architecture.md``'s "Adding a
learner" recipe is what this file does.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from perceptron_gui.app import build_parser, main
from perceptron_gui.core import Workspace
from perceptron_gui.core.dataset import Dataset, ReplaceAll
from perceptron_gui.core.learners import registry
from perceptron_gui.core.learners.params import ParamSpec
from perceptron_gui.core.learners.registry import Capabilities, LearnerSpec
from tests.ui.helpers import finish, region_check


class GaussianCentroid:
    """Nearest centroid with a per-class isotropic variance (scikit-learn style).

    ``f(x) = log N(x; μ₊, σ₊² I) − log N(x; μ₋, σ₋² I)``: positive on the
    side of class +1; the boundary ``f = 0`` is a circle when σ₊ ≠ σ₋.
    """

    def __init__(self, *, var_floor=1e-3):
        self.var_floor = var_floor

    def validate_params(self) -> None:
        if not (isinstance(self.var_floor, float) and 1e-6 <= self.var_floor <= 10.0):
            raise ValueError(f"var_floor must be a number in [1e-06, 10], got {self.var_floor!r}")

    def fit(self, X, y):
        self.validate_params()
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
        self.classes_ = np.array([-1, 1])
        means, variances = [], []
        for c in self.classes_:
            Xc = X[y == c]
            if len(Xc) < 2:
                raise ValueError(f"class {c:+d} needs 2 points for a variance")
            means.append(Xc.mean(axis=0))
            variances.append(max(float(((Xc - Xc.mean(axis=0)) ** 2).mean()), self.var_floor))
        self.means_, self.variances_ = np.array(means), np.array(variances)
        return self

    def decision_function(self, X):
        X = np.asarray(X, dtype=np.float64)
        d = X.shape[1]
        log = [-((X - m) ** 2).sum(axis=1) / (2 * v) - 0.5 * d * np.log(v)
               for m, v in zip(self.means_, self.variances_, strict=True)]
        return log[1] - log[0]

    def predict(self, X):
        return np.where(self.decision_function(X) > 0, 1, -1)


KEY = "gauss_centroid"
SPEC = LearnerSpec(
    KEY, "Gaussian centroid", GaussianCentroid, {"var_floor": 1e-3},
    params=(ParamSpec("var_floor", "Variance floor", "float",
                      "The smallest variance a class may have.", 1e-6, 10.0, 6, 0.01),),
    capabilities=Capabilities(steps=False, linear=False),
    min_points=4, too_few="The Gaussian centroid needs at least 4 points.",
)


def _data(seed=0) -> Dataset:
    """A tight class +1 inside a wide class −1: the boundary is a circle around +1."""
    rng = np.random.default_rng(seed)
    pos = rng.normal((0.5, 0.5), 0.6, size=(20, 2))
    neg = rng.normal((-0.5, -0.3), 1.8, size=(40, 2))
    return Dataset(np.vstack([pos, neg]), np.r_[np.ones(20), -np.ones(40)])


@pytest.fixture
def centroid(window):
    """The learner registered (after the window exists: the panel follows the registry)."""
    registry.register(SPEC)  # the one call that adds a learner
    yield KEY
    registry.unregister(KEY)


def test_a_learner_defined_here_works_in_the_window_files_and_render(
        qtbot, window, centroid, tmp_path, capsys):
    from perceptron_gui.ui.widgets.canvas.layers.boundary import region_colors

    ws, panel, canvas = window.workspace, window.learner_panel, window.canvas
    assert registry.LEARNERS[KEY] == "Gaussian centroid"  # the live view has it
    assert KEY in registry.DEFAULT_PARAMS
    data = _data()
    assert window.push_edit(ReplaceAll.from_dataset(data, "two Gaussians"))

    # select it in the learner panel, whose form was built from its ParamSpec
    index = panel.selector.findData(KEY)
    assert index >= 0 and panel.selector.itemText(index) == "Gaussian centroid"
    floor = panel.control(KEY, "var_floor")
    assert (floor.minimum(), floor.maximum()) == (1e-6, 10.0)
    panel.selector.setCurrentIndex(index)
    assert ws.learner_name == KEY and ws.has_model and not ws.capabilities.steps
    assert isinstance(ws.learner, GaussianCentroid) and ws.learner.means_.shape == (2, 2)
    assert ws.weights() is None  # not a line: no w, b drawn
    floor.setValue(0.002)
    assert ws.params == {"var_floor": 0.002} and ws.has_model

    # the boundary: the contour of its decision_function, and the regions, to the pixel
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
    image = canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    dark = 0
    for k in range(0, P.shape[0], max(1, P.shape[0] // 20)):
        pos = canvas.data_to_widget(*P[k])
        px, py = int(pos.x() * ratio), int(pos.y() * ratio)
        if 1 <= px < image.width() - 1 and 0 <= py < image.height():
            dark += min(image.pixelColor(px + dx, py).lightness() for dx in (-1, 0, 1)) < 100
    assert dark >= 10
    # the misclassified samples are marked from the same f
    wrong = np.flatnonzero(data.y * ws.learner.decision_function(data.X) <= 0)
    np.testing.assert_array_equal(ws.misclassified(), wrong)

    # the readouts: the classifier's rows, no run or bound
    window.readouts.refresh()
    values = window.readouts.values()
    assert values["status"] == "Gaussian centroid fitted"
    assert values["error"].endswith(f"({wrong.size} of {data.n})")
    assert values["w"] == "— (the boundary is not a line)"
    assert not {"epoch", "k", "R", "bound", "update", "priors"} & set(values)
    qtbot.waitUntil(lambda: window.timeline.bar.label.text() == "Gaussian centroid: no steps",
                    timeout=5000)
    window.plots.refresh()
    assert window.plots.message.startswith("Gaussian centroid is fitted at once")

    # save, change everything, reopen
    path = tmp_path / "centroid.json"
    assert finish(qtbot, window.files.save_to(path))
    ws.set_learner("primal")
    assert finish(qtbot, window.files.open_path(path, ask=False))
    assert ws.learner_name == KEY and ws.params == {"var_floor": 0.002}
    assert ws.dataset == data and ws.has_model
    assert panel.selector.currentData() == KEY

    # render draws it: the share of each region's colour is the share of the view
    x0, x1, y0, y1 = ws.view
    out = tmp_path / "centroid.png"
    size = f"480x{round(480 * (y1 - y0) / (x1 - x0))}"
    assert main(["render", str(path), "-o", str(out), "--size", size]) == 0, \
        capsys.readouterr().err
    with Image.open(out) as im:
        rgb = np.asarray(im.convert("RGB"), dtype=float).reshape(-1, 3)
    pos, neg = (np.array(c[:3], dtype=float) for c in region_colors())
    near_pos = np.abs(rgb - pos).sum(axis=1) < 12
    near_neg = np.abs(rgb - neg).sum(axis=1) < 12
    gx, gy = np.meshgrid(np.linspace(x0, x1, 200), np.linspace(y0, y1, 200))
    share = np.mean(ws.learner.decision_function(np.column_stack([gx.ravel(), gy.ravel()])) > 0)
    drawn = near_pos.sum() / (near_pos.sum() + near_neg.sum())
    assert 0.03 < share < 0.97 and abs(drawn - share) < 0.3 * share, (drawn, share)


def test_too_few_points_and_a_failed_fit_are_stated_plainly(window, centroid):
    ws = window.workspace
    ws.set_learner(KEY)
    ws.set_dataset(Dataset(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]]),
                           np.array([1.0, -1.0, -1.0])))
    assert ws.problem == "The Gaussian centroid needs at least 4 points."
    assert not ws.has_model and ws.readouts().w is None
    ws.set_dataset(Dataset(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [3.0, 3.0]]),
                           np.array([1.0, -1.0, -1.0, -1.0])))  # one point of class +1
    assert ws.problem == "class +1 needs 2 points for a variance"
    window.readouts.refresh()
    assert window.readouts.values()["status"] == (
        "Gaussian centroid cannot be fitted: class +1 needs 2 points for a variance")


def test_register_and_unregister_are_checked():
    with pytest.raises(ValueError, match="already registered"):
        registry.register(registry.get("primal"))
    with pytest.raises(ValueError, match="cannot be unregistered"):
        registry.unregister(registry.DEFAULT)
    with pytest.raises(ValueError, match="unknown learner"):
        registry.unregister("no_such_learner")
    registry.register(SPEC)
    try:
        assert KEY in registry.LEARNERS and Workspace(learner=KEY).spec is SPEC
    finally:
        assert registry.unregister(KEY) is SPEC
    assert KEY not in registry.LEARNERS and KEY not in registry.DEFAULT_PARAMS
    with pytest.raises(ValueError, match="unknown learner"):
        Workspace(learner=KEY)


def test_unregistering_the_learner_in_use_falls_back_in_the_open_window(qtbot, window):
    """A learner's teardown with the window on it: the default learner takes over, said once."""
    ws, panel, canvas = window.workspace, window.learner_panel, window.canvas
    assert window.push_edit(ReplaceAll.from_dataset(_data(), "two Gaussians"))
    names = [spec.display_name + ("" if spec.caps().steps else " (fitted in one step)")
             for spec in registry.REGISTRY.values()]
    tip = f"The learning algorithm: {', '.join(names[:-1])} or {names[-1]}."
    assert tip.startswith("The learning algorithm: Primal perceptron, Dual perceptron, ")
    assert panel.selector.toolTip() == tip
    registry.register(SPEC)
    try:
        # the user-facing texts name it, from the registry
        assert panel.selector.toolTip() == tip.replace(
            f" or {names[-1]}.", f", {names[-1]} or Gaussian centroid (fitted in one step).")
        every = ", ".join([*(s.display_name for s in registry.REGISTRY.values())])
        assert every.endswith("Gaussian naive Bayes, Gaussian centroid")
        assert f"({every})" in build_parser().description
        panel.selector.setCurrentIndex(panel.selector.findData(KEY))
        assert ws.learner_name == KEY and isinstance(ws.learner, GaussianCentroid)
        window.plots.refresh()
        canvas.refresh()
        qtbot.waitUntil(lambda: window.timeline.bar.label.text() == "Gaussian centroid: no steps",
                        timeout=5000)
    finally:
        registry.unregister(KEY)
    assert ws.learner_name == registry.DEFAULT and ws.capabilities.steps and ws.has_model
    assert panel.selector.findData(KEY) < 0 and panel.selector.toolTip() == tip
    assert "Gaussian centroid" not in build_parser().description
    assert panel.selector.currentData() == registry.DEFAULT
    assert window.statusBar().currentMessage() == (
        "Gaussian centroid is no longer available (unregistered): now using Primal perceptron.")
    # the event loop runs every deferred redraw on the default learner
    qtbot.waitUntil(lambda: window.timeline.bar.label.text() != "Gaussian centroid: no steps",
                    timeout=5000)
    window.plots.refresh()
    canvas.refresh()
    window.readouts.refresh()
    assert window.readouts.values()["status"].startswith("Ready")
    assert not canvas.layer("kernel").contour.isVisible()
    assert ws.step() is not None  # the perceptron steps in the open window
    canvas.refresh()
    assert canvas.layer("boundary").items["boundary"].isVisible()
    qtbot.waitUntil(lambda: window.timeline.bar.label.text().startswith("run step 1"), timeout=5000)
