"""Every text from a file is shown as text: a demo's description in its tooltip, a
title or caption in the slides' Markdown, never read as markup."""

from __future__ import annotations

import json

import pytest
from PySide6 import QtGui

from perceptron_gui.ui.features.demo_files import user_demo_dir
from perceptron_gui.ui.features.export import slides

#: Markup a file may hold: an image (``/dev/zero`` made Qt allocate without end), a
#: link, emphasis, a heading.
HOSTILE = "<img src=no-such-image.png> <b>bold</b> [link](x) *em* # head & more"


def shown_as(tooltip: str) -> str:
    """The text a tooltip shows (Qt renders one that looks like HTML as HTML)."""
    doc = QtGui.QTextDocument()
    if QtGui.Qt.mightBeRichText(tooltip):
        doc.setHtml(tooltip)
    else:
        doc.setPlainText(tooltip)
    return doc.toPlainText()


@pytest.fixture
def hostile_demo():
    folder = user_demo_dir()
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"format": "perceptron-gui-demo", "version": 2, "title": "A & B",
           "description": HOSTILE, "learner": "primal",
           "data": {"points": [{"x": 1, "y": 1, "label": 1}, {"x": -1, "y": -1, "label": -1}]},
           "steps": [{"action": "note", "caption": HOSTILE}]}
    (folder / "hostile.json").write_text(json.dumps(doc), encoding="utf-8")
    return "hostile"


def test_a_demos_description_is_its_tooltip_as_text(window, hostile_demo):
    menu = window.menus["demos"]
    menu.aboutToShow.emit()
    act = next(a for a in menu.actions() if a.objectName() == f"actionDemo_{hostile_demo}_user")
    assert shown_as(act.toolTip()).startswith(HOSTILE)
    assert act.text().startswith("A && B")  # the & shown, not a mnemonic


def test_titles_and_captions_are_text_in_the_slides_markdown():
    md = slides._markdown(HOSTILE, ["slide-01.png"], [HOSTILE])
    assert "<" not in md.replace("\\<", "") and "[link]" not in md
    assert md.count("![Slide 1](slide-01.png)") == 1  # the picture itself is still one
    assert slides.markdown_text("a\nb") == "a b"
