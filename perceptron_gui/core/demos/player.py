"""Playing a demo on a workspace: next, previous, go to a step, and check its claims."""

from __future__ import annotations

from dataclasses import dataclass

from .. import game as games
from .. import named_points as named
from ..commands import Command, Run, Seek, SetLayers, SetViewRect, ShowViews
from ..dataset import Dataset
from ..workspace import Workspace
from .captions import fill
from .checks import CHECKS
from .format import Demo, DemoStep
from .reader import DemoError
from .steps import RUN_ACTIONS

_RUN_MOVES = tuple(action for action in RUN_ACTIONS if action != "reset")
#: The commands after which the run is still the same one (only its cursor moved).
_SAME_RUN_COMMANDS = (Run, Seek, SetLayers, SetViewRect, ShowViews)


class DemoTooLong(DemoError):
    """A demo's runs need more steps than the player's ``step_budget`` allows."""


@dataclass(frozen=True)
class WorkspaceState(Command):
    """What a demo changes in a workspace; as a command, put back exactly (a demo ended
    in place is one undo step)."""

    dataset: Dataset
    learner: str
    params: dict
    step: int
    game: object = None  # the game played on the data (core.game), or None
    start: object = None  # the weights set by hand the run starts from, or None

    @classmethod
    def of(cls, workspace) -> WorkspaceState:
        return cls(workspace.dataset, workspace.learner_name, workspace.all_params(),
                   workspace.step_count, games.game_of(workspace), workspace.start)

    def execute(self, workspace) -> None:
        games.detach(workspace)
        workspace.replace(self.dataset, self.learner, self.params, step=self.step,
                          start=self.start)
        if self.game is not None:
            games.attach(workspace, self.game)


