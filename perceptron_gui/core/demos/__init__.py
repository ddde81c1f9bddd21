"""Narrated demos: data files that drive a workspace step by step, with captions.

A demo is a JSON file in :data:`DEMO_DIR` (``resources/demos/``).  It holds a
data set, a learner with its parameters, and a list of steps; each step is an
*action* on the workspace (take a step, run to the next update, set a
parameter, move a point, show a layer ...) with a *caption* that tells the
story, and optional *checks*: the numbers the caption states, written as named
claims that :meth:`DemoPlayer.check` verifies against the workspace.  The
tests run every shipped demo to its end and assert every check, so a caption
never states a number the program does not show.

:class:`DemoPlayer` drives a :class:`~perceptron_gui.core.workspace.Workspace`
(no Qt).  The run is deterministic, so going back (:meth:`DemoPlayer.prev`,
:meth:`DemoPlayer.goto`) resets the workspace to the demo's start and replays
the steps before the target: exact and cheap.

The file format and the checks are specified in ``docs/demo-format.md``. The
package has one module per job: :mod:`.format` (finding, loading and
validating files, with :mod:`.reader` for the typed fields), :mod:`.checks`
(the named claims) and :mod:`.player` (:class:`DemoPlayer`).
"""

from .checks import CHECKS, Check
from .format import (
    ACTIONS,
    DEMO_DIR,
    FORMAT,
    MAX_CAPTION_CHARS,
    MAX_STEPS,
    MAX_TITLE_CHARS,
    VERSION,
    Demo,
    DemoStep,
    list_demos,
    load_demo,
    parse_demo,
)
from .player import DemoPlayer, DemoTooLong, WorkspaceState
from .reader import DemoError, UnknownDemoError

__all__ = [
    "DEMO_DIR",
    "FORMAT",
    "VERSION",
    "MAX_TITLE_CHARS",
    "MAX_CAPTION_CHARS",
    "MAX_STEPS",
    "ACTIONS",
    "CHECKS",
    "Check",
    "Demo",
    "DemoStep",
    "DemoError",
    "UnknownDemoError",
    "DemoTooLong",
    "DemoPlayer",
    "WorkspaceState",
    "list_demos",
    "load_demo",
    "parse_demo",
]
