"""Move w by hand: the mode "handset", and a perceptron run started from there.

"w set by hand" is the run's *start* ``w₀, b₀``; a drag is one :class:`SetWeights`
at its release.  "Start the perceptron from here" plays the run from ``w₀``:
scikit-learn's ``fit(X, y, coef_init=w₀, intercept_init=b₀)``.
"""

from __future__ import annotations

import re

from PySide6 import QtWidgets

from ...core.commands import SetWeights
from ...core.text import fmt, fmt_vec
from ..actions import ActionSpec
from ..modes import Mode, register_mode
from ..window_api import WindowAPI
from .shaping import ToolbarMode

__all__ = ["HandSet", "HandWeights", "parse_weights"]

#: The layer switch of the handles (``HandWeightsLayer``), on while the mode is.
HANDLES = "hand_handles"


@register_mode
class HandSet(Mode):
    """Moving w by hand: Esc leaves it (after Cancel, presenter mode and a demo)."""

    name = "handset"
    esc = "leave_handset"
    esc_priority = 35

    def shown(self) -> list:
        return [self.window.toolbars["hand_weights"]]


def parse_weights(text: str) -> tuple[tuple[float, float], float]:
    """``"w1, w2, b"`` (or ``"w1 w2 b"``; ``b`` may be left out: 0) as ``((w1, w2), b)``;
    ValueError naming what is wrong (the finite and size checks are :class:`SetWeights`')."""
    parts = [p for p in re.split(r"[,;\s]+", text.strip().strip("()[]")) if p]
    if len(parts) not in (2, 3):
        raise ValueError(f"type w₁, w₂ and b (b may be left out), e.g. \"1.5, -2, 0.5\"; "
                         f"got {len(parts)} value(s)")
    values = []
    for part in parts:
        try:
            values.append(float(part.replace("−", "-")))
        except ValueError:
            raise ValueError(f"{part!r} is not a number") from None
    return (values[0], values[1]), (values[2] if len(values) == 3 else 0.0)


class HandWeights(ToolbarMode):
    """The mode's actions, ``toolbar`` and typed API (what tests and scripts call)."""

    mode = HandSet
    refused = "Cannot move w by hand"
    hint = ("Move w by hand: drag the line or the head of w (or the point w in weight space); "
            "each drag is one undo step; Esc leaves")
    left = "Left Move w by hand: this learner does not start from a hand-set w"

    def __init__(self, window: WindowAPI):
        # a start is rebuilt into the learner; a data edit that leaves no run hides the
        # handles (the layer reads starts_by_hand)
        super().__init__(window, "handWeights", ActionSpec(
            "hand_weights", "Move &w by hand",
            tip="Drag the boundary and the head of w (and the point w in weight space): every "
                "readout follows; the run then starts from that w₀"), "Leave Move w by hand")
        make = window.actions.make

        def on(c) -> bool:
            return HandSet.name in c["modes"] and self.available()

        # the toolbar's Leave: enabled whichever mode has Esc (presenter mode takes it first)
        self.leave_button = make(ActionSpec(
            "leave_handset_button", "Leave Move w by hand", self.leave,
            tip="Leave Move w by hand (Esc)", icon_text="Leave",
            when=lambda c: HandSet.name in c["modes"]))
        self.type_action = make(ActionSpec(
            "type_weights", "&Type w…", lambda: self.ask_weights(),
            tip="Type w₁, w₂ and b: the run starts from them", icon_text="Type w…", when=on))
        self.clear_action = make(ActionSpec(
            "clear_hand_weights", "Start from w = &0", lambda: self.set_weights(None),
            tip="Forget the hand-set w: the run starts from w = 0", icon_text="From w = 0",
            when=lambda c: on(c) and window.workspace.start is not None))
        self.start_action = make(ActionSpec(
            "start_from_here", "&Start the perceptron from here", self.start_here,
            tip="Leave the mode and play the run from this w₀ (the update rule is the same; "
                "Novikoff's bound is the one from w₀)", icon_text="Start from here", when=on))
        self._build_toolbar()
        self._update_actions()
        self.add_to_view_menu()

    def _build_toolbar(self) -> None:
        bar = self.toolbar = QtWidgets.QToolBar("Move w by hand", objectName="toolbarHandWeights")
        self.label = QtWidgets.QLabel(objectName="handWeightsLabel")
        bar.addWidget(self.label)
        bar.addSeparator()
        for action in (self.type_action, self.clear_action, self.start_action,
                       self.leave_button):
            bar.addAction(action)
        self._add_toolbar(bar, "hand_weights")

    # -- the typed API -------------------------------------------------------------------
    def available(self) -> bool:
        """Whether the learner in use runs from a hand-set start (its capabilities say so)."""
        return bool(self._window.workspace.starts_by_hand)

    def set_weights(self, w, b: float = 0.0) -> bool:
        """Set ``w``, ``b`` by hand (None: back to 0); False (and why) if refused."""
        return self._set(lambda: SetWeights(w, b))

    def type_weights(self, text: str) -> bool:
        """Set w from typed ``"w1, w2, b"`` (:func:`parse_weights`); False (and why) if refused."""
        return self._set(lambda: SetWeights(*parse_weights(text)))

    def ask_weights(self) -> bool:
        """Ask for w₁, w₂, b in a dialog (filled with the current ones) and set them."""
        ws = self._window.workspace
        wb = ws.weights()
        current = "" if wb is None else ", ".join(  # exact: the value to edit
            repr(float(v)) for v in (*wb[0], wb[1]))
        text, ok = QtWidgets.QInputDialog.getText(
            self._window, "Type w", "w₁, w₂, b (the run starts from them):", text=current)
        return self.type_weights(text) if ok else False

    def start_here(self) -> None:
        """Leave the mode and play the run from its start ``w₀``."""
        ws = self._window.workspace
        self.leave()
        if ws.running:
            ws.reset()
            self._window.playback.set_playing(True)

    # -- internals -----------------------------------------------------------------------
    def _set(self, make) -> bool:
        try:
            command = make()
        except ValueError as exc:
            self._window.report_error(f"Not set: {exc}", dialog=False)
            return False
        return self._window.dispatch(command)

    def _start(self) -> None:
        ws = self._window.workspace
        if not self.available():
            raise ValueError(ws.problem or (f"{ws.spec.display_name} does not start from a "
                                            "hand-set w (the primal perceptron does)"))
        self._window.playback.stop()

    def _started(self) -> None:
        self._window.view_state.set_layers(**{HANDLES: True})

    def _leaving(self) -> None:
        self._window.view_state.set_layers(**{HANDLES: False})  # the hand-set start stays

    def _update_actions(self) -> None:
        self.action.setEnabled(self.active or self.available())
        self._window.actions.update()
        if self.active:
            start = self._window.workspace.start
            self.label.setText(" w₀ = 0 " if start is None else
                               f" w₀ = {fmt_vec(start[0])}, b₀ = {fmt(start[1])} ")
