"""The mistake-bound game: Novikoff's proof played between two players (no Qt).

Player A supplies examples one at a time, chosen freely under two rules:
every example lies within radius ``R`` of the origin, and a hidden unit
vector ``u`` separates every example with margin ``γ`` (``y (u·x) ≥ γ``, so
no example may fall in the band ``|u·x| < γ``).  Player B, the perceptron
starting from ``w₀ = 0``, predicts each label before A reveals it
(``sign(u·x)``) and adds ``y x`` to ``w`` on a mistake (``y (w·x) ≤ 0``; under
the rule ``tie="positive"`` of seed 002's game, ``sign(0) = +1`` and a mistake
is ``y ŷ < 0``: a point on B's boundary is predicted +1, see
:mod:`.learners.ties`).
However A plays, B makes at most ``(R/γ)²`` mistakes, because after ``k``
mistakes

.. math:: k\\gamma \\le w_k\\cdot u \\le \\lVert w_k\\rVert \\le \\sqrt{k}\\,R .

With the bias feature (``fit_intercept=True``) B learns ``w·x + b`` as the
perceptron does with ``bias_scale = 1``: it sees the augmented vectors
``x̃ = (x, 1)`` and ``w̃ = (w, b)``.  The hidden separator is then a line
``u·x + c = 0`` with ``‖u‖ = 1``, the band is ``|u·x + c| < γ``, and the
bound is the theorem's for the augmented vectors: ``ũ = (u, c)/‖(u, c)‖`` is
a unit separator with margin ``γ̃ = γ/√(1 + c²)``, every ``‖x̃‖ ≤ R̃ = √(R² + 1)``,
so at most ``(R̃/γ̃)² = (R² + 1)(1 + c²)/γ²`` mistakes; the proof's two
quantities are ``w̃_k·ũ ≥ kγ̃`` and ``‖w̃_k‖² ≤ kR̃²``.

:func:`attach` keeps the game on a workspace (its points are the data, in the
order played), so a command, a demo and a file find it without a window.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import numpy as np

from .learners.ties import DEFAULT_TIE, TIES, correct
from .signal import signal
from .text import fmt, plural

__all__ = ["MAX_SCALE", "Move", "PerceptronGame", "RuleBroken", "attach", "changed", "detach",
           "game_of", "transfer"]

#: The largest ``R`` and ``R / γ`` of a game (and the smallest ``γ`` is its
#: inverse): R², (R/γ)² and the augmented vectors' products stay finite numbers.
MAX_SCALE = 1e100

#: How far inside the rules the adversary places its points (relative), so that
#: rounding never puts one on the wrong side of a rule or of w's boundary.
_INSIDE = 1e-9


class RuleBroken(ValueError):
    """A point refused: it breaks a rule of the game; ``reason`` says which, in words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Move:
    """What happened on one move (immutable).

    ``prediction`` is B's before the reveal (0 on B's boundary under
    ``tie="mistake"``: no opinion, a mistake), ``label`` is ``sign(u·x + c)``,
    ``w_before`` and ``w_after`` are B's augmented ``w̃``.
    """

    x: tuple
    prediction: int
    label: int
    mistake: bool
    w_before: tuple
    w_after: tuple
    mistakes: int


