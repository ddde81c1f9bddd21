"""The canvas's layers by name and by tier, each made when it is first needed."""

from __future__ import annotations

from collections.abc import Callable

from .layers import LAYER_TYPES, Frame, Layer

__all__ = ["LayerRegistry"]


class LayerRegistry:
    """Every layer of a canvas; one with ``item_names`` is made when first needed or asked for
    (``changed``, ``issue``: each layer's callbacks; ``style(layer)`` styles a late one)."""

    def __init__(self, view_box, has_data: bool, changed: Callable, issue: Callable,
                 style: Callable):
        self._view_box = view_box
        self._changed, self._issue, self._style = changed, issue, style
        self.layers: list[Layer] = [layer_type() for layer_type in LAYER_TYPES.values()]
        self.by_name = {layer.name: layer for layer in self.layers}
        for layer in self.layers:
            if layer.item_names is None or has_data:
                self.create(layer)

    def get(self, name: str) -> Layer:
        """The layer ``name``, made if it was not (an unknown name: KeyError)."""
        layer = self.by_name.get(name)
        if layer is None:
            raise KeyError(f"unknown layer {name!r}; known: {sorted(self.by_name)}")
        return self.create(layer)

    def create(self, layer: Layer) -> Layer:
        """Make ``layer``'s items (once) and style them; returns the layer."""
        if layer.created:
            return layer
        layer.attach(self._view_box)
        layer.changed, layer.issue = self._changed, self._issue
        declared = layer.item_names
        if declared is not None and set(layer.items) != set(declared):
            raise RuntimeError(f"layer {layer.name!r} made items {sorted(layer.items)}, "
                               f"declared {sorted(declared)}")
        self._style(layer)
        return layer

    def drawn(self, tier: str, frame: Frame) -> list[Layer]:
        """The layers of ``tier`` in this redraw: made, or made now they are needed."""
        for layer in self.layers:
            if layer.redraw_on == tier and not layer.created and layer.needed(frame):
                self.create(layer)
        return [layer for layer in self.layers if layer.redraw_on == tier and layer.created]
