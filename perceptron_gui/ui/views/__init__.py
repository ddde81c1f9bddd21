"""The views beside the canvas: one file (or package) each, in one registry (:data:`VIEW_TYPES`).

The window's views area makes one tab per entry (docs/architecture.md, "A view").
"""

from __future__ import annotations

from ...core.registry import Registry
from .base import View
from .losses import LossView
from .plots import LivePlots
from .weights import WeightSpaceView

__all__ = ["VIEW_TYPES", "View", "register_view", "registry_changed", "unregister_view"]


#: View name -> its class, in tab order.
VIEW_TYPES: Registry[type[View]] = Registry.of_subclasses("view", View)
for _cls in (LivePlots, LossView, WeightSpaceView):
    VIEW_TYPES.register(_cls)

#: Emitted with the name after :data:`VIEW_TYPES` changed.
registry_changed = VIEW_TYPES.changed
#: ``register_view(cls)`` adds a :class:`View` subclass as the last tab and returns it
#: (it can decorate the class); ``unregister_view(name)`` removes one.
register_view, unregister_view = VIEW_TYPES.register, VIEW_TYPES.unregister
