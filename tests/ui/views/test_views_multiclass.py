"""Every view over a run of the multiclass perceptron: a picture, or why not in words."""

from __future__ import annotations

from perceptron_gui.core import samples
from perceptron_gui.ui import workers


def test_every_view_draws_a_multiclass_run_or_says_why_not(qtbot, window, monkeypatch):
    ws = window.workspace
    dataset, _ = samples.load("iris-versicolor-virginica-petal", all_classes=True)
    ws.replace(dataset, "multiclass_perceptron", ws.all_params())
    for _ in range(5):
        ws.step_update()
    errors = []
    monkeypatch.setattr(workers, "report_error", lambda *args: errors.append(args))
    area = window.views
    window.set_views_visible(True)
    qtbot.waitUntil(area.isVisible)
    said = {}
    for index, name in enumerate(area.names()):
        area.setCurrentIndex(index)
        view = area.view(name)
        view.refresh()
        said[name] = view.message
    assert workers.wait_for_all(30_000)
    qtbot.wait(50)  # the workers' results delivered
    assert not errors, errors
    assert "one wₖ for each class" in said["weights"]
    assert "margin μ" in said["losses"]
    for name, text in said.items():  # a view that draws no picture says why
        assert name in ("weights", "losses") or "μ" not in text
