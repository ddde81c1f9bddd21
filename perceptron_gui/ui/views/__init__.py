"""The views beside the canvas: one file (or package) each, in one registry.

:data:`VIEW_TYPES` maps a view's name to its :class:`~.base.View` subclass, in
tab order.  The window's views area (:class:`~.area.ViewsArea`) makes one tab
per entry, presenter mode scales them and the colour scheme restyles them by
walking the area, so a new view is one file and one call of
:func:`register_view` (docs/architecture.md, "A view").  A window
already open follows the registry: registering adds a tab, unregistering
removes it.
"""

from __future__ import annotations

from ...core.registry import Registry
from .base import View
from .losses import LossView
from .plots import LivePlots
from .weights import WeightSpaceView

__all__ = ["VIEW_TYPES", "View", "register_view", "registry_changed", "unregister_view"]


def _check(cls) -> None:
    if not (isinstance(cls, type) and issubclass(cls, View)):
        raise TypeError(f"{cls!r} is not a View subclass")


#: View name -> its class, in tab order.
VIEW_TYPES: Registry[type[View]] = Registry("view", lambda cls: cls.name, _check)
for _cls in (LivePlots, LossView, WeightSpaceView):
    VIEW_TYPES.register(_cls)

#: Emitted with the name after :data:`VIEW_TYPES` changed.
registry_changed = VIEW_TYPES.changed
#: ``register_view(cls)`` adds a :class:`View` subclass as the last tab and returns it
#: (it can decorate the class); ``unregister_view(name)`` removes one.
register_view, unregister_view = VIEW_TYPES.register, VIEW_TYPES.unregister
