"""Shape the Gaussians by hand: the mode "shaping" for LDA, QDA and naive Bayes.

The model fitted on the data goes to ``view_state.shaping``, which the canvas
draws instead of the learner (each class's 2σ ellipse with three handles, the
boundary, the posterior shading).  "Sample from this model" *replaces* the
data (one undo step).  The shaped model is not saved in workspace files: only
its samples are data.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ...core.commands import SampleModel
from ...core.learners.gaussian_model import MIN_PRIOR, GaussianModel
from ...core.text import fmt
from ..actions import ActionSpec
from ..modes import Mode, register_mode
from ..window_api import WindowAPI

__all__ = ["Shaping", "ShapingFeature", "install"]

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


class ShapingFeature(QtCore.QObject):
    """The shaping mode's actions, ``toolbar`` and typed API (what tests and scripts call)."""

    def __init__(self, window: WindowAPI):
        super().__init__(window)
        self.setObjectName("shaping")
        self._window = window
        make = window.actions.make
        shaping = lambda c: Shaping.name in c["modes"]  # noqa: E731
        self.action = make(ActionSpec(
            "shape_model", "Shape the &Gaussians by hand",
            lambda on: self.enter() if on else self.leave(),
            tip="Drag each class's mean and ellipse axes, set the priors; the boundary and "
                "the posteriors follow (LDA, QDA, naive Bayes)", checkable=True))
        self.leave_action = make(ActionSpec("leave_shaping", "Leave shaping", self.leave,
                                            ("Esc",), icon_text="Leave"))
        self.sample_action = make(ActionSpec(
            "sample_model", "&Sample from this model (replaces the data)",
            lambda: self.sample(), tip="Replace the data by n points drawn from this model "
            "with this seed (undoable)", icon_text="Sample", when=shaping))
        self._build_toolbar()
        ws = window.workspace
        # the learner alone: a data edit keeps the learner (and the model shaped)
        ws.events.learner_changed.connect(self._learner_changed)
        window.menus["view"].aboutToShow.connect(self._update_action)
        self._update_action()

    def _build_toolbar(self) -> None:
        bar = self.toolbar = QtWidgets.QToolBar("Shape the model")
        bar.setObjectName("toolbarShaping")
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
        self._window.add_toolbar(bar, QtCore.Qt.ToolBarArea.TopToolBarArea, new_row=True,
                                 key="shaping")
        bar.setVisible(False)

    # -- the typed API -------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """Whether the mode is on."""
        return self._window.modes.is_active(Shaping.name)

    @property
    def model(self) -> GaussianModel | None:
        """The model shaped now (None outside the mode)."""
        return self._window.view_state.shaping

    def available(self) -> bool:
        """Whether the learner in use has a Gaussian class model to shape."""
        ws = self._window.workspace
        return bool(ws.capabilities.class_model and ws.has_model)

    def enter(self) -> bool:
        """Start shaping from the learner fitted on the data; False (and why) when it cannot."""
        if self.active:
            return True
        ws = self._window.workspace
        try:
            if not self.available():
                raise ValueError(f"{ws.spec.display_name} has no Gaussian class model to shape "
                                 "(LDA, QDA and naive Bayes have one, once fitted)")
            model = GaussianModel.from_learner(ws.learner)
        except ValueError as exc:
            self._window.report_error(f"Cannot shape the model: {exc}", dialog=False)
            self._sync_check(False)
            return False
        self._window.view_state.set_shaping(model)
        self._window.modes.enter(Shaping.name)  # its layers, its toolbar
        self._show_prior(model)
        self._sync_check(True)
        self._window.show_message("Shaping the Gaussians by hand: drag the means and the axis "
                                  "ends; the model is not saved (Sample keeps its points); "
                                  "Esc leaves")
        return True

    def leave(self) -> None:
        """Draw the learner fitted on the data again, and the layers as they were."""
        if not self.active:
            self._sync_check(False)
            return
        self._window.view_state.set_shaping(None)
        self._window.modes.leave(Shaping.name)  # the layers as they were
        self._sync_check(False)

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
    def _need_model(self) -> GaussianModel:
        model = self.model
        if model is None:
            raise ValueError("no model is being shaped")
        return model

    def _show_prior(self, model: GaussianModel) -> None:
        value = round(float(model.priors[1]) * _PRIOR_STEPS)
        if self.prior_slider.value() != value:
            self.prior_slider.blockSignals(True)
            self.prior_slider.setValue(value)
            self.prior_slider.blockSignals(False)
        self.prior_label.setText(f" {fmt(float(model.priors[1]), 2)} ")

    def _sync_check(self, on: bool) -> None:
        with QtCore.QSignalBlocker(self.action):
            self.action.setChecked(on)

    def _update_action(self) -> None:
        self.action.setEnabled(self.active or self.available())

    def _learner_changed(self, *_args) -> None:
        if self.active and not self.available():
            self.leave()
            self._window.show_message("Left shaping: the learner has no Gaussian class model")
        self._update_action()


def install(window: WindowAPI) -> ShapingFeature:
    """Add the shaping mode to ``window``: its entry in the View menu, its toolbar."""
    feature = ShapingFeature(window)
    view = window.menus["view"]
    view.addSeparator()
    view.addAction(feature.action)
    view.addAction(feature.sample_action)
    return feature
