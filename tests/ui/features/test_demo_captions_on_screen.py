"""A caption that names something on the canvas has it on screen, in every shipped demo."""

from __future__ import annotations

import pytest
from pytestqt.exceptions import TimeoutError as WaitTimeout

from perceptron_gui.core import demos
from perceptron_gui.ui.widgets.canvas.layers import caption_words, words_named


def test_every_word_of_the_table_names_items_its_layers_make(window):
    table = caption_words()
    assert {"ellipse", "shading", "cross", "band", "arrow", "circle"} <= set(table)
    for word, drawn in table.items():
        for name, items in drawn:
            made = window.canvas.layer(name).items
            assert set(items) <= set(made), (word, name, sorted(set(items) - set(made)))


@pytest.mark.parametrize("caption, words", [
    ("the shading changes only across the line", ["shading"]),
    ("θ₊ = (1.556, 0.885) (the crosses)", ["cross"]),
    ("the 2σ Ellipses and the band's edge", ["ellipse", "band"]),
    ("Narrower: the arrowhead", []),
])
def test_words_count_whole(caption, words):
    assert sorted(words_named(caption)) == sorted(words)


def test_what_a_caption_names_on_the_canvas_is_drawn_at_its_step(window, qtbot, warnings,
                                                                  subtests):
    for name in demos.list_demos():  # one window: each demo stopped gives the work back
        with subtests.test(name):
            _check_captions_drawn(window, qtbot, warnings, name)
        if window.demos.playing:
            window.demos.stop()


def _check_captions_drawn(window, qtbot, warnings, name):
    ui = window.demos
    assert ui.play(name) and warnings == []
    demo = ui.player.demo
    missing = []
    for i in range(1, len(demo.steps) + 1):  # the description introduces the whole demo
        ui.goto(i)
        caption = demo.steps[i - 1].caption
        if not words_named(caption):
            continue
        try:
            qtbot.waitUntil(lambda caption=caption: not window.canvas.unseen_words(caption),
                            timeout=10000)
        except WaitTimeout:
            missing.append((i, window.canvas.unseen_words(caption), caption[:60]))
    ui.stop()
    assert missing == []