class PerceptronGame:
    """The mistake-bound game between a player A and the perceptron B.

    Parameters
    ----------
    R, gamma : float
        Every point has ``‖x‖ ≤ R`` and ``|u·x + c| ≥ γ`` (``0 < γ < R``
        without the bias; with it, ``γ`` must leave room in the disk on one side).
    u : array-like of shape (2,) or None, default=None
        The hidden separator's direction (normalised); None: drawn from ``seed``.
    offset : float, default=0.0
        ``c`` in ``u·x + c``: only with ``fit_intercept=True`` (B learns a bias).
    hidden : bool, default=False
        ``u`` is kept from A until the end (the game tells whether a point is
        legal without showing where the band lies).
    tie : {"mistake", "positive"}, default="mistake"
        B's rule for a point on its boundary (:mod:`.learners.ties`; seed 002's
        game is ``"positive"``).  Novikoff's bound holds under both.

    Attributes
    ----------
    w : ndarray of shape (2,) or (3,)
        B's augmented weights ``w̃`` now (``(w₁, w₂)`` or ``(w₁, w₂, b)``).
    pending, refused : tuple or None
        ``((x₁, x₂), prediction)`` of a point proposed whose label :meth:`play`
        has not revealed yet; ``((x₁, x₂), reason)`` of the last point refused.
    """

    def __init__(self, R: float, gamma: float, u=None, *, offset: float = 0.0,
                 fit_intercept: bool = False, seed: int | None = None, hidden: bool = False,
                 tie: str = DEFAULT_TIE):
        R, gamma, offset = float(R), float(gamma), float(offset)
        if tie not in TIES:
            raise ValueError(f"tie must be one of {TIES}; got {tie!r}")
        if not (math.isfinite(R) and R > 0):
            raise ValueError(f"R must be a finite number > 0; got {R!r}")
        if not (math.isfinite(gamma) and gamma > 0):
            raise ValueError(f"γ must be a finite number > 0; got {gamma!r}")
        if R > MAX_SCALE:
            raise ValueError(f"R must be at most {MAX_SCALE:g} (its square is the bound's "
                             f"numerator); got {R:g}")
        if R / gamma > MAX_SCALE:
            raise ValueError(f"γ must be at least R / {MAX_SCALE:g} = {R / MAX_SCALE:g} (the "
                             f"bound (R/γ)² must be a number); got {gamma:g}")
        if gamma < 1 / MAX_SCALE:
            raise ValueError(f"γ must be at least {1 / MAX_SCALE:g}; got {gamma:g}")
        if not math.isfinite(offset):
            raise ValueError(f"the offset c must be finite; got {offset!r}")
        if offset and not fit_intercept:
            raise ValueError("an offset c needs the bias feature (fit_intercept=True): "
                             "without it the separator passes through the origin")
        if u is None:
            angle = np.random.default_rng(seed).uniform(0.0, 2.0 * math.pi)
            u = (math.cos(angle), math.sin(angle))
        u = np.asarray(u, dtype=float).reshape(-1)
        norm = float(np.hypot(*u)) if u.shape == (2,) else 0.0
        if u.shape != (2,) or not (math.isfinite(norm) and norm > 0):
            raise ValueError(f"u must be a nonzero finite 2-D vector; got {u!r}")
        if gamma + abs(offset) >= R:
            raise ValueError(
                f"no point fits the rules: the band |u·x + β| < γ = {gamma:g} covers the "
                f"disk ‖x‖ ≤ R = {R:g} on {'both sides' if not offset else 'one side'}; "
                "take a smaller γ (or |β|) or a larger R")
        self.R, self.gamma, self.offset = R, gamma, offset
        self.fit_intercept = bool(fit_intercept)
        self.seed = seed
        self.hidden = bool(hidden)
        self.tie = tie
        self.finished = False
        self.pending: tuple | None = None
        self.refused: tuple | None = None
        self.u = u / norm
        self.w = np.zeros(3 if self.fit_intercept else 2)
        self.history: list[Move] = []

    # -- the rules and the theorem -------------------------------------------------------
    def augment(self, x) -> np.ndarray:
        """``x̃``: ``x``, with the bias feature 1 when B has a bias."""
        x = np.asarray(x, dtype=float).reshape(-1)
        return np.append(x, 1.0) if self.fit_intercept else x

    @property
    def u_tilde(self) -> np.ndarray:
        """The augmented unit separator ``ũ`` (``u`` itself without the bias)."""
        if not self.fit_intercept:
            return self.u.copy()
        v = np.append(self.u, self.offset)
        return v / math.hypot(1.0, self.offset)

    @property
    def R_tilde(self) -> float:  # noqa: N802 (the theorem's name)
        """The radius the bound uses: ``R``, or ``√(R² + 1)`` with the bias feature."""
        return math.hypot(self.R, 1.0) if self.fit_intercept else self.R

    @property
    def gamma_tilde(self) -> float:
        """The margin the bound uses: ``γ``, or ``γ/√(1 + c²)`` with the bias feature."""
        return self.gamma / math.hypot(1.0, self.offset) if self.fit_intercept else self.gamma

    @property
    def bound(self) -> float:
        """Novikoff's bound on B's mistakes, ``(R̃/γ̃)²``."""
        return (self.R_tilde / self.gamma_tilde) ** 2

    def score(self, x) -> float:
        """``u·x + c`` (its sign is the label; its size the distance to the separator)."""
        x = np.asarray(x, dtype=float).reshape(-1)
        return float(self.u @ x) + self.offset

    def check(self, x) -> str | None:
        """Why ``x`` breaks a rule, in words; None when it is a legal move."""
        try:
            p = np.asarray(x, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            return f"a move is a point (x₁, x₂); got {x!r}"
        if p.shape != (2,) or not np.all(np.isfinite(p)):
            return f"a move is a point of two finite numbers; got {x!r}"
        r = float(np.hypot(*p))
        if r > self.R:
            return (f"outside the circle: ‖x‖ = {r:.3g} > R = {self.R:.3g} "
                    "(every point lies within R of the origin)")
        s = abs(self.score(p))
        if s >= self.gamma:
            return None
        if self.hidden and not self.finished:  # no measure of u·x: two would give u away
            where = f"closer than γ = {self.gamma:.3g} to the hidden separator"
        else:
            what = "|u·x + β|" if self.fit_intercept else "|u·x|"
            where = f"{what} = {s:.3g} < γ = {self.gamma:.3g}"
        return f"inside the forbidden band: {where} (u must separate every point with margin γ)"

    def predict(self, x) -> int:
        """B's prediction ``sign(w̃·x̃)`` (on the boundary: 0, or +1 under ``tie="positive"``)."""
        return self._predicted(float(self._dot(self.w, self.augment(x))))

    def _predicted(self, f: float) -> int:
        return 1 if f > 0 or (f == 0 and self.tie == "positive") else (-1 if f < 0 else 0)

    @staticmethod
    def _dot(w: np.ndarray, z: np.ndarray):
        # the perceptron's order: ((x0*w0 + x1*w1) + b), as the run engine computes it
        out = z[0] * w[0] + z[1] * w[1]
        return out + w[2] * z[2] if len(w) == 3 else out

    # -- moves -------------------------------------------------------------------------
    def refusal(self, x) -> str | None:
        """Why ``x`` may not be played now (a rule, or the game is over), or None."""
        reason = self.check(x)
        if reason is None and self.finished:
            reason = "the game is over (undo a move to play on)"
        return reason

    def propose(self, x) -> int:
        """A shows ``x``: B's prediction, before the label (RuleBroken for an illegal ``x``)."""
        reason = self.refusal(x)
        if reason is not None:
            self.refused = (tuple(np.asarray(x, dtype=float).reshape(-1)[:2]), reason)
            self.pending = None
            raise RuleBroken(reason)
        p = np.asarray(x, dtype=float).reshape(-1)
        prediction = self.predict(p)
        self.pending, self.refused = ((float(p[0]), float(p[1])), prediction), None
        return prediction

    def play(self, x) -> Move:
        """A plays ``x``: B predicts, the label is revealed, B updates on a mistake."""
        reason = self.refusal(x)
        if reason is not None:
            raise RuleBroken(reason)
        p = np.asarray(x, dtype=float).reshape(-1)
        z = self.augment(p)
        label = 1 if self.score(p) > 0 else -1
        before = self.w.copy()
        f = float(self._dot(before, z))
        mistake = not bool(correct(label * f, label, self.tie == "positive"))
        if mistake:
            self.w = before + z * float(label)
        move = Move((float(p[0]), float(p[1])), self._predicted(f), label, mistake,
                    tuple(float(v) for v in before), tuple(float(v) for v in self.w),
                    self.mistakes + int(mistake))
        self.history.append(move)
        self.pending = self.refused = None
        return move

    def undo(self) -> Move:
        """Take the last move back (IndexError when none was played); returns it."""
        if not self.history:
            raise IndexError("no move to undo")
        move = self.history.pop()
        self.finished = False
        self.pending = self.refused = None
        self.w = np.asarray(move.w_before, dtype=float)
        return move

    def finish(self) -> None:
        """End the game: no more moves (an undo reopens it)."""
        self.finished = True

    def _move(self, k: int) -> Move | None:
        """The ``k``-th move (None for 0), IndexError past the history."""
        if not 0 <= k <= len(self.history):
            raise IndexError(f"move {k} is not in 0..{len(self.history)}")
        return self.history[k - 1] if k else None

    def w_after(self, k: int) -> np.ndarray:
        """B's augmented weights after the first ``k`` moves (0: ``w₀ = 0``)."""
        move = self._move(k)
        return np.zeros_like(self.w) if move is None else np.asarray(move.w_after, dtype=float)

    def mistakes_after(self, k: int) -> int:
        """B's mistakes in the first ``k`` moves."""
        move = self._move(k)
        return 0 if move is None else move.mistakes

    @property
    def mistakes(self) -> int:
        """B's mistakes so far."""
        return self.history[-1].mistakes if self.history else 0

    @property
    def points(self) -> tuple[np.ndarray, np.ndarray]:
        """The points played and their labels, ``(X (n, 2), y (n,))``, in order."""
        X = np.array([m.x for m in self.history], dtype=float).reshape(-1, 2)
        return X, np.array([m.label for m in self.history], dtype=int)

    def proof(self, moves: int | None = None) -> dict:
        """The proof's two inequalities after ``moves`` moves (None: now), ``k`` mistakes.

        Returns ``{"k", "dot", "k_gamma", "norm2", "k_r2"}``: progress
        ``w̃_k·ũ ≥ kγ̃`` (``dot`` against ``k_gamma``) and slow growth
        ``‖w̃_k‖² ≤ kR̃²`` (``norm2`` against ``k_r2``).
        """
        moves = len(self.history) if moves is None else moves
        k, w = self.mistakes_after(moves), self.w_after(moves)
        return {"k": k, "dot": float(w @ self.u_tilde), "k_gamma": k * self.gamma_tilde,
                "norm2": float(w @ w), "k_r2": k * self.R_tilde ** 2}

    def margin(self) -> float | None:
        """``min_i y_i (w̃·x̃_i) / ‖w‖``, B's margin on the points played (None: no move, w = 0)."""
        X, y = self.points
        norm = float(np.hypot(self.w[0], self.w[1]))
        if not len(y) or norm == 0:
            return None
        f = X @ self.w[:2] + (self.w[2] if self.fit_intercept else 0.0)
        return float(np.min(y * f) / norm)

    # -- the computer adversary ---------------------------------------------------------
    def _candidates(self) -> np.ndarray:
        """Points on the edges of the legal region and of B's wrong side (2-D, legal)."""
        R, g, c, u = self.R, self.gamma, self.offset, self.u
        t = np.linspace(0.0, 2.0 * math.pi, 721)[:-1]
        pts = [R * (1 - _INSIDE) * np.column_stack([np.cos(t), np.sin(t)])]
        s = np.linspace(-1.0, 1.0, 401)

        def chords(d, level):  # the line d·x = level inside the disk (unit d)
            half = R * R - level * level
            if half > 0:
                pts.append(level * d + np.outer(s * math.sqrt(half) * (1 - _INSIDE),
                                                (-d[1], d[0])))

        for side in (1.0, -1.0):  # the band's edges u·x + c = ±γ
            chords(u, side * g * (1 + _INSIDE) - c)
        wn = float(np.hypot(*self.w[:2]))
        if wn > 0:  # B's boundary w·x + b = 0, nudged to both sides
            b = self.w[2] if self.fit_intercept else 0.0
            for side in (1.0, -1.0):
                chords(self.w[:2] / wn, -b / wn + side * _INSIDE * max(1.0, R))
        P = np.vstack(pts)
        ok = (np.hypot(P[:, 0], P[:, 1]) <= R) & (np.abs(P @ u + c) >= g)
        return P[ok]

    def adversary_move(self) -> np.ndarray | None:
        """A computer A's next point, or None when no legal point fools B any more.

        Among legal points that B gets wrong, it picks the one after which B's
        ``w̃`` points as far from ``ũ`` as it can (the smallest ``cos(w̃, ũ)``),
        ties going to the smallest gain in ``w̃·ũ``: points at the band's edge
        (``w̃·ũ`` grows by ``γ̃`` only) and near B's boundary (:meth:`_candidates`).
        Greedy, one move ahead: it forces many mistakes, usually well below the bound.
        """
        P = self._candidates()
        if not len(P):
            return None
        Z = np.column_stack([P, np.ones(len(P))]) if self.fit_intercept else P
        y = np.where(P @ self.u + self.offset > 0, 1.0, -1.0)
        w = self.w
        f = self._dot(w, Z.T)
        wrong = ~correct(y * f, y, self.tie == "positive")
        if not wrong.any():
            return None
        P, Z, y = P[wrong], Z[wrong], y[wrong]
        W = w + Z * y[:, None]
        ut = self.u_tilde
        cos = (W @ ut) / np.linalg.norm(W, axis=1)
        gain = y * (Z @ ut)
        best = np.lexsort((gain, np.round(cos, 12)))[0]
        return P[best].copy()

    def can_fool(self) -> bool:
        """Whether some legal point is still a mistake for B (on the adversary's grid)."""
        return self.adversary_move() is not None

    # -- files ---------------------------------------------------------------------------
    def rules(self) -> dict:
        """The rules as plain JSON values (a workspace file's ``"game"``)."""
        return {"R": self.R, "gamma": self.gamma, "u": [float(v) for v in self.u],
                "offset": self.offset, "fit_intercept": self.fit_intercept,
                "hidden": self.hidden, "finished": self.finished, "tie": self.tie}

    @classmethod
    def from_rules(cls, rules: dict, X=(), y=None) -> PerceptronGame:
        """The game of :meth:`rules`, replaying the points ``X`` (labels ``y`` checked)."""
        if not isinstance(rules, dict):
            raise ValueError(f"a game's rules are an object; got {rules!r}")
        try:
            game = cls(rules["R"], rules["gamma"], rules["u"],
                       offset=rules.get("offset", 0.0),
                       fit_intercept=bool(rules.get("fit_intercept", False)),
                       hidden=bool(rules.get("hidden", False)),
                       tie=rules.get("tie", DEFAULT_TIE))
        except KeyError as exc:
            raise ValueError(f"a game's rules lack {exc.args[0]!r}") from None
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        for i, x in enumerate(X):
            try:
                move = game.play(x)
            except RuleBroken as exc:
                raise ValueError(f"point {i + 1} breaks the game's rules: {exc.reason}") from None
            if y is not None and int(np.sign(y[i])) != move.label:
                raise ValueError(f"point {i + 1} has label {y[i]} but u gives {move.label}")
        game.finished = bool(rules.get("finished", False))
        return game

    def summary(self, player: str = "You") -> str:
        """The result in the text's terms: mistakes forced, the bound, B's margin now."""
        k = self.mistakes
        bound = self.bound
        b = str(round(bound)) if abs(bound - round(bound)) < 1e-9 else fmt(bound)
        obj = "your" if player == "You" else "the"
        head = f"{player} forced {plural(k, 'mistake')}; the bound was {b}"
        m = self.margin()
        if m is None:
            return head + "; the perceptron's w is still 0."
        if m > 0:
            return head + (f"; the perceptron's w now separates {obj} points with "
                           f"margin {fmt(m)}.")
        return head + (f"; the perceptron's w does not separate {obj} points yet "
                       f"(its worst margin is {fmt(m)}).")


_GAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

#: Emitted with a workspace whose game was attached, detached or handed over
#: (a window follows a game that arrives with a file or a demo).
changed = signal(object, name="changed")


def attach(workspace, game: PerceptronGame) -> None:
    """Make ``game`` the game played on ``workspace`` (its data are the game's points)."""
    _GAMES[workspace] = game
    changed.emit(workspace)


def detach(workspace) -> PerceptronGame | None:
    """End the game played on ``workspace`` (if any); returns it."""
    game = _GAMES.pop(workspace, None)
    if game is not None:
        changed.emit(workspace)
    return game


def game_of(workspace) -> PerceptronGame | None:
    """The game played on ``workspace``, or None."""
    return _GAMES.get(workspace)


def transfer(source, target) -> None:
    """``target`` takes over ``source``'s game (or has none when ``source`` has none)."""
    game = _GAMES.pop(source, None)
    had = _GAMES.pop(target, None)
    if game is not None:
        _GAMES[target] = game
    if game is not None or had is not None:
        changed.emit(target)
