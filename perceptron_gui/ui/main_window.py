"""The main window: the canvas first, one folding side panel, the views beside it.

It owns the undo stack, the actions (toolbar, menus, shortcuts) and the
playback timers; everything it shows is drawn from the Qt-free
:class:`~perceptron_gui.core.workspace.Workspace` in :attr:`MainWindow.workspace`.
One method, :meth:`MainWindow._update_actions`, sets the enabled state of every
control from the workspace.

The module is about 790 lines because it builds the actions, toolbars, menus,
side panel, views and the canvas-only and reset layouts with their saved state,
and implements the window's interface for the features
(:class:`~.window_api.WindowAPI`: the error sink, docks, toolbars, drags);
every feature lives in a module of its own and uses only that interface.
"""

from __future__ import annotations

import json
import logging

from PySide6 import QtCore, QtGui, QtWidgets

from ..core import Workspace, generators
from ..core.commands import EditData, SetLayers, SetViewRect, ShowViews
from ..core.dataset import Clear, MovePoints, ReplaceAll
from . import errors, workers
from .commands import Applied, EditCommand, carry_out, route_step_actions
from .deferred import YieldingTimer
from .modes import ESC, ModeManager
from .playback import RUN_REDRAW_SECONDS, Playback, slider_from_speed, speed_from_slider
from .views.area import ViewsArea
from .viewstate import ViewStateSync
from .widgets.canvas import Canvas
from .widgets.canvas.layers import menu_switches
from .widgets.essentials import EssentialsPanel
from .widgets.learner_panel import LearnerPanel
from .widgets.readouts import ReadoutPanel
from .widgets.side_panel import SidePanel
from .widgets.status_bar import StatusBar
from .window_api import action_id
from .window_layout import (
    DEFAULT_SECTIONS,
    LAYOUT_VERSION,
    SIDE_PX,
    VIEWS_AUTO_WIDTH,
    VIEWS_MIN_PX,
    VIEWS_PX,
    first_size,
    read_settings,
    restore_geometry,
    screen_text,
    write_settings,
)

__all__ = ["MainWindow", "action_id", "speed_from_slider", "slider_from_speed", "ERROR_MSECS",
           "LAYOUT_VERSION", "first_size"]

log = logging.getLogger("perceptron_gui")

#: With more points than this, a drag's moves are applied on a YieldingTimer, only the
#: newest position: each move restarts the run on all the points.
DEFERRED_MOVES_N = 20_000
#: How long an error reported in the status bar stays, in ms.
ERROR_MSECS = 8000


