"""The learner panel: pick the learner and set its parameters.

The core validates every change: an invalid value is refused with its message and
the control snaps back.  On large data the choice shows at once (``pending_switch``)
while the learner is built in a worker.
"""

from __future__ import annotations

import numbers

from PySide6 import QtCore, QtWidgets

from ...core.commands import SetLearner, SetParams
from ...core.learners import registry
from ...core.learners.params import ParamSpec
from ...core.text import fmt
from . import Guard
from .float_box import FloatBox, pass_shortcuts, wheel_when_focused

__all__ = ["LearnerPanel", "NONE_TEXT", "PRIORS_OF_MANY", "learner_tip"]

#: What an optional integer's control shows for None (a fresh seed each run).
NONE_TEXT = "none"


def _float_box(spec: ParamSpec, name: str, tip: str, accessible: str) -> FloatBox:
    box = FloatBox(spec.low, spec.high, spec.decimals, spec.step, objectName=name)
    box.setKeyboardTracking(False)
    box.setToolTip(tip)
    box.setAccessibleName(accessible)
    wheel_when_focused(box)
    return box


class _Editor:
    """The form's ``rows`` (label, control) and ``controls`` editing one :class:`ParamSpec`;
    ``changed(value)`` when the user sets one."""

    def __init__(self, learner: str, spec: ParamSpec, changed):
        self.spec = spec
        self.rows: list[tuple[str, QtWidgets.QWidget]] = []
        self.controls: dict[str, QtWidgets.QWidget] = {}
        self._learner = learner

    def _name(self, control: str) -> str:
        return f"param_{self._learner}_{control}"

    def show(self, value, dataset) -> None:
        """Show ``value`` (signals blocked by the caller's flag)."""
        raise NotImplementedError

    def update_enabled(self, params: dict) -> None:
        """Enable the controls that matter with the learner's ``params``."""
        if self.spec.needs:
            other, values = self.spec.needs
            for control in self.controls.values():
                control.setEnabled(params[other] in values)


class _OneControl(_Editor):
    """A bool, float, int or choice: a check box, float box, spin box or combo box."""

    def __init__(self, learner: str, spec: ParamSpec, changed):
        super().__init__(learner, spec, changed)
        name = self._name(spec.key)
        if spec.kind == "bool":
            w = QtWidgets.QCheckBox(objectName=name)
            w.toggled.connect(lambda v: changed(bool(v)))
        elif spec.kind == "float":
            w = _float_box(spec, name, spec.tip, spec.label)
            w.valueChanged.connect(lambda v: changed(float(v)))
        elif spec.kind == "int":
            w = QtWidgets.QSpinBox(objectName=name)
            # an optional value's None is the step below the range, shown as NONE_TEXT
            none = int(spec.low) - 1 if spec.optional else None
            w.setRange(int(spec.low) if none is None else none, int(spec.high))
            if none is not None:
                w.setSpecialValueText(NONE_TEXT)
            w.setKeyboardTracking(False)
            pass_shortcuts(w)  # Space and P play while it has focus
            w.valueChanged.connect(lambda v, n=none: changed(None if v == n else int(v)))
        else:
            w = QtWidgets.QComboBox(objectName=name)
            for value, text in spec.choices:
                w.addItem(text, value)
            w.currentIndexChanged.connect(lambda _i, box=w: changed(box.currentData()))
        w.setToolTip(spec.tip)
        w.setAccessibleName(spec.label.rstrip(":"))
        if spec.kind in ("int", "choice"):  # a float box: its maker did
            wheel_when_focused(w)
        self.rows.append((spec.label, w))
        self.controls[spec.key] = w

    def show(self, value, dataset) -> None:
        widget = self.controls[self.spec.key]
        if isinstance(widget, QtWidgets.QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QtWidgets.QSpinBox):
            # the core's range is the control's: None is the optional's special value
            integral = isinstance(value, numbers.Integral) and not isinstance(value, bool)
            widget.setValue(int(value) if integral else widget.minimum())
        elif isinstance(widget, QtWidgets.QDoubleSpinBox):
            widget.setValue(float(value))
        elif isinstance(widget, QtWidgets.QComboBox):
            widget.setCurrentIndex(widget.findData(value))


#: What the priors are with more than two classes (the π₊ box names one of two).
PRIORS_OF_MANY = ("With more than two classes the priors are the class frequencies πₖ = nₖ/n\n"
                  "(the data set's counts, in the readouts' Details).")


