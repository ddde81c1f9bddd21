"""The demo caption bar: the strip under the canvas, its text, and its fitted size.

Whatever a demo's title and captions hold, the text shown is bounded (the
demo format's limits) and has no word wider than the bar, so the label never
asks the window for more width and fitting its font costs O(text).
"""

from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

from .. import errors, style
from ..deferred import YieldingTimer

__all__ = ["BREAK_EVERY", "CAPTION_COLOURS", "CAPTION_FACTOR", "DemoBar", "LONG_WORD",
           "MAX_BAR_SHARE", "MIN_BAR_PX", "MIN_CAPTION_PT", "SHOWN_CAPTION_CHARS",
           "SHOWN_TITLE_CHARS", "breakable", "caption_html", "fitted_pt"]

#: The caption bar's (background, text) in each colour scheme: cream as a tooltip on the
#: light one, a raised dark surface on the dark one (the text at least 4.5:1 on it).
CAPTION_COLOURS = {"light": ("#ffffdc", "#000000"), "dark": ("#2b2e33", "#e6e6e6")}
#: The caption's font size as a multiple of the current scale's (1.4 × 10 pt normally).
CAPTION_FACTOR = 1.4
#: The caption bar's largest height as a share of the canvas area's: every caption of a
#: demo gets the same bar, at one size, so the canvas never jumps or re-zooms between
#: steps and a long caption wraps rather than shrinks.
MAX_BAR_SHARE = 0.18
MIN_BAR_PX = 56
#: ... but never below this size, in points.
MIN_CAPTION_PT = 9.0
#: The most characters of a title and of a caption shown (the demo format's limits;
#: a demo built in code is cut there, so fitting a caption costs a bounded time).
SHOWN_TITLE_CHARS = 100
SHOWN_CAPTION_CHARS = 300
#: A word longer than this gets a zero-width space every :data:`BREAK_EVERY` characters:
#: no word is wider than the caption bar, and the window never widens to show it.
LONG_WORD = 24
BREAK_EVERY = 12
_LONG_WORD_RE = re.compile(rf"\S{{{LONG_WORD + 1},}}")


def breakable(text: str, limit: int) -> str:
    """``text`` cut at ``limit`` characters (the last then "…"), its long words breakable."""
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return _LONG_WORD_RE.sub(
        lambda m: "\u200b".join(m[0][i:i + BREAK_EVERY]
                                for i in range(0, len(m[0]), BREAK_EVERY)), text)


def caption_html(title: str, position: str, caption: str, caption_pt: float,
                 scale: style.Scale) -> str:
    """The bar's rich text: the title and ``position`` on a small line, then the caption
    (plain texts, escaped, cut and made breakable here)."""
    import html  # only with a demo playing: not on the launch's path

    meta_pt = min(scale.font_pt * 1.1, caption_pt * 0.8)
    title = html.escape(breakable(title, SHOWN_TITLE_CHARS))
    caption = html.escape(breakable(caption, SHOWN_CAPTION_CHARS))
    return (f"<div style='font-size:{meta_pt:.1f}pt'><b>{title}"
            f"</b> &nbsp;·&nbsp; {html.escape(position)}</div>"
            f"<div style='font-size:{caption_pt:.1f}pt'>{caption}</div>")


def fitted_pt(htmls_at, font: QtGui.QFont, width: int, height: int,
              target_pt: float, heights: dict[str, float] | None = None
              ) -> tuple[float, float]:
    """The largest caption size from ``target_pt`` down (by 1 pt, to :data:`MIN_CAPTION_PT`)
    at which every text of ``htmls_at(pt)`` fits ``width`` × ``height`` pixels, and the
    tallest's height.  Every text is measured at every size: wrapping is not monotone.
    ``heights`` (text -> height with this ``font`` and ``width``) is read first and filled
    in: a text is laid out once.
    """
    heights = {} if heights is None else heights
    doc = None

    def measured(html: str) -> float:
        nonlocal doc
        if html not in heights:
            if doc is None:
                doc = QtGui.QTextDocument()
                doc.setDefaultFont(font)
                doc.setDocumentMargin(0)
                option = doc.defaultTextOption()
                option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)
                doc.setDefaultTextOption(option)
                doc.setTextWidth(width)
            doc.setHtml(html)
            heights[html] = doc.size().height()
        return heights[html]

    def tallest(pt: float) -> float:
        return max((measured(html) for html in htmls_at(pt)), default=0.0)

    pt = target_pt
    needed = tallest(pt)
    while pt > MIN_CAPTION_PT and needed > height:
        pt = max(MIN_CAPTION_PT, pt - 1.0)
        needed = tallest(pt)
    return pt, needed