class MainWindow(QtWidgets.QMainWindow):
    """The application window; it implements :class:`~.window_api.WindowAPI`.

    Parameters
    ----------
    workspace : Workspace, optional
        The workspace to show (default: a new, empty one).

    Attributes
    ----------
    workspace : Workspace
        The Qt-free state: ``workspace.dataset.X``, ``workspace.dataset.y``,
        ``workspace.learner`` (the core learner in its current state).
    undo_stack : QtGui.QUndoStack
        Every edit of the data set.
    canvas : Canvas
        The plot of the points and the model (objectName ``canvas``); features
        use only its view API (``view_rect``, ``set_view_rect``, ``fit_view``).
    playback : Playback
        The step actions, play, run to the end, speed; ``playback.stop()``
        holds the run still.
    menus : dict of str to QMenu
        The menu bar's menus by key: file, edit, view, run, help.
    docks : dict of str to QDockWidget
        The docks by key: ``side`` (the side panel; features add theirs, e.g.
        ``updateLog``).
    side_panel : SidePanel
        The side panel's folding sections: ``learner`` (the learner panel),
        ``now`` (:attr:`essentials`) and ``details`` (:attr:`readouts`).
    views : ViewsArea
        The view area beside the canvas (objectName ``views``): a tab per
        registered view (``views.views()`` by name; first the live plots,
        :attr:`plots`), in :attr:`splitter` with :attr:`canvas_area`.
    modes : ModeManager
        The modes (presenter mode, a playing demo): what each hides, who gets
        Esc, the edit guards each adds.
    edit_guards : list of callable
        ``guard(change) -> bool`` asked before an undoable change is pushed: a data
        edit, or the ``SetWeights`` of a start set by hand.
    view_state : ViewState
        ``workspace.view_state``: the layer switches, the view rectangle and the
        views shown; the canvas, the View menu and the views follow it.
    commandDispatched : Signal(object)
        Each command :meth:`dispatch` carried out (a demo recorder listens).

    dragFinished : Signal()
        A drag of points ended (its last move applied).
    errorReported : Signal(str, str)
        An error was reported to the user (:meth:`report_error`): its summary
        and its detail.

    Notes
    -----
    Feature modules (``ui/features``) use only :class:`~.window_api.WindowAPI`
    (``tests/ui/test_window_api.py`` checks that this class provides it).
    """

    errorReported = QtCore.Signal(str, str)
    dragFinished = QtCore.Signal()
    commandDispatched = QtCore.Signal(object)

    def __init__(self, workspace: Workspace | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.workspace = workspace if workspace is not None else Workspace()
        self.undo_stack = QtGui.QUndoStack(self)
        self._drag = 0
        self._pending_move = None  # the newest move of a drag not applied yet
        self._move_timer = YieldingTimer(self, self._apply_pending_move, name="dragMoveTimer")
        #: Callables ``guard(edit) -> bool`` asked before an edit is pushed (e.g. a
        #: confirmation when the run is scrubbed back); any False cancels the edit.
        self.edit_guards: list = []
        #: Every action of the window by id (``"save"``, ``"step"``, ``"show_regions"``):
        #: menus, demos and tests name an action by id, never by finding a widget.
        self.actions: dict[str, QtGui.QAction] = {}
        self.modes = ModeManager(self)
        #: The workspace's callbacks this window connected (disconnected when it closes).
        self._ws_slots: list = []

        self.setStatusBar(StatusBar(self))  # elides long messages; notices follow the state
        self.view_state = self.workspace.view_state
        self.canvas = Canvas(self.workspace, view_state=self.view_state)
        #: The canvas and what belongs under it (a demo's caption bar), in the splitter.
        self.canvas_area = QtWidgets.QWidget(objectName="canvasArea")
        box = QtWidgets.QVBoxLayout(self.canvas_area)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.canvas, 1)
        self.learner_panel = LearnerPanel(self.workspace, dispatch=self.dispatch)
        self.readouts = ReadoutPanel(self.workspace, build_when_shown=True)  # folded
        self.essentials = EssentialsPanel(self.workspace)
        #: The second view area beside the canvas: one tab per registered view
        #: (``views.VIEW_TYPES``; the live plots first).
        self.views = ViewsArea(self.workspace)
        self.views.commandIssued.connect(self._dispatch_from_view)
        #: The live plots (the views area's view "plots").
        self.plots = self.views.view("plots")
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal,
                                            objectName="mainSplitter")
        self.splitter.addWidget(self.canvas_area)
        self.splitter.addWidget(self.views)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)
        self.splitter.setCollapsible(0, False)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.side_panel = SidePanel()
        self.side_panel.add_section("learner", "Learner", self.learner_panel)
        self.side_panel.add_section("now", "Now", self.essentials)
        self.side_panel.add_section("details", "Details", self.readouts, expanded=False)
        self.docks = {"side": self._dock("Panel", self.side_panel,
                                         QtCore.Qt.DockWidgetArea.LeftDockWidgetArea)}
        self._layout_pending = True
        self._canvas_only: tuple | None = None

        self.playback = pb = Playback(self)
        (self.actionStepSample, self.actionStep, self.actionStepEpoch, self.actionPlay,
         self.actionStepBack, self.actionReset, self.actionRunToEnd, self.actionCancel) = (
            pb.actionStepSample, pb.actionStep, pb.actionStepEpoch, pb.actionPlay,
            pb.actionStepBack, pb.actionReset, pb.actionRunToEnd, pb.actionCancel)
        for act in (pb.actionStepSample, pb.actionStep, pb.actionStepEpoch, pb.actionPlay,
                    pb.actionStepBack, pb.actionReset, pb.actionRunToEnd, pb.actionCancel):
            self.add_action(action_id(act.objectName()), act)
        route_step_actions(self)
        self.speedSlider = self.playback.speed_slider

        self._build_actions()
        self._build_toolbars()
        self._build_menus()
        self._build_status_bar()
        self._connect()
        self._install_features()
        self.undo_stack.cleanChanged.connect(self.update_title)
        if "updateLog" in self.docks:  # the log is there when asked for (View menu)
            self.docks["updateLog"].hide()
        self._restore_settings()
        self.update_title()
        self._update_actions()
        self.canvas.fit_view()

    # -- construction ------------------------------------------------------------------
    def add_dock(self, key: str, dock: QtWidgets.QDockWidget,
                 area: QtCore.Qt.DockWidgetArea) -> QtWidgets.QDockWidget:
        """Add a feature's dock in ``area``, as :attr:`docks` ``[key]``; returns it."""
        self.addDockWidget(area, dock)
        self.docks[key] = dock
        return dock

    def add_toolbar(self, toolbar: QtWidgets.QToolBar, area: QtCore.Qt.ToolBarArea, *,
                    new_row: bool = False, key: str | None = None) -> QtWidgets.QToolBar:
        """Add a feature's toolbar in ``area`` (``new_row``: below the others; canvas-only
        mode hides it; ``key``: also as :attr:`toolbars` ``[key]``); returns it."""
        if new_row:
            self.addToolBarBreak(area)
        self.addToolBar(area, toolbar)
        self._toolbars.append(toolbar)
        if key is not None:
            self.toolbars[key] = toolbar
        return toolbar

    def _dock(self, title: str, widget: QtWidgets.QWidget, area) -> QtWidgets.QDockWidget:
        dock = QtWidgets.QDockWidget(title, self)
        dock.setObjectName(f"dock_{widget.objectName()}")
        dock.setWidget(widget)
        dock.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QtWidgets.QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    def add_action(self, action_id: str, action: QtGui.QAction) -> QtGui.QAction:
        """Register ``action`` under ``action_id`` in :attr:`actions` and return it.

        The action is also added to the window, so that its shortcut works
        wherever the focus is in it; an action with Esc joins the modes' Esc
        routing at once (a mode's Esc action starts disabled until its mode is
        on).  Raises ValueError when another action already has the id.
        """
        if self.actions.get(action_id, action) is not action:
            raise ValueError(f"an action with id {action_id!r} is already registered")
        self.actions[action_id] = action
        self.addAction(action)
        if ESC in action.shortcuts():
            self.modes.update_esc()
        return action

    def _action(self, name: str, text: str, slot=None, shortcut=None, tip: str = "",
                checkable: bool = False, icon=None) -> QtGui.QAction:
        action = QtGui.QAction(text, self)
        action.setObjectName(name)
        if shortcut:
            keys = shortcut if isinstance(shortcut, (list, tuple)) else [shortcut]
            action.setShortcuts([QtGui.QKeySequence(k) for k in keys])
            tip = f"{tip} ({QtGui.QKeySequence(keys[0]).toString()})" if tip else tip
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        if icon is not None:
            action.setIcon(self.style().standardIcon(icon))
        action.setCheckable(checkable)
        if slot is not None:
            (action.toggled if checkable else action.triggered).connect(slot)
        self.addAction(action)
        return self.add_action(action_id(name), action)

    def _build_actions(self) -> None:
        a = self._action
        self.actionUndo = self.undo_stack.createUndoAction(self, "&Undo")
        self.actionUndo.setObjectName("actionUndo")
        self.actionUndo.setShortcuts(QtGui.QKeySequence.Undo)
        self.actionRedo = self.undo_stack.createRedoAction(self, "&Redo")
        self.actionRedo.setObjectName("actionRedo")
        self.actionRedo.setShortcuts(QtGui.QKeySequence.Redo)
        self.addActions([self.actionUndo, self.actionRedo])
        self.add_action("undo", self.actionUndo)
        self.add_action("redo", self.actionRedo)
        self.actionClear = a("actionClear", "C&lear all points", self.clear_points,
                             "Ctrl+Shift+Backspace", "Remove every point (undoable)")
        self.actionFitView = a("actionFitView", "&Fit view",
                               lambda: self.dispatch(SetViewRect(None)), "F",
                               "Frame all points and the origin")
        self.actionQuit = a("actionQuit", "&Quit", self.close, QtGui.QKeySequence.Quit)
        self.actionShortcuts = a("actionShortcuts", "&Keyboard and mouse", self.show_help,
                                 "F1")
        self.actionAbout = a("actionAbout", "&About perceptron-gui", self.show_about)
        classes = QtGui.QActionGroup(self)
        self.actionClassPos = a("actionClassPos", "Class +1 (blue ●)",
                                lambda on: on and setattr(self.canvas, "active_class", 1), "1",
                                "Left click adds class +1", checkable=True)
        self.actionClassNeg = a("actionClassNeg", "Class −1 (vermilion ■)",
                                lambda on: on and setattr(self.canvas, "active_class", -1), "2",
                                "Left click adds class −1", checkable=True)
        for act, short in ((self.actionUndo, "Undo"), (self.actionRedo, "Redo"),
                           (self.actionClear, "Clear"), (self.actionFitView, "Fit"),
                           (self.actionClassPos, "● +1"), (self.actionClassNeg, "■ −1")):
            act.setIconText(short)  # the toolbar's text: the menus keep the long one
        self.actionUndo.setToolTip("Undo the last edit (Ctrl+Z)")
        self.actionRedo.setToolTip("Redo the edit undone last (Ctrl+Shift+Z)")
        classes.addAction(self.actionClassPos)
        classes.addAction(self.actionClassNeg)
        self.actionClassPos.setChecked(True)
        # the View menu's layer switches, from the layers' registry: a toggle is a
        # command; the check marks follow the view state
        self._layer_actions = {}
        for switch in menu_switches():
            self._layer_actions[switch.name] = a(
                f"actionShow_{switch.name}", switch.menu_text,
                lambda on, k=switch.name: self.dispatch(SetLayers({k: on})), checkable=True)
        self._view_sync = ViewStateSync(self, self._layer_actions)
        self.actionViews = a("actionViews", "Live plots and &views",
                             lambda on: self.dispatch(ShowViews(bool(on))),
                             "F9", "Show the live plots beside the canvas", checkable=True)
        self.actionCanvasOnly = a("actionCanvasOnly", "&Canvas only", self.set_canvas_only,
                                  "Ctrl+Shift+F",
                                  "Give the canvas the whole window; again to bring the "
                                  "panels back", checkable=True)
        self.actionResetLayout = a("actionResetLayout", "Reset &layout", self.reset_layout,
                                   tip="Put the panels, views and toolbars back as they "
                                       "were at the first start")

    def _build_toolbars(self) -> None:
        tb = self.addToolBar("Playback")
        tb.setObjectName("toolbarPlayback")
        tb.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for act in self.playback.step_actions():
            tb.addAction(act)
        self.playback.hold_play_width()  # Play and Pause: one width, nothing shifts
        tb.addSeparator()
        tb.addWidget(QtWidgets.QLabel(" Speed "))
        tb.addWidget(self.playback.speed_slider)
        tb.addWidget(self.playback.speed_label)

        edit = self.addToolBar("Edit")
        edit.setObjectName("toolbarEdit")
        edit.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
        edit.addAction(self.actionClassPos)
        edit.addAction(self.actionClassNeg)
        edit.addSeparator()
        edit.addAction(self.actionUndo)
        edit.addAction(self.actionRedo)
        edit.addAction(self.actionClear)
        edit.addAction(self.actionFitView)
        self._toolbars = [tb, edit]
        #: The toolbars by key: playback, edit.
        self.toolbars = {"playback": tb, "edit": edit}

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.setObjectName("menuFile")
        examples = file_menu.addMenu("&Quick synthetic data")
        examples.setObjectName("menuExamples")
        for name, description in generators.DESCRIPTIONS.items():
            act = examples.addAction(generators.TITLES[name])
            act.setObjectName(f"actionExample_{name}")
            act.setStatusTip(description)
            act.triggered.connect(lambda _=False, n=name: self.load_example(n))
            self.add_action(f"example_{name}", act)
        file_menu.addSeparator()
        file_menu.addAction(self.actionQuit)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.setObjectName("menuEdit")
        for act in (self.actionUndo, self.actionRedo, None, self.actionClassPos,
                    self.actionClassNeg, None, self.actionClear):
            edit_menu.addSeparator() if act is None else edit_menu.addAction(act)
        view = bar.addMenu("&View")
        view.setObjectName("menuView")
        view.addAction(self.actionFitView)
        view.addSeparator()
        for act in self._layer_actions.values():
            view.addAction(act)
        view.addSeparator()
        side = self.docks["side"].toggleViewAction()
        side.setText("Side &panel")
        side.setObjectName("actionSidePanel")
        self.add_action("side_panel", side)
        view.addAction(side)
        view.addAction(self.actionViews)
        view.addAction(self.actionCanvasOnly)
        view.addAction(self.actionResetLayout)
        view.addSeparator()
        run = bar.addMenu("&Run")
        run.setObjectName("menuRun")
        for act in self.playback.run_menu_actions():
            run.addAction(act)
        help_menu = bar.addMenu("&Help")
        help_menu.setObjectName("menuHelp")
        #: The menus by key, for feature modules: file, edit, view, run, help.
        self.menus = {"file": file_menu, "edit": edit_menu, "view": view, "run": run,
                      "help": help_menu}
        help_menu.addAction(self.actionShortcuts)
        help_menu.addAction(self.actionAbout)

    def _build_status_bar(self) -> None:
        for widget in self.playback.status_widgets():
            self.statusBar().addPermanentWidget(widget)

    def _connect(self) -> None:
        ws = self.workspace
        self.canvas.editRequested.connect(lambda edit: self.dispatch(EditData(edit)))
        self.canvas.dragFinished.connect(self.end_drag)
        self.canvas.commandIssued.connect(self._dispatch_from_view)  # a layer's gesture
        self.canvas.activeClassChanged.connect(self._on_active_class)
        self.learner_panel.message.connect(lambda text: self.report_error(text, dialog=False))
        self.readouts.bind_messages(self.show_message, self.clear_message)
        self.undo_stack.indexChanged.connect(self._update_actions)
        self.playback.stateChanged.connect(self._update_actions)
        self.playback.stateChanged.connect(self._pace_canvas)
        # held weakly, and forgotten when the window goes; a closed window stops listening
        self._ws_slots = [
            (ws.events.message, self._show_notice),
            (ws.events.learner_changed, self._on_learner_changed),
            (ws.events.dataset_changed, self._on_learner_changed),  # a data edit rebuilds it too
            (ws.events.run_changed, self._on_run_changed),
        ]
        for signal, slot in self._ws_slots:
            signal.connect(slot)
        workers.add_error_sink(self.report_error)  # errors of workers started without a handler

    def _show_notice(self, text: str) -> None:
        self.statusBar().show_notice(text, self.workspace.step_count)

    def _disconnect_workspace(self, *_args) -> None:
        for signal, slot in self._ws_slots:
            signal.disconnect(slot)
        self._ws_slots = []
        workers.remove_error_sink(self.report_error)

    def show_message(self, text: str, msecs: int = 8000) -> None:
        """Show an informational message in the status bar (an error: :meth:`report_error`).

        ``msecs=0`` keeps it until another message replaces it or
        :meth:`clear_message` clears it.
        """
        self.statusBar().showMessage(text, msecs)

    def clear_message(self, text: str | None = None) -> None:
        """Clear the status bar's message; given ``text``, only while it still shows that."""
        bar = self.statusBar()
        if text is None or bar.currentMessage() == text:
            bar.clearMessage()

    def report_error(self, summary: str, detail: str | BaseException | None = None, *,
                     dialog: bool = True, msecs: int = ERROR_MSECS) -> None:
        """The one way an error reaches the user: a warning box, or the status bar.

        Every error is logged (an exception with its traceback) and announced
        by :attr:`errorReported`; none is dropped.

        Parameters
        ----------
        summary : str
            What failed, in a few words: the box's title ("Cannot save"), or the
            status bar's message ("Not done: ...").
        detail : str or BaseException, optional
            Why, and what it means for the user's work: the box's text; an
            exception is shown as ``Type: message`` (its own message for an
            ``OSError`` or a ``ValueError``, which say it for the user).
        dialog : bool, default=True
            True: a window-modal warning box that waits for OK (a file or an
            export failed: the user must see it).  False: the status bar for
            :data:`ERROR_MSECS` (an edit or a parameter refused as it was
            typed: the user is looking at the control; work in the background
            that failed and will be tried again).
        msecs : int, default=ERROR_MSECS
            How long the status bar shows it.
        """
        text = errors.error_text(detail)
        exc = detail if isinstance(detail, BaseException) else None
        log.warning("%s%s", summary, f": {text}" if text else "",
                    exc_info=(type(exc), exc, exc.__traceback__) if exc is not None else None)
        self.errorReported.emit(summary, text)
        if dialog:
            errors.warn(self, summary, text or summary)
        else:
            self.statusBar().showMessage(f"{summary}: {text}" if text else summary, msecs)

    def _on_run_changed(self, _event=None) -> None:
        self.statusBar().run_moved(self.workspace.step_count)
        self._update_actions()

    def _install_features(self) -> None:
        """Let each feature module add its docks, menus and actions (:mod:`.window_features`)."""
        from .window_features import install

        install(self)

    # -- editing -----------------------------------------------------------------------
    def _dispatch_from_view(self, command) -> None:
        """A view's gesture: carry its command out, a refusal reported, not raised."""
        try:
            self.dispatch(command)
        except ValueError as exc:
            self.report_error("Not done", exc, dialog=False)

    def dispatch(self, command) -> bool:
        """Carry out ``command`` (:mod:`perceptron_gui.core.commands`): every intent's door.

        Routed by :func:`.commands.carry_out` (edits through :meth:`push_edit`,
        step actions through the playback, view commands to :attr:`view_state`);
        returns whether it was done, and then announces it on
        :attr:`commandDispatched`.  ValueError for a command refused (nothing changed).
        """
        done = carry_out(self, command)
        if done:
            self.commandDispatched.emit(command)
        return done

    def push_edit(self, edit) -> bool:
        """Validate ``edit`` against the data and push it on the undo stack.

        Returns False (and says why in the status bar) when the edit is invalid;
        the data are then unchanged.  A move of a drag on more than
        :data:`DEFERRED_MOVES_N` points is applied in a later pass of the event
        loop (a :class:`~.deferred.YieldingTimer`, taking turns with the redraws
        it causes), replaced by any newer move meanwhile; it returns True.
        """
        if (isinstance(edit, MovePoints) and self.canvas.tool.dragging
                and self.workspace.dataset.n > DEFERRED_MOVES_N):
            self._pending_move = edit
            if not self._move_timer.isActive():
                self._move_timer.start()
            return True
        self._apply_pending_move()  # the edits in the order they came
        return self._push(edit)

    def _push(self, edit) -> bool:
        try:
            applied = Applied.of(edit, self.workspace.dataset)
        except ValueError as exc:
            self.report_error(f"Not done: {exc}", dialog=False)
            return False
        for guard in self.edit_guards:
            if not guard(edit):
                return False
        drag = self._drag if isinstance(edit, MovePoints) else None
        self.undo_stack.push(EditCommand(self.workspace, edit, drag=drag, applied=applied))
        return True

    @property
    def current_drag(self) -> int:
        """The serial number of the current (or next) drag: moves with the same one merge."""
        return self._drag

    def end_drag(self) -> None:
        """The drag ended: its last move is applied; the next move starts a new undo step."""
        self._apply_pending_move()
        self._drag += 1
        self.dragFinished.emit()

    @property
    def dragging(self) -> bool:
        """Whether the user is dragging points on the canvas."""
        return self.canvas.tool.dragging

    def add_status_widget(self, widget: QtWidgets.QWidget) -> None:
        """Add a feature's permanent widget to the status bar (a busy bar, a label)."""
        self.statusBar().addPermanentWidget(widget)

    def add_menu(self, key: str, menu: QtWidgets.QMenu, before: str | None = None
                 ) -> QtWidgets.QMenu:
        """Add a feature's ``menu`` to the menu bar as :attr:`menus` ``[key]``; returns it.

        ``before``: the key of the menu it goes before (None: last).  ValueError
        when another menu has the key.
        """
        if self.menus.get(key, menu) is not menu:
            raise ValueError(f"a menu with key {key!r} is already there")
        bar = self.menuBar()
        if before is None:
            bar.addMenu(menu)
        else:
            bar.insertMenu(self.menus[before].menuAction(), menu)
        self.menus[key] = menu
        return menu

    def add_below_canvas(self, widget: QtWidgets.QWidget) -> QtWidgets.QWidget:
        """Put ``widget`` under the canvas (a demo's caption bar); returns their area."""
        self.canvas_area.layout().addWidget(widget, 0)
        return self.canvas_area

    def _apply_pending_move(self) -> None:
        self._move_timer.stop()
        edit, self._pending_move = self._pending_move, None
        if edit is not None:
            self._push(edit)

    def clear_points(self) -> None:
        """Remove every point (one undo step)."""
        if self.workspace.dataset.n:
            self.dispatch(EditData(Clear()))

    def load_example(self, name: str, seed: int = 0) -> None:
        """Replace the points by a generated example data set (undoable)."""
        data = generators.GENERATORS[name](seed=seed)
        self.dispatch(EditData(ReplaceAll.from_dataset(data, f"{name} example")))
        self.dispatch(SetViewRect(None))

    def _on_active_class(self, label: int) -> None:
        (self.actionClassPos if label > 0 else self.actionClassNeg).setChecked(True)

    # -- state -> controls -------------------------------------------------------------
    def _on_learner_changed(self, *_args) -> None:
        self.statusBar().state_changed()  # the data or the learner replaced
        self.playback.sync()
        self._update_actions()

    def _pace_canvas(self) -> None:
        """While running to the end the canvas redraws a few times a second, not every slice."""
        self.canvas.set_redraw_interval(
            RUN_REDRAW_SECONDS if self.playback.running_to_end else 0.0)

    def _update_actions(self, *_args) -> None:
        """The one place that enables and disables controls, from the workspace."""
        ws = self.workspace
        busy = self.playback.running_to_end
        can_step = ws.can_step and not busy
        for act in (self.actionStepSample, self.actionStep, self.actionStepEpoch):
            act.setEnabled(can_step)
        self.actionRunToEnd.setEnabled(can_step)
        self.actionPlay.setEnabled((ws.can_step or self.actionPlay.isChecked()) and not busy)
        self.actionStepBack.setEnabled(ws.can_step_back and not busy)
        self.actionReset.setEnabled(ws.running and ws.step_count > 0)
        self.actionCancel.setEnabled(busy)
        self.actionClear.setEnabled(ws.dataset.n > 0)
        self.speedSlider.setEnabled(ws.learner_steps)
        self._layer_actions["probability"].setVisible(ws.capabilities.posteriors)

    @property
    def presenting(self) -> bool:
        """Whether presenter mode is on."""
        return self.presenter.active

    def update_title(self, *_args) -> None:
        """Set the window title from the document (file name, ``*`` when unsaved)."""
        self.setWindowTitle(self.files.window_title())  # the File menu's manager knows

    # -- layout ------------------------------------------------------------------------
    @property
    def scaled(self) -> list:
        """The parts besides the views (:attr:`views`) that follow presenter sizes and the
        colour scheme through ``set_scale``: the canvas, the panels, the timeline, the
        demo's caption bar."""
        return [self.canvas, self.readouts, self.essentials, self.timeline, self.demos,
                self.bound_strip]

    def set_views_visible(self, on: bool) -> None:
        """Show or hide the views beside the canvas: writes :attr:`view_state`, they follow."""
        if not self.view_state.set_views_shown(on):
            self.show_views(on)

    def show_views(self, on: bool) -> None:
        """Show or hide the views' area as :attr:`view_state` says (its listener)."""
        on = bool(on)
        if on and self.views.isHidden():
            self.views.setVisible(True)
            sizes = self.splitter.sizes()
            total = sum(sizes)
            if total and sizes[1] < VIEWS_MIN_PX:
                side = min(VIEWS_PX, total // 2)
                self.splitter.setSizes([total - side, side])
        elif not on:
            self.views.setVisible(False)
        if self.actionViews.isChecked() != on:
            with QtCore.QSignalBlocker(self.actionViews):
                self.actionViews.setChecked(on)

    def set_canvas_only(self, on: bool) -> None:
        """Give the canvas the whole window (True) or bring the panels back (False).

        The menu bar and the status bar stay; docks, toolbars and the views hide,
        and the same action shows exactly what was shown before.
        """
        on = bool(on)
        if on and self._canvas_only is None:
            self._canvas_only = (self.saveState(LAYOUT_VERSION), self.views.isVisible())
            for widget in [*self.docks.values(), *self._toolbars]:
                widget.hide()
            self.views.hide()
        elif not on and self._canvas_only is not None:
            state, views = self._canvas_only
            self._canvas_only = None
            self.restoreState(state, LAYOUT_VERSION)
            self.views.setVisible(views)
        if self.actionCanvasOnly.isChecked() != on:
            with QtCore.QSignalBlocker(self.actionCanvasOnly):
                self.actionCanvasOnly.setChecked(on)

    def reset_layout(self) -> None:
        """Put docks, toolbars, sections and views back as at the first start."""
        self.set_canvas_only(False)
        self.restoreState(self._default_state, LAYOUT_VERSION)
        self.side_panel.set_expanded_state(DEFAULT_SECTIONS)
        self._default_sizes()

    def _default_sizes(self) -> None:
        """The first-start layout for the present window size."""
        self.resizeDocks([self.docks["side"]], [SIDE_PX], QtCore.Qt.Orientation.Horizontal)
        wide = self.width() >= VIEWS_AUTO_WIDTH
        self.views.setVisible(wide)
        self.set_views_visible(wide)
        total = max(self.splitter.width(), 2)
        side = min(VIEWS_PX, total // 2)
        self.splitter.setSizes([total - side, side])

    def settle(self) -> None:
        """Bring every view up to date now, laid out (scripts, screenshots, exports).

        The views otherwise redraw on their deferred refreshes, a pass of the
        event loop later; this calls each one's refresh and delivers Qt's
        pending layout requests, without running an event loop.
        """
        self.canvas.refresh()
        for view in (self.readouts, self.essentials, self.timeline.bar, self.bound_strip,
                     *self.views.views().values()):
            view.refresh()
        QtCore.QCoreApplication.sendPostedEvents()

    # -- help ----------------------------------------------------------------------------
    def show_help(self) -> None:
        """The keyboard and mouse reference, generated from the window's actions."""
        from .keyboard_help import KeyboardHelp

        KeyboardHelp(self).exec()

    def show_about(self) -> None:
        from .. import __version__

        errors.about(self, "About perceptron-gui", f"perceptron-gui {__version__}",
                     "The perceptron, its dual and LDA, step by step, with the margin and "
                     "the Novikoff bound live.")

    # -- settings ------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        self._default_state = self.saveState(LAYOUT_VERSION)
        geometry, state, splitter, views, sections, speed, screen = read_settings().values()
        restore_geometry(self, geometry, screen)  # relative to the screen it was saved on
        if state is not None:
            self._layout_pending = not self.restoreState(state, LAYOUT_VERSION)
        if not self._layout_pending:
            if splitter is not None:
                self.splitter.restoreState(splitter)
            self.set_views_visible(str(views).lower() == "true")
            if isinstance(sections, str):
                try:
                    self.side_panel.set_expanded_state(json.loads(sections))
                except (ValueError, AttributeError):
                    pass
        if speed is not None:
            try:
                self.speedSlider.setValue(int(speed))
            except (TypeError, ValueError):
                pass

    def save_settings(self) -> None:
        """Remember geometry, dock layout, views, folded sections and speed (QSettings)."""
        self.set_canvas_only(False)
        write_settings(geometry=self.saveGeometry(), state=self.saveState(LAYOUT_VERSION),
                       splitter=self.splitter.saveState(), views=self.views.isVisible(),
                       sections=json.dumps(self.side_panel.expanded_state()),
                       speed=self.speedSlider.value(), screen=screen_text(self.screen()))

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        if self._layout_pending:  # first show without a saved layout: size the docks
            self._layout_pending = False
            self._default_sizes()

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        if not self.files.confirm_close(event):
            return  # unsaved changes: a window-modal question is open
        self.autosave.clean_exit()
        self.playback.shutdown()
        self.theory_worker.shutdown()
        self.save_settings()
        self._disconnect_workspace()
        super().closeEvent(event)

