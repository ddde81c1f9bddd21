"""The demo caption bar's text: its HTML, long words made breakable, and its fitted size.

The caption bar (:mod:`.demo_player`) is a word-wrapping label under the
canvas, as tall as the demo's longest caption needs at one font size.
Whatever a demo's title and captions hold, the text shown here is bounded
(the demo format's limits) and has no word wider than the bar, so the label
never asks the window for more width and fitting its font costs O(text).
"""

from __future__ import annotations

import re

from PySide6 import QtGui

from .. import style

__all__ = ["CAPTION_FACTOR", "MAX_BAR_SHARE", "MIN_BAR_PX", "MIN_CAPTION_PT",
           "SHOWN_TITLE_CHARS", "SHOWN_CAPTION_CHARS", "LONG_WORD", "BREAK_EVERY",
           "breakable", "caption_html", "fitted_pt"]

#: The caption's font size as a multiple of the current scale's (1.4 × 10 pt normally).
CAPTION_FACTOR = 1.4
#: The caption bar's largest height as a share of the canvas area's height (at least
#: :data:`MIN_BAR_PX`): every caption of a demo gets the same bar, as tall as its
#: longest caption needs at the one caption size, so the canvas never jumps or
#: re-zooms between steps and a long caption wraps rather than shrinks.
MAX_BAR_SHARE = 0.18
MIN_BAR_PX = 56
#: ... but never below this size, in points.
MIN_CAPTION_PT = 9.0
#: The most characters of a title and of a caption shown (the demo format's limits;
#: a demo built in code is cut there, so fitting a caption costs a bounded time).
SHOWN_TITLE_CHARS = 100
SHOWN_CAPTION_CHARS = 300
#: A word longer than this may break anywhere: it gets a break opportunity (a
#: zero-width space) every :data:`BREAK_EVERY` characters, so that no word is ever
#: wider than the caption bar and the window never widens to show it.
LONG_WORD = 24
BREAK_EVERY = 12
_LONG_WORD_RE = re.compile(rf"\S{{{LONG_WORD + 1},}}")


def breakable(text: str, limit: int) -> str:
    """``text``, cut at ``limit`` characters, its long words breakable anywhere.

    The last character kept is then "…". A zero-width space goes every
    :data:`BREAK_EVERY` characters inside a word longer than :data:`LONG_WORD`;
    O(len(text)).
    """
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return _LONG_WORD_RE.sub(
        lambda m: "\u200b".join(m[0][i:i + BREAK_EVERY]
                                for i in range(0, len(m[0]), BREAK_EVERY)), text)


def caption_html(title: str, position: str, caption: str, caption_pt: float,
                 scale: style.Scale) -> str:
    """The bar's rich text: the title and ``position`` on a small line, then the caption.

    ``title`` and ``caption`` are plain text (escaped, cut and made breakable
    here); ``position`` is such as ``"step 2 / 9"``; ``caption_pt`` is the
    caption's font size in points (the title line's is smaller).
    """
    import html  # only with a demo playing: not on the launch's path

    meta_pt = min(scale.font_pt * 1.1, caption_pt * 0.8)
    title = html.escape(breakable(title, SHOWN_TITLE_CHARS))
    caption = html.escape(breakable(caption, SHOWN_CAPTION_CHARS))
    return (f"<div style='font-size:{meta_pt:.1f}pt'><b>{title}"
            f"</b> &nbsp;·&nbsp; {html.escape(position)}</div>"
            f"<div style='font-size:{caption_pt:.1f}pt'>{caption}</div>")


def fitted_pt(htmls_at, font: QtGui.QFont, width: int, height: int,
              target_pt: float) -> tuple[float, float]:
    """The largest caption size from ``target_pt`` down (by 1 pt) at which every text fits.

    ``htmls_at(pt)`` gives the bar's rich texts at caption size ``pt``; ``width``
    and ``height`` are the room in pixels. Returns the size (at least
    :data:`MIN_CAPTION_PT`) and the tallest text's height at it.

    Every text is measured at every size tried: wrapping is not monotone, so
    the tallest caption at one size need not be the tallest at the next. The
    texts are laid out as the label lays them out, at most
    ``target_pt - MIN_CAPTION_PT + 1`` times each, each O(text).
    """
    doc = QtGui.QTextDocument()
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    option = doc.defaultTextOption()
    option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
    doc.setDefaultTextOption(option)
    doc.setTextWidth(width)

    def tallest(pt: float) -> float:
        most = 0.0
        for html in htmls_at(pt):
            doc.setHtml(html)
            most = max(most, doc.size().height())
        return most

    pt = target_pt
    needed = tallest(pt)
    while pt > MIN_CAPTION_PT and needed > height:
        pt = max(MIN_CAPTION_PT, pt - 1.0)
        needed = tallest(pt)
    return pt, needed
