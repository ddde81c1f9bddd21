"""The views area beside the canvas: one tab per registered view, following the registry."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from .. import style
from . import VIEW_TYPES, registry_changed
from .base import View

__all__ = ["ViewsArea"]


class ViewsArea(QtWidgets.QTabWidget):
    """A tab per registered view, in the registry's order (objectName ``views``)."""

    #: Every command a view issued (:attr:`View.commandIssued`); the window dispatches it.
    commandIssued = QtCore.Signal(object)

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("views")
        self.setDocumentMode(True)
        self._workspace = workspace
        self._views: dict[str, View] = {}
        self._scale = style.NORMAL
        self.sync()
        registry_changed.connect(self.sync)

    def views(self) -> dict[str, View]:
        """The views shown, by name, in tab order."""
        return dict(self._views)

    def view(self, name: str) -> View:
        """The view named ``name`` (KeyError when it is not shown)."""
        return self._views[name]

    @property
    def scale(self) -> style.Scale:
        """The sizes the views draw with (a view added later takes them too)."""
        return self._scale

    def set_scale(self, scale: style.Scale) -> None:
        """Every view draws with ``scale`` (presenter mode)."""
        self._scale = scale
        for view in self._views.values():
            view.set_scale(scale)

    def sync(self, *_name) -> None:
        """Make the tabs those of the registry: new views added, removed ones dropped."""
        for name in [n for n, v in self._views.items() if VIEW_TYPES.get(n) is not type(v)]:
            view = self._views.pop(name)
            self.removeTab(self.indexOf(view))
            view.deleteLater()
        for name, cls in VIEW_TYPES.items():
            if name not in self._views:
                view = cls(self._workspace)
                if self._scale is not view.scale:
                    view.set_scale(self._scale)
                self._views[name] = view
                view.commandIssued.connect(self.commandIssued)
                self.addTab(view, cls.title)