class DemoBar(QtWidgets.QFrame):
    """The strip under the canvas (objectName ``demoBar``): a demo's caption and its buttons,
    with room for the longest of ``hints`` on the title line."""

    def __init__(self, hints: tuple = ()):
        super().__init__(objectName="demoBar")
        self.setFrameShape(QtWidgets.QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.caption = label = QtWidgets.QLabel(objectName="captionBar")
        label.setWordWrap(True)
        label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.NoTextInteraction)
        label.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                            QtWidgets.QSizePolicy.Policy.Preferred)
        label.setMinimumWidth(1)  # the caption wraps: its text never sets the window's width
        self._buttons = QtWidgets.QVBoxLayout()
        self._buttons.setSpacing(2)
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(label, 1)
        layout.addLayout(self._buttons)
        self._area: QtWidgets.QWidget | None = None
        self._hints = hints
        self.player = None
        self.hint = ""  # said on the first line until the next step
        self.scale = style.NORMAL
        self._fitted: tuple | None = None  # (key, bar height, caption pt)
        #: The texts' heights measured before, by (width, font key), then by text.
        self.measured: dict[tuple[int, str], dict[str, float]] = {}
        # the caption is fitted again once the layout has settled after a resize
        self._fit_timer = YieldingTimer(self, self.fit, name="demoCaptionFit")
        self.set_scale(style.NORMAL)
        label.installEventFilter(self)

    def set_area(self, area: QtWidgets.QWidget) -> None:
        """The canvas area the bar is in (its height bounds the bar's)."""
        self._area = area
        area.installEventFilter(self)

    def add_button(self, action: QtGui.QAction) -> QtWidgets.QToolButton:
        """A button for ``action`` that never takes the focus (a clicker's arrow stays put)."""
        button = QtWidgets.QToolButton(objectName=f"button_{action.objectName()}")
        button.setDefaultAction(action)
        button.setAutoRaise(True)
        button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self._buttons.addWidget(button)
        return button

    def show_player(self, player, new: bool = False) -> None:
        """Show ``player``'s demo and step (None: hide the bar); ``new``: a demo started."""
        self.player = player
        if new:
            self._fitted = None
        self.setVisible(player is not None)
        if player is None:
            self.hint = ""
            self.caption.clear()
            return
        self.caption.setToolTip(errors.plain_tooltip(
            f"{player.demo.title}: → / Page Down next, ← / Page Up back, Esc stops"))
        icon = round(16 * self.scale.font_pt / style.NORMAL.font_pt)
        for i in range(self._buttons.count()):
            self._buttons.itemAt(i).widget().setIconSize(QtCore.QSize(icon, icon))
        self.fit()

    def say(self, hint: str) -> None:
        """Show ``hint`` on the first line until the next step ("": the title line)."""
        if hint != self.hint:
            self.hint = hint
            self.fit()

    def set_scale(self, scale: style.Scale) -> None:
        """The caption's sizes for ``scale``, and the colours of the scheme in use."""
        self.scale = scale
        back, text = (QtGui.QColor(c) for c in CAPTION_COLOURS[style.current().name])
        pal = QtGui.QPalette(self.palette())
        R = QtGui.QPalette.ColorRole
        for role in (R.Window, R.Button):
            pal.setColor(role, back)
        for role in (R.WindowText, R.Text, R.ButtonText):
            pal.setColor(role, text)
        self.setPalette(pal)
        self.show_player(self.player)

    @property
    def caption_pt(self) -> float:
        """The font size, in points, of every caption of the demo shown (0 without one)."""
        return self._fitted[2] if self.player is not None and self._fitted else 0.0

    def _html(self, caption_pt: float, caption: str | None = None,
              hint: str | None = None, index: int | None = None) -> str:
        player = self.player
        index = player.index if index is None else index
        position = f"demo step {index} of {len(player)}"  # not the run's step
        hint = self.hint if hint is None else hint
        if hint:
            position += f"  ·  {hint}"
        return caption_html(player.demo.title, position,
                            player.caption if caption is None else caption, caption_pt,
                            self.scale)

    def fit(self) -> None:
        """Every caption of the demo at one size, in a bar as tall as the longest needs."""
        if self.player is None:
            return
        target = self.scale.font_pt * CAPTION_FACTOR
        width = self.caption.width()
        if self._area is None or not self.caption.isVisible() or width < 50:
            self.caption.setText(self._html(target))
            return
        player, area = self.player, self._area
        shown = player.caption  # its live numbers filled in: maybe longer than written
        font = self.caption.font()
        key = (id(player.demo), width, area.height(), target, shown, font.key())
        if self._fitted is None or self._fitted[0] != key:
            most = round(max(MIN_BAR_PX, MAX_BAR_SHARE * area.height())) - 14  # margins
            # every caption as shown (a step without one shows what it does), the one shown
            # now, with the hints that may replace the step's line, and the last step's
            # position (its number the longest): the same texts at every step
            captions = [player.demo.description, shown,
                        *(st.caption or st.text for st in player.demo.steps)]
            hint = max(self._hints, key=len, default="")
            last = len(player)
            if sum(map(len, self.measured.values())) > 4096:  # demos played before
                self.measured.clear()
            heights = self.measured.setdefault((width, font.key()), {})
            pt, needed = fitted_pt(
                lambda p: [self._html(p, c, hint, last) for c in captions], font, width,
                most, target, heights)
            self._fitted = (key, round(max(MIN_BAR_PX, min(most, needed) + 14)), pt)
        _key, bar_px, pt = self._fitted
        if self.height() != bar_px or self.minimumHeight() != bar_px:
            self.setFixedHeight(bar_px)
        self.caption.setText(self._html(pt))

    def eventFilter(self, obj, event) -> bool:
        # fitted again after the layout settles; on showing, as a fit asked for while the
        # bar was hidden was skipped
        kind, types = event.type(), QtCore.QEvent.Type
        resized = kind == types.Resize
        if self.player is not None and (
                obj is self.caption and (kind == types.Show or resized
                                         and event.size().width() != event.oldSize().width())
                or obj is self._area and resized
                and event.size().height() != event.oldSize().height()):
            self._fit_timer.start()
        return False
