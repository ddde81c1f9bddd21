"""What the window shows, as plain data: the layer switches, the view rectangle, the views.

A :class:`ViewState` is the one place these live.  The canvas draws the
layers it switches on and follows its rectangle; the View menu's check marks
follow its switches; demos, exports and workspace files read and write it
(a workspace's :attr:`~perceptron_gui.core.workspace.Workspace.view` is its
rectangle).  Each part announces its own change on its signal of
:attr:`ViewState.events`, only when the value changed, so a
toggle made in one place reaches every other place exactly once and never
comes back (a listener that writes the value it was told changes nothing).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .registry import Registry
from .signal import Signal, SignalGroup

__all__ = ["ViewState", "Rect", "check_rect", "LayerSwitch", "LAYER_SWITCHES",
           "content_layers", "register_switch", "unregister_switch", "default_switches"]

#: ``(x_min, x_max, y_min, y_max)``: the data rectangle shown.
Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class LayerSwitch:
    """One canvas layer switch: its name, its default and its entry in the View menu.

    Attributes
    ----------
    name : str
        The switch's name (``view_state.layer(name)``, a demo's ``"layers"``).
    default : bool
        Whether it is on in a fresh window.
    menu_text : str or None
        The View menu's checkable entry (with its ``&`` mnemonic); None: the
        switch has no menu entry (a demo or a script sets it).
    mode : bool, default=False
        The switch belongs to a mode, on while the mode is (the handles of
        Move w by hand): a demo neither records nor sets it.
    """

    name: str
    default: bool
    menu_text: str | None = None
    mode: bool = False


def content_layers(layers: dict) -> dict:
    """``layers`` without the switches that belong to a mode (:attr:`LayerSwitch.mode`)."""
    return {k: v for k, v in layers.items()
            if k in LAYER_SWITCHES and not LAYER_SWITCHES[k].mode}


#: Every canvas layer switch the program knows, by name, in the order of the
#: canvas's layers (the legend's last): the one place a switch's default and
#: View menu text are declared.  The View menu is built from it, the demo reader
#: checks names against it and a new view state starts with it; a canvas layer
#: names the switches it obeys, and one brought from outside registers its own.
LAYER_SWITCHES: Registry[LayerSwitch] = Registry("layer switch", lambda s: s.name)
for _switch in (
    LayerSwitch("boundary", True),
    LayerSwitch("regions", True, "Decision &regions"),
    LayerSwitch("probability", False, "&Probability shading"),
    LayerSwitch("weight", True, "&Weight vector w"),
    LayerSwitch("delta", True),
    LayerSwitch("ghost", True, "Previous &boundary"),
    LayerSwitch("highlight", True),
    LayerSwitch("mistakes", True, "Misclassified &marks"),
    LayerSwitch("margin_band", True, "Current &margin"),
    LayerSwitch("max_margin", False, "Ma&ximum-margin hyperplane"),
    LayerSwitch("radius", True, "&R circle"),
    LayerSwitch("alpha", True),
    LayerSwitch("lda", False, "&LDA means and covariance"),
    LayerSwitch("hand_handles", False, mode=True),
    LayerSwitch("game", True),
    LayerSwitch("exercise", True),
    LayerSwitch("legend", True, "Le&gend"),
):
    LAYER_SWITCHES.register(_switch)
del _switch


def register_switch(switch: LayerSwitch) -> LayerSwitch:
    """Make ``switch`` known (the View menu of windows made after, demos, view states).

    Declaring a known switch again, equal, changes nothing; differently, raises ValueError.
    """
    known = LAYER_SWITCHES.get(switch.name)
    if known is None:
        return LAYER_SWITCHES.register(switch)
    if known != switch:
        raise ValueError(f"a layer switch named {switch.name!r} is known already as "
                         f"{known}; cannot declare it as {switch}")
    return known


def unregister_switch(name: str) -> LayerSwitch:
    """Forget the switch ``name``; returns it (KeyError when it is not known)."""
    return LAYER_SWITCHES.unregister(name)


def default_switches() -> dict[str, bool]:
    """Every known switch at its default, in :data:`LAYER_SWITCHES` order."""
    return {name: s.default for name, s in LAYER_SWITCHES.items()}


def check_rect(rect) -> Rect | None:
    """``rect`` as four finite floats with ``x_min < x_max`` and ``y_min < y_max``, or None.

    Accepts ``(x_min, x_max, y_min, y_max)`` or ``((x_min, x_max), (y_min, y_max))``;
    ValueError for anything else.
    """
    if rect is None:
        return None
    try:
        values = list(rect)
        if len(values) == 2:
            values = [*values[0], *values[1]]
        flat = tuple(float(v) for v in values)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"a view rectangle is [x_min, x_max, y_min, y_max]; got {rect!r}"
                         ) from None
    if len(flat) != 4 or not all(math.isfinite(v) for v in flat):
        raise ValueError(f"a view rectangle is four finite numbers; got {rect!r}")
    if not (flat[0] < flat[1] and flat[2] < flat[3]):
        raise ValueError("a view rectangle needs x_min < x_max and y_min < y_max")
    return flat


class ViewStateEvents(SignalGroup):
    """What a :class:`ViewState` announces, one signal per part, each with its new value."""

    layers_changed = Signal(object)
    rect_changed = Signal(object)
    views_changed = Signal(bool)
    hovered_changed = Signal(object)
    shaping_changed = Signal(object)


class ViewState:
    """The layer switches, the view rectangle and whether the views are shown.

    Parameters
    ----------
    layers : mapping of str to bool, optional
        Layer switches known from the start, with their values; more are
        declared with :meth:`declare_layers` (the canvas declares its own).
    rect : tuple, optional
        The rectangle shown (see :func:`check_rect`); None: not known yet.
    views_shown : bool, default=False
        Whether the views beside the canvas (the live plots' area) are shown.

    Attributes
    ----------
    events : ViewStateEvents
        One signal per part: ``layers_changed`` (``{name: on}`` of the
        switches that changed), ``rect_changed`` (the new rectangle or None),
        ``views_changed`` (:attr:`views_shown`), ``hovered_changed``
        (:attr:`hovered`), ``shaping_changed`` (:attr:`shaping`).
    switches : Mapping of str to bool
        A live, read-only view of the switches (what the canvas draws from).
    """

    def __init__(self, layers: Mapping[str, bool] | None = None, rect=None,
                 views_shown: bool = False):
        self.events = ViewStateEvents()
        self._layers: dict[str, bool] = {str(k): bool(v) for k, v in (layers or {}).items()}
        self._defaults = dict(self._layers)
        self.switches: Mapping[str, bool] = MappingProxyType(self._layers)
        self._rect = check_rect(rect)
        self._views = bool(views_shown)
        self._hovered: int | None = None
        self._shaping = None

    # -- layers -----------------------------------------------------------------------
    def declare_layers(self, defaults: Mapping[str, bool]) -> None:
        """Add the switches of ``defaults`` not known yet, at their default values.

        Switches already known keep their value.  Announces nothing (no value
        of a known switch changes).
        """
        for name, on in defaults.items():
            self._defaults.setdefault(str(name), bool(on))
            self._layers.setdefault(str(name), bool(on))

    def defaults(self) -> dict[str, bool]:
        """Every known switch at its default value (what a fresh window shows)."""
        return dict(self._defaults)

    def layers(self) -> dict[str, bool]:
        """A copy of every switch."""
        return dict(self._layers)

    def layer(self, name: str) -> bool:
        """Whether the layer ``name`` is switched on (ValueError for an unknown name)."""
        if name not in self._layers:
            raise ValueError(f"unknown layer {name!r}; known: {sorted(self._layers)}")
        return self._layers[name]

    def set_layers(self, **flags: bool) -> dict[str, bool]:
        """Switch layers on or off by name; returns (and announces) those that changed.

        Raises ValueError, changing nothing, when a name is unknown.
        """
        unknown = set(flags) - set(self._layers)
        if unknown:
            raise ValueError(f"unknown layer(s) {sorted(unknown)}; known: {sorted(self._layers)}")
        changed = {name: bool(on) for name, on in flags.items()
                   if self._layers[name] != bool(on)}
        if changed:
            self._layers.update(changed)
            self.events.layers_changed.emit(dict(changed))
        return changed

    # -- the rectangle ----------------------------------------------------------------
    @property
    def rect(self) -> Rect | None:
        """The data rectangle shown, ``(x_min, x_max, y_min, y_max)``, or None."""
        return self._rect

    def set_rect(self, rect) -> bool:
        """Show ``rect`` (see :func:`check_rect`; None: not known, or "fit the data").

        Returns whether it changed (then :attr:`rect_changed` was emitted);
        ValueError for a rectangle that is not one.
        """
        rect = check_rect(rect)
        if rect == self._rect:
            return False
        self._rect = rect
        self.events.rect_changed.emit(rect)
        return True

    # -- the views --------------------------------------------------------------------
    @property
    def views_shown(self) -> bool:
        """Whether the views beside the canvas are shown."""
        return self._views

    def set_views_shown(self, on: bool) -> bool:
        """Show or hide the views; returns whether it changed (then announced)."""
        on = bool(on)
        if on == self._views:
            return False
        self._views = on
        self.events.views_changed.emit(on)
        return True

    # -- the sample pointed at --------------------------------------------------------
    @property
    def hovered(self) -> int | None:
        """The index of the sample under the pointer, on the canvas or in a view, or None.

        Not saved (:meth:`to_dict`): it follows the pointer.
        """
        return self._hovered

    def set_hovered(self, index: int | None) -> bool:
        """Point at sample ``index`` (None: at none); returns whether it changed (announced)."""
        index = None if index is None else int(index)
        if index == self._hovered:
            return False
        self._hovered = index
        self.events.hovered_changed.emit(index)
        return True

    # -- the model shaped by hand ----------------------------------------------------
    @property
    def shaping(self):
        """The Gaussian model shaped by hand (``learners.gaussian_model.GaussianModel``)
        drawn instead of the learner's, or None.

        Not saved (:meth:`to_dict`, workspace files): the shaping mode starts
        from the learner fitted on the data each time; its model becomes data
        only by sampling from it.
        """
        return self._shaping

    def set_shaping(self, model) -> bool:
        """Draw ``model`` (None: the learner again); returns whether it changed (announced)."""
        if model is self._shaping:
            return False
        self._shaping = model
        self.events.shaping_changed.emit(model)
        return True

    def to_dict(self) -> dict:
        """``{"layers": {...}, "rect": [...] or None, "views": bool}`` (JSON-ready)."""
        return {"layers": self.layers(),
                "rect": None if self._rect is None else list(self._rect),
                "views": self._views}
