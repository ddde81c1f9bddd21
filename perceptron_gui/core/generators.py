"""Generators of toy two-class data sets in the plane.

Every generator is ``f(n=..., noise=..., seed=None, **specific)``: ``n >= 2``
points, ``n // 2`` labeled ``-1`` and ``n - n // 2`` labeled ``+1``, in a seeded
random order (the perceptron visits samples in order), roughly within
``[-5, 5]`` for the defaults; ``seed`` goes to ``np.random.default_rng``.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable

import numpy as np

from perceptron_gui.core.dataset import Dataset
from perceptron_gui.core.values import check_integer

__all__ = ["blobs", "separable", "separable_line", "overlapping", "xor", "circles", "moons",
           "GENERATORS", "DESCRIPTIONS", "TITLES", "generator_parameters", "generate"]


def _check_real(value, name: str, *, minimum: float | None = None,
                strict: bool = False, maximum: float | None = None,
                strict_max: bool = False) -> float:
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if ok:
        value = float(value)
        ok = math.isfinite(value)
    if ok and minimum is not None:
        ok = value > minimum if strict else value >= minimum
    if ok and maximum is not None:
        ok = value < maximum if strict_max else value <= maximum
    if not ok:
        cond = "a finite number"
        if minimum is not None:
            cond += f" {'>' if strict else '>='} {minimum:g}"
        if maximum is not None:
            cond += f"{' and' if minimum is not None else ''} {'<' if strict_max else '<='} "
            cond += f"{maximum:g}"
        raise ValueError(f"{name} must be {cond}; got {value!r}")
    return value


def _start(n, noise, seed) -> tuple:
    """``(noise, rng, n_neg, n_pos)`` of a generator's checked arguments (``n_neg = n // 2``)."""
    n = check_integer(n, "n must be an integer >= 2", 2)
    return _check_real(noise, "noise", minimum=0.0), np.random.default_rng(seed), n // 2, n - n // 2


def _finish(rng: np.random.Generator, X_neg: np.ndarray, X_pos: np.ndarray) -> Dataset:
    X = np.concatenate([X_neg, X_pos])
    y = np.concatenate([-np.ones(len(X_neg), np.int64), np.ones(len(X_pos), np.int64)])
    order = rng.permutation(len(X))
    return Dataset(X[order], y[order])


def _two_gaussians(n, noise, seed, distance) -> Dataset:
    noise, rng, n_neg, n_pos = _start(n, noise, seed)
    distance = _check_real(distance, "distance", minimum=0.0)
    centre = np.array([distance / 2.0, 0.0])
    X_neg = -centre + noise * rng.standard_normal((n_neg, 2))
    X_pos = centre + noise * rng.standard_normal((n_pos, 2))
    return _finish(rng, X_neg, X_pos)


def blobs(n: int = 100, noise: float = 1.0, seed=None, *, distance: float = 4.0) -> Dataset:
    """Two isotropic Gaussian blobs of standard deviation ``noise``.

    The centres lie at ``(-distance/2, 0)`` (class -1) and ``(+distance/2, 0)``.
    """
    return _two_gaussians(n, noise, seed, distance)


def separable_line(seed=None, angle: float | None = None,
                   offset: float = 0.0) -> tuple[np.ndarray, float]:
    """The line ``w·x + b = 0`` that :func:`separable` with these arguments draws around.

    ``w = (cos angle, sin angle)``, ``b = -offset``.  With ``angle=None`` the
    angle is the first draw of the generator, so the line is recovered only
    for a reproducible seed (not ``None`` or a ``Generator``).
    """
    return _line(np.random.default_rng(seed), angle, offset)


def _line(rng: np.random.Generator, angle, offset) -> tuple[np.ndarray, float]:
    angle = float(rng.uniform(0.0, 2.0 * np.pi)) if angle is None else _check_real(angle, "angle")
    offset = _check_real(offset, "offset")
    return np.array([np.cos(angle), np.sin(angle)]), -offset


def separable(n: int = 40, noise: float = 1.0, seed=None, *, margin: float = 0.5,
              angle: float | None = None, offset: float = 0.0) -> Dataset:
    """A linearly separable set with geometric margin at least ``margin``.

    ``angle`` (radians; default: drawn uniformly from ``[0, 2π)``) and
    ``offset`` place the line as :func:`separable_line` says.

    Notes
    -----
    Each point is ``x = offset·w + t·v + s·w`` with ``v`` the line's direction,
    ``t ~ U(-4, 4)`` the position along the line and the signed distance

    .. math:: s = y\\,(\\gamma + \\sigma |z|), \\quad z \\sim N(0, 1),

    where ``γ`` is ``margin`` and ``σ`` is ``noise``: a half-normal pushed out of
    the band ``|s| < γ``, i.e. every draw that would fall in the band is moved
    out of it rather than re-drawn (which also works for ``noise=0``). A tiny
    outward pad (relative ``1e-9``) keeps the computed ``w·x + b`` at least
    ``margin`` despite rounding. The label is ``y = sign(w·x + b)``.
    """
    noise, rng, n_neg, n_pos = _start(n, noise, seed)
    n = n_neg + n_pos
    margin = _check_real(margin, "margin", minimum=0.0)
    w, b = _line(rng, angle, offset)  # first draw: the angle (see separable_line)
    v = np.array([-w[1], w[0]])
    half = 4.0
    pad = 1e-9 * (1.0 + margin + abs(b) + half)
    signs = np.concatenate([-np.ones(n_neg), np.ones(n_pos)])
    t = rng.uniform(-half, half, n)
    s = signs * (margin + pad + noise * np.abs(rng.standard_normal(n)))
    X = (-b) * w + t[:, None] * v + s[:, None] * w
    return _finish(rng, X[:n_neg], X[n_neg:])


