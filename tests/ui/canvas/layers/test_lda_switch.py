"""View ▸ LDA means and covariance has a visible effect with LDA as the learner too."""

from __future__ import annotations

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import ReplaceAll


def _drawn(window):
    window.canvas.refresh()
    items = window.canvas.layer("lda").items
    return items["lda_ellipses"].isVisible() and items["lda_means"].isVisible()


def test_the_menu_entry_shows_and_hides_the_class_model_of_lda(qtbot, window):
    action = window.actions["show_lda"]
    assert window.push_edit(ReplaceAll.from_dataset(generators.overlapping(60, seed=2), "d"))
    assert not action.isChecked() and not _drawn(window)
    window.workspace.set_learner("lda")
    assert action.isChecked() and _drawn(window)  # its model shows, and the menu says so
    action.trigger()  # unchecked: hidden, while LDA is still the learner
    assert not action.isChecked() and not _drawn(window)
    assert window.workspace.learner_name == "lda"
    action.trigger()
    assert action.isChecked() and _drawn(window)
    # back to the perceptron: the overlay goes, as it was before LDA came
    window.workspace.set_learner("primal")
    assert not action.isChecked() and not _drawn(window)


def test_an_overlay_the_user_had_on_stays_on_after_lda(qtbot, window):
    action = window.actions["show_lda"]
    assert window.push_edit(ReplaceAll.from_dataset(generators.overlapping(60, seed=2), "d"))
    action.trigger()
    assert action.isChecked() and _drawn(window)
    window.workspace.set_learner("lda")
    window.workspace.set_learner("primal")
    assert action.isChecked() and _drawn(window)
    assert window.canvas.layer("lda").items["lda_line"].isVisible()  # LDA's line beside
