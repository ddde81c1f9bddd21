"""A learner, a view and a canvas layer from outside the package, each added by its recipe.

Used as a pytest plugin (``pytest -p tests.extensions``): they are registered
before the first test and withdrawn after the last, so any test module run
with it shows that its expectations follow the registries instead of spelling
out the lists.  :func:`register_all` and :func:`unregister_all` do the same in
one test (``tests/ui/test_extending.py``).
"""

from __future__ import annotations

import numpy as np

from perceptron_gui.core.learners import registry
from perceptron_gui.core.learners.params import ParamSpec, check_all
from perceptron_gui.core.learners.registry import Capabilities, LearnerSpec
from perceptron_gui.core.viewstate import LayerSwitch


class NearestCentroid:
    """Nearest class mean, scikit-learn style: the boundary bisects the two means.

    ``f(x) = (μ₊ − μ₋)·x + (‖μ₋‖² − ‖μ₊‖²) / 2``, times ``shrink``.
    """

    def __init__(self, *, shrink=1.0):
        self.shrink = shrink

    def validate_params(self) -> None:
        check_all(LEARNER.params, self)

    def fit(self, X, y):
        self.validate_params()
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
        if not ((y == 1).any() and (y == -1).any()):
            raise ValueError("the nearest centroid needs points of both classes")
        self.classes_ = np.array([-1, 1])
        self.means_ = np.array([X[y == c].mean(axis=0) for c in self.classes_])
        neg, pos = self.means_
        self.coef_ = self.shrink * (pos - neg)[None, :]  # (1, d), as scikit-learn's
        self.intercept_ = np.array([self.shrink * (neg @ neg - pos @ pos) / 2])
        return self

    def decision_function(self, X):
        return np.asarray(X, dtype=np.float64) @ self.coef_[0] + self.intercept_[0]

    def predict(self, X):
        return np.where(self.decision_function(X) > 0, 1, -1)


LEARNER = LearnerSpec(
    "nearest_centroid", "Nearest centroid", NearestCentroid, {"shrink": 1.0},
    params=(ParamSpec("shrink", "Shrink", "float", "Scales the decision function.",
                      1e-3, 1.0, 3, 0.1),),
    capabilities=Capabilities(steps=False, linear=True),
    min_points=2, too_few="The nearest centroid needs a point of each class.",
)
#: The canvas layer's switch, brought by the layer.
SWITCH = LayerSwitch("centroids", False, "Class &centroids")


def _view_class():
    from perceptron_gui.ui.views import View

    class CountView(View):
        """The number of points, as text: the least a view can be."""

        name = "count"
        title = "Points"

        def __init__(self, workspace, parent=None):
            from PySide6 import QtWidgets

            super().__init__(workspace, parent)
            self.label = QtWidgets.QLabel(self)
            self.refresh()

        def refresh(self) -> None:
            self.label.setText(f"{self.workspace.dataset.n} points")

    return CountView


def _layer_class():
    import pyqtgraph as pg

    from perceptron_gui.ui.widgets.canvas.layers import Layer

    class CentroidLayer(Layer):
        """A cross at each class's mean, while its switch is on."""

        name = "centroids"
        switches = (SWITCH,)
        item_names = ("crosses",)

        def create(self, view_box) -> None:
            super().create(view_box)
            self.add("crosses", pg.ScatterPlotItem(symbol="+", size=16), z=30)

        def update(self, frame) -> None:
            crosses, ds = self.items["crosses"], frame.workspace.dataset
            means = [ds.X[ds.y == c].mean(axis=0) for c in (-1, 1) if (ds.y == c).any()]
            crosses.setVisible(bool(frame.switches["centroids"] and means))
            if means:
                crosses.setData(*np.array(means).T)

    return CentroidLayer


def register_all(qt: bool = True) -> list:
    """Register the learner, and with ``qt`` the view and the layer; returns what was added."""
    registry.register(LEARNER)
    added: list = [LEARNER]
    if qt:
        from perceptron_gui.ui.views import register_view
        from perceptron_gui.ui.widgets.canvas.layers import register_layer

        added += [register_view(_view_class()), register_layer(_layer_class())]
    return added


def unregister_all() -> None:
    """Withdraw whatever :func:`register_all` added."""
    if LEARNER.key in registry.REGISTRY:
        registry.unregister(LEARNER.key)
    try:
        from perceptron_gui.ui.views import VIEW_TYPES, unregister_view
        from perceptron_gui.ui.widgets.canvas.layers import LAYER_TYPES, unregister_layer
    except ImportError:  # no Qt
        return
    if "count" in VIEW_TYPES:
        unregister_view("count")
    if "centroids" in LAYER_TYPES:
        unregister_layer("centroids")


def pytest_configure(config) -> None:
    register_all()


def pytest_unconfigure(config) -> None:
    unregister_all()
