"""The canvas's layers, one per file, and their registry.

A new layer is a new file with a :class:`~.base.Layer` subclass, added to
:data:`LAYER_TYPES` with :func:`register_layer` (which declares its switches,
with their defaults and View menu texts, in the Qt-free
:data:`~perceptron_gui.core.viewstate.LAYER_SWITCHES`).  The order of
:data:`LAYER_TYPES` is the order of the switches in :data:`LAYERS`, of the
View menu's entries and of the rows of the legend.
"""

import re

from .....core.viewstate import LAYER_SWITCHES, LayerSwitch, register_switch, unregister_switch
from .alpha import AlphaLayer
from .base import Frame, Layer, LegendEntry, same_key
from .boundary import BoundaryLayer
from .cursor import CursorLayer
from .data import DataLayer
from .examined import ExaminedLayer
from .exercise import ExerciseLayer
from .game import GameLayer
from .hand_weights import HandWeightsLayer
from .hint import HintLayer
from .hover import HoverLayer
from .kernel import ContourLayer
from .lda import LdaLayer
from .margin_band import MarginBandLayer
from .max_margin import MaxMarginLayer
from .mistakes import MistakesLayer
from .origin import OriginLayer
from .probability import ProbabilityLayer
from .radius import RadiusLayer
from .selection import SelectionLayer
from .shaping import ShapingLayer
from .update_vector import UpdateLayer
from .weight import WeightLayer

#: Every layer the canvas draws, in the order of their switches and legend rows
#: (:func:`register_layer` appends one, :func:`unregister_layer` removes it).
LAYER_TYPES: list[type[Layer]] = []

#: Every layer switch with its default (the layers' in registry order, then the
#: legend's): kept up to date as layers are registered (a canvas made after
#: shows the new one's).
LAYERS: dict[str, bool] = {}

#: The legend's switch: the legend is drawn by the canvas, not by a layer.
LEGEND = LayerSwitch("legend", True, "Le&gend")


def register_layer(cls: type[Layer]) -> type[Layer]:
    """Add the layer ``cls`` to :data:`LAYER_TYPES`; returns it (a class decorator too).

    Its switches (``cls.switches``, with ``cls.menu_texts``) become known to
    the view states, the View menu of windows made after and the demos.

    Raises
    ------
    TypeError
        When ``cls`` is not a :class:`Layer` subclass.
    ValueError
        When it has no name, another layer has its name, or one of its
        switches is another layer's (or known with another default).
    """
    if not (isinstance(cls, type) and issubclass(cls, Layer)) or cls is Layer:
        raise TypeError(f"register_layer takes a Layer subclass; got {cls!r}")
    if not cls.name:
        raise ValueError(f"layer class {cls.__qualname__} has no name")
    if cls in LAYER_TYPES:
        return cls
    if any(t.name == cls.name for t in LAYER_TYPES):
        raise ValueError(f"a layer named {cls.name!r} is registered already")
    taken = [n for t in LAYER_TYPES for n in t.switches if n in cls.switches]
    if taken or LEGEND.name in cls.switches:
        raise ValueError(f"layer switches {sorted({*taken, LEGEND.name} & set(cls.switches))} "
                         "declared twice")
    unknown = set(cls.menu_texts) - set(cls.switches)
    if unknown:
        raise ValueError(f"layer {cls.name!r}: menu texts for switches it lacks: "
                         f"{sorted(unknown)}")
    for name, on in cls.switches.items():  # check them all before changing anything
        known = LAYER_SWITCHES.get(name)
        if known is not None and (known.default != on or cls.menu_texts.get(name)
                                  not in (None, known.menu_text)):
            raise ValueError(f"layer {cls.name!r}: switch {name!r} is known already "
                             f"as {known}")
    for name, on in cls.switches.items():
        register_switch(LayerSwitch(name, on, cls.menu_texts.get(name),
                                    mode=name in cls.mode_switches))
    LAYER_TYPES.append(cls)
    _order_switches()
    return cls


def unregister_layer(name: str) -> type[Layer]:
    """Remove the layer ``name`` and its switches; returns its class (KeyError: none)."""
    for cls in LAYER_TYPES:
        if cls.name == name:
            LAYER_TYPES.remove(cls)
            for switch in cls.switches:
                unregister_switch(switch)
            _order_switches()
            return cls
    raise KeyError(f"no layer named {name!r}")


def _order_switches() -> None:
    """:data:`LAYERS` and the core's switches in registry order, then the legend's."""
    switches = [LAYER_SWITCHES[n] for t in LAYER_TYPES for n in t.switches]
    others = [s for s in LAYER_SWITCHES.values()
              if s not in switches and s.name != LEGEND.name]
    ordered = [*switches, *others, LAYER_SWITCHES.get(LEGEND.name, LEGEND)]
    LAYER_SWITCHES.clear()
    LAYER_SWITCHES.update((s.name, s) for s in ordered)
    LAYERS.clear()
    LAYERS.update(default_switches())


def default_switches() -> dict[str, bool]:
    """Every layer switch with its default, in registry order, then the legend's."""
    switches: dict[str, bool] = {}
    for layer_type in LAYER_TYPES:
        switches.update(layer_type.switches)
    switches[LEGEND.name] = LEGEND.default
    return switches


def caption_words() -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """What a demo's caption may name on the canvas, read from the layers registered.

    Returns
    -------
    dict
        Each word of the layers' :attr:`~.base.Layer.caption_words`, with the
        ``(layer name, item names)`` of every layer that draws it, in registry
        order: a caption naming the word needs one of those items visible.
    """
    table: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for layer_type in LAYER_TYPES:
        for word, items in layer_type.caption_words.items():
            table.setdefault(word, []).append((layer_type.name, tuple(items)))
    return {word: tuple(drawn) for word, drawn in table.items()}


def words_named(caption: str) -> list[str]:
    """The words of :func:`caption_words` that ``caption`` uses (a plural too), in table order.

    A word counts whole: "cross" is in "the crosses", not in "across".
    """
    return [word for word in caption_words()
            if re.search(rf"\b{re.escape(word)}(?:e?s)?\b", caption, re.IGNORECASE)]


def menu_switches() -> list[LayerSwitch]:
    """The switches with a View menu entry, in registry order (then the legend)."""
    order = default_switches()
    return [LAYER_SWITCHES[n] for n in order
            if n in LAYER_SWITCHES and LAYER_SWITCHES[n].menu_text]


register_switch(LEGEND)
for _cls in (
    OriginLayer,
    DataLayer,
    SelectionLayer,
    BoundaryLayer,
    ContourLayer,
    ProbabilityLayer,
    WeightLayer,
    UpdateLayer,
    ExaminedLayer,
    MistakesLayer,
    MarginBandLayer,
    MaxMarginLayer,
    RadiusLayer,
    AlphaLayer,
    LdaLayer,
    ShapingLayer,
    HandWeightsLayer,
    HintLayer,
    GameLayer,
    ExerciseLayer,
    HoverLayer,
    CursorLayer,
):
    register_layer(_cls)
del _cls


__all__ = ["LAYERS", "LAYER_TYPES", "LEGEND", "Frame", "Layer", "LegendEntry",
           "caption_words", "default_switches", "menu_switches", "register_layer", "same_key",
           "unregister_layer", "words_named"]
