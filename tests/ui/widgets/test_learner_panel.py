"""The learner panel's controls hold exactly the core's range of each parameter."""

from __future__ import annotations

import pytest

from perceptron_gui.core import generators
from perceptron_gui.core.learners import registry
from perceptron_gui.ui.widgets.learner_panel import NONE_TEXT


def _one_control(spec):
    return [p for p in spec.params if p.kind in ("bool", "float", "int", "choice")]


def test_each_control_has_the_core_range(window):
    panel = window.learner_panel
    for key, spec in registry.REGISTRY.items():
        for p in _one_control(spec):
            control = panel.control(key, p.key)
            if p.kind in ("int", "float"):
                low = p.low - 1 if p.optional else p.low  # None: the step below
                assert (control.minimum(), control.maximum()) == (low, p.high), p.key
    lda = registry.get("lda")
    pi = panel.control("lda", "pi_pos")
    assert (pi.minimum(), pi.maximum()) == (lda.param("priors").low, lda.param("priors").high)


def test_values_at_the_ends_of_the_range_are_shown_exactly(window, qtbot, subtests):
    """Every numeric parameter of every learner, in one window: a subtest each."""
    window.workspace.set_dataset(generators.xor(8, seed=0))
    for key, spec in registry.REGISTRY.items():
        for p in _one_control(spec):
            if p.kind not in ("int", "float"):
                continue
            with subtests.test(f"{key}.{p.key}"):
                window.workspace.set_learner(key)
                control = window.learner_panel.control(key, p.key)
                for value in (p.low, p.high, 0.1234567891 if p.kind == "float" else p.low + 7):
                    value = int(value) if p.kind == "int" else value
                    window.workspace.set_params(key, **{p.key: value})
                    qtbot.waitUntil(lambda c=control, v=value: c.value() == v, timeout=5000)
                    assert window.workspace.all_params()[key][p.key] == value
            window.workspace.set_params(key, **{p.key: spec.defaults[p.key]})


def test_a_seed_of_none_shows_none_and_choosing_it_sets_none(window, qtbot):
    ws = window.workspace
    ws.set_params("primal", order="random", random_state=None)
    seed = window.learner_panel.control("primal", "random_state")
    qtbot.waitUntil(lambda: seed.text() == NONE_TEXT, timeout=5000)
    seed.setValue(12)
    assert ws.all_params()["primal"]["random_state"] == 12
    seed.setValue(seed.minimum())
    assert ws.all_params()["primal"]["random_state"] is None


def test_a_positive_value_steps_by_its_order_and_never_jumps_to_the_end(window, qtbot):
    ws = window.workspace
    rate = window.learner_panel.control("primal", "eta0")
    rate.stepDown()
    assert ws.all_params()["primal"]["eta0"] == pytest.approx(0.99)
    ws.set_params("primal", eta0=0.1)
    qtbot.waitUntil(lambda: rate.value() == 0.1, timeout=5000)
    rate.stepDown()
    assert ws.all_params()["primal"]["eta0"] == pytest.approx(0.099)


def test_typing_a_number_in_exponent_notation(window, qtbot):
    ws = window.workspace
    ws.set_learner("dual")
    ws.set_params("dual", kernel="rbf")
    gamma = window.learner_panel.control("dual", "gamma")
    gamma.lineEdit().selectAll()
    qtbot.keyClicks(gamma.lineEdit(), "2.5e-9")
    gamma.interpretText()
    assert ws.all_params()["dual"]["gamma"] == 2.5e-9
    assert gamma.text() == "2.5e−09"
    gamma.interpretText()  # the shown text of the value keeps it exact
    assert ws.all_params()["dual"]["gamma"] == 2.5e-9


@pytest.mark.parametrize("value, text", [(0.5, "0.5"), (1000.0, "1000"), (2.5e-9, "2.5e−09"),
                                         (0.1234567891, "0.1234567891"),
                                         (-123456.789, "−123456.789"), (3.0000001, "3.0000001")])
def test_a_float_box_shows_the_number_it_holds(qtbot, value, text):
    # six significant digits showed 3.0000001 as "3": the number shown was not the one used
    from perceptron_gui.ui.widgets.float_box import FloatBox

    box = FloatBox(-1e6, 1e6, 6, 0.1)
    qtbot.addWidget(box)
    box.setValue(value)
    assert box.value() == value and box.text() == text
    assert box.valueFromText(box.text()) == value


