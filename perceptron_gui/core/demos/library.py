"""The demos a person has: the shipped ones and their own, saved in their data folder.

:class:`DemoLibrary` writes only inside its ``user_dir`` and never over a
shipped demo; every write is atomic.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..io import files
from .draft import DemoDraft
from .format import DEMO_DIR, Demo, demo_files, demo_title, list_demos, load_demo, parse_demo
from .reader import DemoError, UnknownDemoError
from .writer import dumps_demo

__all__ = ["DemoEntry", "DemoLibrary", "slug"]

#: The longest file stem of a user demo.
MAX_NAME_CHARS = 60


def slug(title: str) -> str:
    """A file stem for ``title``: ``"Margin & the bound (week 3)"`` ->
    ``"margin-the-bound-week-3"``; ``"demo"`` when no such character is left."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return text[:MAX_NAME_CHARS].rstrip("-") or "demo"


@dataclass(frozen=True)
class DemoEntry:
    """A demo in the menu: its name, title, file and whether it is the user's own."""

    name: str
    title: str
    path: Path
    user: bool


class DemoLibrary:
    """The shipped demos (read-only) and the user's (in ``user_dir``, made on the first save)."""

    def __init__(self, user_dir, shipped_dir=None):
        self.user_dir = Path(user_dir)
        self.shipped_dir = Path(shipped_dir) if shipped_dir is not None else DEMO_DIR

    def entries(self) -> list[DemoEntry]:
        """Every demo: the shipped ones in menu order, then the user's by title (a file too
        broken to read under its file name, so that choosing it shows its error)."""
        out = [DemoEntry(name, demo_title(self.shipped_dir / f"{name}.json") or name,
                         self.shipped_dir / f"{name}.json", False)
               for name in list_demos(self.shipped_dir)]
        mine = [DemoEntry(path.stem, demo_title(path) or path.stem, path, True)
                for path in demo_files(self.user_dir)]
        return out + sorted(mine, key=lambda e: (e.title.lower(), e.name))

    def find(self, name: str) -> DemoEntry:
        """The entry named ``name`` (a user demo first); UnknownDemoError for none."""
        for entry in reversed(self.entries()):
            if entry.name == name:
                return entry
        raise UnknownDemoError(f"unknown demo {name!r}")

    def load(self, name: str) -> Demo:
        """Load the demo named ``name`` (see :meth:`find`); raises :class:`DemoError`."""
        return load_demo(self.find(name).path)

    def save(self, draft: DemoDraft, name: str | None = None, *,
             validate: bool = True) -> DemoEntry:
        """Save ``draft`` as a user demo; returns its entry.

        ``name`` is the file stem (default the title's slug, with ``-2``, ``-3``
        ... while a user demo has it); an existing user demo's name replaces it.
        ``validate=False`` when the caller has just validated it off the UI
        thread. An invalid draft or a failed write raise DemoError, and the
        previous file is unchanged.
        """
        text = draft.dumps()
        if validate:
            problems = draft.validate()
            if problems:
                raise DemoError("; ".join(map(str, problems)))
        stem = slug(name) if name is not None else self._free_name(slug(draft.title))
        return self._write(stem, text, draft.title)

    def import_file(self, path) -> DemoEntry:
        """Copy the demo file ``path`` into the user's demos, validated, under a new name."""
        demo = load_demo(Path(path))
        return self._write(self._free_name(slug(demo.title)), dumps_demo(demo), demo.title)

    def export(self, name: str, dest) -> Path:
        """Write the demo ``name`` to the file ``dest`` (to share it); returns it."""
        dest = Path(dest)
        _write_text(dest, dumps_demo(self.load(name)))
        return dest

    def delete(self, name: str) -> Path:
        """Remove the user demo ``name``; returns the path it had (DemoError for a shipped one)."""
        path = self.user_dir / f"{slug(name)}.json"
        if not path.is_file():
            raise DemoError(f"{name!r} is not one of your demos")
        try:
            path.unlink()
        except OSError as exc:
            raise DemoError(f"{path.name}: cannot remove: {exc.strerror or exc}") from exc
        return path

    def _free_name(self, stem: str) -> str:
        taken = {p.stem for p in demo_files(self.user_dir)} | set(list_demos(self.shipped_dir))
        if stem not in taken:
            return stem
        return next(f"{stem}-{i}" for i in itertools.count(2) if f"{stem}-{i}" not in taken)

    def _write(self, stem: str, text: str, title: str) -> DemoEntry:
        if (self.shipped_dir / f"{stem}.json").resolve() == (
                self.user_dir / f"{stem}.json").resolve():
            raise DemoError(f"{stem}: that is a shipped demo; save under another name")
        path = self.user_dir / f"{stem}.json"
        parse_demo(text, name=stem, source=path.name)  # what is written is read back as is
        _write_text(path, text, make_folder=True)
        return DemoEntry(stem, title, path, True)


def _write_text(path: Path, text: str, make_folder: bool = False) -> None:
    """Write ``text`` to ``path`` atomically; DemoError naming the file."""
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        files.atomic_write_bytes(path, [text.encode("utf-8")])
    except OSError as exc:
        raise DemoError(f"{path.name}: cannot write: {exc.strerror or exc}") from exc

