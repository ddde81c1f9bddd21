"""The canvas's layers, one per file, and their registry.

A new layer is a new file with a :class:`~.base.Layer` subclass, added to
:data:`LAYER_TYPES`.  The order of :data:`LAYER_TYPES` is the order of the
switches in ``LAYERS`` and of the rows of the legend.
"""

from .alpha import AlphaLayer
from .base import Frame, Layer, LegendEntry, same_key
from .boundary import BoundaryLayer
from .cursor import CursorLayer
from .data import DataLayer
from .examined import ExaminedLayer
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
from .update_vector import UpdateLayer
from .weight import WeightLayer

#: Every layer the canvas draws, in the order of their switches and legend rows.
LAYER_TYPES: tuple[type[Layer], ...] = (
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
    HintLayer,
    HoverLayer,
    CursorLayer,
)


def default_switches() -> dict[str, bool]:
    """Every layer switch with its default, in registry order, then the legend's."""
    switches: dict[str, bool] = {}
    for layer_type in LAYER_TYPES:
        clash = set(switches) & set(layer_type.switches)
        if clash:
            raise ValueError(f"layer switches {sorted(clash)} declared twice")
        switches.update(layer_type.switches)
    switches["legend"] = True
    return switches


__all__ = ["LAYER_TYPES", "Frame", "Layer", "LegendEntry", "default_switches", "same_key"]
