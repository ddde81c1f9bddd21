"""What every canvas layer is: the :class:`Layer` base class, the :class:`Frame` a
redraw reads, and the :class:`LegendEntry` a layer contributes to the legend."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from PySide6 import QtCore

from .....core.viewstate import LayerSwitch
from ..geometry import unit_normal
from ..legend import line_sample

__all__ = ["Frame", "Layer", "LegendEntry", "line_rows", "same_key"]


@dataclass(frozen=True)
class LegendEntry:
    """One row of the legend: a unique ``name`` (the cache key), its ``text``, and
    ``sample()``, which makes the curve or scatter drawn beside it."""

    name: str
    text: str
    sample: Callable[[], object]


def line_rows(*rows) -> list[LegendEntry]:
    """Legend rows drawn as lines, from ``(name, text, pen)`` (a false row: none)."""
    return [LegendEntry(name, text, lambda pen=pen: line_sample(pen))
            for name, text, pen in filter(None, rows)]


class Frame:
    """What one redraw of the canvas reads; its derived values are computed once, on first use.

    Parameters
    ----------
    view_range : ((x0, x1), (y0, y1))
        The visible rectangle in data coordinates.
    pixel_size : (float, float)
        Data size of one screen pixel along x and y.
    model_version : int
        Counts the workspace's learner changes.
    cursor : ndarray of shape (2,) or None, default=None
        The canvas cursor the keyboard moves (None: hidden).
    now : bool, default=False
        Draw everything before returning (``Canvas.refresh``): no worker.
    shaping : GaussianModel or None, default=None
        The model shaped by hand, drawn instead of the learner's.
    """

    def __init__(self, workspace, switches, view_range, pixel_size, model_version: int,
                 selection, active_class: int = 1, hovered: int | None = None, cursor=None,
                 now: bool = False, shaping=None):
        self.workspace = workspace
        self.switches = switches
        (x0, x1), (y0, y1) = view_range
        self.view = (float(x0), float(x1), float(y0), float(y1))
        self.pixel_size = (float(pixel_size[0]), float(pixel_size[1]))
        self.model_version = model_version
        self.selection = selection
        self.active_class = active_class
        self.hovered = hovered
        self.cursor = cursor
        self.now = now
        self.shaping = shaping

    def clip_rect(self, grow: float = 1.0):
        """The view grown by ``grow`` times its size on every side: ``(x0, x1, y0, y1)``."""
        x0, x1, y0, y1 = self.view
        w, h = x1 - x0, y1 - y0
        return (x0 - grow * w, x1 + grow * w, y0 - grow * h, y1 + grow * h)

    @cached_property
    def rect(self):
        """Where lines and bands are clipped: a margin of one view size around the view."""
        return self.clip_rect()

    @cached_property
    def weights_key(self) -> tuple:
        """Everything the weight-dependent layers depend on (objects compared by identity)."""
        ws = self.workspace
        learner = ws.learner
        return (ws.dataset, learner, int(learner.n_updates_) if ws.running else -1,
                (*self.view, *self.pixel_size), tuple(self.switches.values()),
                self.model_version, self.shaping)

    @cached_property
    def readouts(self):
        """The workspace's readouts, or None without data."""
        ws = self.workspace
        return ws.readouts() if ws.dataset.n else None

    @cached_property
    def weights(self):
        """``(w, b)``: the linear model drawn (``Workspace.weights``), or None."""
        ws = self.workspace
        return ws.weights() if ws.dataset.n else None

    @cached_property
    def hyperplane(self):
        """``(n, offset)``: the current hyperplane's unit normal and offset, or None."""
        wb = self.weights
        return None if wb is None else unit_normal(wb[0], wb[1])


def _ignore(*_args) -> None:
    """Until the canvas sets a layer's ``changed`` and ``issue``."""


def same_key(old, new) -> bool:
    """Whether two cache keys are equal: objects by identity, numbers and strings by value."""
    if old is None or new is None or len(old) != len(new):
        return False
    return all(a is b or (isinstance(a, (int, float, str, bytes, tuple)) and a == b)
               for a, b in zip(old, new, strict=True))


