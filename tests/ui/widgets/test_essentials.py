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
    assert panel.texts()["error"] == f"Training error {share} %  ({wrong:,} of 12,345)"


def test_the_bound_line_reads_as_a_sentence_but_keeps_symbols(qtbot):
    ws = Workspace(generators.overlapping(3_000, seed=3))
    ws.set_learner("dual")
    ws.set_params(kernel="rbf", gamma=0.5)
    ws.step_update()
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.refresh()
    assert panel.texts()["error"].startswith("Training error")
    bound = panel.texts()["bound"]
    assert bound.startswith("The kernel margin is not computed above 2,000 points"), bound
    ws.set_learner("primal")
    panel.refresh()
    assert panel.texts()["bound"] == "Not separable — no bound"
    separable = Workspace(generators.separable(40, seed=3, margin=0.3))
    separable.step_update()
    other = EssentialsPanel(separable)
    qtbot.addWidget(other)
    other.refresh()
    assert other.texts()["bound"].startswith("k = 1 ≤ (R/γ)² = ")  # a symbol stays as it is


def test_a_formula_breaks_only_between_its_parts_at_every_width(qtbot):
    """Never inside a vector ("(2.81,⏎−1.19)") nor inside "(R/γ)² = 76.19"."""
    from perceptron_gui.ui import style
    from perceptron_gui.ui.widgets.essentials import NBSP, WJ, glue

    glued = f"k{NBSP}={NBSP}4 ≤{NBSP}(R/{WJ}γ)²{NBSP}={NBSP}76.19"
    assert glue("k = 4 ≤ (R/γ)² = 76.19", "≤") == glued
    ws = Workspace(generators.separable(40, seed=0))
    for _ in range(4):
        ws.step_update()
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.refresh()
    update = panel.texts()["update"]
    assert "(" in update and "·" in update
    for scale in (style.NORMAL, style.PRESENTER):
        panel.set_scale(scale)
        least = panel.minimum_text_width()
        assert panel.minimumSizeHint().width() >= least
        for width in (least, least + 37, 2 * least):
            panel.resize(width, 400)
            panel.show()
            qtbot.waitUntil(lambda w=width: panel.width() == w)
            for label in (panel.bound_label, panel.update_label):
                lines = _laid_out_lines(label)
                for line in lines:  # every line holds whole parentheses, and fits
                    assert line.count("(") == line.count(")"), lines
                    assert label.fontMetrics().horizontalAdvance(line) <= label.width() + 1
                if label is panel.bound_label:
                    assert any(line.endswith("76.19") and "(R/γ)²" in line for line in lines)


def _laid_out_lines(label) -> list[str]:
    """The lines a word-wrapping label shows at its width, as Qt lays the text out."""
    from PySide6 import QtGui

    text = label.text()
    layout = QtGui.QTextLayout(text, label.font())
    option = QtGui.QTextOption()
    option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(label.contentsRect().width())
        lines.append(text[line.textStart():line.textStart() + line.textLength()].strip())
    layout.endLayout()
    return [line.replace("\u00a0", " ").replace("\u2060", "") for line in lines if line]


