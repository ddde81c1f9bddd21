"""Adding a command: one class in a test file, one ``register`` call (docs/architecture.md).

The command below is defined here alone: registered, it round-trips through
its dictionary, the window's one door carries it out (by its own
``execute``, as the window has no route of its own for it) and announces it;
a name already taken is refused, and unregistering it forgets it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from perceptron_gui.core import commands
from perceptron_gui.core.commands import COMMANDS, Command, Run, from_dict


@dataclass(frozen=True)
class ZoomView(Command):
    """Zoom the view about its centre by ``factor`` (2: show twice as wide a rectangle)."""

    factor: float
    name: ClassVar[str] = "zoom_view"

    def __post_init__(self):
        if not self.factor > 0:
            raise ValueError(f"zoom_view takes a factor > 0; got {self.factor!r}")

    def execute(self, workspace) -> None:
        x0, x1, y0, y1 = workspace.view_state.rect
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        hx, hy = (x1 - x0) / 2 * self.factor, (y1 - y0) / 2 * self.factor
        workspace.view_state.set_rect((cx - hx, cx + hx, cy - hy, cy + hy))


@pytest.fixture
def zoom():
    commands.register(ZoomView)
    yield ZoomView
    if COMMANDS.get("zoom_view") is ZoomView:
        commands.unregister("zoom_view")


def test_a_command_defined_here_goes_through_the_window(window, qtbot, zoom):
    cmd = zoom(2.0)
    assert from_dict(cmd.to_dict()) == cmd
    assert cmd.to_dict() == {"command": "zoom_view", "factor": 2.0}
    heard: list = []
    window.commandDispatched.connect(heard.append)
    window.view_state.set_rect((-1.0, 1.0, -2.0, 2.0))
    qtbot.waitUntil(lambda: window.canvas.view_rect() is not None)

    assert window.dispatch(from_dict({"command": "zoom_view", "factor": 2.0})) is True

    assert heard == [cmd]
    assert window.view_state.rect == (-2.0, 2.0, -4.0, 4.0)
    (x0, x1), (y0, y1) = window.canvas.view_rect()  # the canvas follows the view state
    assert x0 <= -1.99 and x1 >= 1.99 and y0 <= -3.99 and y1 >= 3.99  # it covers it,
    assert min(x1 - x0 - 4.0, y1 - y0 - 8.0) < 0.1  # tight on one axis (aspect locked)

    assert commands.unregister("zoom_view") is ZoomView
    with pytest.raises(ValueError, match="unknown command 'zoom_view'"):
        from_dict(cmd.to_dict())


def test_a_name_taken_is_refused_and_unregister_says_what_it_lacks(zoom):
    @dataclass(frozen=True)
    class FakeRun(Command):
        action: str
        name: ClassVar[str] = "run"

    with pytest.raises(ValueError, match="'run' is registered already"):
        commands.register(FakeRun)
    assert COMMANDS["run"] is Run
    assert from_dict({"command": "run", "action": "step"}) == Run("step")
    commands.register(zoom)  # the same class again: nothing changes
    assert COMMANDS["zoom_view"] is zoom
    with pytest.raises(TypeError):
        commands.register(dict)
    with pytest.raises(KeyError, match="no command named 'nope'"):
        commands.unregister("nope")


def test_the_door_refuses_what_is_not_a_command(window):
    with pytest.raises(ValueError, match="not a command"):
        window.dispatch({"command": "run", "action": "step"})
