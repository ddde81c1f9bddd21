"""The canvas's editing tool: hit-testing, selection and drag state, without Qt.

Gestures become *edits* (``emit(edit)``; the window's undo stack applies them),
never mutations, so the tests drive it with plain numbers.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ....core.class_edits import class_text
from ....core.dataset import (
    AddPoints,
    Dataset,
    DeletePoints,
    Edit,
    FlipLabels,
    MovePoints,
    Relabel,
)
from ....core.signal import signal
from ....core.text import fmt_count
from .. import signed

__all__ = ["BIG_STEP_PX", "EditTool", "HIT_RADIUS_PX", "HELP_TEXT", "KEYS", "STEP_PX", "hint_text"]

#: How close (in screen pixels) the cursor must be to a point to grab it.
HIT_RADIUS_PX = 8.0

#: How far one arrow key moves the canvas cursor, in screen pixels (Shift: :data:`BIG_STEP_PX`).
STEP_PX = 4.0
BIG_STEP_PX = 32.0

#: The canvas's keys: ``(keys, what they do)``, in the order Help lists them.  The arrow
#: keys, Tab and A/Insert act while the canvas cursor is shown (C); otherwise the arrows
#: are the window's (previous / next step).
KEYS = (
    ("C", "show or hide the canvas cursor (a crosshair)"),
    ("Arrow keys", "move the canvas cursor, or the selected points with it (Shift: 8× farther)"),
    ("A or Insert", "add a point of the active class at the canvas cursor"),
    ("Shift+A or Shift+Insert", "add a point of the other class at the canvas cursor"),
    ("Tab", "select the point nearest to the canvas cursor (again: the next nearest)"),
    ("Delete or Backspace", "delete the selection, else the point under the (canvas) cursor"),
    ("Esc", "cancel a drag, else clear the selection, else hide the canvas cursor"),
    ("1 or +  /  2 or −  /  T", "active class +1 / −1 / toggle (more classes: 1 to 8 / the next)"),
)


#: The gestures in one tooltip (the canvas shows it).
HELP_TEXT = (
    "Left click: add a point of the active class · Right click: add a point of the other class\n"
    "Click a point: select it (Ctrl/Shift-click: several) · Right-click a point: flip its class\n"
    "Drag a point: move it · Drag empty space or middle-drag: pan · Wheel: zoom\n"
    "Delete/Backspace: delete the selection or the point under the cursor · Esc: clear selection\n"
    "Keys 1 or +: active class +1 · 2 or −: active class −1 (more classes: 1 to 8, and right "
    "click adds the next) · T: the next class\n"
    "Keyboard: C shows a cursor · arrows move it (or the selection) · A/Insert: add a point "
    "there (Shift: other class) · Tab: select the nearest point"
)

def hint_text(problem, active_class: int = 1, missing: int = -1,
              learner=None, dataset=None) -> str | None:
    """What the canvas says about a data problem (:attr:`Workspace.problem_kind`), or None;
    ``missing``: the class without points, ``learner``: the spec whose minimum is said,
    ``dataset``: data of more than two classes, whose classes are named and keyed."""
    kind = getattr(problem, "name", None)
    if dataset is not None and not dataset.is_binary:
        many = _hint_of_many(kind, active_class, dataset)
        if many is not None:
            return many
    if kind == "NO_POINTS":
        return (f"Click to add a point of class {signed(active_class)} · right-click for "
                f"class {signed(-active_class)}\nor File ▸ Generate synthetic data / Demos")
    if kind == "ONE_CLASS":
        how = "Click" if missing == active_class else "Right-click"
        return f"{how} to add a point of class {signed(missing)}: the learner needs both classes"
    if kind == "LDA_TOO_FEW":
        if learner is None:
            return "The learner needs more points: click to add more"
        return (f"{learner.display_name} needs at least {fmt_count(learner.min_points)} points: "
                "click to add more")
    return None


def _hint_of_many(kind, active_class: int, dataset) -> str | None:
    """:func:`hint_text` with 3 to 8 classes, each by its name and its key."""
    listed = dataset.listed_classes

    def named(c) -> str:
        return f"{class_text(dataset, c)} (key {listed.index(c) + 1})"

    if kind == "NO_POINTS":
        return (f"Click to add a point of class {named(active_class)} · right-click for the "
                "next class\nor File ▸ Open real data set / Demos")
    if kind in ("ONE_CLASS", "EMPTY_CLASS"):
        counts = dict(zip(dataset.classes, dataset.class_counts(), strict=True))
        empty = [c for c in listed if not counts[c]]
        return f"Choose class {named(empty[0])} and click: every class needs points"
    return None


_ARROWS = {"left": (-1.0, 0.0), "right": (1.0, 0.0), "up": (0.0, 1.0), "down": (0.0, -1.0)}

#: The keys of the two classes of a binary problem (with more classes, "1" to "8" by place).
_KEY_CLASS = {"+": 1, "-": -1, "\u2212": -1}


class EditTool:
    """Turns pointer and key gestures, in data coordinates, into data-set edits.

    ``dataset`` is the one last announced, ``selection`` the sorted indices selected,
    ``cursor`` the keyboard's canvas cursor (None: hidden).

    Notes
    -----
    A drag emits one ``MovePoints`` per move, with the same indices and *absolute*
    targets ``X_start + (p - p_start)``: the undo stack merges them into one step
    and a dropped event loses nothing.
    """

    def __init__(self, emit: Callable[[Edit], object], hit_radius_px: float = HIT_RADIUS_PX):
        self.emit = emit
        self.hit_radius_px = float(hit_radius_px)
        self.dataset = Dataset()
        self._xs = None
        self._active = 1
        self.selection = np.empty(0, np.int64)
        self.active_class_changed = signal(object, name="active_class_changed")
        self.selection_changed = signal(object, name="selection_changed")
        self.drag_finished = signal(name="drag_finished")
        self.cursor_changed = signal(object, name="cursor_changed")
        self.cursor: np.ndarray | None = None
        self._drag: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._key_move: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._tab_order: tuple | None = None  # (cursor, order) of the last Tab

    @property
    def active_class(self) -> int:
        """The class (a label of the data set's) a left click adds."""
        return self._active

    @active_class.setter
    def active_class(self, value: int) -> None:
        value = int(value)
        if value not in self.dataset.classes:
            if self.dataset.is_binary:
                raise ValueError(f"active class must be +1 or -1; got {value!r}")
            raise ValueError(f"active class must be one of the classes "
                             f"{', '.join(map(str, self.dataset.classes))}; got {value!r}")
        if value != self._active:
            self._active = value
            self.active_class_changed.emit(value)

    def next_class(self, label: int) -> int:
        """The class listed after ``label`` (the first after the last): what a right click
        adds, T chooses and a right click on a point gives; binary: the other class."""
        listed = self.dataset.listed_classes
        return listed[(listed.index(label) + 1) % len(listed)]

    @property
    def dragging(self) -> bool:
        """True while a drag that grabbed points is under way."""
        return self._drag is not None

    def set_dataset(self, dataset: Dataset) -> None:
        """Take the announced data set; a selection survives moves, not a change of size."""
        old_n, old_classes = self.dataset.n, self.dataset.classes
        self.dataset = dataset
        self._xs = None  # the x column, contiguous, made by the first hit-test
        if dataset.classes != old_classes or self._active not in dataset.classes:
            self.active_class = dataset.listed_classes[0]  # other classes: the first listed
        if dataset.n != old_n:
            if self._drag is not None and np.any(self._drag[0] >= dataset.n):
                self._drag = None
            if self._key_move is not None:
                self.key_move_end()
            self._tab_order = None
            self.set_selection([])

    def set_selection(self, indices) -> None:
        """Select exactly ``indices`` (out-of-range indices are dropped)."""
        sel = np.unique(np.asarray(indices, dtype=np.int64).reshape(-1))
        sel = sel[(sel >= 0) & (sel < self.dataset.n)]
        if not np.array_equal(sel, self.selection):
            self.selection = sel
            self.selection_changed.emit(sel)

    def hit(self, pos, pixel_size) -> int | None:
        """The point nearest to ``pos`` on screen within the grab radius (on a tie the highest
        index, drawn on top), or None."""
        X = self.dataset.X
        if X.shape[0] == 0:
            return None
        sx, sy = (float(v) for v in pixel_size)
        px, py = (float(v) for v in pos)
        if not (np.isfinite([sx, sy, px, py]).all() and sx > 0 and sy > 0):
            return None
        if self._xs is None:
            self._xs = np.ascontiguousarray(X[:, 0])
        with np.errstate(over="ignore", invalid="ignore"):
            # the points in the column of the grab radius, then their exact distances
            dx = self._xs - px
            np.abs(dx, out=dx)
            near = np.flatnonzero(dx <= self.hit_radius_px * sx * (1 + 1e-9))
            P = X[near]
            d2 = ((P[:, 0] - px) / sx) ** 2 + ((P[:, 1] - py) / sy) ** 2
        if near.size == 0:
            return None
        d2 = np.where(np.isfinite(d2), d2, np.inf)
        best = d2.min()
        if not best <= self.hit_radius_px**2:
            return None
        return int(near[np.flatnonzero(d2 == best)[-1]])

    def click(self, button: str, pos, pixel_size, modifiers=()) -> bool:
        """A click at ``pos`` with "left", "right" or "middle"; True when handled ("ctrl" or
        "shift" in ``modifiers``: a left click on a point toggles it in the selection)."""
        if button not in ("left", "right"):
            return False
        if not np.isfinite(np.asarray(pos, dtype=np.float64)).all():
            return True
        i = self.hit(pos, pixel_size)
        if i is None:
            label = self._active if button == "left" else self.next_class(self._active)
            self.emit(AddPoints(np.array([pos], dtype=np.float64), label))
            return True
        if button == "right":
            if self.dataset.is_binary:
                self.emit(FlipLabels(np.array([i])))
            else:
                self.emit(Relabel(np.array([i]), self.next_class(int(self.dataset.y[i]))))
            return True
        if {"ctrl", "shift"} & set(modifiers):
            if i in self.selection:
                self.set_selection(self.selection[self.selection != i])
            else:
                self.set_selection(np.append(self.selection, i))
        else:
            self.set_selection([i])
        return True

    def drag_start(self, pos, pixel_size) -> bool:
        """A left drag begins at ``pos``; True (claimed) on a point, which moves alone unless
        selected (then the selection moves)."""
        i = self.hit(pos, pixel_size)
        if i is None:
            return False
        indices = self.selection if i in self.selection else np.array([i], np.int64)
        start = self.dataset.X[indices].copy()
        self._drag = (indices.copy(), start, np.asarray(pos, dtype=np.float64).copy())
        return True

    def drag_move(self, pos) -> None:
        """The pointer moved to ``pos`` during a claimed drag: emit the move."""
        if self._drag is None:
            return
        indices, start, p0 = self._drag
        target = start + (np.asarray(pos, dtype=np.float64) - p0)
        if np.isfinite(target).all() and not np.array_equal(target, self.dataset.X[indices]):
            self.emit(MovePoints(indices, target))

    def drag_finish(self, pos) -> None:
        """The button was released at ``pos``: the last move, then ``drag_finished``."""
        if self._drag is None:
            return
        self.drag_move(pos)
        self._drag = None
        self.drag_finished.emit()

    def drag_cancel(self) -> None:
        """Abandon the drag: the points go back to where it started."""
        if self._drag is None:
            return
        indices, start, _ = self._drag
        self._drag = None
        if indices.size and np.all(indices < self.dataset.n):
            if not np.array_equal(start, self.dataset.X[indices]):
                self.emit(MovePoints(indices, start))
        self.drag_finished.emit()

    def set_cursor(self, pos) -> None:
        """Show the canvas cursor at ``pos`` (data coordinates), or hide it (None)."""
        new = None if pos is None else np.asarray(pos, dtype=np.float64).reshape(2).copy()
        if new is not None and not np.isfinite(new).all():
            return
        old = self.cursor
        if (old is None) != (new is None) or (new is not None and not np.array_equal(old, new)):
            self.cursor = new
            self.cursor_changed.emit(new)

    def key_move_end(self) -> None:
        """End a burst of arrow keys on a selection (the undo stack's move is complete)."""
        if self._key_move is not None:
            self._key_move = None
            self.drag_finished.emit()

    def _arrow(self, direction, pixel_size, big: bool, view) -> bool:
        if self.cursor is None or pixel_size is None or self._drag is not None:
            return False
        step = (BIG_STEP_PX if big else STEP_PX) * np.asarray(pixel_size, dtype=np.float64)
        delta = np.asarray(direction, dtype=np.float64) * step
        if not np.isfinite(delta).all():
            return True
        if self.selection.size:
            if self._key_move is None:
                indices = self.selection.copy()
                self._key_move = (indices, self.dataset.X[indices].copy(), np.zeros(2))
            indices, start, moved = self._key_move
            moved += delta
            self.emit(MovePoints(indices, start + moved))
            self.set_cursor(self.cursor + delta)
        else:
            target = self.cursor + delta
            if view is not None:
                x0, x1, y0, y1 = view
                target = np.clip(target, [x0, y0], [x1, y1])
            self.set_cursor(target)
        return True

    def _select_nearest(self) -> bool:
        """Select the point nearest to the cursor; again (cursor unmoved): the next nearest."""
        X = self.dataset.X
        if self.cursor is None or X.shape[0] == 0:
            return False
        last = self._tab_order
        if last is not None and np.array_equal(last[0], self.cursor) and len(last[1]) == X.shape[0]:
            order = last[1]
            current = self.selection[0] if self.selection.size == 1 else None
            at = 0 if current is None else int(np.flatnonzero(order == current)[0]) + 1
            pick = order[at % len(order)]
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                d2 = ((X - self.cursor) ** 2).sum(axis=1)
            order = np.argsort(np.where(np.isfinite(d2), d2, np.inf), kind="stable")
            self._tab_order = (self.cursor.copy(), order)
            pick = order[0]
        self.set_selection([int(pick)])
        return True

    def key(self, key: str, pos=None, pixel_size=None, modifiers=(), view=None) -> bool:
        """A key press (``pos``: the pointer, or None; ``view`` keeps the cursor in); True when
        handled.  ``key``: "delete", "escape", "toggle", "1", "+", "2", "-", "t" or a cursor key."""
        if key != "escape" and key not in _ARROWS:
            self.key_move_end()
        if key == "cursor":
            if self.cursor is not None:
                self.set_cursor(None)
            elif view is not None:
                x0, x1, y0, y1 = view
                self.set_cursor(pos if pos is not None else ((x0 + x1) / 2, (y0 + y1) / 2))
            return True
        if key in _ARROWS:
            return self._arrow(_ARROWS[key], pixel_size, "shift" in modifiers, view)
        if key == "add":
            if self.cursor is None:
                return False
            label = self.next_class(self._active) if "shift" in modifiers else self._active
            self.emit(AddPoints(self.cursor.reshape(1, 2).copy(), label))
            return True
        if key == "nearest":
            return self._select_nearest()
        listed = self.dataset.listed_classes
        if key.isdigit() and 1 <= int(key) <= len(listed):
            self.active_class = listed[int(key) - 1]
            return True
        if (key in _KEY_CLASS and self.dataset.is_binary) or key in ("toggle", "t", "T"):
            self.active_class = _KEY_CLASS.get(key, self.next_class(self._active))
            return True
        if key == "escape":
            self.key_move_end()
            if self._drag is not None:
                self.drag_cancel()
            elif self.selection.size:
                self.set_selection([])
            elif self.cursor is not None:
                self.set_cursor(None)
            else:
                return False
            return True
        if key == "delete":
            if self._drag is not None:
                return True  # never delete points that are being dragged
            if self.selection.size:
                indices = self.selection.copy()
            else:
                i = None
                for where in (pos, self.cursor):  # the pointer's point, else the canvas cursor's
                    if i is None and where is not None and pixel_size is not None:
                        i = self.hit(where, pixel_size)
                if i is None:
                    return False
                indices = np.array([i], np.int64)
            self.set_selection([])
            self.emit(DeletePoints(indices))
            return True
        return False
