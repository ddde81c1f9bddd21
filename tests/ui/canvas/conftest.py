"""Fixtures of the canvas tests: a shown canvas whose edits are applied, and pans without
pyqtgraph's mouse rate limit."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from perceptron_gui.core.workspace import Workspace
from perceptron_gui.ui import style
from perceptron_gui.ui.widgets.canvas import (
    Canvas,
)


@pytest.fixture
def no_mouse_rate_limit():
    """pyqtgraph's scene drops moves closer than 10 ms: the view's pans need this off.

    Point gestures do not: the canvas handles them with every event.
    """
    old = pg.getConfigOption("mouseRateLimit")
    pg.setConfigOption("mouseRateLimit", -1)
    yield
    pg.setConfigOption("mouseRateLimit", old)


@pytest.fixture
def make_canvas(qtbot):
    """Build a shown canvas on a workspace whose edits are applied (the window's job)."""

    def make(ws: Workspace | None = None, *, connect: bool = True, view=(-5, 5, -5, 5)):
        ws = ws if ws is not None else Workspace()
        canvas = Canvas(ws)
        qtbot.addWidget(canvas)
        canvas.resize(560, 480)
        canvas.show()
        qtbot.waitExposed(canvas)
        if connect:
            canvas.editRequested.connect(ws.apply_edit)
        if view is not None:
            canvas.getViewBox().setRange(xRange=view[:2], yRange=view[2:], padding=0)
        canvas.refresh()
        return canvas, ws

    return make


@pytest.fixture(params=[style.LIGHT, style.DARK], ids=lambda p: p.name)
def palette(request):
    """Each test run in the light and in the dark palette."""
    with style.using(request.param) as p:
        yield p