def test_the_bound_reads_on_one_line_when_a_smaller_headline_fits(qtbot):
    """Presenter mode's panel is too narrow for "k = 4 ≤ (R/γ)² = 76.19" at 1.25 × the type:
    the headline shrinks (never below the text's size) to stay on one line; where even
    that does not fit it keeps its size and breaks before "≤"."""
    from perceptron_gui.ui import style
    from perceptron_gui.ui.widgets.essentials import BOUND_FACTOR, BOUND_MIN_FACTOR

    ws = Workspace(generators.separable(40, seed=0))
    for _ in range(4):
        ws.step_update()
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.set_scale(style.PRESENTER)
    panel.show()
    label = panel.bound_label
    margins = panel.layout().contentsMargins()
    pt = style.PRESENTER.font_pt

    def one_line_width(factor: float) -> int:
        from PySide6 import QtGui

        font = QtGui.QFont(label.font())
        font.setPointSizeF(pt * factor)
        return QtGui.QFontMetrics(font).horizontalAdvance(label.text())

    full, least = one_line_width(BOUND_FACTOR), one_line_width(BOUND_MIN_FACTOR)
    assert least < full
    for room, factor, lines in ((full + 10, BOUND_FACTOR, 1),  # wide: full size, one line
                                ((full + least) // 2, None, 1),  # between: smaller, one line
                                (least - 10, BOUND_FACTOR, 2)):  # narrow: full size, ≤ breaks
        panel.resize(room + margins.left() + margins.right(), 400)
        qtbot.waitUntil(lambda r=room: label.width() == r)
        size = label.font().pointSizeF()
        if factor is None:
            assert pt * BOUND_MIN_FACTOR <= size < pt * BOUND_FACTOR
        else:
            assert size == pt * factor
        shown = _laid_out_lines(label)
        assert len(shown) == lines, (room, shown)
        if lines == 2:
            assert shown == ["k = 4", "≤ (R/γ)² = 76.19"]


def test_a_start_set_by_hand_fits_presenter_modes_narrow_panel(qtbot):
    """Its longer lines ("≤ 64.39 from w₀", "No update yet: w₀ set by hand") wrap."""
    from perceptron_gui.ui import style

    ws = Workspace(generators.separable(40, seed=1))
    ws.set_start((-1.0, 0.8), 0.0)
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.set_scale(style.PRESENTER)
    panel.refresh()
    assert panel.texts()["update"] == "No update yet: w₀ set by hand"
    assert "from w₀" in panel.texts()["bound"]
    width = 330  # the side panel is about 345 px wide in presenter mode at 1920 x 1080
    assert panel.minimum_text_width() <= width
    panel.resize(width, 400)
    panel.show()
    qtbot.waitUntil(lambda: panel.width() == width)
    for label in (panel.bound_label, panel.error_label, panel.update_label):
        for line in _laid_out_lines(label):  # every line fits: nothing is cut at the edge
            assert label.fontMetrics().horizontalAdvance(line) <= label.width() + 1, line
    assert "w = 0" not in panel.texts()["update"]


def test_the_least_width_does_not_follow_the_bound_s_fitted_size(qtbot):
    """Issue 32: at 800 × 600 the panel grew to hold the bound at its full size, where the
    headline fitted one line at a smaller size, whose smaller least width shrank the panel
    again, ten thousand times, until the stack overflowed.  The least width is the same at
    every width, so a panel sized to it stays."""
    import numpy as np

    from perceptron_gui.core.dataset import Dataset
    from perceptron_gui.ui import style

    X = np.array([[10, 0.1], [10, -0.1], [-3, 40], [2, -35]], dtype=float)
    ws = Workspace(Dataset(X, np.array([1, -1, 1, -1])))
    for _ in range(3):
        ws.step()
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.refresh()
    panel.show()
    assert panel.texts()["bound"].startswith("k = ")
    for scale in (style.NORMAL, style.PRESENTER):
        panel.set_scale(scale)
        sizes, leasts = set(), set()
        for width in range(100, 600, 4):
            panel.resize(width, 400)
            qtbot.waitUntil(lambda w=width: panel.width() == w)
            sizes.add(panel.bound_label.font().pointSizeF())
            leasts.add(panel.minimumSizeHint().width())
        assert len(sizes) > 1  # the headline did shrink to fit somewhere in between
        assert len(leasts) == 1, (scale, sorted(leasts))
        least = leasts.pop()
        panel.resize(least, 400)
        qtbot.waitUntil(lambda w=least: panel.width() == w)
        label = panel.bound_label
        for line in _laid_out_lines(label):  # nothing cut at that width
            assert label.fontMetrics().horizontalAdvance(line) <= label.width() + 1, line


def test_a_batch_pass_s_sentence_wraps_between_its_words_in_presenter_mode(qtbot):
    """Issue 33: "Σ yᵢ·xᵢ over the 20 cases with zᵢ ≤ 0 = (…)" broke only before "=", so
    the side panel cut it ("…over the 20 cases wit"); its words wrap, its vectors stay whole."""
    from perceptron_gui.ui import style

    ws = Workspace(generators.separable(20, seed=1))
    ws.set_params(order="batch")
    ws.step_update()
    panel = EssentialsPanel(ws)
    qtbot.addWidget(panel)
    panel.set_scale(style.PRESENTER)
    panel.refresh()
    update = panel.texts()["update"]
    assert "cases with" in update, update
    width = 330  # the side panel is about 345 px wide in presenter mode at 1920 x 1080
    assert panel.minimum_text_width() <= width
    panel.resize(width, 600)
    panel.show()
    qtbot.waitUntil(lambda: panel.width() == width)
    label = panel.update_label
    lines = _laid_out_lines(label)
    for line in lines:
        assert label.fontMetrics().horizontalAdvance(line) <= label.width() + 1, line
        assert line.count("(") == line.count(")"), lines  # a vector never breaks
    assert "cases" in " ".join(lines)


def test_the_exceeded_bound_is_coloured_one_way_in_both_panels(qtbot):
    """The readouts' and the essentials' bound take their colour from one function."""
    from PySide6 import QtGui

    from perceptron_gui.ui import style
    from perceptron_gui.ui.widgets.essentials import bound_palette

    panel = EssentialsPanel(Workspace(generators.overlapping(30, seed=3)))
    qtbot.addWidget(panel)
    role = QtGui.QPalette.ColorRole.WindowText
    assert bound_palette(panel, True).color(role) == QtGui.QColor(style.current().neg_color)
    assert bound_palette(panel, False).color(role) == panel.palette().color(role)