def test_a_learner_s_form_is_built_when_it_is_first_chosen(qtbot):
    from perceptron_gui.core import Workspace
    from perceptron_gui.ui.widgets.learner_panel import LearnerPanel

    ws = Workspace()
    panel = LearnerPanel(ws)
    qtbot.addWidget(panel)
    assert panel.stack.count() == 1 and panel.stack.currentWidget().objectName() == \
        f"params_{ws.learner_name}"
    assert panel.selector.count() == len(registry.REGISTRY)
    other = next(key for key in registry.REGISTRY if key != ws.learner_name)
    panel.selector.setCurrentIndex(panel.selector.findData(other))
    assert ws.learner_name == other and panel.stack.count() == 2
    assert panel.stack.currentWidget().objectName() == f"params_{other}"
    for key, spec in registry.REGISTRY.items():  # a control asked for: its form, in step
        for p in _one_control(spec)[:1]:
            control = panel.control(key, p.key)
            assert control.window() is panel.window()


def test_with_three_classes_the_priors_are_the_counts_and_a_hand_set_one_can_go(window, qtbot):
    import numpy as np

    from perceptron_gui.core.dataset import Dataset
    from perceptron_gui.ui.widgets.learner_panel import PRIORS_OF_MANY

    ws, panel = window.workspace, window.learner_panel
    ws.set_learner("lda")
    auto, pi = panel.control("lda", "priors_auto"), panel.control("lda", "pi_pos")
    ws.set_params("lda", priors=[0.3, 0.7])  # set by hand on two classes
    qtbot.waitUntil(lambda: not auto.isChecked(), timeout=5000)
    assert auto.isEnabled() and pi.isEnabled()
    rng = np.random.default_rng(0)
    three = Dataset(rng.normal(size=(30, 2)) + np.repeat([[0, 0], [4, 0], [0, 4]], 10, axis=0),
                    np.repeat([0, 1, 2], 10), classes=(0, 1, 2))
    ws.set_dataset(three)
    # π₊ names one of two classes: off; the box that goes back to the counts stays on
    qtbot.waitUntil(lambda: not pi.isEnabled(), timeout=5000)
    assert auto.isEnabled() and not auto.isChecked() and ws.problem is not None
    assert pi.toolTip() == PRIORS_OF_MANY
    auto.setChecked(True)
    qtbot.waitUntil(lambda: ws.all_params()["lda"]["priors"] is None, timeout=5000)
    qtbot.waitUntil(lambda: ws.problem is None and ws.multiclass, timeout=5000)
    assert not auto.isEnabled() and not pi.isEnabled()
    assert pi.text() == "—"  # no prior of one class of two to show
    ws.set_dataset(Dataset([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], [-1, 1, 1]))
    qtbot.waitUntil(lambda: auto.isEnabled(), timeout=5000)
    assert pi.toolTip() != PRIORS_OF_MANY
    assert pi.value() == 0.667 and pi.text() != "—"  # n₊/n of the counts, to 3 decimals


def test_the_wheel_changes_a_value_only_once_its_control_has_the_focus(window, qtbot):
    from PySide6 import QtCore, QtGui, QtWidgets

    panel = window.learner_panel
    box = panel.control("primal", "max_iter")
    before = box.value()

    def wheel(widget) -> None:
        centre = QtCore.QPointF(widget.rect().center())
        event = QtGui.QWheelEvent(centre, widget.mapToGlobal(centre), QtCore.QPoint(0, 0),
                                  QtCore.QPoint(0, 120), QtCore.Qt.MouseButton.NoButton,
                                  QtCore.Qt.KeyboardModifier.NoModifier,
                                  QtCore.Qt.ScrollPhase.NoScrollPhase, False)
        QtWidgets.QApplication.sendEvent(widget, event)

    window.canvas.setFocus()
    wheel(box)
    assert box.value() == before and not box.hasFocus()  # scrolling past it: no change
    assert box.focusPolicy() == QtCore.Qt.FocusPolicy.StrongFocus
    selector = panel.selector
    index = selector.currentIndex()
    wheel(selector)
    assert selector.currentIndex() == index


def test_the_learner_forms_fit_the_side_panel_beside_its_scroll_bar(window, qtbot):
    """A float box was sized for the largest float (1.797…e+308): naive Bayes's form was wider
    than the panel once its scroll bar showed, and the column's text was cut at the right."""
    from PySide6 import QtWidgets

    window.resize(1280, 800)
    panel = window.findChild(QtWidgets.QScrollArea, "sidePanel")
    for section in panel.sections.values():
        section.set_expanded(True)
    bar = panel.verticalScrollBar().sizeHint().width()
    for key in registry.REGISTRY:
        window.workspace.set_learner(key)
        qtbot.waitUntil(lambda k=key: window.workspace.learner_name == k, timeout=5000)
        need = panel.widget().minimumSizeHint().width()
        assert need + bar <= panel.width(), (key, need, bar, panel.width())
