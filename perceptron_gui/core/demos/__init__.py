"""Narrated demos: data files that drive a workspace step by step, with captions.

Each step of a demo carries out a command with a *caption* that tells the
story, and optional *checks*: the numbers the caption states, as named claims
that :meth:`DemoPlayer.check` verifies.  The tests run every shipped demo to
its end and assert every check, so a caption never states a number the
program does not show.  The format and the checks are specified in
``docs/demo-format.md``.
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

__all__ = ["DEMO_DIR", "FORMAT", "VERSION", "MAX_TITLE_CHARS", "MAX_CAPTION_CHARS",
           "MAX_STEPS", "ACTIONS", "CHECKS", "Check", "Demo", "DemoStep", "DemoError",
           "UnknownDemoError", "DemoTooLong", "DemoPlayer", "WorkspaceState", "list_demos",
           "load_demo", "parse_demo"]
