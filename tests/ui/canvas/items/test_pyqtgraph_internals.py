"""pyqtgraph's private names the canvas relies on still exist and mean what they meant.

If one of these fails after a pyqtgraph upgrade, fix
``perceptron_gui/ui/widgets/canvas/items/pyqtgraph_internals.py`` (the one
file that uses them), not the pictures.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtGui

from perceptron_gui.ui.widgets.canvas.items import pyqtgraph_internals as internals


def test_scatter_internals_exist():
    item = pg.ScatterPlotItem()
    for name in ("fragmentAtlas", "_maybeRebuildAtlas", "_updateMaxSpotSizes", "bounds",
                 "data", "opts", "invalidate", "informViewBoundsChanged"):
        assert hasattr(item, name), name
    fields = set(item.data.dtype.names)
    assert set(internals.OBJECT_FIELDS) <= fields
    assert {"x", "y", "size", "visible", "sourceRect"} <= fields
    assert {"pxMode", "useCache", "hoverable", "symbol", "size", "pen", "brush"} <= set(item.opts)


def test_scatter_positions_match_pyqtgraphs_records():
    X = np.random.default_rng(1).normal(size=(50, 2))
    ours, theirs = pg.ScatterPlotItem(symbol="o", size=7), pg.ScatterPlotItem(symbol="o", size=7)
    internals.set_scatter_positions(ours, X)
    theirs.setData(pos=X)
    for name in ours.data.dtype.names:
        if name not in ("item", "sourceRect"):
            assert ours.data[name].tolist() == theirs.data[name].tolist(), name
    assert internals.uniform_style(ours.data)
    assert internals.update_uniform_spots(ours, ours.data)
    assert (ours.data["sourceRect"]["w"] > 0).all()


def test_fragment_array_and_symbol_renderers():
    frags = internals.fragment_array()
    frags.resize(3)
    assert frags.ndarray().shape == (3, 10)
    assert len(frags.drawargs()) >= 1
    image = internals.render_symbol("x", 9.0, pg.mkPen("k"), pg.mkBrush("k"), dpr=1.0)
    assert isinstance(image, QtGui.QImage) and image.width() > 0
    assert callable(internals.draw_symbol)


def test_export_options_and_closed_flag(qtbot):
    item = pg.GraphicsObject()
    assert internals.export_options(item) is False
    item.setExportMode(True, {"antialias": True})
    assert internals.export_options(item) == {"antialias": True}
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    assert not internals.widget_closed(widget)
    widget.close()
    assert internals.widget_closed(widget)


def test_closing_a_plot_widget_leaves_orphans_that_close_plot_widget_deletes(qtbot):
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.plot([0, 1], [1, 0])
    items = widget.scene().items()
    internals.close_plot_widget(widget, widget.close)
    assert internals.widget_closed(widget)
    assert [type(item).__name__ for item in items if shiboken6.isValid(item)] == []
    # what pyqtgraph's close() alone leaves: the view box and the axes out of the scene
    other = pg.PlotWidget()
    qtbot.addWidget(other)
    kept = other.scene().items()
    other.close()
    orphans = [item for item in kept if shiboken6.isValid(item) and item.parentItem() is None]
    assert orphans, "pyqtgraph's close() changed: close_plot_widget may not be needed"
    for item in orphans:
        shiboken6.delete(item)


def test_item_svg_writes_one_item_with_its_children(qtbot):
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(200, 150)
    curve = widget.plot([0, 1, 2], [0, 1, 0])
    scene = widget.scene()
    options = {"width": 200.0, "height": 150.0, "background": QtGui.QColor("white")}
    nodes = {}
    element, defs = internals.item_svg(curve, nodes, scene, options)
    assert element.tagName == "g" and element.getAttribute("id") in nodes
    assert element.getElementsByTagName("path") and isinstance(defs, list)
    curve.setVisible(False)
    assert internals.item_svg(curve, nodes, scene, options) is None
    module = internals.svg_exporter_module()
    assert callable(module.cleanXml) and "%s" in module.xmlHeader