class Layer:
    """One thing the canvas draws: items made once in :meth:`create`, then only moved,
    re-shaped, restyled or hidden; its pen, its legend entry, its cache key.

    Attributes
    ----------
    switches : tuple of str or LayerSwitch
        The switches this layer obeys: the name of one the core declares
        (:data:`~perceptron_gui.core.viewstate.LAYER_SWITCHES`), or a
        :class:`~perceptron_gui.core.viewstate.LayerSwitch` this layer brings
        and withdraws with it.
    redraw_on : {"data", "weights", "event"}
        When the canvas calls :meth:`update`: when the data set changed; when
        :attr:`Frame.weights_key` and then :meth:`cache_key` changed; or at
        every redraw (the examined sample of each step).
    item_names : tuple of str or None
        The items of a layer made only once it is :meth:`needed` (by default,
        with data) or asked for; None: made with the canvas.
    items : dict of str to QGraphicsItem
        The items made by :meth:`add`, by name.
    changed : callable
        Set by the canvas: a worker's result changed what the layer shows.
    caption_words : dict of str to tuple of str
        The words a demo's caption may use for what this layer draws, with the
        names of the items that draw them (:func:`~.caption_words`).
    issue : callable
        Set by the canvas: ``issue(command)`` has the window dispatch a command.
    """

    name: ClassVar[str] = ""
    switches: ClassVar[tuple[str | LayerSwitch, ...]] = ()
    redraw_on: ClassVar[str] = "weights"
    item_names: ClassVar[tuple[str, ...] | None] = None
    caption_words: ClassVar[dict[str, tuple[str, ...]]] = {}
    _job = None  # a layer computing in a worker sets its NewestJob here
    mode: str = "markers"  # a layer that switches to a raster at large n: "markers" or "raster"
    mixed: bool = False  # in raster mode, whether some pixel holds points of both classes

    @property
    def created(self) -> bool:
        """Whether :meth:`create` has made the layer's items."""
        return self._view_box is not None

    def __init__(self):
        self.items: dict[str, object] = {}
        self._view_box = None
        self.changed: Callable[[], None] = _ignore
        self.issue: Callable[[object], None] = _ignore
        self._drawn = False

    def attach(self, view_box) -> None:
        """Make the layer's items in ``view_box`` with :meth:`create` (the registry's call)."""
        self._view_box = view_box
        self.create(view_box)

    def create(self, view_box) -> None:
        """Make the layer's items once and add them to ``view_box`` (with :meth:`add`)."""

    def add(self, name: str | None, item, z: float, *, visible: bool = False,
            passive: bool = True, pixels: bool = False):
        """Add ``item`` at depth ``z`` (``passive``: no mouse button; ``pixels``: in the view
        box's pixels, neither panned nor zoomed)."""
        item.setZValue(z)
        if passive:
            item.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        if pixels:
            item.setParentItem(self._view_box)
        else:
            self._view_box.addItem(item, ignoreBounds=True)
        if not visible:
            item.setVisible(False)
        if name is not None:
            self.items[name] = item
        return item

    def apply_scale(self, scale) -> None:
        """Restyle the items for ``scale`` (marker sizes, line widths, fonts)."""

    def cache_key(self, frame: Frame) -> tuple | None:
        """The state the drawing depends on but the style; None redraws at every call."""
        return None

    def update(self, frame: Frame) -> None:
        """Redraw from ``frame`` (show, move, re-shape or hide the items)."""

    def finish(self) -> None:
        """Draw now what a worker is still computing (``Canvas.refresh`` waits for nothing)."""
        if self._job is not None:
            self._job.finish()

    def hold_work(self) -> None:
        """Leave what this layer computes in workers to its owner (:meth:`take_work`)."""
        if self._job is not None:
            self._job.held = True

    def take_work(self):
        """What the layer waits for, ``(func, args, apply)``, or None (after :meth:`hold_work`)."""
        return None if self._job is None else self._job.take()

    @property
    def pending(self) -> bool:
        """True while a newer picture than the one shown is being computed."""
        return self._job is not None and self._job.pending

    def needed(self, frame: Frame) -> bool:
        """Whether a layer with :attr:`item_names` is made for ``frame`` (default: with data)."""
        return bool(frame.workspace.dataset.n)

    def legend_entries(self, frame: Frame) -> list[LegendEntry]:
        """The legend rows of this layer for ``frame`` (by the learner, switches, what it shows)."""
        return []

    def pointer_left(self) -> None:
        """The pointer left the canvas: forget what was shown under it."""

    def keep_in_view(self, frame: Frame):
        """Data points a fitted view keeps in sight (shape (n, 2)), or None."""
        return None

    def keep_clear(self, frame: Frame):
        """Data points the legend avoids as it avoids the data's (shape (n, 2)), or None."""
        return None

    def showing(self, frame: Frame) -> bool:
        """Whether the layer draws something for ``frame`` (its legend rows are then listed)."""
        if self.redraw_on == "event":
            return frame.workspace.running
        return any(item.isVisible() for item in self.items.values())

    def drawing(self, on: bool) -> bool:
        """Return ``on``; hide the items once when the layer stops drawing (not at every
        redraw of an "event" layer)."""
        if not on and self._drawn:
            self.hide()
        self._drawn = on
        return on

    def set_mode(self, mode: str, mixed: bool = False) -> None:
        """Draw as ``mode`` from now on; the legend follows a change."""
        if (mode, mixed) != (self.mode, self.mixed):
            self.mode, self.mixed = mode, mixed
            self.changed()

    def hide(self, *names: str) -> None:
        """Hide the named items (all of the layer's items without names)."""
        for name in names or tuple(self.items):
            self.items[name].setVisible(False)
