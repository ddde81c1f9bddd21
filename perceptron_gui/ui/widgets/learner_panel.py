"""The learner panel: pick the learner and set its parameters.

Every change goes to :meth:`Workspace.request_params` (or
``request_learner``), which validates it; an invalid value is refused with the
core's message and the control snaps back.  On a large data set the change is
built in a worker: the panel shows the choice at once (the workspace's
``pending_switch``) while the canvas keeps the old learner until it is ready.
When the workspace changes from elsewhere (a file, a demo), the controls are
updated with their signals blocked, so the two directions never feed back.
"""

from __future__ import annotations

import numbers

from PySide6 import QtCore, QtWidgets

from ...core.learners import registry
from ...core.learners.params import ParamSpec
from ...core.workspace import LEARNERS
from ..subscriptions import connect_for_lifetime
from .float_box import FloatBox

__all__ = ["LearnerPanel", "PARAM_SPECS"]

#: The kinds of parameter one control edits (LDA's priors and shrinkage take two each).
_ONE_CONTROL = ("bool", "float", "int", "choice")

#: The parameters of each learner edited by one control each: the core's specs,
#: so a control holds every value the core accepts and no other.
PARAM_SPECS = {
    key: tuple(p for p in spec.params if p.kind in _ONE_CONTROL)
    for key, spec in registry.REGISTRY.items()
}

#: What an optional integer's control shows for None (a fresh seed each run).
NONE_TEXT = "none"


