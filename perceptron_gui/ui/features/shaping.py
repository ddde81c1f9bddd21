"""Shape the Gaussians by hand: the mode "shaping" for LDA, QDA and naive Bayes.

The model fitted on the data goes to ``view_state.shaping``, which the canvas
draws instead of the learner (each class's 2σ ellipse with three handles).
"Sample from this model" *replaces* the data (one undo step); the shaped model
is not saved in workspace files: only its samples are data.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6 import QtCore, QtGui, QtWidgets

from ...core.commands import SampleModel
from ...core.learners.gaussian_model import MIN_PRIOR, GaussianModel
from ...core.text import fmt
from ..actions import ActionSpec
from ..modes import Mode, register_mode
from ..window_api import WindowAPI

__all__ = ["Shaping", "ShapingFeature", "ToolbarMode"]

#: The layer switches the mode sets while it is on (given back on leaving): the shading
#: on; the fitted learner's boundary, its regions (under the shading: not computed at
#: every drag), its mistakes' crosses and its w off (the model shaped draws its own).
MODE_LAYERS = {"probability": True, "boundary": False, "regions": False, "mistakes": False,
               "weight": False}
_PRIOR_STEPS = 100  # the prior slider's steps: π₊ = step / 100


@register_mode
class Shaping(Mode):
    """The shaping mode: Esc leaves it (after Cancel, presenter mode and a demo)."""

    name = "shaping"
    esc = "leave_shaping"
    esc_priority = 30
    layers = MODE_LAYERS

    def shown(self) -> list:
        return [self.window.toolbars["shaping"]]


class ToolbarMode(QtCore.QObject):
    """A mode entered from a checkable View-menu ``action``, with ``leave_action`` (Esc).

    A subclass names its ``mode`` and defines ``available()``, ``_start()``
    (ValueError: why not), ``_started()``, ``_leaving()``, and ``refused``, ``hint``,
    ``left``: what the status bar says when it cannot enter, enters, or is left.
    """

    mode: type[Mode]
    refused = hint = left = ""

    def __init__(self, window: WindowAPI, name: str, action: ActionSpec, leave: str):
        super().__init__(window)
        self.setObjectName(name)
        self._window = window
        self.action = window.actions.make(replace(
            action, slot=lambda on: self.enter() if on else self.leave(), checkable=True))
        self.leave_action = window.actions.make(ActionSpec(
            self.mode.esc, leave, self.leave, ("Esc",), icon_text="Leave"))
        # the learner alone: a data edit keeps it (and what the mode made of it); the
        # menu asks again on showing
        window.workspace.events.learner_changed.connect(self._learner_changed)
        window.menus["view"].aboutToShow.connect(self._update_actions)

    @property
    def active(self) -> bool:
        return self._window.modes.is_active(self.mode.name)

    def enter(self) -> bool:
        """Enter the mode; False (and why, in the status bar) when it cannot."""
        if self.active:
            return True
        try:
            self._start()
        except ValueError as exc:
            self._window.report_error(f"{self.refused}: {exc}", dialog=False)
            self._sync_check(False)
            return False
        self._window.modes.enter(self.mode.name)  # its layers, its toolbar
        self._started()
        self._sync_check(True)
        self._update_actions()
        self._window.show_message(self.hint)
        return True

    def leave(self) -> None:
        """Leave the mode: the toolbar hidden, the layers as they were."""
        if self.active:
            self._leaving()
            self._window.modes.leave(self.mode.name)
        self._sync_check(False)
        self._update_actions()

    def add_to_view_menu(self, *more: QtGui.QAction) -> None:
        """Put :attr:`action` (and ``more``) in the View menu, after a separator."""
        view = self._window.menus["view"]
        view.addSeparator()
        for action in (self.action, *more):
            view.addAction(action)

    def _add_toolbar(self, bar: QtWidgets.QToolBar, key: str) -> None:
        self._window.add_toolbar(bar, QtCore.Qt.ToolBarArea.TopToolBarArea, new_row=True, key=key)
        bar.setVisible(False)

    def _sync_check(self, on: bool) -> None:
        with QtCore.QSignalBlocker(self.action):
            self.action.setChecked(on)

    def _update_actions(self) -> None:
        self.action.setEnabled(self.active or self.available())

    def _learner_changed(self, *_args) -> None:
        if self.active and not self.available():
            self.leave()
            self._window.show_message(self.left)
        self._update_actions()


class ShapingFeature(ToolbarMode):
    """The shaping mode's actions, ``toolbar`` and typed API (what tests and scripts call)."""

    mode = Shaping
    refused = "Cannot shape the model"
    hint = ("Shaping the Gaussians by hand: drag the means and the axis ends; the model is not "
            "saved (Sample keeps its points); Esc leaves")
    left = "Left shaping: the learner has no Gaussian class model"

    def __init__(self, window: WindowAPI):
        super().__init__(window, "shaping", ActionSpec(
            "shape_model", "Shape the &Gaussians by hand",
            tip="Drag each class's mean and ellipse axes, set the priors; the boundary and "
                "the posteriors follow (LDA, QDA, naive Bayes)"), "Leave shaping")
        self.sample_action = window.actions.make(ActionSpec(
            "sample_model", "&Sample from this model (replaces the data)",
            lambda: self.sample(), tip="Replace the data by n points drawn from this model "
            "with this seed (undoable)", icon_text="Sample",
            when=lambda c: Shaping.name in c["modes"]))
        self._build_toolbar()
        self._update_actions()
        self.add_to_view_menu(self.sample_action)

    def _build_toolbar(self) -> None:
        bar = self.toolbar = QtWidgets.QToolBar("Shape the model", objectName="toolbarShaping")
        bar.addWidget(QtWidgets.QLabel(" Prior π₊ "))
        self.prior_slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        low = round(MIN_PRIOR * _PRIOR_STEPS)
        self.prior_slider.setRange(low, _PRIOR_STEPS - low)
        self.prior_slider.setFixedWidth(110)
        self.prior_slider.setToolTip("The prior P(y = +1) of the model (π₋ = 1 − π₊)")
        self.prior_slider.valueChanged.connect(lambda v: self.set_prior(v / _PRIOR_STEPS))
        bar.addWidget(self.prior_slider)
        self.prior_label = QtWidgets.QLabel()
        bar.addWidget(self.prior_label)
        bar.addSeparator()
        bar.addWidget(QtWidgets.QLabel(" n = "))
        self.n_spin = QtWidgets.QSpinBox()
        self.n_spin.setRange(10, 1_000_000)
        self.n_spin.setValue(200)
        self.n_spin.setGroupSeparatorShown(True)
        bar.addWidget(self.n_spin)
        bar.addWidget(QtWidgets.QLabel(" seed "))
        self.seed_spin = QtWidgets.QSpinBox()
        self.seed_spin.setRange(0, 2**31 - 1)
        bar.addWidget(self.seed_spin)
        bar.addAction(self.sample_action)
        bar.addSeparator()
        bar.addAction(self.leave_action)
        self._add_toolbar(bar, "shaping")

    # -- the typed API -------------------------------------------------------------------
    @property
    def model(self) -> GaussianModel | None:
        """The model shaped now (None outside the mode)."""
        return self._window.view_state.shaping

    def available(self) -> bool:
        """Whether the learner in use has a Gaussian class model to shape."""
        ws = self._window.workspace
        return bool(ws.capabilities.class_model and ws.has_model)

    def move_handle(self, index: int, xy) -> GaussianModel:
        """Move handle ``index`` (``GaussianModel.handles`` order) to ``xy``; the new model."""
        model = self._need_model().move_handle(index, xy)
        self._window.view_state.set_shaping(model)
        return model

    def set_prior(self, p_pos: float) -> GaussianModel | None:
        """Set ``π₊ = p_pos`` (and ``π₋ = 1 − p_pos``); the new model (None outside the mode)."""
        if not self.active:
            return None
        model = self._need_model().with_prior(p_pos)
        self._window.view_state.set_shaping(model)
        self._show_prior(model)
        return model

    def sample(self, n: int | None = None, seed: int | None = None) -> bool:
        """Replace the data by ``n`` points from the model (the spin boxes' by default); done?"""
        if not self.active:
            self._window.report_error("Sampling needs the shaping mode (View ▸ Shape the "
                                      "Gaussians by hand)", dialog=False)
            return False
        n = self.n_spin.value() if n is None else n
        seed = self.seed_spin.value() if seed is None else seed
        return self._window.dispatch(SampleModel.of(self._need_model(), n, seed))

    # -- internals -----------------------------------------------------------------------
    def _start(self) -> None:
        ws = self._window.workspace
        if not self.available():
            raise ValueError(f"{ws.spec.display_name} has no Gaussian class model to shape "
                             "(LDA, QDA and naive Bayes have one, once fitted)")
        self._window.view_state.set_shaping(GaussianModel.from_learner(ws.learner))

    def _started(self) -> None:
        self._show_prior(self.model)

    def _leaving(self) -> None:
        self._window.view_state.set_shaping(None)  # the learner fitted on the data again

    def _need_model(self) -> GaussianModel:
        model = self.model
        if model is None:
            raise ValueError("no model is being shaped")
        return model

    def _show_prior(self, model: GaussianModel) -> None:
        value = round(float(model.priors[1]) * _PRIOR_STEPS)
        with QtCore.QSignalBlocker(self.prior_slider):
            self.prior_slider.setValue(value)
        self.prior_label.setText(f" {fmt(float(model.priors[1]), 2)} ")