class _PriorsEditor(_Editor):
    """Priors: None ("from class counts", a check box) or ``[1 − π₊, π₊]`` (a float box)."""

    def __init__(self, learner: str, spec: ParamSpec, changed):
        super().__init__(learner, spec, changed)
        auto = QtWidgets.QCheckBox("from class counts", objectName=self._name(f"{spec.key}_auto"))
        auto.setToolTip(spec.tip)
        auto.setAccessibleName("Priors from class counts")
        self._pi_tip = "Prior probability π₊ of class +1 (π₋ = 1 − π₊)."
        pi = _float_box(spec, self._name("pi_pos"), self._pi_tip, spec.label)
        self.auto, self.pi = auto, pi
        self._many = False  # the data have more than two classes
        self.rows += [("Priors", auto), ("π₊", pi)]
        self.controls.update({f"{spec.key}_auto": auto, "pi_pos": pi})
        auto.toggled.connect(lambda _v: changed(self.value()))
        pi.valueChanged.connect(lambda _v: changed(self.value()))

    def value(self):
        pi = self.pi.value()
        return None if self.auto.isChecked() else [round(1.0 - pi, 10), pi]

    def show(self, value, dataset) -> None:
        self._many = not dataset.is_binary
        self.auto.setChecked(value is None)
        # with m classes the box names no prior: "—" (its minimum shown as that)
        self.pi.setSpecialValueText("—" if self._many and value is None else "")
        if value is not None:
            self.pi.setValue(float(value[1]))
        elif self._many:
            self.pi.setValue(self.pi.minimum())
        else:  # the prior the counts give (what the learner uses), to the box's 3 decimals
            self.pi.setValue(round(dataset.n_pos / dataset.n, 3) if dataset.n else 0.5)
        for widget, tip in ((self.auto, self.spec.tip), (self.pi, self._pi_tip)):
            widget.setToolTip(PRIORS_OF_MANY if self._many else tip)

    def update_enabled(self, params: dict) -> None:
        many = self._many
        # with m classes only the way back to the counts stays open (a π₊ set before)
        self.auto.setEnabled(not (many and self.auto.isChecked()))
        self.pi.setEnabled(not many and not self.auto.isChecked())


class _ShrinkageEditor(_Editor):
    """Shrinkage: a mode (none, Ledoit–Wolf, fixed) and, when fixed, its intensity."""

    _MODES = (("none", "none"), ("auto", "Ledoit–Wolf"), ("fixed", "fixed"))

    def __init__(self, learner: str, spec: ParamSpec, changed):
        super().__init__(learner, spec, changed)
        mode = QtWidgets.QComboBox(objectName=self._name(f"{spec.key}_mode"))
        wheel_when_focused(mode)
        for value, text in self._MODES:
            mode.addItem(text, value)
        mode.setToolTip(spec.tip)
        mode.setAccessibleName("Covariance shrinkage")
        amount = _float_box(spec, self._name(spec.key), "Shrinkage intensity a in "
                            f"[{fmt(spec.low, 0)}, {fmt(spec.high, 0)}].", spec.label)
        self.mode, self.amount = mode, amount
        self.rows += [("Shrinkage", mode), ("a", amount)]
        self.controls.update({f"{spec.key}_mode": mode, spec.key: amount})
        mode.currentIndexChanged.connect(lambda _i: changed(self.value()))
        amount.valueChanged.connect(lambda _v: changed(self.value()))

    def value(self):
        mode = self.mode.currentData()
        return {"none": None, "auto": "auto"}.get(mode, self.amount.value())

    def show(self, value, dataset) -> None:
        mode = "none" if value is None else "auto" if value == "auto" else "fixed"
        self.mode.setCurrentIndex(self.mode.findData(mode))
        if mode == "fixed":
            self.amount.setValue(float(value))

    def update_enabled(self, params: dict) -> None:
        self.amount.setEnabled(self.mode.currentData() == "fixed")


#: The editor of each kind of parameter (:attr:`ParamSpec.kind`).
EDITORS: dict[str, type[_Editor]] = {
    "bool": _OneControl, "float": _OneControl, "int": _OneControl, "choice": _OneControl,
    "priors": _PriorsEditor, "shrinkage": _ShrinkageEditor,
}


#: Pixels between two rows of a learner's form.
FORM_ROW_SPACING = 3


def learner_tip() -> str:
    """The selector's tooltip: every registered learner's name, those fitted at once marked."""
    names = [spec.display_name + ("" if spec.caps().steps else " (fitted in one step)")
             for spec in registry.REGISTRY.values()]
    listed = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
    return f"The learning algorithm: {listed}."


