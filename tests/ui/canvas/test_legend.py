"""The legend: an overlay inside the view, in the emptiest corner, never a band of the canvas."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from perceptron_gui.core import generators
from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.workspace import Workspace
from tests.ui.canvas.helpers import LEFT, click, drag


def _vb_scene_rect(canvas):
    vb = canvas.getViewBox()
    return vb.mapRectToScene(vb.boundingRect())


def test_the_legend_takes_no_band_of_the_canvas(make_canvas, qtbot):
    canvas, ws = make_canvas(Workspace(generators.separable(40, seed=1)))
    plot_rect = canvas.getPlotItem().sceneBoundingRect()
    heights = {}
    for on in (True, False):
        canvas.set_visible_layers(legend=on)
        qtbot.waitUntil(lambda on=on: canvas.legend.isVisible() == on)
        heights[on] = _vb_scene_rect(canvas).height()
        if on:
            assert _vb_scene_rect(canvas).contains(canvas.legend.sceneBoundingRect())
    assert heights[True] == heights[False]
    bottom = canvas.getPlotItem().getAxis("bottom").geometry().height()
    assert abs(heights[True] + bottom - plot_rect.height()) < 2


def test_the_legend_lists_only_what_is_drawn(make_canvas):
    canvas, ws = make_canvas(Workspace(Dataset([[1.0, 1.0]], [1])))
    labels = {label.text for _, label in canvas.legend.items}
    assert labels >= {"class +1", "class −1"}
    assert "weight vector w" not in labels and "decision boundary" not in labels
    canvas.set_visible_layers(radius=False)
    canvas.refresh()
    assert "‖(x, c)‖ = R" not in {label.text for _, label in canvas.legend.items}


def test_the_run_rows_appear_once_the_run_has_drawn_them(make_canvas):
    canvas, ws = make_canvas(Workspace(generators.separable(40, seed=1)))
    run_rows = {"examined sample", "update η·y·x", "previous boundary"}

    def labels():
        canvas.refresh()
        return {label.text for _, label in canvas.legend.items}

    assert not labels() & run_rows  # step 0: nothing examined, no update, no old boundary
    ws.step_update()  # the first update starts from w = 0: no boundary is left behind
    assert labels() & run_rows == {"examined sample", "update η·y·x"}
    ws.step_update()
    assert labels() >= run_rows
    ws.reset()
    assert not labels() & run_rows


def test_the_legend_goes_to_the_emptiest_corner(make_canvas, qtbot):
    X = np.array([[-4.5, 4.5], [-4.0, 4.0], [-4.2, 4.3], [4.5, -4.5]])
    canvas, ws = make_canvas(Workspace(Dataset(X, [1, 1, -1, -1])))
    qtbot.waitUntil(lambda: canvas.legend.isVisible())
    rect = _vb_scene_rect(canvas)
    legend = canvas.legend.sceneBoundingRect()
    assert rect.contains(legend)
    assert legend.center().x() > rect.center().x()  # the top left is crowded: it went right
    assert legend.center().y() < rect.center().y()  # top right is the first empty corner


def test_a_click_on_the_legend_goes_through_and_a_drag_moves_it(make_canvas, qtbot,
                                                                  no_mouse_rate_limit):
    canvas, ws = make_canvas()
    legend = canvas.legend
    qtbot.waitUntil(legend.isVisible)
    centre = canvas.mapFromScene(legend.sceneBoundingRect().center())
    xy = canvas.widget_to_data(centre)
    click(canvas, (xy.x(), xy.y()), LEFT)
    assert ws.dataset.n == 1  # added under the legend, as anywhere else
    np.testing.assert_allclose(ws.dataset.X[0], [xy.x(), xy.y()], atol=0.05)
    empty = canvas.mapFromScene(legend.sceneBoundingRect().bottomRight()) - QtCore.QPoint(4, 4)
    xy = canvas.widget_to_data(empty)
    before = legend.sceneBoundingRect()
    drag(canvas, (xy.x(), xy.y()), (xy.x() + 2.0, xy.y() - 2.0))
    after = legend.sceneBoundingRect()
    assert ws.dataset.n == 1  # a drag adds nothing
    assert after.center().x() > before.center().x() + 20
    assert legend.moved


def test_exports_draw_the_overlay_legend(qtbot):
    from perceptron_gui.ui.features.export.renderer import CanvasRenderer

    ws = Workspace(generators.separable(30, seed=2))
    images = {}
    for on in (True, False):
        with CanvasRenderer(ws, (480, 360), layers={"legend": on}) as renderer:
            images[on] = renderer.image()
            if on:
                legend = renderer.canvas.legend
                assert legend.isVisible()
                rect = legend.sceneBoundingRect().toAlignedRect()
    assert images[True].size() == images[False].size()
    differ = sum(images[True].pixel(x, y) != images[False].pixel(x, y)
                 for x in range(rect.left() + 2, rect.right() - 2, 3)
                 for y in range(rect.top() + 2, rect.bottom() - 2, 3))
    assert differ > 20  # the legend's box and text are in the picture


def test_a_row_that_comes_back_is_shown_again_not_made_again(make_canvas):
    from perceptron_gui.ui import style

    canvas, ws = make_canvas(Workspace(generators.separable(40, seed=2)))
    ws.step_update()
    canvas.refresh()

    def rows():
        return {label.text: (sample, label) for sample, label in canvas.legend.items}

    before = rows()
    assert "‖(x, c)‖ = R" in before
    canvas.set_visible_layers(radius=False)
    canvas.refresh()
    assert "‖(x, c)‖ = R" not in rows()
    hidden = before["‖(x, c)‖ = R"]
    assert not hidden[0].isVisible() and not hidden[1].isVisible()
    assert all(rows()[text] == before[text] for text in rows())  # the others kept
    canvas.set_visible_layers(radius=True)
    canvas.refresh()
    assert rows() == before and all(part.isVisible() for row in rows().values() for part in row)
    labels = [label.text for _, label in canvas.legend.items]
    shown = [e.text for layer in canvas._layers if layer.showing(canvas._frame())
             for e in layer.legend_entries(canvas._frame())]
    assert labels == shown  # in the layers' order
    canvas.set_scale(style.PRESENTER)  # new pens and type: new rows, the old ones destroyed
    assert not set(map(id, rows().values())) & set(map(id, before.values()))
    assert hidden[1].scene() is None and before["decision boundary"][1].scene() is None


def test_free_place_takes_an_empty_corner_then_an_empty_edge_then_the_least_covered():
    from perceptron_gui.ui.widgets.canvas.legend import free_place

    view, box = (400.0, 300.0), (100.0, 60.0)
    corners = np.array([[20.0, 20.0], [380.0, 20.0], [20.0, 280.0], [380.0, 280.0]])
    # every corner holds a point: the top edge's middle is empty
    left, top, corner, covered = free_place(corners, view, box, pad_px=4.0)
    assert corner is None and covered == 0 and top == 0.0  # on the edge, nearest a corner
    inside = ((corners[:, 0] > left - 4) & (corners[:, 0] < left + box[0] + 4)
              & (corners[:, 1] < top + box[1] + 4))
    assert not inside.any() and left not in (0.0, view[0] - box[0])
    # one corner empty: it wins over the edge
    left, top, corner, covered = free_place(corners[1:], view, box, pad_px=4.0)
    assert (corner, covered, left, top) == ((0, 0), 0.0, 0.0, 0.0)
    # a marker's radius counts: a point 3 px outside the box, pad 4, is under it
    near = np.array([[103.0, 30.0]])
    assert free_place(near, view, box, pad_px=4.0)[2] == (1, 0)  # top left is taken
    # no empty place at all (points everywhere): the least covered, said so
    grid = np.stack(np.meshgrid(np.arange(5, 400, 20.0), np.arange(5, 300, 20.0)), -1)
    left, top, corner, covered = free_place(grid.reshape(-1, 2), view, box)
    assert covered > 0
    # kept where it is while that covers nothing (no jumps during a run)
    assert free_place(corners[1:], view, box, keep=(150.0, 0.0))[:2] == (150.0, 0.0)



def test_a_kept_place_that_covers_nothing_is_kept_without_counting_the_view(monkeypatch):
    from perceptron_gui.ui.widgets.canvas import legend

    view, box = (400.0, 300.0), (100.0, 60.0)
    points = np.array([[20.0, 20.0], [380.0, 20.0], [20.0, 280.0], [380.0, 280.0]])
    tables = []
    real = legend.summed_table
    monkeypatch.setattr(legend, "summed_table", lambda *a: tables.append(1) or real(*a))
    # a run's frame: the legend stays where it is, and the view's count is not built
    assert legend.free_place(points, view, box, keep=(150.0, 0.0)) == (150.0, 0.0, None, 0.0)
    assert legend.free_place(points[1:], view, box, keep=(0.0, 0.0))[2:] == ((0, 0), 0.0)
    assert not tables
    # covered where it is: the whole view is counted, and it moves to the empty corner
    assert legend.free_place(points, view, box, keep=(0.0, 240.0))[:2] != (0.0, 240.0)
    assert tables


def test_a_run_keeps_the_legend_without_searching_the_view_again(make_canvas, monkeypatch):
    from perceptron_gui.ui.widgets.canvas import legend

    canvas, ws = make_canvas(Workspace(generators.separable(200, seed=3)), view=(-9, 9, -9, 9))
    searches = []
    real = legend.free_place
    monkeypatch.setattr(legend, "free_place", lambda *a, **k: searches.append(1) or real(*a, **k))
    vb = canvas.getViewBox()
    for _ in range(12):
        ws.step_update()  # w and its arrow move at every frame
        canvas.refresh()
        box = canvas.legend.sceneBoundingRect()
        w = ws.learner.coef_[0]
        along = [vb.mapViewToScene(QtCore.QPointF(*(t * w))) for t in np.linspace(0, 1, 9)]
        points = [vb.mapViewToScene(QtCore.QPointF(*p)) for p in ws.dataset.X]
        assert canvas.legend.isVisible()
        assert not any(box.contains(p) for p in points + along)
    assert not searches  # the kept place covered nothing: only the arrow was counted


def test_a_new_view_counts_the_points_once(make_canvas, monkeypatch):
    from perceptron_gui.ui.widgets.canvas import legend

    canvas, ws = make_canvas(Workspace(generators.separable(300, seed=4)), view=(-9, 9, -9, 9))
    ws.step_update()
    canvas.refresh()
    counted = []
    real = legend._Grid.cells
    monkeypatch.setattr(legend._Grid, "cells", lambda grid, points, weights=None: (
        counted.append((grid, len(points))) or real(grid, points, weights)))
    for view in ((-3, 3), (-2, 4), (-4, 2)):  # the points everywhere: the legend moves
        canvas.set_view_rect(view, view)
        canvas.refresh()
        data = [grid for grid, n in counted if n >= ws.dataset.n]  # the points, or with more
        assert data and len(data) == len(set(data)), counted  # once per search grid
        counted.clear()


def test_the_legend_stays_small_in_presenter_mode(make_canvas):
    from perceptron_gui.ui import style
    from perceptron_gui.ui.widgets.canvas.legend import MAX_TEXT_PT, MAX_WIDTH_SHARE

    canvas, ws = make_canvas(Workspace(generators.separable(40, seed=0)))
    for _ in range(4):
        ws.step_update()
    canvas.set_scale(style.PRESENTER)
    canvas.refresh()
    vb = _vb_scene_rect(canvas)
    legend = canvas.legend.sceneBoundingRect()
    assert float(canvas.legend.opts["labelTextSize"].removesuffix("pt")) <= MAX_TEXT_PT
    assert legend.width() <= max(MAX_WIDTH_SHARE * vb.width(), 200)  # one column when narrow


def test_the_legend_keeps_its_natural_width_after_a_long_row_goes(make_canvas):
    """Issue 33: a long row once shown (a hand-set w, a recording) left the legend that
    wide, stretched across the canvas over the points, even after the row went."""
    canvas, ws = make_canvas(Workspace(generators.separable(40, seed=1)))
    box = canvas.legend
    rows = list(box.items)
    natural = box.boundingRect().width()
    long_row = box.make_row(rows[0][0].item, "a very long legend row " * 12)
    box.show_rows(rows + [long_row], 1)
    assert box.boundingRect().width() > 2 * natural
    box.show_rows(rows, 1)
    assert box.boundingRect().width() <= natural + 1
