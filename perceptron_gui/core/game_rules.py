"""The game's rules set by dragging, before the first move (no Qt).

A drag is a request, not an edit: the canvas's layer announces it
(:data:`requested`, or :data:`refused` with the reason), and the window's
game mode turns it into a :class:`~.game_commands.StartGame` command, as it
does with the panel's spin boxes.
"""

from __future__ import annotations

import math

import numpy as np

from .game import PerceptronGame, RuleBroken
from .signal import signal
from .text import fmt

__all__ = ["HANDLES", "dragged_rules", "handle_points", "refused", "requested", "rules_of"]

#: The rule handles, in drawing order: u's direction, the band's width γ, the radius R.
HANDLES = ("u", "gamma", "R")

#: Where the R handle sits on the circle, turned from u (clear of u's head and the band).
_R_TURN = math.radians(135.0)
#: How far along the band's edge the γ handle sits, as a share of the chord's half.
_ALONG = 0.6

#: Emitted with ``(workspace, rules, final)`` when a rule handle was dragged to
#: legal rules (:func:`rules_of`'s keys; ``final``: the drag ended).
requested = signal(object, object, bool, name="requested")
#: Emitted with ``(workspace, reason)`` when a drag asked for rules that cannot be played.
refused = signal(object, str, name="refused")


def rules_of(game: PerceptronGame) -> dict:
    """The rules of ``game`` as the panel gives them: ``R``, ``gamma``, ``angle`` (degrees),
    ``offset`` and ``fit_intercept``."""
    return {"R": game.R, "gamma": game.gamma,
            "angle": math.degrees(math.atan2(game.u[1], game.u[0])),
            "offset": game.offset, "fit_intercept": game.fit_intercept}


def handle_points(game: PerceptronGame) -> dict[str, tuple[float, float]]:
    """Where each rule handle is drawn, by name (:data:`HANDLES`), in data coordinates."""
    u, R, c, g = game.u, game.R, game.offset, game.gamma
    n = np.array([-u[1], u[0]])  # along the band
    level = g - c  # the band's edge u·x = γ − c
    half = math.sqrt(max(R * R - level * level, 0.0))
    edge = level * u - _ALONG * half * n
    t = math.atan2(u[1], u[0]) + _R_TURN
    return {"u": (float(R * u[0]), float(R * u[1])),
            "gamma": (float(edge[0]), float(edge[1])),
            "R": (float(R * math.cos(t)), float(R * math.sin(t)))}


def dragged_rules(game: PerceptronGame, handle: str, point) -> dict:
    """The rules after the handle ``handle`` of ``game`` is dragged to ``point``."""
    if handle not in HANDLES:
        raise ValueError(f"no rule handle {handle!r}; the handles: {', '.join(HANDLES)}")
    p = np.asarray(point, dtype=float).reshape(-1)
    if p.shape != (2,) or not np.all(np.isfinite(p)):
        raise RuleBroken(f"a handle is dragged to a point (x₁, x₂); got {point!r}")
    rules = rules_of(game)
    r = float(np.hypot(*p))
    reach = game.gamma + abs(game.offset)
    if handle == "u":
        if r < 1e-9 * game.R:
            raise RuleBroken("u needs a direction: drag its head away from the origin")
        rules["angle"] = math.degrees(math.atan2(p[1], p[0]))
    elif handle == "gamma":
        gamma = abs(float(game.u @ p) + game.offset)
        if gamma <= 0:
            raise RuleBroken("γ must be > 0: the band needs a width")
        if gamma + abs(game.offset) >= game.R:
            raise RuleBroken(f"γ = {fmt(gamma)} would fill the circle (R = {fmt(game.R)}): "
                             "no point would fit; keep the band's edge inside the circle")
        rules["gamma"] = gamma
    else:
        if r <= reach:
            raise RuleBroken(f"R = {fmt(r)} would leave no room outside the band "
                             f"(γ{' + |c|' if game.offset else ''} = {fmt(reach)}): "
                             "every point must lie outside it")
        rules["R"] = r
    return rules