class LearnerPanel(QtWidgets.QWidget):
    """The learner selector, following the registry, and a form per learner from its
    :class:`ParamSpec`\\ s (:data:`EDITORS`); ``dispatch(command)``: the window's door."""

    #: A message for the status bar (e.g. a refused value).
    message = QtCore.Signal(str)

    def __init__(self, workspace, parent=None, *, dispatch=None):
        super().__init__(parent)
        self.setObjectName("learnerPanel")
        self._ws = workspace
        self._dispatch = dispatch if dispatch is not None else self._request
        self._editors: dict[str, list[_Editor]] = {}
        self._pages: dict[str, QtWidgets.QWidget] = {}
        self._syncing = Guard()

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.selector = QtWidgets.QComboBox(objectName="learnerSelector")
        wheel_when_focused(self.selector)
        self.selector.setAccessibleName("Learner")
        layout.addWidget(self.selector)
        self.stack = QtWidgets.QStackedWidget(objectName="learnerParams")
        layout.addWidget(self.stack)
        self._follow_registry()
        self.setSizePolicy(QtWidgets.QSizePolicy.Preferred, QtWidgets.QSizePolicy.Maximum)

        self.selector.currentIndexChanged.connect(self._on_learner_selected)
        for event in (workspace.events.learner_changed, workspace.events.dataset_changed,
                      workspace.events.switch_changed):
            event.connect(self.sync_from_workspace)
        registry.changed.connect(self._on_registry_changed)
        self.sync_from_workspace()

    def _follow_registry(self) -> None:
        listed = [self.selector.itemData(i) for i in range(self.selector.count())]
        for key in [k for k in listed if k not in registry.REGISTRY]:
            self.selector.removeItem(self.selector.findData(key))
            page = self._pages.pop(key, None)
            if page is not None:
                self.stack.removeWidget(page)
                page.deleteLater()
                del self._editors[key]
        for key, name in registry.LEARNERS.items():
            if key not in listed:
                self.selector.addItem(name, key)
        self.selector.setToolTip(learner_tip())

    def _form(self, key: str) -> QtWidgets.QWidget:
        if key not in self._pages:
            self._pages[key] = self._build_form(key)
            self.stack.addWidget(self._pages[key])
        return self._pages[key]

    def _on_registry_changed(self, _key: str) -> None:
        with self._syncing:
            self._follow_registry()
        self.sync_from_workspace()

    def _build_form(self, key: str) -> QtWidgets.QWidget:
        page = QtWidgets.QWidget(objectName=f"params_{key}")
        form = QtWidgets.QFormLayout(page)
        form.setContentsMargins(0, 2, 0, 0)
        # rows a little closer than the style's: the primal form's eight rows and the
        # bound plot under them fit a 1280 x 680 window's side panel
        form.setVerticalSpacing(FORM_ROW_SPACING)
        editors = []
        for spec in registry.get(key).params:
            editor = EDITORS[spec.kind](key, spec, lambda v, k=spec.key: self._set(key, k, v))
            for text, widget in editor.rows:
                label = QtWidgets.QLabel(text)
                label.setToolTip(widget.toolTip())
                label.setBuddy(widget)
                form.addRow(label, widget)
            editors.append(editor)
        self._editors[key] = editors
        return page

    def _on_learner_selected(self, index: int) -> None:
        if self._syncing:
            return
        self._dispatch(SetLearner(self.selector.itemData(index)))

    def _set(self, learner: str, key: str, value) -> None:
        if self._syncing:
            return
        try:
            self._dispatch(SetParams({key: value}, learner))
        except ValueError as exc:
            self.message.emit(f"Not changed: {exc}")
            self.sync_from_workspace()
        self._update_enabled()

    def _request(self, command) -> bool:
        """What the window's door does with the panel's commands, for a panel on its own."""
        if isinstance(command, SetLearner):
            self._ws.request_learner(command.learner)
        else:
            self._ws.request_params(command.learner, **command.params)
        return True

    def sync_from_workspace(self, *_args) -> None:
        """Show the workspace's learner and parameters, or those requested (signals blocked)."""
        with self._syncing:
            key, params = self._chosen()
            self.selector.setCurrentIndex(self.selector.findData(key))
            if key in registry.REGISTRY:
                self.stack.setCurrentWidget(self._form(key))
                # the stack as tall and as wide as the form shown, not as the largest (the
                # side panel gives the room to the bound plot under it, and its width to
                # the canvas)
                ignored = QtWidgets.QSizePolicy.Policy.Ignored
                preferred = QtWidgets.QSizePolicy.Policy.Preferred
                for page_key, page in self._pages.items():
                    policy = preferred if page_key == key else ignored
                    page.setSizePolicy(policy, policy)
                self.stack.updateGeometry()
            dataset = self._ws.dataset
            for learner, editors in self._editors.items():
                values = params.get(learner, registry.get(learner).defaults)
                for editor in editors:
                    editor.show(values[editor.spec.key], dataset)
        self._update_enabled()

    def _chosen(self) -> tuple[str, dict]:
        """The learner and every learner's parameters chosen: a pending switch's, or in use."""
        switch = self._ws.pending_switch
        if switch is not None:
            return switch.learner_name, {k: dict(v) for k, v in switch.params.items()}
        return self._ws.learner_name, self._ws.all_params()

    def _update_enabled(self) -> None:
        _key, params = self._chosen()
        for learner, editors in self._editors.items():
            values = params.get(learner, registry.get(learner).defaults)
            for editor in editors:
                editor.update_enabled(values)

    def control(self, learner: str, key: str) -> QtWidgets.QWidget:
        """The widget editing ``key`` of ``learner`` (for tests and scripts)."""
        if learner not in self._pages:
            self._form(learner)
            self.sync_from_workspace()
        for editor in self._editors[learner]:
            if key in editor.controls:
                return editor.controls[key]
        raise KeyError(key)
