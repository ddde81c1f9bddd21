"""The views area beside the canvas: one tab per registered view, following the registry.

A tab's view is built when the tab is first shown or the view is asked for, so a
window pays at start only for the view in front, and nothing while the area is hidden.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from .. import style
from ..widgets import Guard
from . import VIEW_TYPES, registry_changed
from .base import View

__all__ = ["ViewsArea"]


class _Unbuilt(QtWidgets.QWidget):
    """The empty page of a tab whose view of type ``kind`` is not built yet."""

    def __init__(self, kind: type[View]):
        super().__init__(objectName=f"{kind.name}Unbuilt")
        self.kind = kind


class ViewsArea(QtWidgets.QTabWidget):
    """A tab per registered view, in the registry's order (objectName ``views``)."""

    #: Every command a view issued (:attr:`View.commandIssued`); the window dispatches it.
    commandIssued = QtCore.Signal(object)

    def __init__(self, workspace, parent=None):
        super().__init__(parent)
        self.setObjectName("views")
        self.setDocumentMode(True)
        self._workspace = workspace
        self._pages: dict[str, View | _Unbuilt] = {}
        self._scale = style.NORMAL
        self._syncing = Guard()  # tabs come and go: build the one in front after
        self.currentChanged.connect(self._build_current)
        self.sync()
        registry_changed.connect(self.sync)

    def names(self) -> list[str]:
        """The names of the tabs, in order."""
        return list(self._pages)

    def views(self) -> dict[str, View]:
        """The views built so far, by name, in tab order."""
        return {n: p for n, p in self._pages.items() if isinstance(p, View)}

    def view(self, name: str) -> View:
        """The view named ``name``, built now if it was not (KeyError when it is no tab)."""
        page = self._pages[name]
        return page if isinstance(page, View) else self._build(name)

    @property
    def scale(self) -> style.Scale:
        """The sizes the views draw with (a view built later takes them too)."""
        return self._scale

    def set_scale(self, scale: style.Scale) -> None:
        """Every view draws with ``scale`` (presenter mode)."""
        self._scale = scale
        for view in self.views().values():
            view.set_scale(scale)

    def sync(self, *_name) -> None:
        """Make the tabs those of the registry: new views added, removed ones dropped."""
        with self._syncing:
            for name in [n for n, p in self._pages.items() if VIEW_TYPES.get(n) is not (
                    p.kind if isinstance(p, _Unbuilt) else type(p))]:
                page = self._pages.pop(name)
                self.removeTab(self.indexOf(page))
                page.deleteLater()
            for name, cls in VIEW_TYPES.items():
                if name not in self._pages:
                    self._pages[name] = page = _Unbuilt(cls)
                    self.addTab(page, cls.title)
        self._build_current()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._build_current()

    def _build_current(self, *_index) -> None:
        if self._syncing or not self.isVisible():  # hidden: built when it shows
            return
        name = next((n for n, p in self._pages.items() if p is self.currentWidget()), None)
        if name is not None:
            self.view(name)

    def _build(self, name: str) -> View:
        """Make the view ``name`` and put it in its tab in place of the empty page."""
        page = self._pages[name]
        view = page.kind(self._workspace)
        if self._scale is not view.scale:
            view.set_scale(self._scale)
        view.commandIssued.connect(self.commandIssued)
        index, current = self.indexOf(page), self.currentIndex()
        with QtCore.QSignalBlocker(self):
            self.removeTab(index)
            self.insertTab(index, view, page.kind.title)
            self.setCurrentIndex(current)
        self._pages[name] = view
        page.deleteLater()
        return view