class DemoPlayer:
    """Plays a demo on a workspace: next, previous, go to a step (no Qt).

    The workspace is set at once to the demo's start. ``step_budget`` bounds
    the run steps of all the steps (a render sets one, so that a run that does
    not end cannot run for ever): past it :meth:`next` and :meth:`goto` raise
    DemoTooLong. ``carry_out(command)`` carries out the steps' other commands
    (the window's command bus without its undo stack); by default ``execute``.

    Attributes
    ----------
    index : int
        Number of steps applied so far, ``0 .. len(demo.steps)``.
    layers : dict
        ``{layer: bool}`` set by the demo so far (the UI leaves the others as
        they were).
    views_shown : bool or None
        Whether the views beside the canvas are shown (None: never said).
    """

    def __init__(self, workspace: Workspace, demo: Demo, step_budget: int | None = None,
                 carry_out=None):
        self.workspace = workspace
        self._carry_out = carry_out if carry_out is not None else (
            lambda command: command.execute(workspace))
        self.demo = demo
        self.step_budget = step_budget
        self.steps_run = 0
        self._reset()

    def __len__(self) -> int:
        return len(self.demo.steps)

    @property
    def at_end(self) -> bool:
        return self.index >= len(self.demo.steps)

    @property
    def current(self) -> DemoStep | None:
        """The last applied step (None at the start)."""
        return self.demo.steps[self.index - 1] if self.index else None

    @property
    def caption(self) -> str:
        """The current step's caption (the demo's description before the first step),
        its placeholders filled in (version 2)."""
        step = self.current
        text = step.caption if step is not None else self.demo.description
        if step is not None and not text:
            return step.text
        return fill(text, self) if self.demo.version >= 2 else text

    @property
    def upcoming(self) -> DemoStep | None:
        """The step :meth:`next` would apply (None at the end)."""
        return None if self.at_end else self.demo.steps[self.index]

    def next(self) -> DemoStep | None:
        """Apply the next step and return it (None, with nothing done, at the end)."""
        if self.at_end:
            return None
        step = self.demo.steps[self.index]
        self._apply(step)
        return step

    def complete(self, step: DemoStep) -> None:
        """Count ``step``, the upcoming ``run_to_end`` or seek, as applied by the caller.

        For a window that runs it in slices with progress and Cancel; ValueError
        for any other step, or a run that has not got there.
        """
        if step is not self.upcoming or not (step.action == "run_to_end"
                                             or isinstance(step.command, Seek)):
            raise ValueError("complete() takes the upcoming run_to_end or seek step")
        if not self.reached(step):
            raise ValueError(f"the run has not reached step {step.command.step} yet"
                             if isinstance(step.command, Seek) else "the run has not ended yet")
        self._record(step)

    def reached(self, step: DemoStep) -> bool:
        """Whether the run stands where ``step`` (a ``run_to_end`` or a seek) takes it."""
        ws = self.workspace
        if not isinstance(step.command, Seek):
            return not ws.can_step
        target = step.command.step
        return ws.step_count == target or (ws.step_count < target and not ws.can_step)

    def prev(self) -> DemoStep | None:
        """Go back one step; returns the step now current (None at the start)."""
        if self.index == 0:
            return None
        self.goto(self.index - 1)
        return self.current

    def goto(self, i: int) -> None:
        """Restore exactly the state after step ``i`` (0: the demo's start).

        Going back over steps that only moved the run (or the layers) seeks the
        run back; over a step that changed the data, the learner or a parameter,
        it resets to the start and replays steps ``0 .. i-1`` (the run is
        deterministic).
        """
        i = int(i)
        if not 0 <= i <= len(self.demo.steps):
            raise IndexError(f"step {i} is out of range 0..{len(self.demo.steps)}")
        if i < self.index and self.rewinds_to(i):
            self._rewind(i)
        elif i < self.index:
            self._reset()
        while self.index < i:
            self._apply(self.demo.steps[self.index])

    def rewinds_to(self, i: int) -> bool:
        """Whether going back to step ``i`` only seeks the run back (nothing is replayed)."""
        return 0 <= i <= self.index and all(
            s.command is None or isinstance(s.command, _SAME_RUN_COMMANDS)
            for s in self.demo.steps[i:self.index])

    def run_all(self) -> list[str]:
        """Apply every remaining step, checking each; returns the failures
        (``"step 3 (run_to_end): updates: expected 4, got 5"``)."""
        failures = []
        while not self.at_end:
            step = self.next()
            failures += [f"step {self.index} ({step.action}): {f}" for f in self.check(step)]
        return failures

    def check(self, step: DemoStep) -> list[str]:
        """Evaluate ``step``'s claims against the workspace now; returns the failures.

        Meant for the step just applied (``gamma_decreased`` looks at the
        previous step that checked γ).
        """
        failures = []
        for name, expected in step.checks.items():
            check = CHECKS[name]
            failure = check.failure(name, check.evaluate(self, expected), expected)
            if failure:
                failures.append(failure)
        return failures

    def _reset(self) -> None:
        demo = self.demo
        games.detach(self.workspace)  # a game the steps started is started again by them
        self.workspace.replace(demo.dataset, demo.learner, demo.params)
        self.index = 0
        self.layers = dict(demo.layers)
        self.views_shown = demo.views_shown
        self._marks: list[tuple[int, dict, frozenset]] = []
        #: after each step so far (and at the start): the run's position, layers and views
        self._trail: list[tuple[int, dict, bool | None]] = [
            (self.workspace.step_count, dict(self.layers), self.views_shown)]
        self._publish()

    @property
    def named_points(self) -> tuple[tuple[float, float], ...]:
        """The points the current step's checks at a point name (``posterior_at``,
        ``class_scores_at`` …), in their order, once each."""
        step = self.current
        out: list[tuple[float, float]] = []
        for name, expected in (step.checks.items() if step is not None else ()):
            if CHECKS[name].kind in ("probe", "probes"):
                point = (float(expected[0]), float(expected[1]))
                if point not in out:
                    out.append(point)
        return tuple(out)

    def release(self) -> None:
        """The demo ended: its workspace no longer marks the points its captions named."""
        named.clear(self.workspace)

    def _publish(self) -> None:
        """Say what the current caption names (:mod:`~..named_points`), for the canvas."""
        named.set_named(self.workspace, self.named_points)

    def _rewind(self, i: int) -> None:
        """Back to the state after step ``i``, when only the run's cursor moved since."""
        position, layers, views = self._trail[i]
        del self._trail[i + 1:]
        self._marks = [mark for mark in self._marks if mark[0] <= i]
        self.index = i
        self.layers = dict(layers)
        self.views_shown = views
        self.workspace.seek(position)
        self._publish()

    def snapshot(self) -> dict:
        r = self.workspace.readouts()
        return {"gamma": r.gamma, "bound": r.bound, "updates": r.k, "radius": r.radius}

    def previous_mark(self, names) -> dict | None:
        """The snapshot of the latest earlier step that checked one of ``names``."""
        return next((snap for index, snap, checked in reversed(self._marks)
                     if index < self.index and checked.intersection(names)), None)

    def _apply(self, step: DemoStep) -> None:
        """Carry out the step's command: on the workspace, or (layers) in :attr:`layers`."""
        command = step.command
        if isinstance(command, Run) and command.action in _RUN_MOVES:
            self._run(command.action)
        elif isinstance(command, SetLayers):
            self.layers.update(command.switches)  # the window shows them (its view state)
        elif isinstance(command, ShowViews):
            self.views_shown = command.shown
        elif isinstance(command, Seek) and self.step_budget is not None:
            self._seek(command.step)
        elif command is not None:
            self._carry_out(command)
        self._record(step)

    def _seek(self, target: int) -> None:
        """A seek within the step budget: the steps it computes forward count as run."""
        ws = self.workspace
        if not ws.can_step or target <= ws.step_count:
            ws.seek(target)
            return
        before = ws.step_count
        ws.advance(max(0, min(target - before, self.step_budget - self.steps_run)))
        self.steps_run += ws.step_count - before
        if ws.step_count < target and ws.can_step:
            raise self._too_long(f"seek to step {target:,}")

    def _too_long(self, what: str) -> DemoTooLong:
        return DemoTooLong(
            f"{self.demo.source}: steps[{self.index}] ({what}): the run needs more than "
            f"{self.step_budget:,} steps, the most this computes; play the demo in the "
            "window instead")

    def _run(self, action: str) -> None:
        ws = self.workspace
        before = ws.step_count
        if self.step_budget is None:
            getattr(ws, action)()
            return
        if not ws.can_step:
            return
        left = self.step_budget - self.steps_run
        over = left <= 0
        if not over:
            if action == "run_to_end":
                ws.advance(left)
            else:
                getattr(ws, action)()
            self.steps_run += max(0, ws.step_count - before)
            over = (ws.can_step if action == "run_to_end"
                    else self.steps_run > self.step_budget)
        if over:
            raise self._too_long(action)

    def _record(self, step: DemoStep) -> None:
        self.index += 1
        self._trail.append((self.workspace.step_count, dict(self.layers), self.views_shown))
        if step.checks:
            self._marks.append((self.index, self.snapshot(), frozenset(step.checks)))
        self._publish()
