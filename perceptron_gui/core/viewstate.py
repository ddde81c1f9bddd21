"""What the window shows, as plain data: the layer switches, the view rectangle, the views.

Each part announces its own change on its signal of :attr:`ViewState.events`,
only when the value changed, so a toggle made in one place reaches every
other place exactly once and never comes back (a listener that writes the
value it was told changes nothing).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .registry import Registry
from .signal import Signal, SignalGroup

__all__ = ["ViewState", "Rect", "check_rect", "LayerSwitch", "LAYER_SWITCHES",
           "content_layers", "register_switch", "unregister_switch"]

#: ``(x_min, x_max, y_min, y_max)``: the data rectangle shown.
Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class LayerSwitch:
    """One canvas layer switch: its name, its default and its entry in the View menu.

    Attributes
    ----------
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
    """Make ``switch`` known (declaring it again, equal, changes nothing; else ValueError)."""
    known = LAYER_SWITCHES.get(switch.name)
    if known is None:
        return LAYER_SWITCHES.register(switch)
    if known != switch:
        raise ValueError(f"a layer switch named {switch.name!r} is known already as "
                         f"{known}; cannot declare it as {switch}")
    return known


#: Forget a switch by its name; returns it (KeyError when it is not known).
unregister_switch = LAYER_SWITCHES.unregister


def check_rect(rect) -> Rect | None:
    """``rect`` as four finite floats with ``x_min < x_max`` and ``y_min < y_max``, or None.

    Accepts ``(x_min, x_max, y_min, y_max)`` or ``((x_min, x_max), (y_min, y_max))``.
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

    ``layers`` are the switches known from the start, with their values; more
    are declared with :meth:`declare_layers` (the canvas declares its own).

    Attributes
    ----------
    events : ViewStateEvents
        One signal per part with its new value; ``layers_changed`` carries
        ``{name: on}`` of the switches that changed.
    switches : Mapping of str to bool
        A live, read-only view of the switches (what the canvas draws from).
    """

    def __init__(self, layers: Mapping[str, bool] | None = None, rect=None,
                 views_shown: bool = False):
        self.events = ViewStateEvents()
        self._layers: dict[str, bool] = {str(k): bool(v) for k, v in (layers or {}).items()}
        self._defaults = dict(self._layers)
        self.switches: Mapping[str, bool] = MappingProxyType(self._layers)
        self._parts = {"rect": check_rect(rect), "views": bool(views_shown),
                       "hovered": None, "shaping": None}

    # -- layers -----------------------------------------------------------------------
    def declare_layers(self, defaults: Mapping[str, bool]) -> None:
        """Add the switches of ``defaults`` not known yet (announces nothing: none changed)."""
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
        """Switch layers on or off by name; returns (and announces) those that changed."""
        unknown = set(flags) - set(self._layers)
        if unknown:
            raise ValueError(f"unknown layer(s) {sorted(unknown)}; known: {sorted(self._layers)}")
        changed = {name: bool(on) for name, on in flags.items()
                   if self._layers[name] != bool(on)}
        if changed:
            self._layers.update(changed)
            self.events.layers_changed.emit(dict(changed))
        return changed

    # -- the rectangle, the views, the sample pointed at, the model shaped by hand --------
    def _set(self, part: str, value, signal, same=operator.eq) -> bool:
        """Store ``value`` as ``part`` and emit it on ``signal``; False when it is the same."""
        if same(value, self._parts[part]):
            return False
        self._parts[part] = value
        signal.emit(value)
        return True

    rect = property(lambda self: self._parts["rect"],
                    doc="The data rectangle shown, ``(x_min, x_max, y_min, y_max)``, or None.")
    views_shown = property(lambda self: self._parts["views"],
                           doc="Whether the views beside the canvas are shown.")
    hovered = property(lambda self: self._parts["hovered"],
                       doc="The sample under the pointer, on the canvas or in a view, or None "
                           "(not saved: it follows the pointer).")
    shaping = property(lambda self: self._parts["shaping"], doc="""\
The Gaussian model shaped by hand drawn instead of the learner's, or None.

Not saved: the shaping mode starts from the learner fitted on the data each
time; its model becomes data only by sampling from it.""")

    def set_rect(self, rect) -> bool:
        """Show ``rect`` (:func:`check_rect`; None: "fit the data"); whether it changed."""
        return self._set("rect", check_rect(rect), self.events.rect_changed)

    def set_views_shown(self, on: bool) -> bool:
        """Show or hide the views; whether it changed."""
        return self._set("views", bool(on), self.events.views_changed)

    def set_hovered(self, index: int | None) -> bool:
        """Point at sample ``index`` (None: at none); whether it changed."""
        return self._set("hovered", None if index is None else int(index),
                         self.events.hovered_changed)

    def set_shaping(self, model) -> bool:
        """Draw ``model`` (None: the learner again); whether it changed."""
        return self._set("shaping", model, self.events.shaping_changed, operator.is_)

    def to_dict(self) -> dict:
        """``{"layers": {...}, "rect": [...] or None, "views": bool}`` (JSON-ready)."""
        rect = self._parts["rect"]
        return {"layers": self.layers(), "rect": None if rect is None else list(rect),
                "views": self._parts["views"]}
