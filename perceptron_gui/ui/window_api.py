"""What a feature may use of the main window: :class:`WindowAPI`, five roles and the model.

Features use nothing else of the window (no ``getattr``, no ``findChild``):
``tests/ui/test_window_api_use.py`` and ``tests/ui/test_window_api.py`` check both sides.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # the protocol costs no import at run time
    from collections.abc import Callable

    from PySide6 import QtCore, QtGui, QtWidgets

    from ..core import Workspace
    from ..core.commands import Command
    from ..core.viewstate import ViewState
    from .actions import Actions
    from .class_actions import ClassActions
    from .modes import ModeManager
    from .playback import Playback
    from .widgets.side_panel import SidePanel

__all__ = ["ActionsAPI", "AutosaveAPI", "CanvasAPI", "DocumentAPI", "FilesAPI", "LayoutAPI",
           "MessagesAPI", "UndoAPI", "ViewsAPI", "WindowAPI", "action_id"]


def action_id(object_name: str) -> str:
    """The id of an action named ``object_name``: ``"actionStepBack"`` -> ``"step_back"``,
    ``"actionShow_regions"`` -> ``"show_regions"``."""
    name = object_name.removeprefix("action")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower().replace("__", "_")


@runtime_checkable
class CanvasAPI(Protocol):
    """The canvas's public view API, all a feature may use of ``window.canvas``."""

    def view_rect(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The visible data rectangle, ``((x0, x1), (y0, y1))``."""

    def set_view_rect(self, x_range, y_range, padding: float = 0.0) -> None:
        """Show exactly ``x_range`` by ``y_range``."""

    def fit_view(self) -> None:
        """Frame every point and the origin."""

    def refresh(self, finish: bool = True) -> None:
        """Redraw what changed now (``finish``: pictures computed in workers too)."""

    def set_visible_layers(self, **flags: bool) -> None:
        """Show or hide layers by name (``regions=False``)."""

    def layers(self) -> dict:
        """A copy of every layer's on/off state, ``{name: on}`` (what an export draws)."""

    def end_drag(self) -> None:
        """End a drag under way (its last move is applied)."""

    def axis_space(self) -> dict:
        """The pixels the axes take, ``{"left": w, "bottom": h}`` (an export copies them)."""

    def selection(self):
        """Sorted indices of the selected points (an ndarray of int)."""

    @property
    def selectionChanged(self) -> QtCore.SignalInstance:  # noqa: N802 (a Qt signal)
        """Emitted with the new selection when a click or a key selects points."""

    # -- from QWidget: presenter mode watches its size and holds its repaints ------------
    def installEventFilter(self, obj) -> None: ...  # noqa: N802, D102
    def viewport(self) -> QtWidgets.QWidget: ...  # noqa: D102


@runtime_checkable
class DocumentAPI(Protocol):
    """The open document (the File menu's manager): what other parts may use of it."""

    #: The workspace file shown, or None (never saved).
    path: str | None
    #: True: the window closes without asking about unsaved changes (scripts, tests).
    force_close: bool

    def is_dirty(self) -> bool:
        """Whether the document has changes not saved."""

    def window_title(self) -> str:
        """The window's title for the document (its name, ``*`` when unsaved)."""

    def sync_view(self) -> None:
        """Copy the canvas's view into the workspace (before it is written)."""

    def adopt(self, loaded, document: str | None = None, *, modified: bool = False) -> None:
        """Show a loaded workspace as the document ``document``."""

    def maybe_save(self, doing: str = "continuing"):
        """Ask to save unsaved changes before ``doing``; the job (result False: stop)."""

    def refused(self) -> bool:
        """True (with a status message) when a file job already runs."""

    def run(self, label: str, func, then, *, cancellable: bool = True, writes: bool = False):
        """Start a reader or writer in a worker behind a progress dialog; the job."""

    def open_path(self, path, *, ask: bool = True):
        """Open a workspace file (a delimited file is imported); the job (result: opened)."""

    def confirm_close(self, event: QtGui.QCloseEvent) -> bool:
        """The window closes: True lets it (else a question about unsaved changes opens)."""


@runtime_checkable
class ViewsAPI(Protocol):
    """The views area beside the canvas (``window.views``), a tab per registered view."""

    def views(self) -> dict:
        """The views shown, ``{name: view}``."""

    def view(self, name: str):
        """The view ``name``."""

    def set_scale(self, scale) -> None:
        """Presenter sizes (a ``style.Scale``) for every view."""


@runtime_checkable
class AutosaveAPI(Protocol):
    """The window's autosave (``window.autosave``): its slot, and whether it writes."""

    #: The folder of the slots, and this window's slot in it.
    directory: str
    stem: str
    #: False when the slot could not be claimed (nothing is written).
    enabled: bool
    #: True while a question is open: nothing is saved or removed.
    hold: bool
    #: Orphans restored into this window, deleted once this slot holds their work.
    adopted: list

    def schedule(self, *_args) -> None:
        """Note a change: save after the interval."""


class MessagesAPI(Protocol):
    """The window's messages: the status bar, and the one error sink."""

    def show_message(self, text: str, msecs: int = 8000) -> None:
        """An informational message in the status bar (never an error: :meth:`report_error`)."""

    def report_error(self, summary: str, detail: str | BaseException | None = None, *,
                     dialog: bool = True, msecs: int = 8000) -> None:
        """The one way an error reaches the user: a warning box, or the status bar."""

    @property
    def errorReported(self) -> QtCore.SignalInstance:  # noqa: N802 (a Qt signal)
        """Emitted with ``(summary, detail)`` by :meth:`report_error`."""

    def statusBar(self) -> QtWidgets.QStatusBar: ...  # noqa: N802, D102


class UndoAPI(Protocol):
    """Commands and edits: the one door, the undo stack, the guards, drags."""

    #: Every edit of the data, undoable.
    undo_stack: QtGui.QUndoStack
    #: ``guard(change) -> bool``, asked before an undoable change (a data edit, a
    #: ``SetWeights``) is pushed; any False cancels it.
    edit_guards: list[Callable[[Any], bool]]

    @property
    def commandDispatched(self) -> QtCore.SignalInstance:  # noqa: N802 (a Qt signal)
        """Emitted with each command :meth:`dispatch` carried out (a recorder listens)."""

    def dispatch(self, command: Command) -> bool:
        """Carry out ``command``, every intent's one door; False when it was refused."""

    def push_edit(self, edit) -> bool:
        """Validate an edit of the data and push it on the undo stack; False if refused."""

    @property
    def current_drag(self) -> int:
        """The serial number of the current drag (its moves merge into one undo step)."""

    @property
    def dragging(self) -> bool:
        """Whether the user is dragging points on the canvas."""

    @property
    def dragFinished(self) -> QtCore.SignalInstance:  # noqa: N802 (a Qt signal)
        """Emitted when a drag of points ended (its last move applied)."""

    def end_drag(self) -> None:
        """The drag ended: the next move starts a new undo step."""


class ActionsAPI(Protocol):
    """The actions by id (made from specs) and the modes that switch them."""

    #: Every action by id (``actions["quit"]``); a feature makes its own with
    #: ``actions.make(ActionSpec(...))``.
    actions: Actions
    #: The modes (presenter mode, a playing demo, the game …).
    modes: ModeManager
    #: The class list: an action per class (keys 1 to 8), add, rename, remove.
    classes: ClassActions

    def add_action(self, action_id: str, action: QtGui.QAction) -> QtGui.QAction:
        """Register an action Qt made (a dock's toggle) under ``action_id``; returns it."""

    @property
    def presenting(self) -> bool:
        """Whether presenter mode is on."""

    def addAction(self, action: QtGui.QAction) -> None: ...  # noqa: N802, D102


class LayoutAPI(Protocol):
    """The window's rooms: menus, docks, toolbars, the side panel, the views."""

    #: The menu bar's menus by key: file, edit, view, run, help.
    menus: dict[str, QtWidgets.QMenu]
    #: The docks by key (``side``; features add theirs).
    docks: dict[str, QtWidgets.QDockWidget]
    #: The toolbars by key: playback, edit; features add theirs (timeline).
    toolbars: dict[str, QtWidgets.QToolBar]
    #: The side panel: its folding sections by key (``side_panel.sections["learner"]``).
    side_panel: SidePanel
    views: ViewsAPI

    @property
    def scaled(self) -> list:
        """The parts besides the views that follow presenter sizes (``set_scale``)."""

    def set_views_visible(self, on: bool) -> None:
        """Show or hide the views beside the canvas."""

    def add_dock(self, key: str, dock: QtWidgets.QDockWidget,
                 area: QtCore.Qt.DockWidgetArea) -> QtWidgets.QDockWidget:
        """Add a feature's dock as :attr:`docks` ``[key]``."""

    def add_toolbar(self, toolbar: QtWidgets.QToolBar, area: QtCore.Qt.ToolBarArea, *,
                    new_row: bool = False, key: str | None = None) -> QtWidgets.QToolBar:
        """Add a feature's toolbar (``new_row``: in a row of its own; ``key``: its key)."""

    def add_status_widget(self, widget: QtWidgets.QWidget) -> None:
        """Add a feature's permanent widget to the status bar."""

    def add_menu(self, key: str, menu: QtWidgets.QMenu, before: str | None = None
                 ) -> QtWidgets.QMenu:
        """Add a feature's menu as :attr:`menus` ``[key]``, before ``menus[before]``."""

    def add_below_canvas(self, widget: QtWidgets.QWidget) -> QtWidgets.QWidget:
        """Put ``widget`` under the canvas; returns the area holding both."""

    def settle(self) -> None:
        """Bring every view up to date now, laid out (scripts, screenshots, exports)."""

    def menuBar(self) -> QtWidgets.QMenuBar: ...  # noqa: N802, D102


class FilesAPI(Protocol):
    """The document: its file, its title, its autosave."""

    files: DocumentAPI
    autosave: AutosaveAPI

    def update_title(self, *_args) -> None:
        """Set the window's title from the document."""


@runtime_checkable
class WindowAPI(MessagesAPI, UndoAPI, ActionsAPI, LayoutAPI, FilesAPI, Protocol):
    """Everything a feature may use of the main window: the five roles and the model."""

    workspace: Workspace
    canvas: CanvasAPI
    #: The step actions, play, run to the end; ``playback.stop()`` holds the run still.
    playback: Playback
    view_state: ViewState

    # -- from QMainWindow: the window as a dialog's parent, its docks' sizes, a picture --
    def resizeDocks(self, docks, sizes, orientation) -> None: ...  # noqa: N802, D102
    def setCorner(self, corner, area) -> None: ...  # noqa: N802, D102
    def dockWidgetArea(self, dock) -> QtCore.Qt.DockWidgetArea: ...  # noqa: N802, D102
    def grab(self, *args) -> QtGui.QPixmap: ...  # noqa: D102
    def close(self) -> bool: ...  # noqa: D102
    def isVisible(self) -> bool: ...  # noqa: N802, D102
    def setEnabled(self, on: bool) -> None: ...  # noqa: N802, D102
    def style(self) -> QtWidgets.QStyle: ...  # noqa: D102
    def installEventFilter(self, obj) -> None: ...  # noqa: N802, D102

    @property
    def destroyed(self) -> QtCore.SignalInstance: ...  # noqa: D102

    # presenter mode: full screen, larger fonts and icons, the layout given back after
    def windowState(self) -> QtCore.Qt.WindowState: ...  # noqa: N802, D102
    def setWindowState(self, state) -> None: ...  # noqa: N802, D102
    def isMaximized(self) -> bool: ...  # noqa: N802, D102
    def geometry(self) -> QtCore.QRect: ...  # noqa: D102
    def normalGeometry(self) -> QtCore.QRect: ...  # noqa: N802, D102
    def setGeometry(self, *args) -> None: ...  # noqa: N802, D102
    def testAttribute(self, attribute) -> bool: ...  # noqa: N802, D102
    def font(self) -> QtGui.QFont: ...  # noqa: D102
    def setFont(self, font) -> None: ...  # noqa: N802, D102
    def iconSize(self) -> QtCore.QSize: ...  # noqa: N802, D102
    def setIconSize(self, size) -> None: ...  # noqa: N802, D102
    def saveState(self, version: int = 0) -> QtCore.QByteArray: ...  # noqa: N802, D102
    def restoreState(self, state, version: int = 0) -> bool: ...  # noqa: N802, D102