def overlapping(n: int = 100, noise: float = 1.0, seed=None, *,
                distance: float = 1.5) -> Dataset:
    """:func:`blobs` with centres 1.5 standard deviations apart: not separable by default."""
    return _two_gaussians(n, noise, seed, distance)


def xor(n: int = 100, noise: float = 0.3, seed=None) -> Dataset:
    """Four Gaussian clusters at ``(±2, ±2)`` in an XOR pattern (``+1``: first and third).

    Each class's points are split as evenly as possible between its two
    clusters; ``noise`` is the standard deviation of each.
    """
    noise, rng, n_neg, n_pos = _start(n, noise, seed)

    def two_clusters(count: int, centres: np.ndarray) -> np.ndarray:
        which = np.arange(count) % 2
        return centres[which] + noise * rng.standard_normal((count, 2))

    X_neg = two_clusters(n_neg, np.array([[-2.0, 2.0], [2.0, -2.0]]))
    X_pos = two_clusters(n_pos, np.array([[2.0, 2.0], [-2.0, -2.0]]))
    return _finish(rng, X_neg, X_pos)


_CIRCLE_RADIUS = 4.0


def circles(n: int = 100, noise: float = 0.1, seed=None, *, factor: float = 0.5) -> Dataset:
    """Two concentric circles, the inner one (``factor`` times 4) class ``+1``, the outer ``-1``.

    ``noise`` is in units of the outer radius (as in scikit-learn's ``make_circles``).
    """
    noise, rng, n_neg, n_pos = _start(n, noise, seed)
    factor = _check_real(factor, "factor", minimum=0.0, maximum=1.0, strict_max=True)

    def ring(count: int, radius: float) -> np.ndarray:
        theta = rng.uniform(0.0, 2.0 * np.pi, count)
        pts = radius * np.column_stack([np.cos(theta), np.sin(theta)])
        return _CIRCLE_RADIUS * (pts + noise * rng.standard_normal((count, 2)))

    return _finish(rng, ring(n_neg, 1.0), ring(n_pos, factor))


_MOON_SCALE = 2.5


def moons(n: int = 100, noise: float = 0.1, seed=None) -> Dataset:
    """Two interleaving half circles (scikit-learn's ``make_moons``, rescaled).

    Class ``-1`` is the upper moon ``(cos t, sin t)``, class ``+1`` the lower
    moon ``(1 - cos t, 1/2 - sin t)``, ``t ~ U(0, π)``; the set is centred at
    the origin and scaled by 2.5 (so it spans about ``[-3.75, 3.75]``);
    ``noise`` is in units of the moon radius.
    """
    noise, rng, n_neg, n_pos = _start(n, noise, seed)
    centre = np.array([0.5, 0.25])

    def moon(count: int, upper: bool) -> np.ndarray:
        t = rng.uniform(0.0, np.pi, count)
        pts = np.column_stack([np.cos(t), np.sin(t)] if upper
                              else [1.0 - np.cos(t), 0.5 - np.sin(t)])
        pts = pts - centre + noise * rng.standard_normal((count, 2))
        return _MOON_SCALE * pts

    return _finish(rng, moon(n_neg, True), moon(n_pos, False))


#: Each generator with its title (what a menu says: "XOR", not "Xor") and description.
_TABLE = {
    "blobs": (blobs, "Blobs", "Two Gaussian blobs; separable when they are far apart."),
    "separable": (separable, "Separable",
                  "Linearly separable with a chosen margin around a line."),
    "overlapping": (overlapping, "Overlapping",
                    "Two overlapping Gaussian classes; not linearly separable."),
    "xor": (xor, "XOR", "Four clusters in an XOR pattern; needs a kernel."),
    "circles": (circles, "Circles",
                "A circle inside a ring; needs a kernel (e.g. RBF or degree 2)."),
    "moons": (moons, "Moons", "Two interleaving half circles; needs a kernel."),
}
GENERATORS: dict[str, Callable[..., Dataset]] = {k: row[0] for k, row in _TABLE.items()}
TITLES: dict[str, str] = {k: row[1] for k, row in _TABLE.items()}
DESCRIPTIONS: dict[str, str] = {k: row[2] for k, row in _TABLE.items()}


def generator_parameters(name: str) -> dict[str, object]:
    """Parameter name -> default of the generator ``name``, in signature order."""
    if name not in GENERATORS:
        raise ValueError(f"unknown generator {name!r}; expected one of {sorted(GENERATORS)}")
    sig = inspect.signature(GENERATORS[name])
    return {p.name: p.default for p in sig.parameters.values()}


def generate(name: str, **params) -> Dataset:
    """Call the generator ``name`` with ``params`` (unknown names are a ``ValueError``)."""
    defaults = generator_parameters(name)
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {unknown} for generator {name!r}; "
            f"expected some of {list(defaults)}"
        )
    return GENERATORS[name](**params)
