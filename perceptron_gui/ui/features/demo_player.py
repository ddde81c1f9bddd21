"""Narrated demos in the window: the Demos menu, the caption bar, and next / previous.

The Qt-free :class:`~perceptron_gui.core.demos.DemoPlayer` does the work,
through the command bus without the undo stack.  Next and Previous are the
demo's undo and redo: mixing its steps into Ctrl+Z would let an undo restore
half a demo.  So Stop (Esc) puts the user's work back and their undo history
is valid again; a click on the canvas changes nothing (a presenter's stray
click never discards the demo); *Edit the demo's data*, or new data from a
menu, ends the demo in place as ONE undo step; opening a file ends it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6 import QtCore, QtWidgets

from ...core.commands import Run, Seek, SetLayers, SetViewRect, SetWeights, ShowViews
from ...core.dataset import Dataset, ReplaceAll
from ...core.viewstate import content_layers
from .. import style
from ..actions import ActionSpec
from ..commands import Context, UndoStep
from ..deferred import YieldingTimer
from ..icon import glyph_icon
from ..widgets import Guard
from .demo_caption import DemoBar
from .demo_keys import ClickerKeys
from .demo_list import DemoList

if TYPE_CHECKING:
    from ...core import demos

__all__ = ["EDIT_HINT", "END_HINT", "DemoUI"]

#: What the caption bar says when a click on the canvas would have edited the demo's data.
EDIT_HINT = "A click does not edit a demo: Demos ▸ Edit the demo's data, or Esc to stop"
#: What it says when w is set by hand (typed or dragged) while a demo plays.
WEIGHTS_HINT = "w set by hand does not change a demo's run: Esc stops the demo first"
#: What it says when → is pressed after the last caption.
END_HINT = "The demo has ended: ← goes back, Esc stops it"

#: A ``run_to_end`` step that ends within this many steps (points × max epochs, from
#: where the run is) runs at once; a longer one in the window's slices, with Cancel.
RUN_AT_ONCE_STEPS = 100_000


@dataclass(frozen=True)
class _Pending:
    """A step run in the window's slices towards ``target``, from the run at ``start`` on
    the data ``before`` (the view is framed if they change)."""

    step: object
    start: int
    target: int
    before: Dataset


@dataclass(frozen=True)
class _Saved:
    """The window before a demo: its workspace state, layers, view rectangle and views."""

    state: demos.WorkspaceState
    layers: dict
    view: tuple | None
    views: bool = False


class DemoUI(QtCore.QObject):
    """The demos feature of a main window: ``player`` while a demo plays (else None)."""

    started = QtCore.Signal(str)
    stopped = QtCore.Signal()
    stepped = QtCore.Signal(int)

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("demos")
        self._window = window
        self._ws = window.workspace
        self.player: demos.DemoPlayer | None = None
        self._saved: _Saved | None = None
        self._pending: _Pending | None = None
        self._own = Guard()  # workspace changes made inside are the demo's own
        self._keys = ClickerKeys(self, window, self._on_clicker_key)
        # a message said after the playback's own (a cancelled run's "Cancelled at step …")
        self._later_text = ""
        self._message_timer = YieldingTimer(self, self._say_later, name="demoMessage")
        self._build_bar()
        self._build_actions()
        self._build_menu()
        window.edit_guards.append(self._guard_edit)
        self._ws.events.dataset_changed.connect(self._on_dataset_changed)
        window.playback.stateChanged.connect(self._on_playback_state)
        window.installEventFilter(self)
        self._update()

    # -- construction -------------------------------------------------------------------
    def _build_bar(self) -> None:
        self.bar = DemoBar(hints=(EDIT_HINT, END_HINT))
        #: The caption, title and "step i / n" (objectName ``captionBar``).
        self.caption_bar = self.bar.caption
        self.bar.set_area(self._window.add_below_canvas(self.bar))  # under the canvas

    def _build_actions(self) -> None:
        sp = QtWidgets.QStyle.StandardPixmap
        make = self._window.actions.make
        self.actionNext = make(ActionSpec(
            "demo_next", "&Next step", self.next, ("Right", "PgDown"),
            "Next step of the demo (→ or Page Down)", icon=sp.SP_ArrowRight, icon_text="Next"))
        self.actionPrev = make(ActionSpec(
            "demo_prev", "&Previous step", self.prev, ("Left", "PgUp"),
            "Previous step of the demo (← or Page Up)", icon=sp.SP_ArrowLeft, icon_text="Back"))
        self.actionRestart = make(ActionSpec("demo_restart", "&Restart demo", self.restart,
                                             tip="Back to the start of the demo"))
        # the menu entry, always usable while a demo plays; Esc is a separate action
        # enabled only while no run to the end claims Esc (before presenter mode's leave)
        self.actionStop = make(ActionSpec(
            "demo_stop", "&Stop demo\tEsc", self.stop,
            tip="Stop the demo and put back your work as it was (Esc)",
            icon=sp.SP_DialogCloseButton, icon_text="Stop"))
        self.actionStopKey = make(ActionSpec("demo_stop_key", "Stop demo", self.stop, ("Esc",)))
        self.actionKeep = make(ActionSpec(
            "demo_keep", "&Edit the demo's data", self.keep_editing,
            tip="End the demo here and edit its data (Ctrl+Z then gives back your work)"))
        for act in (self.actionPrev, self.actionNext, self.actionStop):
            act.setIcon(glyph_icon(act.icon()))  # the style's dark glyph, in the scheme's colour
            self.bar.add_button(act)

    def _build_menu(self) -> None:
        w = self._window
        self.menu = QtWidgets.QMenu("&Demos", w, objectName="menuDemos")
        self.menu.setToolTipsVisible(True)
        w.add_menu("demos", self.menu, before="help")
        separator = self.menu.addSeparator()
        for act in (self.actionNext, self.actionPrev, self.actionRestart, self.actionKeep,
                    self.actionStop):
            self.menu.addAction(act)
        #: the demos listed above the keys (read when the menu first opens, not at launch)
        self.listing = DemoList(self.menu, separator, self.play)

    @property
    def library(self):
        """The shipped demos and the user's own."""
        return self.listing.library

    # -- state --------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        """True while a demo plays."""
        return self.player is not None

    @property
    def index(self) -> int:
        """Steps applied so far (0 without a demo)."""
        return self.player.index if self.player is not None else 0

    def set_scale(self, scale: style.Scale) -> None:
        """Caption sizes for ``scale``, and the colours of the scheme in use."""
        self.bar.set_scale(scale)
        self._update()

    # -- commands -----------------------------------------------------------------------
    def play(self, demo) -> bool:
        """Start a demo (a ``Demo``, a shipped or user demo's name, or a path); False if not.

        Playing another demo while one plays keeps the work saved before the first.
        """
        demos = _demos()
        if not isinstance(demo, demos.Demo):
            try:
                try:
                    demo = demos.load_demo(demo)
                except demos.UnknownDemoError:  # not shipped: one of the user's?
                    demo = self.library.load(str(demo))
            except demos.DemoError as exc:
                self._window.report_error("Demo not started", str(exc))
                return False
        w = self._window
        self._quiet_window()
        if self._saved is None:
            state = w.view_state
            self._saved = _Saved(demos.WorkspaceState.of(self._ws), state.layers(), state.rect,
                                 state.views_shown)
        before = self._ws.dataset
        with self._own:
            # the demo's steps through the bus without the window: not on the undo stack
            self.player = demos.DemoPlayer(self._ws, demo, carry_out=Context(self._ws).carry_out)
        self.bar.show_player(self.player, new=True)
        self._keys.set_owned(True)
        w.modes.enter("demo", views=demo.views)  # shows the views it uses
        self._show_step(before, fit=True)
        self.started.emit(demo.name)
        return True

    @property
    def running_step(self) -> bool:
        """True while a ``run_to_end`` step runs in the window's slices (Esc cancels it)."""
        return self._pending is not None

    def next(self) -> None:
        """Next step of the demo (nothing while a step's run goes on: the demo waits)."""
        player = self.player
        if player is not None and self._pending is None and not player.at_end:
            self.goto(player.index + 1)

    def prev(self) -> None:
        """Previous step of the demo (a step's run going on is dropped first)."""
        player = self.player
        if player is not None and player.index > 0:
            self.goto(player.index - 1)

    def goto(self, i: int) -> None:
        """Go to the state after step ``i`` (0: the demo's start).

        Going back over steps that only moved the run seeks it back; over
        others the demo replays from its start.  A cancelled long step
        (:data:`RUN_AT_ONCE_STEPS`) leaves the demo at the step before.
        """
        player = self.player
        if player is None:
            return
        i = int(i)
        if not 0 <= i <= len(player):
            raise IndexError(f"step {i} is out of range 0..{len(player)}")
        self._quiet_window()
        before = self._ws.dataset
        if i < player.index:
            with self._own:
                player.goto(i if player.rewinds_to(i) else 0)
        self._advance_to(i, before)

    def restart(self) -> None:
        """Back to the demo's start."""
        self.goto(0)

    def stop(self) -> None:
        """Stop the demo and put back the user's work exactly as it was."""
        if self.player is None:
            return
        saved = self._saved
        self._quiet_window()
        with self._own:
            saved.state.execute(self._ws)
        self._end()
        self._apply_layers(saved.layers)
        self._window.dispatch(SetViewRect(saved.view))
        if self._window.view_state.views_shown != saved.views:
            self._window.dispatch(ShowViews(saved.views))
        self._window.show_message("Demo stopped: your work is back as it was.")

    def keep(self) -> None:
        """End the demo in place: its state becomes the user's, as one undo step."""
        if self.player is None:
            return
        title = self.player.demo.title
        before = self._saved.state
        self._end()
        after = _demos().WorkspaceState.of(self._ws)
        self._window.undo_stack.push(UndoStep(self._ws, after, before, done=True,
                                              text=f"Play demo “{title}”"))

    def keep_editing(self) -> None:
        """End the demo in place (:meth:`keep`) and say how to go back."""
        if self.player is None:
            return
        self.keep()
        self._window.show_message("The demo's data are yours to edit; Ctrl+Z gives back "
                                  "your work from before the demo.")

    # -- internals -----------------------------------------------------------------------
    def _long_move(self, step) -> Run | Seek | None:
        """The command that runs ``step`` in the playback's slices, or None: at once."""
        ws = self._ws
        if not ws.can_step:
            return None
        if isinstance(step.command, Seek):
            far = step.command.step - ws.learner.frontier > RUN_AT_ONCE_STEPS
            return step.command if far else None
        if step.action != "run_to_end":
            return None
        most = ws.dataset.n * int(ws.params.get("max_iter", 1))
        return Run("run_to_end") if most - ws.step_count > RUN_AT_ONCE_STEPS else None

    def _advance_to(self, target: int, before: Dataset) -> None:
        """Apply the steps up to ``target`` (a long run or seek: in the playback's slices)."""
        player, playback = self.player, self._window.playback
        with self._own:
            while player.index < target:
                step = player.upcoming
                move = self._long_move(step)
                if move is not None:
                    self._pending = _Pending(step, self._ws.step_count, target, before)
                    self._window.dispatch(move)
                    if playback.running_to_end:  # the demo goes on when the run ends
                        self._update()
                        return
                    self._pending = None
                    player.complete(step)
                else:
                    player.next()
        self._show_step(before)

    def _on_playback_state(self) -> None:
        if self._pending is not None and not self._window.playback.running_to_end:
            self._end_run_step()

    def _end_run_step(self) -> None:
        pending, self._pending = self._pending, None
        player = self.player
        if player is None:
            return
        if not player.reached(pending.step):  # cancelled (or failed): at the step before
            self._ws.seek(pending.start)
            text = (f"Demo step {player.index + 1} cancelled: the demo is at step "
                    f"{player.index}, its run where it was.")
            self._show_step(pending.before)
            self._later_text = text  # after the playback's own "Cancelled at step …"
            self._message_timer.start()
            return
        with self._own:
            player.complete(pending.step)
        self._advance_to(pending.target, pending.before)

    def _show_step(self, before: Dataset, fit: bool = False) -> None:
        player = self.player
        self.bar.hint = ""
        self._apply_layers({**self._window.view_state.defaults(), **player.layers})
        shown = player.views_shown
        if shown is not None and shown != self._window.view_state.views_shown:
            self._window.dispatch(ShowViews(shown))
        if fit or self._ws.dataset != before:
            self._window.dispatch(SetViewRect(None))  # frame the data
        step = player.current
        if step is not None and step.checks:
            failures = player.check(step)
            if failures:  # a demo author's slip: say so, the demo goes on
                self._window.show_message(f"Demo check failed at step {player.index}: "
                                          + "; ".join(failures), 15000)
        self._update()
        self._window.canvas.refresh(finish=False)  # the points this caption names
        self.stepped.emit(player.index)

    def _end(self) -> None:
        self._pending = None
        if self.player is not None:
            self.player.release()  # no caption names a point any more
        self.player = None
        self._keys.set_owned(False)
        self._saved = None
        self._window.modes.leave("demo")
        self._update()
        self._window.canvas.refresh(finish=False)
        self.stopped.emit()

    def _quiet_window(self) -> None:
        """No playback timer or sliced run may race the demo (a pending step is dropped)."""
        pending, self._pending = self._pending, None
        self._window.playback.stop()
        if pending is not None and self.player is not None and self._ws.running:
            self._ws.seek(pending.start)  # back where the step began

    def _on_dataset_changed(self, _dataset=None) -> None:
        if self.player is not None and not self._own:
            # someone else replaced the data (a file was opened): the demo is over
            self._end()
            self._window.show_message("Demo ended: the data were replaced.")

    def _guard_edit(self, edit) -> bool:
        """A gesture's edit is refused with a hint; new data from a menu end the demo in place."""
        if self.player is None:
            return True
        if isinstance(edit, SetWeights):  # w set by hand: the demo's run is its own
            self.bar.say(WEIGHTS_HINT)
            return False
        if isinstance(edit, ReplaceAll):
            self.keep()
            self._window.show_message("Demo ended: new data replace its data (Ctrl+Z undoes "
                                      "them, then the demo).")
            return True
        self.bar.say(EDIT_HINT)
        return False

    def _on_clicker_key(self, what: str) -> None:
        if self.player is None:
            return
        if what == "prev":
            self.prev()
        elif self.player.at_end:
            self.bar.say(END_HINT)
        else:
            self.next()

    def _say_later(self) -> None:
        text, self._later_text = self._later_text, ""
        if text:
            self._window.show_message(text)

    def _apply_layers(self, layers: dict) -> None:  # one command; a mode's switches kept
        state = self._window.view_state
        changed = {k: bool(on) for k, on in content_layers(layers).items()
                   if state.layer(k) != bool(on)}
        if changed:
            self._window.dispatch(SetLayers(changed))

    def _update(self) -> None:
        player = self.player
        on = player is not None
        self.actionNext.setEnabled(on and not player.at_end and self._pending is None)
        self.actionPrev.setEnabled(on and player.index > 0)
        self.actionRestart.setEnabled(on and player.index > 0)
        self.actionStop.setEnabled(on)
        self._window.modes.update_esc()  # Esc stops the demo unless something else has it
        self.bar.show_player(self.player)

    def eventFilter(self, obj, event) -> bool:
        # large captions in presenter mode, whatever the window manager makes of full screen
        if obj is self._window and event.type() == QtCore.QEvent.Type.WindowStateChange:
            self.set_scale(style.PRESENTER if self._window.presenting else style.NORMAL)
        return False


def _demos():
    """:mod:`perceptron_gui.core.demos`, imported when a demo is first needed, not at launch."""
    return importlib.import_module("perceptron_gui.core.demos")
