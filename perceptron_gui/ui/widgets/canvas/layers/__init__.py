"""The canvas's layers, one per file, and their registry (whose order is the switches', the
View menu's and the legend's)."""

import re

from .....core.registry import Registry
from .....core.viewstate import LAYER_SWITCHES, LayerSwitch, register_switch, unregister_switch
from .alpha import AlphaLayer
from .base import Frame, Layer, LegendEntry, same_key
from .boundary import BoundaryLayer
from .classes import ClassRegionsLayer
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
from .named import NamedPointsLayer
from .origin import OriginLayer
from .probability import ProbabilityLayer
from .radius import RadiusLayer
from .selection import SelectionLayer
from .shaping import ShapingLayer
from .update_vector import UpdateLayer
from .weight import WeightLayer

#: Every layer the canvas draws, by name, in the order of their switches and
#: legend rows (:func:`register_layer` appends one, :func:`unregister_layer` removes it).
LAYER_TYPES: Registry[type[Layer]] = Registry.of_subclasses("layer", Layer)

#: Every layer switch with its default (the layers' in registry order, then the
#: legend's), kept up to date as layers are registered.
LAYERS: dict[str, bool] = {}

#: The legend's switch: the legend is drawn by the canvas, not by a layer.
LEGEND = LAYER_SWITCHES["legend"]


def switch_names(cls: type[Layer]) -> tuple[str, ...]:
    """The names of the switches the layer ``cls`` obeys."""
    return tuple(s if isinstance(s, str) else s.name for s in cls.switches)


def register_layer(cls: type[Layer]) -> type[Layer]:
    """Add the layer ``cls`` and the switches it brings; returns it (a class decorator too).
    ValueError: no name, a name taken, a switch nobody declares or another layer's."""
    if LAYER_TYPES.get(cls.name) is cls:
        return cls
    names = switch_names(cls)
    taken = {n for t in LAYER_TYPES.values() for n in switch_names(t)} & set(names)
    if taken or LEGEND.name in names:
        raise ValueError(f"layer switches {sorted({*taken, LEGEND.name} & set(names))} "
                         "declared twice")
    brought = [s for s in cls.switches if isinstance(s, LayerSwitch)]
    unknown = [n for n in names if isinstance(n, str) and n not in LAYER_SWITCHES
               and n not in {s.name for s in brought}]
    if unknown:
        raise ValueError(f"layer {cls.name!r}: no switch named {unknown} is declared")
    for switch in brought:  # check them all before changing anything
        known = LAYER_SWITCHES.get(switch.name)
        if known is not None and known != switch:
            raise ValueError(f"layer {cls.name!r}: switch {switch.name!r} is known already "
                             f"as {known}")
    LAYER_TYPES.register(cls)
    for switch in brought:
        register_switch(switch)
    _order_switches()
    return cls


def unregister_layer(name: str) -> type[Layer]:
    """Remove the layer ``name`` and the switches it brought; returns its class (KeyError)."""
    cls = LAYER_TYPES.unregister(name)
    for switch in cls.switches:
        if isinstance(switch, LayerSwitch):
            unregister_switch(switch.name)
    _order_switches()
    return cls


def _order_switches() -> None:
    """:data:`LAYERS` in registry order, then the other switches, the legend's last."""
    names = [n for t in LAYER_TYPES.values() for n in switch_names(t)]
    names += [n for n in LAYER_SWITCHES if n not in names and n != LEGEND.name]
    LAYERS.clear()
    LAYERS.update((n, LAYER_SWITCHES[n].default) for n in [*names, LEGEND.name])


def caption_words() -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """Each word of the layers' :attr:`~.base.Layer.caption_words`, with the
    ``(layer name, item names)`` of every layer that draws it, in registry order."""
    table: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for layer_type in LAYER_TYPES.values():
        for word, items in layer_type.caption_words.items():
            table.setdefault(word, []).append((layer_type.name, tuple(items)))
    return {word: tuple(drawn) for word, drawn in table.items()}


def words_named(caption: str) -> list[str]:
    """The words of :func:`caption_words` that ``caption`` uses whole (a plural too): "cross"
    is in "the crosses", not in "across"."""
    return [word for word in caption_words()
            if re.search(rf"\b{re.escape(word)}(?:e?s)?\b", caption, re.IGNORECASE)]


def menu_switches() -> list[LayerSwitch]:
    """The switches with a View menu entry, in registry order (then the legend)."""
    return [LAYER_SWITCHES[n] for n in LAYERS
            if n in LAYER_SWITCHES and LAYER_SWITCHES[n].menu_text]


for _cls in (OriginLayer, DataLayer, SelectionLayer, BoundaryLayer, ContourLayer,
             ClassRegionsLayer, ProbabilityLayer,
             WeightLayer, UpdateLayer, ExaminedLayer, MistakesLayer, MarginBandLayer,
             MaxMarginLayer, RadiusLayer, AlphaLayer, LdaLayer, ShapingLayer, HandWeightsLayer,
             HintLayer, GameLayer, ExerciseLayer, NamedPointsLayer, HoverLayer, CursorLayer):
    register_layer(_cls)
del _cls


__all__ = ["LAYERS", "LAYER_TYPES", "LEGEND", "Frame", "Layer", "LegendEntry",
           "caption_words", "menu_switches", "register_layer", "same_key",
           "switch_names", "unregister_layer", "words_named"]
