"""The essentials panel: the training error as the core counts it, in readable numbers."""

from __future__ import annotations

from perceptron_gui.core import generators
from perceptron_gui.core.text import fmt
from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui.widgets.essentials import EssentialsPanel


def test_the_training_error_counts_the_core_s_mistakes_with_thousands_separators(qtbot):
    ws = Workspace(generators.overlapping(12_345, seed=3))
    for _ in range(40):
        ws.step_update()
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.refresh()
    wrong = int(ws.misclassified().size)
    assert 1_000 <= wrong < 12_345  # a count that needs a separator
    share = fmt(100.0 * wrong / 12_345, 1)
    assert panel.error_label.text() == f"Training error {share} %  ({wrong:,} of 12,345)"


def test_the_bound_line_reads_as_a_sentence_but_keeps_symbols(qtbot):
    ws = Workspace(generators.overlapping(3_000, seed=3))
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=0.5)
    ws.step_update()
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.refresh()
    assert panel.error_label.text().startswith("Training error")
    bound = panel.bound_label.text()
    assert bound.startswith("The kernel margin is not computed above 2,000 points"), bound
    ws.set_learner("primal")
    panel.refresh()
    assert panel.bound_label.text() == "Not separable — no bound"
    separable = Workspace(generators.separable(40, seed=3, margin=0.3))
    separable.step_update()
    other = EssentialsPanel(separable)
    qtbot.addWidget(other)
    other.refresh()
    assert other.bound_label.text().startswith("k = 1 ≤ (R/γ)² = ")  # a symbol stays as it is
