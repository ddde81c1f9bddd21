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


def register_view(cls: type[View]) -> type[View]:
    """Add the view ``cls`` as the last tab; returns ``cls``, so it can decorate the class.

    Raises ValueError when the name is empty or taken by another class.
    """
    return VIEW_TYPES.register(cls)


def unregister_view(name: str) -> None:
    """Remove the view named ``name`` (KeyError if there is none)."""
    VIEW_TYPES.unregister(name)
