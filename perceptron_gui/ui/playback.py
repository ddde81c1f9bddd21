"""Playback: the step actions, play / pause, run to the end with Cancel, and the speed.

Both timers move the run on the main thread: the play timer a few steps per
tick, the run-to-end timer in slices of :data:`RUN_SLICE_SECONDS`.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from ..core.commands import Run
from ..core.text import fmt_count, fmt_rate, plural
from .actions import ActionSpec
from .deferred import YieldingTimer
from .icon import epoch_icon

__all__ = ["Playback", "RUN_REDRAW_SECONDS", "RUN_SLICE_SECONDS", "speed_from_slider",
           "slider_from_speed"]

#: Frame budget of one slice of "run to end", in seconds (the UI stays responsive).
RUN_SLICE_SECONDS = 0.015
#: Shortest time between two redraws of the canvas while running to the end, in
#: seconds: the picture follows ten times a second and the slices get the rest.
RUN_REDRAW_SECONDS = 0.1
_SPEED_MIN, _SPEED_MAX = 0.5, 5000.0
_PER_EPOCH = 1000  # the progress bar's steps through one epoch


def speed_from_slider(value: int) -> float:
    """Steps per second for a slider position 0..100 (logarithmic, 0.5 to 5000)."""
    frac = min(max(value, 0), 100) / 100.0
    return _SPEED_MIN * (_SPEED_MAX / _SPEED_MIN) ** frac


def slider_from_speed(speed: float) -> int:
    """Inverse of :func:`speed_from_slider` (rounded)."""
    speed = min(max(speed, _SPEED_MIN), _SPEED_MAX)
    return round(100 * math.log(speed / _SPEED_MIN) / math.log(_SPEED_MAX / _SPEED_MIN))


def _fitting_width(bar: QtWidgets.QProgressBar, text: str) -> int:
    """The width at which *bar* shows *text* whole, in its font and its style's margins."""
    opt = QtWidgets.QStyleOptionProgressBar()
    bar.initStyleOption(opt)
    label = bar.style().subElementRect(QtWidgets.QStyle.SubElement.SE_ProgressBarLabel, opt, bar)
    frame = max(0, bar.width() - label.width())  # what the style keeps around the label
    metrics = bar.fontMetrics()  # and some air on either side of the text
    return metrics.horizontalAdvance(text) + frame + 2 * metrics.averageCharWidth()


