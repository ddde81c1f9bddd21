"""A demo being recorded or edited: its start, its steps, their captions and checks.

:class:`DemoDraft` is what the recorder fills and the editor changes (no Qt);
the window's undo keeps copies of it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..commands import Command, Run
from ..learners.registry import DEFAULT_PARAMS
from ..viewstate import content_layers
from .captions import literal_numbers, missing_values
from .format import MAX_STEPS, Demo, parse_demo
from .player import DemoPlayer, DemoTooLong
from .reader import DemoError
from .steps import RUN_ACTIONS
from .writer import demo_to_dict, dumps_demo, file_head, points_spec, step_to_dict, with_caption

__all__ = ["DemoDraft", "DraftStep", "Problem", "STEP_BUDGET"]

#: The most run steps a validation plays (a run that never ends is reported, not awaited).
STEP_BUDGET = 5_000_000


@dataclass
class DraftStep:
    """One step of a draft: what it does, what the caption bar says, what it claims.

    ``data`` is the step as the file writes it, without caption and checks
    (``{"action": "step"}``, ``{"command": {...}}``).
    """

    data: dict
    caption: str = ""
    checks: dict = field(default_factory=dict)

    @classmethod
    def of_command(cls, command: Command, caption: str = "") -> DraftStep:
        """The step that carries out ``command`` (a run action is written as its action)."""
        if isinstance(command, Run) and command.action in RUN_ACTIONS:
            return cls({"action": command.action}, caption)
        return cls({"command": command.to_dict()}, caption)

    @property
    def text(self) -> str:
        """What the step does, for the editor's list ("Step to next update", "Note")."""
        if "command" in self.data:
            from ..commands import from_dict

            try:
                return from_dict(self.data["command"]).text
            except ValueError:
                return str(self.data["command"].get("command", "?"))
        action = self.data.get("action", "?")
        if action in RUN_ACTIONS:
            return Run(action).text
        return "Note" if action == "note" else action.replace("_", " ").capitalize()

    def to_dict(self) -> dict:
        return with_caption(dict(self.data), self.caption, self.checks)


@dataclass(frozen=True)
class Problem:
    """Something that keeps a draft from being saved: ``step`` is 1-based (0: the start)."""

    step: int
    message: str

    def __str__(self) -> str:
        return self.message if self.step == 0 else f"step {self.step}: {self.message}"


