"""A demo as slides: a folder of numbered PNG frames, their captions, and a page.

A demo GIF's frames as ``slide-01.png`` … with ``captions.txt``, ``slides.md``
(for slide tools) and ``slides.html``.  A cancelled or failed export removes
the slides it had written, and never touches a file it did not write.
"""

from __future__ import annotations

import html
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6 import QtGui

from ....core.io import Cancelled
from .animation import demo_frames_steps, load_for_export
from .common import DEFAULT_IMAGE_SIZE, ExportError, qimage_bytes
from .job import Offload, run_now
from .renderer import write_checked

#: The marks Markdown reads as markup anywhere in a line (HTML, links, images,
#: emphasis, code, tables); a backslash before each shows it as itself.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]<>&|~!])")
#: What starts a block at the start of a line: a heading, quote, list or rule.
_MARKDOWN_BLOCK = re.compile(r"^(\s*)(?:([#>+=-])|(\d+)([.)]))")

__all__ = ["SlidesResult", "render_demo_slides", "demo_slides_steps", "markdown_text"]


@dataclass
class SlidesResult:
    """What a slides export wrote: the folder, its files and how long it took."""

    folder: str
    files: list
    frames: int
    seconds: float


class _Slides:
    """The frames and their captions as they come (the sink of :func:`demo_frames_steps`)."""

    def __init__(self):
        self.frames: list[bytes] = []
        self.captions: list[str] = []

    def add(self, image: QtGui.QImage, caption: str | None) -> None:
        self.frames.append(qimage_bytes(image))
        self.captions.append(_plain(caption or ""))


def _plain(caption: str) -> str:
    """The caption as text: the soft hyphens and zero-width breaks of the bar removed."""
    return caption.replace("\u00ad", "").replace("\u200b", "").strip()


def _names(n: int) -> list[str]:
    digits = max(2, len(str(n)))
    return ["slide-" + str(i).zfill(digits) + ".png" for i in range(1, n + 1)]


def _markdown(title: str, names: list[str], captions: list[str]) -> str:
    parts = [f"# {markdown_text(title)}", ""]
    for i, (name, caption) in enumerate(zip(names, captions, strict=True), 1):
        parts += [f"## {i}", "", f"![Slide {i}]({name})", "", markdown_text(caption), ""]
    return "\n".join(parts)


def markdown_text(text: str) -> str:
    """``text`` as Markdown that shows it as it is, on one line: its markup marks escaped.

    A title or caption from a demo file is text, never markup: ``<img src=…>``
    or ``[a](b)`` is shown, not rendered, and a leading ``#`` or ``1.`` is no
    heading or list.
    """
    line = _MARKDOWN_PUNCTUATION.sub(r"\\\1", " ".join(text.splitlines()))
    return _MARKDOWN_BLOCK.sub(lambda m: m.group(1) + (
        "\\" + m.group(2) if m.group(2) else m.group(3) + "\\" + m.group(4)), line)


def _html(title: str, names: list[str], captions: list[str]) -> str:
    t = html.escape(title)
    body = "\n".join(
        f'<section><img src="{html.escape(name)}" alt="Slide {i}">'
        f"<p>{html.escape(caption)}</p></section>"
        for i, (name, caption) in enumerate(zip(names, captions, strict=True), 1))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{t}</title><style>body{{font-family:sans-serif;max-width:60em;"
            "margin:auto}section{margin:2em 0}img{max-width:100%}p{font-size:1.3em}"
            f"</style></head><body><h1>{t}</h1>\n{body}\n</body></html>\n")


def _save(slides: _Slides, folder: Path, title: str, cancelled) -> list[str]:
    """Write the slides (worker); on a failure or a cancel remove what was written."""
    names = _names(len(slides.frames))
    files = [(name, data) for name, data in zip(names, slides.frames, strict=True)]
    files += [("captions.txt", ("\n".join(slides.captions) + "\n").encode("utf-8")),
              ("slides.md", _markdown(title, names, slides.captions).encode("utf-8")),
              ("slides.html", _html(title, names, slides.captions).encode("utf-8"))]
    written: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files:
            path = folder / name
            write_checked(path, data, cancelled)
            written.append(path)
    except (OSError, ExportError, Cancelled) as exc:  # write_file says ExportError
        for path in written:
            path.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise ExportError(f"{folder}: cannot write the slides: {exc.strerror or exc}") from exc
        raise
    return [os.fspath(p) for p in written]


def demo_slides_steps(demo, folder, *, size=DEFAULT_IMAGE_SIZE, scale=None, progress=None,
                      cancelled=None, step_budget: int | None = None, checked: bool = False,
                      views=()):
    """The steps (:mod:`.job`) of a demo's slides (options as :func:`.animation.demo_gif_steps`)."""
    demo = load_for_export(demo)
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ExportError(f"{folder}: not a folder")
    started = time.perf_counter()
    slides = _Slides()
    yield from demo_frames_steps(demo, slides, size=size, scale=scale, progress=progress,
                                 cancelled=cancelled, step_budget=step_budget, checked=checked,
                                 views=views)
    files = yield Offload(_save, slides, folder, demo.title, cancelled)
    return SlidesResult(os.fspath(folder), files, len(slides.frames), time.perf_counter() - started)


def render_demo_slides(demo, folder, **options) -> SlidesResult:
    """:func:`demo_slides_steps` now (``folder`` created if missing)."""
    return run_now(demo_slides_steps(demo, folder, **options))
