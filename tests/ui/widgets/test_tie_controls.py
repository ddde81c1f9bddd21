"""The rule for a point on the boundary in the window: the learner panel's combo box, the
tooltips that write the mistake condition, and the game panel's rule."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtWidgets

from perceptron_gui.core import Dataset, Workspace
from perceptron_gui.core.game import game_of
from perceptron_gui.core.game_commands import PlayMove
from perceptron_gui.core.learners import registry, ties
from perceptron_gui.ui.widgets.essentials import EssentialsPanel
from perceptron_gui.ui.widgets.readouts import ReadoutPanel

X6 = np.array([[3, 1], [-1, 0], [0, -3], [-3, 0], [0, -2], [-2, -3]], dtype=float)
Y6 = np.array([1, -1, 1, -1, 1, -1])

TIED = [key for key, spec in registry.REGISTRY.items() if spec.caps().tie is not None]


@pytest.mark.parametrize("key", TIED)
def test_the_learner_panel_offers_the_rule_with_both_seeds_quoted(window, qtbot, key):
    ws = window.workspace
    ws.set_dataset(Dataset(X6, Y6))
    ws.set_learner(key)
    combo = window.learner_panel.control(key, "tie")
    assert isinstance(combo, QtWidgets.QComboBox)
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert texts == [ties.TIE_TEXTS[t] for t in ties.TIES] == ["a mistake", "class +1"]
    tip = combo.toolTip()
    for quoted in ("seeds 001 and 003", "seeds 002 and 004", "≤ 0", "sign(0)", "yᵢŷᵢ < 0",
                   "sign(x) = +1 if x ≥ 0"):
        assert quoted in tip, quoted
    assert combo.currentText() == "a mistake"
    combo.setCurrentIndex(combo.findText("class +1"))
    qtbot.waitUntil(lambda: ws.all_params()[key]["tie"] == "positive", timeout=5000)
    if registry.get(key).caps().steps:
        ws.run_to_end()
    assert ws.learner.n_updates_ == 6  # (one-vs-rest: fitted at once by the same perceptron)
    ws.set_params(key, tie="mistake")
    qtbot.waitUntil(lambda: combo.currentText() == "a mistake", timeout=5000)


def test_the_primal_rule_is_disabled_for_the_hinge_loss(window, qtbot):
    ws = window.workspace
    combo = window.learner_panel.control("primal", "tie")
    assert combo.isEnabled()
    ws.set_params("primal", loss="hinge")
    qtbot.waitUntil(lambda: not combo.isEnabled(), timeout=5000)


def test_the_tooltips_that_write_the_mistake_condition_say_the_rule(qtbot):
    ws = Workspace(Dataset(X6, Y6))
    ws.step()
    readouts = ReadoutPanel(ws)
    essentials = EssentialsPanel(ws)
    for panel in (readouts, essentials):
        qtbot.addWidget(panel)
        panel.refresh()

    def tips() -> dict:
        out = {key: readouts.findChild(QtWidgets.QLabel, f"readout_{key}").toolTip()
               for key in ("k", "error", "update")}
        out["now error"] = essentials.error_label.toolTip()
        out["now update"] = essentials.update_label.toolTip()
        return out

    assert all("mistake: y·f(x) ≤ 0" in tip for tip in tips().values()), tips()
    ws.set_params(tie="positive")
    ws.step()
    ws.step()
    readouts.refresh()
    essentials.refresh()
    assert all("mistake: y·ŷ < 0, sign(0) = +1" in tip for tip in tips().values()), tips()
    assert essentials.texts()["update"].startswith("mistake: y·ŷ < 0, sign(0) = +1")
    shown = essentials.update_label.text()
    assert "sign(0)\N{NO-BREAK SPACE}=\N{NO-BREAK SPACE}+1" in shown  # never broken inside
    assert readouts.values()["update"] == ws.readouts().last_update


def test_the_game_panel_offers_b_s_rule_and_the_game_plays_it(window, qtbot):
    window.game.reveal_ms = 0
    window.game.new_game(R=2.0, gamma=0.5, angle=0.0, tie="positive")
    window.settle()
    panel = window.game.panel
    game = game_of(window.workspace)
    assert game.tie == "positive" and window.workspace.params["tie"] == "positive"
    assert panel.tie.currentData() == "positive"
    assert "seeds 002 and 004" in panel.tie.toolTip()
    panel.tie.setCurrentIndex(panel.tie.findData("mistake"))  # before the first move
    qtbot.waitUntil(lambda: game_of(window.workspace).tie == "mistake", timeout=5000)
    panel.tie.setCurrentIndex(panel.tie.findData("positive"))
    qtbot.waitUntil(lambda: game_of(window.workspace).tie == "positive", timeout=5000)
    window.dispatch(PlayMove((1.0, 0.0)))  # w = 0: B says +1 on its boundary, right
    window.dispatch(PlayMove((-1.0, 0.0)))  # w = 0 still: +1 again, a mistake
    game = game_of(window.workspace)
    assert [m.mistake for m in game.history] == [False, True]
    ws = window.workspace
    assert [ws.learner.event(k).mistake for k in (1, 2)] == [False, True]
    qtbot.waitUntil(lambda: panel.rules_text.text().endswith(
        "; mistake: y·ŷ < 0, sign(0) = +1"), timeout=5000)