class Playback(QtCore.QObject):
    """The run's playback controller of a main window (the parent of its actions)."""

    #: Playing or running to the end started or stopped.
    stateChanged = QtCore.Signal()
    _progressValue = QtCore.Signal(int)  # queued to the bar: see _show_progress

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("playback")
        self._window = window
        self._ws = window.workspace
        self.play_timer = QtCore.QTimer(self, objectName="playTimer")
        self.play_timer.timeout.connect(self.tick)
        self.run_timer = YieldingTimer(self, self._run_slice, name="runTimer")
        self._running_to_end = False
        self._target: int | None = None  # the step a long seek goes to (None: the end)
        self._origin = 0  # the step the long seek started from
        self._build_actions()
        self._build_speed()
        self._build_progress()

    # -- construction ------------------------------------------------------------------
    def _build_actions(self) -> None:
        """The step actions speak commands (``Run``: the window's bus calls the methods below
        and a recorder hears them); play and cancel are the playback's own."""
        sp = QtWidgets.QStyle.StandardPixmap
        window = self._window

        def run(action: str):
            return lambda: window.dispatch(Run(action))

        table = (
            ("step_sample", "Step &sample", run("step"), ("S", "Shift+Space"),
             "Examine the next sample", sp.SP_ArrowRight, "Sample"),
            ("step", "Step to next &update", run("step_update"), ("Space",),
             "Run to the next update (mistake)", sp.SP_MediaSeekForward, "Update"),
            ("step_epoch", "Step &epoch", run("step_epoch"), ("E",),
             "Run to the end of the epoch", None, "Epoch"),
            ("play", "&Play", self.set_playing, ("P",),
             "Play / pause: examine samples at the chosen speed", sp.SP_MediaPlay, "Play"),
            ("step_back", "Step &back", run("step_back"), ("B",), "Undo the last step",
             sp.SP_MediaSeekBackward, "Back"),
            ("reset", "&Reset", run("reset"), ("Home",),
             "Back to the start: w = 0, or w₀ set by hand", sp.SP_MediaSkipBackward,
             "Reset"),
            ("run_to_end", "Run to e&nd", run("run_to_end"), ("End",),
             "Run until an epoch without a mistake, or max epochs",
             sp.SP_MediaSkipForward, "Run to end"),
            ("cancel", "&Cancel", self.cancel_run, ("Esc",), "Stop running to the end",
             None, ""))
        self._actions = tuple(window.actions.make(ActionSpec(
            id_, text, slot, keys, tip, icon=icon, icon_text=short, checkable=id_ == "play",
            key_in_tip=True)) for id_, text, slot, keys, tip, icon, short in table)
        (self.actionStepSample, self.actionStep, self.actionStepEpoch, self.actionPlay,
         self.actionStepBack, self.actionReset, self.actionRunToEnd,
         self.actionCancel) = self._actions
        self.actionStepEpoch.setIcon(epoch_icon())  # drawn in the scheme's text colour

    def _build_speed(self) -> None:
        self.speed_slider = QtWidgets.QSlider(QtCore.Qt.Horizontal, objectName="speedSlider")
        self.speed_slider.setRange(0, 100)
        self.speed_slider.setFixedWidth(140)
        self.speed_slider.setToolTip("Playback speed, in steps per second (logarithmic)")
        self.speed_slider.setAccessibleName("Playback speed")
        self.speed_label = QtWidgets.QLabel(objectName="speedLabel")
        self.speed_label.setMinimumWidth(90)
        self.speed_slider.valueChanged.connect(self._on_speed_changed)
        self.speed_slider.setValue(slider_from_speed(5.0))
        self._on_speed_changed(self.speed_slider.value())

    def _build_progress(self) -> None:
        self.progress = QtWidgets.QProgressBar(objectName="runProgress")
        self.progress.setRange(0, _PER_EPOCH)
        self.progress.setToolTip(
            "How far the run is through the current epoch (the run ends after an\n"
            "epoch without a mistake, or after the learner's Max epochs)")
        self.progress.setVisible(False)
        self._progressValue.connect(self.progress.setValue, QtCore.Qt.QueuedConnection)
        self.progress_label = QtWidgets.QLabel(objectName="runProgressLabel")
        self.progress_label.setVisible(False)
        self.cancel_button = QtWidgets.QToolButton(objectName="cancelButton")
        self.cancel_button.setDefaultAction(self.actionCancel)
        self.cancel_button.setVisible(False)

    def step_actions(self) -> list[QtGui.QAction]:
        """The actions of the playback toolbar, in order."""
        return [self.actionReset, self.actionStepBack, self.actionStepSample, self.actionStep,
                self.actionStepEpoch, self.actionPlay, self.actionRunToEnd]

    def run_menu_actions(self) -> list[QtGui.QAction]:
        """The actions of the Run menu, in order: every action of the playback."""
        return list(self._actions)

    def status_widgets(self) -> list[QtWidgets.QWidget]:
        """The status-bar widgets of a run to the end, in order."""
        return [self.progress_label, self.progress, self.cancel_button]

    # -- stepping ----------------------------------------------------------------------
    def step_sample(self) -> None:
        """Examine the next sample."""
        self._ws.step()

    def step_update(self) -> None:
        """Run to the next update."""
        self._ws.step_update()

    def step_epoch(self) -> None:
        """Run to the end of the epoch."""
        self._ws.step_epoch()

    def step_back(self) -> None:
        """Undo the last step."""
        self.set_playing(False)
        self._ws.step_back()

    def reset(self) -> None:
        """Back to w = 0."""
        self.set_playing(False)
        self.cancel_run()
        self._ws.reset()

    def stop(self) -> None:
        """Hold the run still: pause playback and cancel a run to the end."""
        if self.actionPlay.isChecked():
            self.set_playing(False)
        if self.running_to_end:
            self.cancel_run()

    # -- speed -------------------------------------------------------------------------
    @property
    def speed(self) -> float:
        """Playback speed in steps per second."""
        return speed_from_slider(self.speed_slider.value())

    def _on_speed_changed(self, value: int) -> None:
        speed = speed_from_slider(value)
        self.speed_label.setText(fmt_rate(speed))
        self.play_timer.setInterval(max(16, round(1000.0 / speed)))

    # -- play --------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        """True while playback plays."""
        return self.actionPlay.isChecked()

    def set_playing(self, on: bool) -> None:
        """Start or stop playback (the checkable ``actionPlay``)."""
        on = bool(on) and self._ws.can_step
        if self.actionPlay.isChecked() != on:
            self.actionPlay.setChecked(on)  # re-enters through toggled
            return
        if on:
            self.play_timer.start()
        else:
            self.play_timer.stop()
        self.hold_play_width()
        self.actionPlay.setText("&Pause" if on else "&Play")
        self.actionPlay.setIconText("Pause" if on else "Play")
        self.actionPlay.setIcon(self._window.style().standardIcon(
            QtWidgets.QStyle.SP_MediaPause if on else QtWidgets.QStyle.SP_MediaPlay))
        self.stateChanged.emit()

    def hold_play_width(self) -> None:
        """Give each tool button of ``actionPlay`` the width of "Pause", its wider text (from
        its own size hint): else the buttons after it shift as playback starts and stops."""
        for button in self.actionPlay.associatedObjects():
            if not isinstance(button, QtWidgets.QToolButton):
                continue
            metrics = button.fontMetrics()
            mnemonic = QtCore.Qt.TextFlag.TextShowMnemonic

            def width(text: str, metrics=metrics, mnemonic=mnemonic) -> int:
                return metrics.size(mnemonic, text).width()

            hint = button.sizeHint().width() - width(button.text())
            button.setMinimumWidth(hint + max(width("Play"), width("Pause")))

    def tick(self) -> None:
        """One tick of the play timer: the steps due at the current speed."""
        ws = self._ws
        if not ws.can_step:
            self.set_playing(False)
            return
        steps = max(1, round(self.speed * self.play_timer.interval() / 1000.0))
        ws.advance(steps)
        if not ws.can_step:
            self.set_playing(False)

    # -- run to the end ----------------------------------------------------------------
    @property
    def running_to_end(self) -> bool:
        """True while "run to end" (or a long seek, :meth:`seek`) works through its slices."""
        return self._running_to_end

    def run_to_end(self) -> None:
        """Run to the end in slices of one frame, with progress and Cancel; the first slice
        runs at once, so a run that ends in it shows no progress (nothing flashes)."""
        self._run_in_slices(None)

    def seek(self, step: int) -> None:
        """Put the run's cursor at ``step`` (or the run's end), the steps past the frontier
        computed in slices as "run to end" does while the run shown stays (Cancel: there)."""
        self.stop()
        ws, step = self._ws, max(0, int(step))
        if not ws.can_step or step <= ws.learner.frontier:
            ws.seek(step)
        else:
            self._run_in_slices(step)

    def _slice(self) -> None:
        ws, target = self._ws, self._target
        if target is None:
            ws.advance_for(RUN_SLICE_SECONDS)
        else:
            ws.compute_for(RUN_SLICE_SECONDS, target - ws.learner.frontier)

    def _arrived(self) -> bool:
        """Whether the run to the end ended, or a seek's steps are computed (then it seeks)."""
        ws, target = self._ws, self._target
        if target is None:
            return not ws.can_step
        if ws.can_step and ws.learner.frontier < target and ws.learner.end_step is None:
            return False
        ws.seek(target)
        return True

    def _run_in_slices(self, target: int | None) -> None:
        if not self._ws.can_step or self.running_to_end:
            return
        if self.playing:
            self.set_playing(False)
        self._target, self._origin = target, self._ws.learner.frontier
        self._slice()
        if self._arrived():
            return
        self._show_progress()
        for w in self.status_widgets():
            w.setVisible(True)
        self._running_to_end = True
        self.run_timer.start()
        self.stateChanged.emit()

    def _run_slice(self) -> None:
        """One slice, then the timer again from its end: a repeating timer would be due from
        the start of its pass, ahead of every timer that came due during the slice."""
        if not self._running_to_end:
            return
        if self._arrived():
            self._finish_run()
            return
        try:
            self._slice()
        except BaseException:
            self._finish_run()  # the error is reported; the controls come back
            raise
        self._show_progress()
        if self._arrived():
            self._finish_run()
        elif self._running_to_end:
            self.run_timer.start()

    def _show_progress(self) -> None:
        """The bar: how far through the current epoch (a seek's: to its step); the label:
        which epoch of at most ``max_iter`` (how many a run takes is not known)."""
        ws, learner = self._ws, self._ws.learner
        n, t, epoch = max(1, ws.dataset.n), learner.step_count, learner.n_epochs_
        if self._target is None:
            into = t - (epoch - 1) * n if epoch else 0
            text = f"%p% of epoch {fmt_count(max(epoch, 1))}"
        else:
            n, into = max(1, self._target - self._origin), learner.frontier - self._origin
            text = f"%p% of the way to step {fmt_count(self._target)}"
        # QProgressBar.setValue repaints at once, and with it all of the window
        # that waits for a repaint: queued, that paint is an event of its own
        # between two slices, not a part of the slice
        self._progressValue.emit(min(_PER_EPOCH, _PER_EPOCH * into // n))
        if self.progress.format() != text:
            self.progress.setFormat(text)
        width = _fitting_width(self.progress, text.replace("%p", "100"))
        if self.progress.width() != width:
            self.progress.setFixedWidth(width)
        if self._target is not None:
            self.progress_label.setText(f"computing step {fmt_count(learner.frontier)} of "
                                        f"{fmt_count(self._target)}")
            return
        most = int(ws.params["max_iter"])
        updates = plural(learner.n_updates_, "update")
        self.progress_label.setText(
            f"epoch {fmt_count(epoch)} of at most {fmt_count(most)}, {updates}")

    def cancel_run(self) -> None:
        """Stop running to the end; the run stays where it got to."""
        if self.running_to_end:
            self._finish_run()
            self._window.show_message(
                f"Cancelled at step {fmt_count(self._ws.step_count)}: the run is paused there.")

    def _finish_run(self) -> None:
        self._running_to_end = False
        self.run_timer.stop()
        for w in self.status_widgets():
            w.setVisible(False)
        self.stateChanged.emit()

    # -- the workspace changed ---------------------------------------------------------
    def sync(self) -> None:
        """Stop what can no longer go on (the learner changed and cannot step)."""
        if self.running_to_end and not self._ws.can_step:
            self._finish_run()
        if self.actionPlay.isChecked() and not self._ws.can_step:
            self.set_playing(False)

    def shutdown(self) -> None:
        """Stop both timers (the window closes); no run goes on."""
        self._running_to_end = False
        self.play_timer.stop()
        self.run_timer.stop()