@dataclass
class DemoDraft:
    """A demo being written: start, steps, captions and checks.

    ``start`` holds the file's start fields (``data`` unless :attr:`dataset`
    holds the data recorded from a workspace, written as points only when the
    file is); ``order`` is a shipped demo's position in the menu.
    """

    title: str
    description: str
    start: dict
    steps: list = field(default_factory=list)
    order: int | None = None
    dataset: object = None

    @classmethod
    def from_workspace(cls, workspace, title: str = "My demo",
                       description: str = "") -> DemoDraft:
        """A draft starting from ``workspace`` as it is: data, learner, layers, views,
        and every learner's parameters (so the demo starts the same whatever the
        defaults become)."""
        view = workspace.view_state
        params = {key: dict(values) for key, values in workspace.all_params().items()
                  if key in DEFAULT_PARAMS}
        layers = {k: bool(v) for k, v in content_layers(view.layers()).items()}
        start = {"learner": workspace.learner_name, "params": params, "layers": layers,
                 "views": bool(view.views_shown)}
        return cls(title=title, description=description, start=start,
                   dataset=workspace.dataset)

    @classmethod
    def from_demo(cls, demo: Demo) -> DemoDraft:
        """A draft of ``demo`` (a shipped demo's draft saves as a user's copy)."""
        data = demo_to_dict(demo)
        start = {k: data[k] for k in ("data", "learner", "params", "layers", "views")
                 if k in data}
        steps = []
        for step in demo.steps:
            d = step_to_dict(step)
            caption, checks = d.pop("caption"), d.pop("checks", {})
            steps.append(DraftStep(d, caption, dict(checks)))
        return cls(title=demo.title, description=demo.description, start=start,
                   steps=steps, order=demo.order)

    def copy(self) -> DemoDraft:
        """An independent copy (for undo); the start's data set is shared (it is immutable)."""
        return copy.deepcopy(self, {id(self.dataset): self.dataset})

    def record(self, command: Command, caption: str = "") -> int:
        """Append the step that carries out ``command``; its 1-based number (at most MAX_STEPS)."""
        if len(self.steps) >= MAX_STEPS:
            raise ValueError(f"a demo has at most {MAX_STEPS:,} steps")
        self.steps.append(DraftStep.of_command(command, caption))
        return len(self.steps)

    def add_note(self, caption: str, at: int | None = None) -> int:
        """Insert a step that only shows ``caption`` (after step ``at``; default: at the end)."""
        at = len(self.steps) if at is None else self._index(at, allow_end=True)
        self.steps.insert(at, DraftStep({"action": "note"}, caption))
        return at + 1

    def set_caption(self, step: int, caption: str) -> None:
        """Set the caption of the 1-based ``step`` (0: the description before the first)."""
        if step == 0:
            self.description = caption
        else:
            self.steps[self._index(step - 1)].caption = caption

    def caption(self, step: int) -> str:
        """The caption of the 1-based ``step`` (0: the description)."""
        return self.description if step == 0 else self.steps[self._index(step - 1)].caption

    def delete(self, step: int) -> DraftStep:
        """Remove the 1-based ``step``; returns it."""
        return self.steps.pop(self._index(step - 1))

    def move(self, step: int, to: int) -> None:
        """Move the 1-based ``step`` so that it becomes step ``to``."""
        item = self.steps.pop(self._index(step - 1))
        self.steps.insert(self._index(to - 1, allow_end=True), item)

    def replace_command(self, step: int, command: Command) -> None:
        """Make the 1-based ``step`` carry out ``command`` (its caption and checks stay)."""
        old = self.steps[self._index(step - 1)]
        new = DraftStep.of_command(command, old.caption)
        new.checks = old.checks
        self.steps[self._index(step - 1)] = new

    def _index(self, i: int, allow_end: bool = False) -> int:
        top = len(self.steps) + (1 if allow_end else 0)
        if not 0 <= i < top:
            raise IndexError(f"no step {i + 1}: the demo has {len(self.steps)} steps")
        return i

    def to_dict(self) -> dict:
        out = file_head(self.title, self.description, self.order)
        if "data" not in self.start and self.dataset is not None:
            out["data"] = points_spec(self.dataset)
        out.update(self.start)
        out["steps"] = [s.to_dict() for s in self.steps]
        return out

    def to_demo(self, name: str = "demo") -> Demo:
        """The draft as a loaded :class:`Demo` (raises :class:`DemoError` if it is not one)."""
        import json

        return parse_demo(json.dumps(self.to_dict(), ensure_ascii=False), name=name,
                          source=f"{name}.json")

    def dumps(self) -> str:
        """The text of its file (validated as it is loaded)."""
        return dumps_demo(self.to_demo())

    def validate(self, step_budget: int = STEP_BUDGET) -> list[Problem]:
        """Everything that keeps this draft from being a valid demo, each naming its step.

        The draft is loaded as its file would be, then played to its end: a
        failing check, a placeholder with no value at its step and a run that
        does not end within ``step_budget`` steps are reported.
        """
        if not self.steps:
            return [Problem(0, "the demo has no step yet")]
        try:
            demo = self.to_demo()
        except DemoError as exc:
            return [_problem_of(exc)]
        from ..workspace import Workspace

        player = DemoPlayer(Workspace(), demo, step_budget=step_budget)
        problems = []
        try:
            while not player.at_end:
                step = player.next()
                n = player.index
                problems += [Problem(n, f) for f in player.check(step)]
                missing = missing_values(step.caption, player)
                problems += [Problem(n, f"{{{name}}} has no value at this step")
                             for name in missing]
        except DemoTooLong as exc:
            problems.append(Problem(player.index + 1, str(exc).split(": ", 1)[-1]))
        return problems

    def unchecked_numbers(self) -> list[tuple[int, str]]:
        """Numbers typed in captions of steps that attach no check: ``(step, as written)``,
        claims nobody verifies."""
        out = []
        for i, step in enumerate(self.steps, 1):
            if not step.checks and step.caption:
                out += [(i, text) for text, _ in literal_numbers(step.caption)]
        return out


def _problem_of(exc: DemoError) -> Problem:
    """A load error as a problem of the step its message names (``steps[3]...`` -> step 4)."""
    import re

    text = str(exc)
    _, _, rest = text.partition(": ")
    m = re.match(r"steps\[(\d+)\]", rest)
    return Problem(int(m.group(1)) + 1 if m else 0, rest or text)
