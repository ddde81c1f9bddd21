"""The canvas's layers by name and by tier, each made when it is first needed."""

from __future__ import annotations

from collections.abc import Callable

from .layers import LAYER_TYPES, Frame, Layer

__all__ = ["LayerRegistry"]


class LayerRegistry:
    """Every layer of a canvas; a layer that declares its ``item_names`` is made lazily,
    by the first redraw that needs it (``Layer.needed``: with data) or when asked for.

    ``changed`` is each layer's ``changed`` callback; ``style(layer)`` styles a
    layer made after the canvas was styled.  ``tiers`` holds the layers by
    ``redraw_on``.
    """

    def __init__(self, view_box, has_data: bool, changed: Callable, style: Callable):
        self._view_box = view_box
        self._changed, self._style = changed, style
        self.layers: list[Layer] = [layer_type() for layer_type in LAYER_TYPES.values()]
        self.by_name = {layer.name: layer for layer in self.layers}
        for layer in self.layers:
            if layer.item_names is None or has_data:
                self.create(layer)
        self.tiers = {tier: [layer for layer in self.layers if layer.redraw_on == tier]
                      for tier in ("data", "weights", "event")}

    def create(self, layer: Layer) -> Layer:
        """Make ``layer``'s items (once) and style them; returns the layer."""
        if layer.created:
            return layer
        layer.create(self._view_box)
        layer.changed = self._changed
        declared = layer.item_names
        if declared is not None and set(layer.items) != set(declared):
            raise RuntimeError(f"layer {layer.name!r} made items {sorted(layer.items)}, "
                               f"declared {sorted(declared)}")
        self._style(layer)
        return layer

    def drawn(self, layer: Layer, frame: Frame) -> bool:
        """Whether ``layer`` takes part in this redraw: made, or made now it is needed."""
        if layer.created:
            return True
        if not layer.needed(frame):
            return False
        self.create(layer)
        return True
