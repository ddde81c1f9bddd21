"""The main window: the canvas first, one folding side panel, the views beside it.

Every command goes through :attr:`MainWindow.bus` (:mod:`.commands`); every feature
uses only the window's interface (:class:`~.window_api.WindowAPI`).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from ..core import Workspace, generators
from ..core.commands import EditData, SetLayers, SetViewRect, ShowViews
from ..core.dataset import Clear, ReplaceAll
from . import errors, workers
from .actions import Actions, ActionSpec
from .class_actions import ClassActions
from .commands import Context
from .errors import ERROR_MSECS
from .modes import ModeManager
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
from .window_layout import (
    LAYOUT_VERSION,
    WindowLayout,
    first_size,
)

__all__ = ["MainWindow", "speed_from_slider", "slider_from_speed", "ERROR_MSECS",
           "LAYOUT_VERSION", "first_size"]


def _fill(widget, actions) -> None:
    """Add ``actions`` to a menu or a toolbar in order, None as a separator."""
    for act in actions:
        widget.addSeparator() if act is None else widget.addAction(act)


class MainWindow(QtWidgets.QMainWindow):
    """The application window of ``workspace`` (default: a new one): a ``WindowAPI``."""

    errorReported = QtCore.Signal(str, str)
    dragFinished = QtCore.Signal()
    commandDispatched = QtCore.Signal(object)

    def __init__(self, workspace: Workspace | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.workspace = workspace if workspace is not None else Workspace()
        self.undo_stack = QtGui.QUndoStack(self)
        #: The command bus: :meth:`dispatch` carries every command out through it.
        self.bus = Context(self.workspace, self)
        #: Callables ``guard(edit) -> bool`` asked before an edit is pushed (e.g. a
        #: confirmation when the run is scrubbed back); any False cancels the edit.
        self.edit_guards: list = []
        #: Every action of the window by id (``"save"``, ``"step"``, ``"show_regions"``):
        #: menus, demos and tests name an action by id, never by finding a widget.
        self.actions = Actions(self)
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
        self.docks: dict = {}
        side = QtWidgets.QDockWidget("Panel", self, objectName="dock_sidePanel")
        side.setWidget(self.side_panel)
        self.add_dock("side", side, QtCore.Qt.DockWidgetArea.LeftDockWidgetArea)
        #: The layout while the window runs: canvas only, reset, saved and restored.
        self.window_layout = WindowLayout(self)

        self.playback = pb = Playback(self)
        (self.actionStepSample, self.actionStep, self.actionStepEpoch, self.actionPlay,
         self.actionStepBack, self.actionReset, self.actionRunToEnd, self.actionCancel) = (
            pb.run_menu_actions())
        self.speedSlider = self.playback.speed_slider

        self._build_actions()
        self._build_toolbars()
        self._build_menus()
        for widget in self.playback.status_widgets():
            self.add_status_widget(widget)
        self._connect()
        self._install_features()
        self.undo_stack.cleanChanged.connect(self.update_title)
        if "updateLog" in self.docks:  # the log is there when asked for (View menu)
            self.docks["updateLog"].hide()
        self.window_layout.restore()
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
        """Add a feature's toolbar in ``area`` (``new_row``: below the others; ``key``: also
        as :attr:`toolbars` ``[key]``; canvas-only mode hides it); returns it."""
        if new_row:
            self.addToolBarBreak(area)
        self.addToolBar(area, toolbar)
        self.window_layout.toolbars.append(toolbar)
        if key is not None:
            self.toolbars[key] = toolbar
        return toolbar

    def add_action(self, action_id: str, action: QtGui.QAction) -> QtGui.QAction:
        """Register an action Qt made (a dock's toggle) under ``action_id``; returns it."""
        return self.actions.add(action_id, action)

    def _build_actions(self) -> None:
        make = self.actions.make
        stack = self.undo_stack
        quiet = frozenset({"recording", "demo", "game"})  # they own Ctrl+Z or hold undo
        # from the stack's signals, never asked of it: it emits them while it is deleted
        can = {"can_undo": False, "can_redo": False}
        for key, signal in (("can_undo", stack.canUndoChanged),
                            ("can_redo", stack.canRedoChanged)):
            self.actions.provide(key, lambda k=key: can[k])
            signal.connect(lambda on, k=key: can.update({k: on}) or self.actions.update())
        self.actionUndo = make(ActionSpec(
            "undo", "&Undo", stack.undo, (QtGui.QKeySequence.StandardKey.Undo,),
            "Undo the last edit (Ctrl+Z)", icon_text="Undo",
            when=lambda c: c["can_undo"] and not c["modes"] & quiet))
        self.actionRedo = make(ActionSpec(
            "redo", "&Redo", stack.redo, (QtGui.QKeySequence.StandardKey.Redo,),
            "Redo the edit undone last (Ctrl+Shift+Z)", icon_text="Redo",
            when=lambda c: c["can_redo"] and not c["modes"] & quiet))
        stack.undoTextChanged.connect(lambda t: self.actionUndo.setText(f"&Undo {t}".rstrip()))
        stack.redoTextChanged.connect(lambda t: self.actionRedo.setText(f"&Redo {t}".rstrip()))
        self.modes.changed.connect(self.actions.update)
        self.actionClear = make(ActionSpec(
            "clear", "C&lear all points", self.clear_points, ("Ctrl+Shift+Backspace",),
            "Remove every point (undoable)", icon_text="Clear", key_in_tip=True))
        self.actionFitView = make(ActionSpec(
            "fit_view", "&Fit view", lambda: self.dispatch(SetViewRect(None)), ("F",),
            "Frame all points and the origin", icon_text="Fit", key_in_tip=True))
        self.actionQuit = make(ActionSpec("quit", "&Quit", self.close,
                                          (QtGui.QKeySequence.StandardKey.Quit,)))
        self.actionShortcuts = make(ActionSpec("shortcuts", "&Keyboard and mouse",
                                               self.show_help, ("F1",)))
        self.actionAbout = make(ActionSpec("about", "&About perceptron-gui", self.show_about))
        # the View menu's layer switches, from the layers' registry: a toggle is a
        # command; the check marks follow the view state
        self._layer_actions = {
            switch.name: make(ActionSpec(
                f"show_{switch.name}", switch.menu_text,
                lambda on, k=switch.name: self.dispatch(SetLayers({k: on})), checkable=True,
                name=f"actionShow_{switch.name}"))
            for switch in menu_switches()}
        self._view_sync = ViewStateSync(self, self._layer_actions)
        self.actionViews = make(ActionSpec(
            "views", "Live plots and &views", lambda on: self.dispatch(ShowViews(bool(on))),
            ("F9",), "Show the live plots beside the canvas", checkable=True,
            key_in_tip=True))
        self.actionCanvasOnly = make(ActionSpec(
            "canvas_only", "&Canvas only", self.window_layout.set_canvas_only, ("Ctrl+Shift+F",),
            "Give the canvas the whole window; again to bring the panels back",
            checkable=True, key_in_tip=True))
        self.actionResetLayout = make(ActionSpec(
            "reset_layout", "Reset &layout", self.reset_layout,
            tip="Put the panels, views and toolbars back as they were at the first start"))

    def _build_toolbars(self) -> None:
        tb = self.addToolBar("Playback")
        tb.setObjectName("toolbarPlayback")
        tb.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tb.addActions(self.playback.step_actions())
        self.playback.hold_play_width()  # Play and Pause: one width, nothing shifts
        tb.addSeparator()
        for widget in (QtWidgets.QLabel(" Speed "), self.playback.speed_slider,
                       self.playback.speed_label):
            tb.addWidget(widget)
        edit = self.addToolBar("Edit")
        edit.setObjectName("toolbarEdit")
        edit.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextOnly)
        self._class_places = [(edit, edit.addSeparator())]  # the class list goes first
        _fill(edit, (self.actionUndo, self.actionRedo, self.actionClear, self.actionFitView))
        self.window_layout.toolbars += [tb, edit]
        #: The toolbars by key: playback, edit.
        self.toolbars = {"playback": tb, "edit": edit}

    def _build_menus(self) -> None:
        #: The menus by key, for feature modules: file, edit, view, run, help.
        self.menus = {}
        for key in ("file", "edit", "view", "run", "help"):
            self.menus[key] = self.menuBar().addMenu(f"&{key.capitalize()}")
            self.menus[key].setObjectName(f"menu{key.capitalize()}")
        examples = self.menus["file"].addMenu("&Quick synthetic data")
        examples.setObjectName("menuExamples")
        for name, description in generators.DESCRIPTIONS.items():
            examples.addAction(self.actions.make(ActionSpec(
                f"example_{name}", generators.TITLES[name], lambda n=name: self.load_example(n),
                tip=description, name=f"actionExample_{name}")))
        side = self.docks["side"].toggleViewAction()
        side.setText("Side &panel")
        side.setObjectName("actionSidePanel")
        self.add_action("side_panel", side)
        _fill(self.menus["file"], (None, self.actionQuit))
        _fill(self.menus["edit"], (self.actionUndo, self.actionRedo, None))
        self._class_places.append((self.menus["edit"], self.menus["edit"].addSeparator()))
        self.classes = ClassActions(self, self._class_places)
        _fill(self.menus["edit"], (self.classes.add_action, self.classes.rename_action,
                                   self.classes.remove_action, None, self.actionClear))
        _fill(self.menus["view"], (self.actionFitView, None, *self._layer_actions.values(), None,
                                   side, self.actionViews, self.actionCanvasOnly,
                                   self.actionResetLayout, None))
        self.menus["run"].addActions(self.playback.run_menu_actions())
        self.menus["help"].addActions([self.actionShortcuts, self.actionAbout])

    def _connect(self) -> None:
        ws = self.workspace
        self.canvas.editRequested.connect(lambda edit: self.dispatch(EditData(edit)))
        self.canvas.dragFinished.connect(self.end_drag)
        self.canvas.commandIssued.connect(self._dispatch_from_view)  # a layer's gesture
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
        """Show an informational message in the status bar (``msecs=0``: until replaced)."""
        self.statusBar().showMessage(text, msecs)

    def clear_message(self, text: str | None = None) -> None:
        """Clear the status bar's message; given ``text``, only while it still shows that."""
        bar = self.statusBar()
        if text is None or bar.currentMessage() == text:
            bar.clearMessage()

    def report_error(self, summary: str, detail: str | BaseException | None = None, *,
                     dialog: bool = True, msecs: int = ERROR_MSECS) -> None:
        """The one way an error reaches the user: a box or the status bar (``errors.report``)."""
        errors.report(self, summary, detail, dialog=dialog, msecs=msecs)

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
        """Carry out ``command`` through :attr:`bus`; whether done (then announced on
        :attr:`commandDispatched`).  ValueError for a command refused (nothing changed)."""
        done = self.bus.carry_out(command)
        if done:
            self.commandDispatched.emit(command)
        return done

    def push_edit(self, edit) -> bool:
        """Validate ``edit`` and push it on the undo stack; False (why: the status bar) if not."""
        return self.bus.edits.push(edit)

    @property
    def current_drag(self) -> int:
        """The serial number of the current (or next) drag: moves with the same one merge."""
        return self.bus.edits.drag

    def end_drag(self) -> None:
        """The drag ended: its last move is applied; the next move starts a new undo step."""
        self.bus.edits.end_drag()
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
        """Add a feature's ``menu`` as :attr:`menus` ``[key]`` (not taken), before the menu
        ``before`` (None: last); returns it."""
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

    def clear_points(self) -> None:
        """Remove every point (one undo step)."""
        if self.workspace.dataset.n:
            self.dispatch(EditData(Clear()))

    def load_example(self, name: str, seed: int = 0) -> None:
        """Replace the points by a generated example data set (undoable)."""
        data = generators.GENERATORS[name](seed=seed)
        self.dispatch(EditData(ReplaceAll.from_dataset(data, f"{name} example")))
        self.dispatch(SetViewRect(None))

    # -- state -> controls -------------------------------------------------------------
    def _on_learner_changed(self, *_args) -> None:
        self.statusBar().state_changed()  # the data or the learner replaced
        self.playback.sync()
        self._update_actions()

    def _pace_canvas(self) -> None:
        """While running to the end the canvas redraws a few times a second, not every slice."""
        self.canvas.set_redraw_interval(RUN_REDRAW_SECONDS if self.playback.running_to_end else 0.0)

    def _update_actions(self, *_args) -> None:
        """The one place that enables and disables controls, from the workspace."""
        ws = self.workspace
        busy = self.playback.running_to_end
        can_step = ws.can_step and not busy
        for act in (self.actionStepSample, self.actionStep, self.actionStepEpoch,
                    self.actionRunToEnd):
            act.setEnabled(can_step)
        self.actionPlay.setEnabled((ws.can_step or self.actionPlay.isChecked()) and not busy)
        self.actionStepBack.setEnabled(ws.can_step_back and not busy)
        self.actionReset.setEnabled(ws.running and ws.step_count > 0)
        self.actionCancel.setEnabled(busy)
        self.actionClear.setEnabled(ws.dataset.n > 0)
        self.speedSlider.setEnabled(ws.capabilities.steps)
        self._layer_actions["probability"].setVisible(ws.capabilities.posteriors)

    @property
    def plots(self):
        """The live plots (the views area's view "plots"), built when first shown or asked for."""
        return self.views.view("plots")

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
        """The parts besides the views that follow presenter sizes and the colour scheme."""
        return [self.canvas, self.readouts, self.essentials, self.timeline, self.demos,
                self.bound_strip]

    def set_views_visible(self, on: bool) -> None:
        """Show or hide the views beside the canvas: writes :attr:`view_state`, they follow."""
        if not self.view_state.set_views_shown(on):
            self.show_views(on)

    def show_views(self, on: bool) -> None:
        """Show or hide the views' area as :attr:`view_state` says (its listener)."""
        self.window_layout.show_views(on)

    def reset_layout(self) -> None:
        """Put docks, toolbars, sections and views back as at the first start."""
        self.window_layout.reset()

    def settle(self) -> None:
        """Bring every view up to date now, laid out, without an event loop (scripts, exports)."""
        self.canvas.refresh()
        for view in (self.readouts, self.essentials, self.timeline.bar, self.bound_strip,
                     *self.views.views().values()):
            view.refresh()
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest)

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

    def save_settings(self) -> None:
        """Remember geometry, dock layout, views, folded sections and speed (QSettings)."""
        self.window_layout.save()

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        self.window_layout.first_show()

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        if not self.files.confirm_close(event):
            return  # unsaved changes: a window-modal question is open
        self.autosave.clean_exit()
        self.playback.shutdown()
        self.theory_worker.shutdown()
        self.save_settings()
        self._disconnect_workspace()
        super().closeEvent(event)

