"""A live plot fits its widget again when a shorter title lets it shrink."""

from __future__ import annotations


def test_a_plot_shrinks_back_into_its_widget_when_its_title_gets_shorter(qtbot):
    """A plot is never wider than its widget once its title allows it.

    Found playing one demo after another in presenter mode at 1280 x 800: the proof's
    plots, laid out while a long title held them wide, stayed wider than their pane
    when the next title was short, their right part cut off.
    """
    from perceptron_gui.ui.views.plots.items import Titles, new_plot_widget

    widget = new_plot_widget("plotTitleFit")
    qtbot.addWidget(widget)
    widget.resize(300, 160)
    widget.show()
    qtbot.waitExposed(widget)
    plot = widget.getPlotItem()
    titles = Titles()
    titles.set(plot, "a title far too long to fit in three hundred pixels at this size",
               size="20pt")
    qtbot.waitUntil(lambda: plot.width() > widget.width())  # held wide by its title
    titles.set(plot, "short", size="10pt")
    qtbot.waitUntil(lambda: plot.minimumWidth() <= widget.width())
    assert plot.geometry().width() == widget.width(), (plot.geometry(), widget.width())


def test_the_proofs_plots_shrink_back_into_their_widget_too(qtbot):
    """The proof's two plots share one view (a layout of plots): it follows them down."""
    from perceptron_gui.ui.views.plots.items import Titles
    from perceptron_gui.ui.views.plots.proof import ProofPlot

    proof = ProofPlot(Titles())
    view = proof.proof_view
    qtbot.addWidget(proof.widget)
    proof.widget.resize(300, 320)
    proof.widget.show()
    qtbot.waitExposed(view)
    plot = proof.dot_plot
    plot.setTitle("a title far too long to fit in three hundred pixels at this size",
                  size="20pt")
    qtbot.waitUntil(lambda: view.ci.width() > view.width())
    plot.setTitle("short", size="10pt")
    qtbot.waitUntil(lambda: view.ci.minimumWidth() <= view.width())
    qtbot.waitUntil(lambda: view.ci.geometry().width() == view.width(), timeout=2000)
