"""The window's side of the view state: the canvas, the View menu and the views follow it.

Both ways and without feedback: a rectangle set elsewhere (a file, a demo) goes to
the canvas, whose aspect ratio then gives the rectangle really shown.
"""

from __future__ import annotations

from PySide6 import QtCore

from .widgets import Guard

__all__ = ["ViewStateSync"]


class ViewStateSync(QtCore.QObject):
    """Keeps ``window``'s canvas, View menu (``layer_actions``) and views in its view state."""

    def __init__(self, window, layer_actions: dict):
        super().__init__(window)
        self.setObjectName("viewStateSync")
        self._window = window
        self._state = window.view_state
        self._actions = dict(layer_actions)
        self._echo = Guard()  # the canvas's own range is being written to the view state
        for key, act in self._actions.items():
            act.setChecked(self._state.layer(key))
        window.canvas.sigRangeChanged.connect(self.canvas_moved)
        self._state.events.layers_changed.connect(self._layers_changed)
        self._state.events.rect_changed.connect(self._rect_changed)
        self._state.events.views_changed.connect(window.show_views)

    def _layers_changed(self, changed: dict) -> None:
        for key, on in changed.items():
            act = self._actions.get(key)
            if act is not None and act.isChecked() != on:
                with QtCore.QSignalBlocker(act):
                    act.setChecked(on)

    def canvas_moved(self, *_args) -> None:
        """The canvas shows another range: the view state's rectangle becomes it."""
        (x0, x1), (y0, y1) = self._window.canvas.view_rect()
        with self._echo:
            try:
                self._state.set_rect((x0, x1, y0, y1))
            except ValueError:  # no finite rectangle (points near ±1.8e308): not known
                self._state.set_rect(None)

    def _rect_changed(self, rect) -> None:
        if self._echo:
            return
        canvas = self._window.canvas
        if rect is None:
            canvas.fit_view()
        else:
            x0, x1, y0, y1 = rect
            canvas.set_view_rect((x0, x1), (y0, y1))
        self.canvas_moved()  # what the canvas shows, its aspect ratio kept
