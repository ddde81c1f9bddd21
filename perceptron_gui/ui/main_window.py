"""The main window: canvas in the middle, learner, readouts and live plots beside it.

It owns the undo stack, the actions (toolbar, menus, shortcuts) and the
playback timers; everything it shows is drawn from the Qt-free
:class:`~perceptron_gui.core.workspace.Workspace` in :attr:`MainWindow.workspace`.
One method, :meth:`MainWindow._update_actions`, sets the enabled state of every
control from the workspace.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from ..core import Workspace, generators
from ..core.dataset import Clear, MovePoints, ReplaceAll
from .commands import Applied, EditCommand
from .playback import Playback, slider_from_speed, speed_from_slider
from .subscriptions import connect_for_lifetime
from .widgets.canvas import Canvas
from .widgets.learner_panel import LearnerPanel
from .widgets.plots import LivePlots
from .widgets.readouts import ReadoutPanel

__all__ = ["MainWindow", "speed_from_slider", "slider_from_speed"]


class MainWindow(QtWidgets.QMainWindow):
    """The application window.

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
        The docks by key (learner, readouts, plots; features add theirs).
    edit_guards : list of callable
        ``guard(edit) -> bool`` asked before an edit is pushed.

    Notes
    -----
    Feature modules (``ui/features``) use only this public interface: the
    attributes above, :meth:`push_edit`, :attr:`current_drag`,
    :meth:`show_message` and :meth:`update_title`.
    """

    def __init__(self, workspace: Workspace | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.workspace = workspace if workspace is not None else Workspace()
        self.undo_stack = QtGui.QUndoStack(self)
        self._drag = 0
        #: Callables ``guard(edit) -> bool`` asked before an edit is pushed (e.g. a
        #: confirmation when the run is scrubbed back); any False cancels the edit.
        self.edit_guards: list = []

        self.canvas = Canvas(self.workspace)
        self.setCentralWidget(self.canvas)
        self.learner_panel = LearnerPanel(self.workspace)
        self.readouts = ReadoutPanel(self.workspace)
        self.plots = LivePlots(self.workspace)
        self.docks = {
            "learner": self._dock("Learner", self.learner_panel, QtCore.Qt.LeftDockWidgetArea),
            "readouts": self._dock("Readouts", self.readouts, QtCore.Qt.LeftDockWidgetArea,
                                   scroll=True),
            "plots": self._dock("Live plots", self.plots, QtCore.Qt.RightDockWidgetArea),
        }
        self._layout_pending = True

        self.playback = Playback(self)
        for name in ("actionStepSample", "actionStep", "actionStepEpoch", "actionPlay",
                     "actionStepBack", "actionReset", "actionRunToEnd", "actionCancel"):
            setattr(self, name, getattr(self.playback, name))
        self.speedSlider = self.playback.speed_slider

        self._build_actions()
        self._build_toolbars()
        self._build_menus()
        self._build_status_bar()
        self._connect()
        self._install_features()
        self._restore_settings()
        self.update_title()
        self._update_actions()
        self.canvas.fit_view()

    # -- construction ------------------------------------------------------------------
    def _dock(self, title: str, widget: QtWidgets.QWidget, area,
              scroll: bool = False) -> QtWidgets.QDockWidget:
        dock = QtWidgets.QDockWidget(title, self)
        dock.setObjectName(f"dock_{widget.objectName()}")
        if scroll:  # never clip a panel: scroll when the window is small
            area_widget = QtWidgets.QScrollArea(objectName=f"scroll_{widget.objectName()}")
            area_widget.setWidget(widget)
            area_widget.setWidgetResizable(True)
            area_widget.setFrameShape(QtWidgets.QFrame.NoFrame)
            area_widget.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
            dock.setWidget(area_widget)
        else:
            dock.setWidget(widget)
        dock.setFeatures(QtWidgets.QDockWidget.DockWidgetMovable
                         | QtWidgets.QDockWidget.DockWidgetFloatable
                         | QtWidgets.QDockWidget.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

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
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.actionUndo = self.undo_stack.createUndoAction(self, "&Undo")
        self.actionUndo.setObjectName("actionUndo")
        self.actionUndo.setShortcuts(QtGui.QKeySequence.Undo)
        self.actionRedo = self.undo_stack.createRedoAction(self, "&Redo")
        self.actionRedo.setObjectName("actionRedo")
        self.actionRedo.setShortcuts(QtGui.QKeySequence.Redo)
        self.addActions([self.actionUndo, self.actionRedo])
        self.actionClear = a("actionClear", "C&lear all points", self.clear_points,
                             "Ctrl+Shift+Backspace", "Remove every point (undoable)")
        self.actionFitView = a("actionFitView", "&Fit view", self.canvas.fit_view, "F",
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
        classes.addAction(self.actionClassPos)
        classes.addAction(self.actionClassNeg)
        self.actionClassPos.setChecked(True)
        self._layer_actions = {}
        for key, text, default in (
            ("regions", "Decision &regions", True),
            ("weight", "&Weight vector w", True),
            ("ghost", "Previous &boundary", True),
            ("margin_band", "Current &margin", True),
            ("mistakes", "Misclassified &marks", True),
            ("radius", "Radius &R circle", True),
            ("max_margin", "Ma&ximum-margin hyperplane", False),
            ("lda", "&LDA means and covariance", False),
        ):
            act = a(f"actionShow_{key}", text,
                    lambda on, k=key: self.canvas.set_visible_layers(**{k: on}),
                    checkable=True)
            act.setChecked(default)
            self.canvas.set_visible_layers(**{key: default})
            self._layer_actions[key] = act

    def _build_toolbars(self) -> None:
        tb = self.addToolBar("Playback")
        tb.setObjectName("toolbarPlayback")
        tb.setToolButtonStyle(QtCore.Qt.ToolButtonTextBesideIcon)
        for act in self.playback.step_actions():
            tb.addAction(act)
        tb.addSeparator()
        tb.addWidget(QtWidgets.QLabel(" Speed "))
        tb.addWidget(self.playback.speed_slider)
        tb.addWidget(self.playback.speed_label)

        edit = self.addToolBar("Edit")
        edit.setObjectName("toolbarEdit")
        edit.addAction(self.actionClassPos)
        edit.addAction(self.actionClassNeg)
        edit.addSeparator()
        edit.addAction(self.actionUndo)
        edit.addAction(self.actionRedo)
        edit.addAction(self.actionClear)
        edit.addAction(self.actionFitView)
        self._toolbars = [tb, edit]

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.setObjectName("menuFile")
        examples = file_menu.addMenu("&Example data")
        examples.setObjectName("menuExamples")
        for name, description in generators.DESCRIPTIONS.items():
            act = examples.addAction(name.capitalize())
            act.setObjectName(f"actionExample_{name}")
            act.setStatusTip(description)
            act.triggered.connect(lambda _=False, n=name: self.load_example(n))
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
        for dock in self.docks.values():
            view.addAction(dock.toggleViewAction())
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
        self.canvas.editRequested.connect(self.push_edit)
        self.canvas.dragFinished.connect(self.end_drag)
        self.canvas.activeClassChanged.connect(self._on_active_class)
        self.learner_panel.message.connect(self.show_message)
        self.undo_stack.cleanChanged.connect(self.update_title)
        self.undo_stack.indexChanged.connect(self._update_actions)
        self.playback.stateChanged.connect(self._update_actions)
        # the workspace's signals are plain callbacks: disconnect them when the
        # window goes, or a workspace that outlives it would call a deleted object
        self._ws_slots = [
            (ws.message, self.show_message),
            (ws.learner_changed, self._on_learner_changed),
            (ws.run_changed, self._on_run_changed),
        ]
        for signal, slot in self._ws_slots:
            signal.connect(slot)
        self.destroyed.connect(self._disconnect_workspace)
        # the canvas draws the kernel margin too: redraw it when a deferred result lands
        connect_for_lifetime(self.canvas, (ws.theory_changed,), self.canvas.refresh)

    def _disconnect_workspace(self, *_args) -> None:
        for signal, slot in getattr(self, "_ws_slots", ()):
            signal.disconnect(slot)
        self._ws_slots = []

    def show_message(self, text: str, msecs: int = 8000) -> None:
        """Show a message in the status bar."""
        self.statusBar().showMessage(text, msecs)

    def _on_run_changed(self, _event=None) -> None:
        self._update_actions()

    def _install_features(self) -> None:
        """Let each feature module add its docks, menus and actions (one line each).

        A feature module exposes ``install(window)``; it may use ``self.menus``
        (the menu bar's menus by key), ``self.docks``, the actions, and the
        hooks :attr:`edit_guards` (callables asked before an edit is pushed).
        """
        from .features import (
            autosave,
            demo_player,
            export,
            files,
            presenter,
            theory_worker,
            timeline,
        )

        self.theory_worker = theory_worker.install(self)
        self.timeline = timeline.install(self)
        self.files = files.install(self)
        self.autosave = autosave.install(self)
        self.demos = demo_player.install(self)
        self.exporter = export.install(self)
        self.presenter = presenter.install(self)

    # -- editing -----------------------------------------------------------------------
    def push_edit(self, edit) -> bool:
        """Validate ``edit`` against the data and push it on the undo stack.

        Returns False (and says why in the status bar) when the edit is invalid;
        the data are then unchanged.
        """
        try:
            applied = Applied.of(edit, self.workspace.dataset)
        except ValueError as exc:
            self.statusBar().showMessage(f"Not done: {exc}", 8000)
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
        """The drag ended: the next move starts a new undo step."""
        self._drag += 1

    def clear_points(self) -> None:
        """Remove every point (one undo step)."""
        if self.workspace.dataset.n:
            self.push_edit(Clear())

    def load_example(self, name: str, seed: int = 0) -> None:
        """Replace the points by a generated example data set (undoable)."""
        data = generators.GENERATORS[name](seed=seed)
        self.push_edit(ReplaceAll.from_dataset(data, f"{name} example"))
        self.canvas.fit_view()

    def _on_active_class(self, label: int) -> None:
        (self.actionClassPos if label > 0 else self.actionClassNeg).setChecked(True)

    # -- state -> controls -------------------------------------------------------------
    def _on_learner_changed(self) -> None:
        self.playback.sync()
        problem = self.workspace.problem
        if problem:
            self.statusBar().showMessage(problem)
        self._update_actions()

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
        self.speedSlider.setEnabled(ws.is_perceptron)

    def update_title(self, *_args) -> None:
        """Set the window title from the document (file name, ``*`` when unsaved)."""
        files = getattr(self, "files", None)  # the File menu's manager knows the document
        self.setWindowTitle(files.window_title() if files is not None else "perceptron-gui")

    # -- help ----------------------------------------------------------------------------
    def show_help(self) -> None:
        """The keyboard and mouse reference."""
        QtWidgets.QMessageBox.information(self, "Keyboard and mouse", HELP_TEXT)

    def show_about(self) -> None:
        from .. import __version__

        QtWidgets.QMessageBox.about(
            self, "About perceptron-gui",
            f"<b>perceptron-gui {__version__}</b><p>The perceptron, its dual and LDA, step by "
            "step, with the margin and the Novikoff bound live.</p>")

    # -- settings ------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        settings = QtCore.QSettings()
        settings.beginGroup("mainWindow")
        geometry = settings.value("geometry")
        state = settings.value("state")
        speed = settings.value("speed")
        settings.endGroup()
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        if state is not None:
            self._layout_pending = not self.restoreState(state)
        if speed is not None:
            try:
                self.speedSlider.setValue(int(speed))
            except (TypeError, ValueError):
                pass

    def save_settings(self) -> None:
        """Remember geometry, dock layout and speed (QSettings)."""
        settings = QtCore.QSettings()
        settings.beginGroup("mainWindow")
        settings.setValue("geometry", self.saveGeometry())
        settings.setValue("state", self.saveState())
        settings.setValue("speed", self.speedSlider.value())
        settings.endGroup()

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        if self._layout_pending:  # first show without a saved layout: size the docks
            self._layout_pending = False
            self.resizeDocks([self.docks["learner"], self.docks["plots"]], [330, 400],
                             QtCore.Qt.Horizontal)
            learner_h = self.learner_panel.sizeHint().height() + 30
            self.resizeDocks([self.docks["learner"], self.docks["readouts"]],
                             [learner_h, max(300, self.height() - learner_h)],
                             QtCore.Qt.Vertical)

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        files = getattr(self, "files", None)
        if files is not None and not files.confirm_close(event):
            return  # unsaved changes: a window-modal question is open
        if getattr(self, "autosave", None) is not None:
            self.autosave.clean_exit()
        self.playback.shutdown()
        self.theory_worker.shutdown()
        self.save_settings()
        self._disconnect_workspace()
        super().closeEvent(event)


HELP_TEXT = """\
Mouse on the canvas
  Left click              add a point of the active class
  Right click             add a point of the other class
  Drag a point            move it (one undo step per drag)
  Drag empty space        pan;  wheel: zoom;  middle drag: pan
  Click a point           select it;  Delete / Backspace removes it

Keys
  1 / 2                   active class +1 / −1
  Space                   run to the next update (mistake)
  S, Shift+Space          examine the next sample
  E                       run to the end of the epoch
  P                       play / pause
  B                       step back
  Home                    reset to w = 0
  End                     run to the end;  Esc cancels
  F                       fit the view
  Ctrl+Z / Ctrl+Shift+Z   undo / redo
"""
