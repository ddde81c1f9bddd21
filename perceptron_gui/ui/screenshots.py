"""Render the main window in its characteristic states to PNG files (the tests, and
``make screenshots``: ``python -m perceptron_gui.ui.screenshots OUT_DIR``)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from ..core import generators
from ..core.dataset import ReplaceAll

__all__ = ["STATES", "STATE_LAYERS", "render_states"]

#: State name -> (generator, its keyword arguments, learner, parameters, how far to run)
STATES = {
    "empty": (None, {}, "primal", {}, None),
    "mid_run": ("separable", {"n": 30, "seed": 3, "margin": 0.3}, "primal", {}, 4),
    "converged": ("separable", {"n": 30, "seed": 3, "margin": 0.3}, "primal", {}, "end"),
    "dual_rbf": ("circles", {"n": 60, "seed": 0}, "dual", {"kernel": "rbf", "gamma": 0.5},
                 "end"),
    "lda": ("blobs", {"n": 80, "seed": 1, "distance": 3.0}, "lda", {}, None),
    "non_separable": ("overlapping", {"n": 60, "seed": 0}, "primal", {"max_iter": 20},
                      "end"),
}
#: State name -> the canvas layers it switches on.
STATE_LAYERS = {"lda": {"lda": True}}


def render_states(out_dir, size=(1280, 800), names=None) -> dict[str, Path]:
    """Render each state (or those in ``names``) to ``out_dir/NAME.png``; returns the paths."""
    from .main_window import MainWindow

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication([])
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, (gen, kwargs, learner, params, run) in STATES.items():
        if names is not None and name not in names:
            continue
        window = MainWindow()
        window.resize(*size)
        window.show()
        ws = window.workspace
        if gen is not None:
            window.push_edit(ReplaceAll.from_dataset(generators.GENERATORS[gen](**kwargs)))
        ws.set_learner(learner)
        if params:
            ws.set_params(**params)
        window.canvas.set_visible_layers(**STATE_LAYERS.get(name, {}))
        if run == "end":
            ws.run_to_end()
        elif run:
            for _ in range(run):
                ws.step_update()
        window.canvas.fit_view()
        window.settle()
        path = out_dir / f"{name}.png"
        window.grab().save(str(path))
        paths[name] = path
        window.close()
        window.deleteLater()
        app.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    return paths


if __name__ == "__main__":  # pragma: no cover - a developer tool
    render_states(sys.argv[1] if len(sys.argv) > 1 else "screenshots")