class LearnerPanel(QtWidgets.QWidget):
    """Learner selector (objectName ``learnerSelector``) and parameter forms.

    Parameters
    ----------
    workspace : Workspace
        The workspace whose learner and parameters the panel edits.
    """

    #: A message for the status bar (e.g. a refused value).
    message = QtCore.Signal(str)

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("learnerPanel")
        self._ws = workspace
        self._controls: dict[str, dict[str, QtWidgets.QWidget]] = {}
        self._syncing = False

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.selector = QtWidgets.QComboBox(objectName="learnerSelector")
        self.selector.setToolTip("The learning algorithm: primal perceptron, dual (kernel)\n"
                                 "perceptron, or LDA (fitted in one step).")
        self.selector.setAccessibleName("Learner")
        for key, name in LEARNERS.items():
            self.selector.addItem(name, key)
        layout.addWidget(self.selector)
        self.stack = QtWidgets.QStackedWidget(objectName="learnerParams")
        for key in LEARNERS:
            self.stack.addWidget(self._build_form(key))
        layout.addWidget(self.stack)
        self.setSizePolicy(QtWidgets.QSizePolicy.Preferred, QtWidgets.QSizePolicy.Maximum)

        self.selector.currentIndexChanged.connect(self._on_learner_selected)
        connect_for_lifetime(self, (workspace.learner_changed, workspace.switch_changed),
                             self.sync_from_workspace)
        self.sync_from_workspace()

    # -- building ----------------------------------------------------------------------
    def _build_form(self, key: str) -> QtWidgets.QWidget:
        page = QtWidgets.QWidget(objectName=f"params_{key}")
        form = QtWidgets.QFormLayout(page)
        form.setContentsMargins(0, 4, 0, 0)
        controls = {}
        for spec in PARAM_SPECS[key]:
            widget = self._make_control(key, spec)
            label = QtWidgets.QLabel(spec.label)
            label.setToolTip(spec.tip)
            label.setBuddy(widget)
            widget.setAccessibleName(spec.label.rstrip(":"))
            form.addRow(label, widget)
            controls[spec.key] = widget
        if key == "lda":
            controls.update(self._build_lda(form))
        self._controls[key] = controls
        return page

    def _make_control(self, learner: str, spec: ParamSpec) -> QtWidgets.QWidget:
        name = f"param_{learner}_{spec.key}"
        if spec.kind == "bool":
            w = QtWidgets.QCheckBox(objectName=name)
            w.toggled.connect(lambda v, k=spec.key: self._set(learner, k, bool(v)))
        elif spec.kind == "float":
            w = FloatBox(spec.low, spec.high, spec.decimals, spec.step, objectName=name)
            w.setKeyboardTracking(False)
            w.valueChanged.connect(lambda v, k=spec.key: self._set(learner, k, float(v)))
        elif spec.kind == "int":
            w = QtWidgets.QSpinBox(objectName=name)
            # an optional value's None is the step below the range, shown as NONE_TEXT
            none = int(spec.low) - 1 if spec.optional else None
            w.setRange(int(spec.low) if none is None else none, int(spec.high))
            if none is not None:
                w.setSpecialValueText(NONE_TEXT)
            w.setKeyboardTracking(False)
            w.valueChanged.connect(
                lambda v, k=spec.key, n=none: self._set(learner, k, None if v == n else int(v)))
        else:
            w = QtWidgets.QComboBox(objectName=name)
            for value, text in spec.choices:
                w.addItem(text, value)
            w.currentIndexChanged.connect(
                lambda _i, k=spec.key, box=w: self._set(learner, k, box.currentData())
            )
        w.setToolTip(spec.tip)
        return w

    def _build_lda(self, form: QtWidgets.QFormLayout) -> dict:
        lda = registry.get("lda")
        priors_spec, shrink_spec = lda.param("priors"), lda.param("shrinkage")
        priors = QtWidgets.QCheckBox("from class counts", objectName="param_lda_priors_auto")
        priors.setToolTip(priors_spec.tip)
        pi_pos = FloatBox(priors_spec.low, priors_spec.high, priors_spec.decimals,
                          priors_spec.step, objectName="param_lda_pi_pos")
        pi_pos.setKeyboardTracking(False)
        pi_pos.setToolTip("Prior probability π₊ of class +1 (π₋ = 1 − π₊).")
        shrink_mode = QtWidgets.QComboBox(objectName="param_lda_shrinkage_mode")
        for value, text in (("none", "none"), ("auto", "Ledoit–Wolf"), ("fixed", "fixed")):
            shrink_mode.addItem(text, value)
        shrink_mode.setToolTip(shrink_spec.tip)
        shrink = FloatBox(shrink_spec.low, shrink_spec.high, shrink_spec.decimals,
                          shrink_spec.step, objectName="param_lda_shrinkage")
        shrink.setKeyboardTracking(False)
        shrink.setToolTip(f"Shrinkage intensity a in [{shrink_spec.low:g}, {shrink_spec.high:g}].")
        for control, name in ((priors, "Priors from class counts"),
                              (pi_pos, priors_spec.label),
                              (shrink_mode, "Covariance shrinkage"),
                              (shrink, shrink_spec.label)):
            control.setAccessibleName(name)
        form.addRow("Priors", priors)
        form.addRow("π₊", pi_pos)
        form.addRow("Shrinkage", shrink_mode)
        form.addRow("a", shrink)
        priors.toggled.connect(lambda _v: self._set_lda())
        pi_pos.valueChanged.connect(lambda _v: self._set_lda())
        shrink_mode.currentIndexChanged.connect(lambda _i: self._set_lda())
        shrink.valueChanged.connect(lambda _v: self._set_lda())
        return {"priors_auto": priors, "pi_pos": pi_pos, "shrinkage_mode": shrink_mode,
                "shrinkage": shrink}

    # -- panel -> workspace ------------------------------------------------------------
    def _on_learner_selected(self, index: int) -> None:
        if self._syncing:
            return
        self._ws.request_learner(self.selector.itemData(index))

    def _set(self, learner: str, key: str, value) -> None:
        if self._syncing:
            return
        try:
            self._ws.request_params(learner, **{key: value})
        except ValueError as exc:
            self.message.emit(f"Not changed: {exc}")
            self.sync_from_workspace()
        self._update_enabled()

    def _set_lda(self) -> None:
        if self._syncing:
            return
        c = self._controls["lda"]
        pi = c["pi_pos"].value()
        priors = None if c["priors_auto"].isChecked() else [round(1.0 - pi, 10), pi]
        mode = c["shrinkage_mode"].currentData()
        shrinkage = {"none": None, "auto": "auto"}.get(mode, c["shrinkage"].value())
        try:
            self._ws.request_params("lda", priors=priors, shrinkage=shrinkage)
        except ValueError as exc:
            self.message.emit(f"Not changed: {exc}")
            self.sync_from_workspace()
        self._update_enabled()

    # -- workspace -> panel ------------------------------------------------------------
    def sync_from_workspace(self) -> None:
        """Show the workspace's learner and parameters, or those requested (signals blocked)."""
        self._syncing = True
        try:
            key, params = self._chosen()
            self.selector.setCurrentIndex(self.selector.findData(key))
            self.stack.setCurrentIndex(list(LEARNERS).index(key))
            for learner, specs in PARAM_SPECS.items():
                for spec in specs:
                    self._show(self._controls[learner][spec.key], params[learner][spec.key])
            c, lda = self._controls["lda"], params["lda"]
            c["priors_auto"].setChecked(lda["priors"] is None)
            if lda["priors"] is not None:
                c["pi_pos"].setValue(float(lda["priors"][1]))
            else:  # show the prior the counts give (what LDA uses), not a stale value
                ds = self._ws.dataset
                c["pi_pos"].setValue(ds.n_pos / ds.n if ds.n else 0.5)
            shrink = lda["shrinkage"]
            mode = "none" if shrink is None else "auto" if shrink == "auto" else "fixed"
            c["shrinkage_mode"].setCurrentIndex(c["shrinkage_mode"].findData(mode))
            if mode == "fixed":
                c["shrinkage"].setValue(float(shrink))
        finally:
            self._syncing = False
        self._update_enabled()

    @staticmethod
    def _show(widget: QtWidgets.QWidget, value) -> None:
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

    def _chosen(self) -> tuple[str, dict]:
        """The learner and every learner's parameters chosen: a pending switch's, or in use."""
        switch = self._ws.pending_switch
        if switch is not None:
            return switch.learner_name, {k: dict(v) for k, v in switch.params.items()}
        return self._ws.learner_name, self._ws.all_params()

    def _update_enabled(self) -> None:
        _key, params = self._chosen()
        for learner, specs in PARAM_SPECS.items():
            for spec in specs:
                if spec.needs:
                    other, values = spec.needs
                    self._controls[learner][spec.key].setEnabled(params[learner][other] in values)
        c = self._controls["lda"]
        c["pi_pos"].setEnabled(not c["priors_auto"].isChecked())
        c["shrinkage"].setEnabled(c["shrinkage_mode"].currentData() == "fixed")

    def control(self, learner: str, key: str) -> QtWidgets.QWidget:
        """The widget editing ``key`` of ``learner`` (for tests and scripts)."""
        return self._controls[learner][key]
