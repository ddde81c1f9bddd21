"""The posterior's diverging colour map, built in CIELAB from the classes' colours (numpy only).

``P(y = +1 | x)``: the background itself at ½, then the hue of class +1 towards
P = 1 and of class −1 towards P = 0, the lightness moving away from the
background's linearly in ``|2P − 1|``, the chroma growing with it, each end as
deep as the marks drawn on it keep a WCAG contrast of 3:1 with every level.

References
----------
Machado, G. M., Oliveira, M. M. and Fernandes, L. A. F. (2009).  A
physiologically-based model for simulation of color vision deficiency.
IEEE TVCG 15(6), 1291–1298 (the severity-1.0 matrices below).
Okabe, M. and Ito, K. (2008).  Color Universal Design.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["LEVELS", "CVD", "class_ramp", "contrast", "lab_to_srgb", "posterior_lut",
           "simulate_cvd", "srgb_to_lab"]

#: The levels of the map: ``P`` is drawn to 1/255.
LEVELS = 256
#: The least contrast the marks keep on every level (WCAG's 3:1 for graphics, and a hair).
MIN_CONTRAST = 3.02

#: Machado et al. (2009), severity 1.0, on linear sRGB.
CVD = {
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}

_M = np.array([[0.4124564, 0.3575761, 0.1804375],
               [0.2126729, 0.7151522, 0.0721750],
               [0.0193339, 0.1191920, 0.9503041]])
_WHITE = _M.sum(axis=1)  # D65


def _linear(rgb8) -> np.ndarray:
    c = np.asarray(rgb8, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _encode(lin) -> np.ndarray:
    lin = np.asarray(lin, dtype=np.float64)
    c = np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * np.abs(lin) ** (1 / 2.4) - 0.055)
    return c * 255.0


def srgb_to_lab(rgb8) -> np.ndarray:
    """CIELAB (D65) of sRGB colours with channels 0–255, shape ``(..., 3)``."""
    xyz = _linear(rgb8) @ _M.T / _WHITE
    d = 6 / 29
    f = np.where(xyz > d ** 3, np.cbrt(xyz), xyz / (3 * d * d) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], axis=-1)


def lab_to_srgb(lab) -> np.ndarray:
    """sRGB (0–255, not rounded, possibly out of gamut) of CIELAB colours, shape ``(..., 3)``."""
    lab = np.asarray(lab, dtype=np.float64)
    fy = (lab[..., 0] + 16) / 116
    f = np.stack([fy + lab[..., 1] / 500, fy, fy - lab[..., 2] / 200], axis=-1)
    d = 6 / 29
    xyz = np.where(f > d, f ** 3, 3 * d * d * (f - 4 / 29)) * _WHITE
    return _encode(xyz @ np.linalg.inv(_M).T)


def simulate_cvd(rgb8, kind: str) -> np.ndarray:
    """How a viewer with ``kind`` (a key of :data:`CVD`) sees sRGB colours (0–255)."""
    lin = np.clip(_linear(rgb8) @ CVD[kind].T, 0.0, 1.0)
    return _encode(lin)


def _luminance(rgb8) -> np.ndarray:
    return _linear(rgb8) @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a, b) -> np.ndarray:
    """The WCAG 2 contrast ratio of sRGB colours (0–255), 1 to 21: ``(L1 + 0.05) / (L2 + 0.05)``
    of their relative luminances, ``L1 ≥ L2``."""
    la, lb = _luminance(a), _luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def _max_chromas(lightness: np.ndarray, hue: float, cap: float) -> np.ndarray:
    """The largest chroma (at most ``cap``) sRGB holds at each lightness in ``hue`` (bisection)."""
    lo, hi = np.zeros_like(lightness), np.full_like(lightness, cap)
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        rgb = lab_to_srgb(np.stack([lightness, mid * np.cos(hue), mid * np.sin(hue)], -1))
        ok = ((rgb > -0.5) & (rgb < 255.5)).all(axis=-1)
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
    return lo


def _side(bg_lab, end_l, hue, chroma, n) -> np.ndarray:
    """``n`` colours from the background (t = 0) to each end (t = 1), in CIELAB (LCh).

    ``end_l`` and ``chroma`` are arrays of ends (shape ``(k,)``; the result
    ``(k, n, 3)``).  In the class's hue (the background's own would make the
    chroma dip: a straight line in a, b passes near grey), never past the
    chroma sRGB holds at that lightness (clipping would bend the lightness
    instead).
    """
    t = np.linspace(0.0, 1.0, n)
    light = bg_lab[0] * (1 - t) + end_l[:, None] * t
    bg_c = float(np.hypot(bg_lab[1], bg_lab[2]))
    c = bg_c * (1 - t) + chroma[:, None] * t
    c = np.minimum(c, _max_chromas(light, hue, np.maximum(chroma, bg_c)[:, None] + 1e-9))
    out = np.stack([light, c * np.cos(hue), c * np.sin(hue)], axis=-1)
    out[:, 0] = bg_lab  # the middle level is the background itself
    return out


#: The end of a side moves away from the background by 0.25 L* a step, at most 199 steps,
#: tried this many at a time.
_BLOCK = 24


@lru_cache(maxsize=8)
def _build(background: tuple, pos: tuple, neg: tuple, marks: tuple) -> np.ndarray:
    bg = srgb_to_lab(background)
    dark = bg[0] < 50
    half = LEVELS // 2
    sides = []
    for color in (neg, pos):  # each side: the deepest whose every level keeps the contrast
        lab = srgb_to_lab(color)
        hue, cap = float(np.arctan2(lab[2], lab[1])), float(np.hypot(lab[1], lab[2]))
        best = np.tile(background, (half, 1))
        for first in range(1, 200, _BLOCK):
            steps = np.arange(first, min(first + _BLOCK, 200))
            end_l = bg[0] + (0.25 * steps if dark else -0.25 * steps)
            chroma = _max_chromas(end_l, hue, cap)
            rgb = np.clip(lab_to_srgb(_side(bg, end_l, hue, chroma, half)), 0, 255)
            least = np.min([contrast(m, rgb).min(axis=-1) for m in marks], axis=0)
            failed = np.flatnonzero(least < MIN_CONTRAST)
            if len(failed):
                best = rgb[failed[0] - 1] if failed[0] else best
                break
            best = rgb[-1]
        sides.append(best)
    table = np.empty((LEVELS, 4), np.ubyte)
    table[:half, :3] = np.rint(sides[0][::-1])  # P = 0 (class −1) ... just below ½
    table[half:, :3] = np.rint(sides[1])  # just above ½ ... P = 1 (class +1)
    table[:, 3] = 255
    return table


def class_ramp(background, color, depth: float = 0.45) -> np.ndarray:
    """One class's shading, from the background (level 0) to ``color`` at ``depth`` over it
    (the last level): opaque RGBA, shape (LEVELS // 2, 4), uint8.  Never deeper than
    ``depth``, so that the class's own points, drawn in ``color``, stand out on it."""
    t = np.linspace(0.0, depth, LEVELS // 2)[:, None]
    bg, c = np.asarray(background[:3], float), np.asarray(color[:3], float)
    table = np.full((LEVELS // 2, 4), 255, np.ubyte)
    table[:, :3] = np.rint(bg * (1 - t) + c * t)
    return table


def posterior_lut(background, pos_color, neg_color, marks) -> np.ndarray:
    """The map's colour at each level ``P = i / 255``: opaque RGBA, shape (256, 4), uint8.

    The colours are sRGB 0–255; ``marks`` are those drawn on the shading, each
    kept at a contrast of 3:1 with every level.
    """
    key = tuple(tuple(int(v) for v in c) for c in (background, pos_color, neg_color))
    return _build(*key, tuple(tuple(int(v) for v in m) for m in marks)).copy()
