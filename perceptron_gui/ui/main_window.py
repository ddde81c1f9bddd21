"""The main window: canvas in the middle, learner, readouts and live plots beside it.

It owns the undo stack, the actions (toolbar, menus, shortcuts) and the
playback timers; everything it shows is drawn from the Qt-free
:class:`~perceptron_gui.core.workspace.Workspace` in :attr:`MainWindow.workspace`.
One method, :meth:`MainWindow._update_actions`, sets the enabled state of every
control from the workspace.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from ..core import Workspace, datasets
from ..core.dataset import Clear, MovePoints, ReplaceAll
from .commands import EditCommand
from .learner_panel import LearnerPanel
from .plots import LivePlots
from .readouts import ReadoutPanel
from .widgets.canvas import Canvas

__all__ = ["MainWindow", "speed_from_slider"]

#: Frame budget of one slice of "run to end", in seconds (the UI stays responsive).
RUN_SLICE_SECONDS = 0.015
_SPEED_MIN, _SPEED_MAX = 0.5, 5000.0


def speed_from_slider(value: int) -> float:
    """Steps per second for a slider position 0..100 (logarithmic, 0.5 to 5000)."""
    frac = min(max(value, 0), 100) / 100.0
    return _SPEED_MIN * (_SPEED_MAX / _SPEED_MIN) ** frac


def slider_from_speed(speed: float) -> int:
    """Inverse of :func:`speed_from_slider` (rounded)."""
    speed = min(max(speed, _SPEED_MIN), _SPEED_MAX)
    return round(100 * math.log(speed / _SPEED_MIN) / math.log(_SPEED_MAX / _SPEED_MIN))


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
        The plot of the points and the model (objectName ``canvas``).
    """

    def __init__(self, workspace: Workspace | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.workspace = workspace if workspace is not None else Workspace()
        self.undo_stack = QtGui.QUndoStack(self)
        self._drag_serial = 0
        #: Callables ``guard(edit) -> bool`` asked before an edit is pushed (e.g. a
        #: confirmation when the run is scrubbed back); any False cancels the edit.
        self.edit_guards: list = []

        self.canvas = Canvas(self.workspace)
        self.setCentralWidget(self.canvas)
        self.learner_panel = LearnerPanel(self.workspace)
        self.readouts = ReadoutPanel(self.workspace)
        self.plots = LivePlots(self.workspace)
        self._docks = {
            "learner": self._dock("Learner", self.learner_panel, QtCore.Qt.LeftDockWidgetArea),
            "readouts": self._dock("Readouts", self.readouts, QtCore.Qt.LeftDockWidgetArea,
                                   scroll=True),
            "plots": self._dock("Live plots", self.plots, QtCore.Qt.RightDockWidgetArea),
        }
        self._layout_pending = True

        self._play_timer = QtCore.QTimer(self, objectName="playTimer")
        self._play_timer.timeout.connect(self._play_tick)
        self._run_timer = QtCore.QTimer(self, objectName="runTimer")
        self._run_timer.setInterval(0)
        self._run_timer.timeout.connect(self._run_slice)

        self._build_actions()
        self._build_toolbars()
        self._build_menus()
        self._build_status_bar()
        self._connect()
        self._install_features()
        self._restore_settings()
        self._update_title()
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
        sp = QtWidgets.QStyle.StandardPixmap
        a = self._action
        self.actionStepSample = a("actionStepSample", "Step &sample", self.step_sample,
                                  ["S", "Shift+Space"], "Examine the next sample",
                                  icon=sp.SP_ArrowRight)
        self.actionStep = a("actionStep", "Step to next &update", self.step_update,
                            "Space", "Run to the next update (mistake)",
                            icon=sp.SP_MediaSeekForward)
        self.actionStepEpoch = a("actionStepEpoch", "Step &epoch", self.step_epoch,
                                 "E", "Run to the end of the epoch",
                                 icon=sp.SP_ToolBarHorizontalExtensionButton)
        self.actionPlay = a("actionPlay", "&Play", self.set_playing, "P",
                            "Play / pause: examine samples at the chosen speed",
                            checkable=True, icon=sp.SP_MediaPlay)
        self.actionStepBack = a("actionStepBack", "Step &back", self.step_back, "B",
                                "Undo the last step", icon=sp.SP_MediaSeekBackward)
        self.actionReset = a("actionReset", "&Reset", self.reset_run, "Home",
                             "Back to w = 0", icon=sp.SP_MediaSkipBackward)
        self.actionRunToEnd = a("actionRunToEnd", "Run to e&nd", self.run_to_end, "End",
                                "Run until an epoch without a mistake, or max epochs",
                                icon=sp.SP_MediaSkipForward)
        self.actionCancel = a("actionCancel", "&Cancel", self.cancel_run, "Esc",
                              "Stop running to the end")
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
        for act, short in ((self.actionReset, "Reset"), (self.actionStepBack, "Back"),
                           (self.actionStepSample, "Sample"), (self.actionStep, "Update"),
                           (self.actionStepEpoch, "Epoch"), (self.actionPlay, "Play"),
                           (self.actionRunToEnd, "Run to end")):
            act.setIconText(short)
        for act in (self.actionReset, self.actionStepBack, self.actionStepSample,
                    self.actionStep, self.actionStepEpoch, self.actionPlay,
                    self.actionRunToEnd):
            tb.addAction(act)
        tb.addSeparator()
        tb.addWidget(QtWidgets.QLabel(" Speed "))
        self.speedSlider = QtWidgets.QSlider(QtCore.Qt.Horizontal, objectName="speedSlider")
        self.speedSlider.setRange(0, 100)
        self.speedSlider.setFixedWidth(140)
        self.speedSlider.setToolTip("Playback speed, in steps per second (logarithmic)")
        self.speedLabel = QtWidgets.QLabel(objectName="speedLabel")
        self.speedLabel.setMinimumWidth(90)
        tb.addWidget(self.speedSlider)
        tb.addWidget(self.speedLabel)
        self.speedSlider.valueChanged.connect(self._on_speed_changed)
        self.speedSlider.setValue(slider_from_speed(5.0))
        self._on_speed_changed(self.speedSlider.value())

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
        for name, description in datasets.DESCRIPTIONS.items():
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
        for dock in self._docks.values():
            view.addAction(dock.toggleViewAction())
        run = bar.addMenu("&Run")
        run.setObjectName("menuRun")
        for act in (self.actionStepSample, self.actionStep, self.actionStepEpoch,
                    self.actionPlay, self.actionStepBack, self.actionReset,
                    self.actionRunToEnd, self.actionCancel):
            run.addAction(act)
        help_menu = bar.addMenu("&Help")
        help_menu.setObjectName("menuHelp")
        #: The menus by key, for feature modules: file, edit, view, run, help.
        self.menus = {"file": file_menu, "edit": edit_menu, "view": view, "run": run,
                      "help": help_menu}
        help_menu.addAction(self.actionShortcuts)
        help_menu.addAction(self.actionAbout)

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self.progress = QtWidgets.QProgressBar(objectName="runProgress")
        self.progress.setMaximumWidth(180)
        self.progress.setVisible(False)
        self.progressLabel = QtWidgets.QLabel(objectName="runProgressLabel")
        self.progressLabel.setVisible(False)
        self.cancelButton = QtWidgets.QToolButton(objectName="cancelButton")
        self.cancelButton.setDefaultAction(self.actionCancel)
        self.cancelButton.setVisible(False)
        status.addPermanentWidget(self.progressLabel)
        status.addPermanentWidget(self.progress)
        status.addPermanentWidget(self.cancelButton)

    def _connect(self) -> None:
        ws = self.workspace
        self.canvas.editRequested.connect(self.push_edit)
        self.canvas.dragFinished.connect(self._end_drag)
        self.canvas.activeClassChanged.connect(self._on_active_class)
        self.learner_panel.message.connect(self.show_message)
        self.undo_stack.cleanChanged.connect(self._update_title)
        self.undo_stack.indexChanged.connect(self._update_actions)
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
        (the menu bar's menus by key), ``self._docks``, the actions, and the
        hooks :attr:`edit_guards` (callables asked before an edit is pushed).
        """
        from . import background, timeline

        self.theory_worker = background.install(self)
        self.timeline = timeline.install(self)
        from . import files

        self.files = files.install(self)
        from . import autosave

        self.autosave = autosave.install(self)
        from . import demo_player

        self.demos = demo_player.install(self)
        from . import export, presenter

        self.exporter = export.install(self)
        self.presenter = presenter.install(self)

    # -- editing -----------------------------------------------------------------------
    def push_edit(self, edit) -> bool:
        """Validate ``edit`` against the data and push it on the undo stack.

        Returns False (and says why in the status bar) when the edit is invalid;
        the data are then unchanged.
        """
        try:
            edit.apply(self.workspace.dataset)
        except ValueError as exc:
            self.statusBar().showMessage(f"Not done: {exc}", 8000)
            return False
        for guard in self.edit_guards:
            if not guard(edit):
                return False
        drag = self._drag_serial if isinstance(edit, MovePoints) else None
        self.undo_stack.push(EditCommand(self.workspace, edit, drag=drag))
        return True

    def _end_drag(self) -> None:
        self._drag_serial += 1

    def clear_points(self) -> None:
        """Remove every point (one undo step)."""
        if self.workspace.dataset.n:
            self.push_edit(Clear())

    def load_example(self, name: str, seed: int = 0) -> None:
        """Replace the points by a generated example data set (undoable)."""
        data = datasets.GENERATORS[name](seed=seed)
        self.push_edit(ReplaceAll.from_dataset(data, f"{name} example"))
        self.canvas.fit_view()

    def _on_active_class(self, label: int) -> None:
        (self.actionClassPos if label > 0 else self.actionClassNeg).setChecked(True)

    # -- playback ----------------------------------------------------------------------
    def step_sample(self) -> None:
        """Examine the next sample."""
        self.workspace.step()

    def step_update(self) -> None:
        """Run to the next update."""
        self.workspace.step_update()

    def step_epoch(self) -> None:
        """Run to the end of the epoch."""
        self.workspace.step_epoch()

    def step_back(self) -> None:
        """Undo the last step."""
        self.set_playing(False)
        self.workspace.step_back()

    def reset_run(self) -> None:
        """Back to w = 0."""
        self.set_playing(False)
        self.cancel_run()
        self.workspace.reset()

    @property
    def speed(self) -> float:
        """Playback speed in steps per second."""
        return speed_from_slider(self.speedSlider.value())

    def _on_speed_changed(self, value: int) -> None:
        speed = speed_from_slider(value)
        self.speedLabel.setText(f"{speed:.3g} steps/s")
        self._play_timer.setInterval(max(16, round(1000.0 / speed)))

    def set_playing(self, on: bool) -> None:
        """Start or stop playback (the checkable ``actionPlay``)."""
        on = bool(on) and self.workspace.can_step
        if self.actionPlay.isChecked() != on:
            self.actionPlay.setChecked(on)  # re-enters through toggled
            return
        if on:
            self._play_timer.start()
        else:
            self._play_timer.stop()
        self.actionPlay.setText("&Pause" if on else "&Play")
        self.actionPlay.setIconText("Pause" if on else "Play")
        self.actionPlay.setIcon(self.style().standardIcon(
            QtWidgets.QStyle.SP_MediaPause if on else QtWidgets.QStyle.SP_MediaPlay))
        self._update_actions()

    def _play_tick(self) -> None:
        ws = self.workspace
        if not ws.can_step:
            self.set_playing(False)
            return
        steps = max(1, round(self.speed * self._play_timer.interval() / 1000.0))
        ws.advance(steps)
        if not ws.can_step:
            self.set_playing(False)

    @property
    def running_to_end(self) -> bool:
        """True while "run to end" works through its slices."""
        return self._run_timer.isActive()

    def run_to_end(self) -> None:
        """Run to the end in slices of one frame, with progress and Cancel."""
        if not self.workspace.can_step or self.running_to_end:
            return
        self.set_playing(False)
        self.progress.setRange(0, int(self.workspace.params["max_epochs"]))
        for w in (self.progress, self.progressLabel, self.cancelButton):
            w.setVisible(True)
        self._run_timer.start()
        self._update_actions()

    def _run_slice(self) -> None:
        ws = self.workspace
        if not ws.can_step:
            self._finish_run()
            return
        ws.advance_for(RUN_SLICE_SECONDS)
        learner = ws.learner
        self.progress.setValue(min(learner.n_epochs_, self.progress.maximum()))
        self.progressLabel.setText(f"epoch {learner.n_epochs_}, {learner.n_updates_} updates")
        if not ws.can_step:
            self._finish_run()

    def cancel_run(self) -> None:
        """Stop running to the end; the run stays where it got to."""
        if self.running_to_end:
            self._finish_run()
            self.statusBar().showMessage(
                f"Cancelled at step {self.workspace.step_count}: the run is paused there.", 8000)

    def _finish_run(self) -> None:
        self._run_timer.stop()
        for w in (self.progress, self.progressLabel, self.cancelButton):
            w.setVisible(False)
        self._update_actions()

    # -- state -> controls -------------------------------------------------------------
    def _on_learner_changed(self) -> None:
        if self.running_to_end and not self.workspace.can_step:
            self._finish_run()
        if self.actionPlay.isChecked() and not self.workspace.can_step:
            self.set_playing(False)
        problem = self.workspace.problem
        if problem:
            self.statusBar().showMessage(problem)
        self._update_actions()

    def _update_actions(self, *_args) -> None:
        """The one place that enables and disables controls, from the workspace."""
        ws = self.workspace
        busy = self.running_to_end
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

    def _update_title(self, *_args) -> None:
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
            self.resizeDocks([self._docks["learner"], self._docks["plots"]], [330, 400],
                             QtCore.Qt.Horizontal)
            learner_h = self.learner_panel.sizeHint().height() + 30
            self.resizeDocks([self._docks["learner"], self._docks["readouts"]],
                             [learner_h, max(300, self.height() - learner_h)],
                             QtCore.Qt.Vertical)

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        files = getattr(self, "files", None)
        if files is not None and not files.confirm_close(event):
            return  # unsaved changes: a window-modal question is open
        if getattr(self, "autosave", None) is not None:
            self.autosave.clean_exit()
        self._play_timer.stop()
        self._run_timer.stop()
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
