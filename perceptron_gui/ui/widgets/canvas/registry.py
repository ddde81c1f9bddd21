"""The canvas's layers by name and by tier, each made when it is first needed."""

from __future__ import annotations

from collections.abc import Callable

from .layers import LAYER_TYPES, Frame, Layer

__all__ = ["LayerRegistry"]


class LayerRegistry:
    """Every layer of a canvas; a layer that declares its ``item_names`` is made lazily.

    Such a layer draws nothing without data: it is created (its items made,
    published and styled) by the first redraw with data, or when one of its
    items or the layer itself is asked for.  The others are created at once.

    Parameters
    ----------
    view_box : pyqtgraph.ViewBox
        Where the layers add their items.
    has_data : bool
        Whether the workspace has points now (then every layer is made at once).
    publish : callable
        ``publish(name, item)``: makes an item an attribute of the canvas.
    taken : callable
        ``taken(name) -> bool``: whether the canvas already has that attribute.
    changed : callable
        Given to each layer as its ``changed`` callback.
    style : callable
        ``style(layer)``: styles a layer made after the canvas was styled.

    Attributes
    ----------
    layers : list of Layer
        In the order of :data:`~.layers.LAYER_TYPES`.
    by_name : dict of str to Layer
    tiers : dict of str to list of Layer
        The layers by ``redraw_on``: "data", "weights", "event".
    """

    def __init__(self, view_box, has_data: bool, publish: Callable, taken: Callable,
                 changed: Callable, style: Callable):
        self._view_box = view_box
        self._publish, self._taken, self._changed, self._style = publish, taken, changed, style
        self.layers: list[Layer] = [layer_type() for layer_type in LAYER_TYPES]
        self.by_name = {layer.name: layer for layer in self.layers}
        self._lazy: dict[str, Layer] = {}  # item name -> its layer, not made yet
        for layer in self.layers:
            if layer.item_names is None or has_data:
                self.create(layer)
            else:
                for name in layer.item_names:
                    self._check(layer, name)
                    self._lazy[name] = layer
        self.tiers = {tier: [layer for layer in self.layers if layer.redraw_on == tier]
                      for tier in ("data", "weights", "event")}

    def _check(self, layer: Layer, name: str) -> None:
        if name in self._lazy or self._taken(name):
            raise RuntimeError(f"layer {layer.name!r}: item name {name!r} is taken")

    def owner(self, name: str) -> Layer | None:
        """The layer not made yet whose item is called ``name``, or None."""
        return self._lazy.get(name)

    def create(self, layer: Layer) -> Layer:
        """Make ``layer``'s items (once), publish them and style them; returns the layer."""
        if layer.created:
            return layer
        for name in layer.item_names or ():
            self._lazy.pop(name, None)
        layer.create(self._view_box)
        layer.changed = self._changed
        declared = layer.item_names
        if declared is not None and set(layer.items) != set(declared):
            raise RuntimeError(f"layer {layer.name!r} made items {sorted(layer.items)}, "
                               f"declared {sorted(declared)}")
        for name, item in layer.items.items():
            if declared is None:
                self._check(layer, name)
            self._publish(name, item)
        self._style(layer)
        return layer

    def drawn(self, layer: Layer, frame: Frame) -> bool:
        """Whether ``layer`` takes part in this redraw: made, or made now for data."""
        if layer.created:
            return True
        if not frame.workspace.dataset.n:
            return False  # it draws nothing without data: it is made with the first point
        self.create(layer)
        return True
