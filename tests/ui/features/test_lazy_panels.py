"""The game's and the exercise's panels: made when first needed, where they always were."""

from __future__ import annotations

from perceptron_gui.core import exercises


def _order(window) -> list[str]:
    """The sections' keys from the top of the side panel down."""
    column = window.side_panel.widget().layout()
    sections = window.side_panel.sections
    return sorted(sections, key=lambda key: column.indexOf(sections[key]))


def test_a_window_that_neither_plays_nor_tries_a_level_builds_neither_panel(window):
    assert "game" not in window.side_panel.sections
    assert "exercise" not in window.side_panel.sections
    assert window.actions["play_new_game"].isEnabled()  # the menus are there all the same


def test_a_game_makes_its_section_shown_and_expanded(window):
    window.game.new_game(R=2.0, gamma=0.5, angle=0.0)
    section = window.side_panel.sections["game"]
    assert section.isVisible() and section.is_expanded()
    assert section.content is window.game.panel
    assert window.game.panel.rules_box.isVisibleTo(window)


def test_a_level_makes_its_section_shown_and_expanded(window):
    window.exercises.start(exercises.LEVELS[0].key)
    section = window.side_panel.sections["exercise"]
    assert section.isVisible() and section.is_expanded()
    assert section.content is window.exercises.panel


def test_the_game_section_stays_above_the_exercise_section_whichever_comes_first(window):
    window.exercises.start(exercises.LEVELS[0].key)
    window.exercises.panel  # noqa: B018 - made now
    window.game.panel  # noqa: B018 - made after it
    order = _order(window)
    assert order.index("bound") < order.index("game") < order.index("exercise")
    assert order[-2:] == ["game", "exercise"]
