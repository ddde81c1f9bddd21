"""Reading files safely and writing them atomically: the part every format shares.

:func:`atomic_write_bytes` is the program's one atomic writer.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable
from contextlib import suppress

import numpy as np

from ..dataset import MAX_POINTS as MAX_POINTS  # the most points a file may hold

#: The largest file read, in bytes (256 MiB: a million points need under 100 MB).
MAX_FILE_BYTES = 256 * 2**20
#: The longest class label (CSV) or text value (workspace parameters), in characters.
MAX_LABEL_CHARS = 200
#: The nesting depth a message names as "too deep" when the JSON parser gives up
#: (every format of the program nests fewer than 10 levels).
MAX_JSON_DEPTH = 100

_CHUNK = 4 * 2**20  # bytes read between progress reports

Progress = Callable[[float], object]


class FormatError(ValueError):
    """A file (or text) that is not a valid workspace or CSV file.

    The message says what is wrong and where: the line for CSV, the field path
    for workspace files (``"points[2].x: NaN is not allowed"``). A file that
    cannot be read at all is reported the same way, with the :class:`OSError`
    as ``__cause__``, so a caller catches one type.
    """


class Cancelled(Exception):  # noqa: N818 - the name says what happened, as asked
    """The user cancelled a long job (a ``progress`` callback returned False); nothing
    was changed or written."""


def report_progress(progress: Progress | None, fraction: float, job: str = "loading") -> None:
    """Call ``progress(fraction)``; raise :class:`Cancelled` if it returned False."""
    if progress is not None and progress(min(1.0, max(0.0, fraction))) is False:
        raise Cancelled(f"{job} cancelled")


def short_repr(text: str, limit: int = 40) -> str:
    """``repr`` of a string cut to ``limit`` characters for a message."""
    if len(text) > limit:
        text = text[:limit] + "…"
    return repr(text)


def size_text(n: int) -> str:
    return f"{n / 2**20:,.1f} MB" if n >= 2**20 else f"{n:,} bytes"


#: Binary formats recognised by their first bytes, for a clear message (the
#: program's one such table: :mod:`.tabular` uses it too).
BINARY_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"PK\x03\x04", "a ZIP archive (or an .xlsx/.ods spreadsheet)"),
    (b"BZh", "a bzip2-compressed file"),
    (b"\xfd7zXZ\x00", "an xz-compressed file"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x7fELF", "an executable program"),
    (b"\xd0\xcf\x11\xe0", "an old Microsoft Office document (.xls, .doc)"),
)

# Byte-order marks and the NUL pattern of ASCII text in wider encodings (UTF-32
# before UTF-16: the UTF-32-LE mark begins with the UTF-16-LE one).
_WIDE_TEXT = [
    (re.compile(rb"\xff\xfe\x00\x00|\x00\x00\xfe\xff"), "UTF-32"),
    (re.compile(rb"\xff\xfe|\xfe\xff"), "UTF-16"),
    (re.compile(rb"[\x01-\x7f]\x00\x00\x00|\x00\x00\x00[\x01-\x7f]"), "UTF-32"),
    (re.compile(rb"[\x01-\x7f]\x00[\x01-\x7f]\x00|\x00[\x01-\x7f]\x00[\x01-\x7f]"), "UTF-16"),
]


def sniff_binary(data: bytes) -> None:
    """Raise FormatError for a recognisable binary file or one with NUL bytes."""
    for magic, what in BINARY_SIGNATURES:
        if data.startswith(magic):
            raise FormatError(f"this is {what}, not a text file")
    for pattern, encoding in _WIDE_TEXT:
        if pattern.match(data):
            raise FormatError(f"the file is {encoding} text; save it as UTF-8")
    if len(data) >= 2 and data[0] == 0x80 and data[1] <= 5:
        raise FormatError("this is a Python pickle, not a text file (pickles are never loaded)")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise FormatError(f"binary data (a NUL byte) at byte {nul}; this is not a text file")


def decode(data: bytes) -> str:
    """Decode UTF-8 (with an optional byte-order mark) or raise FormatError."""
    sniff_binary(data)
    return decode_utf8(data, 3 if data.startswith(b"\xef\xbb\xbf") else 0)


def decode_utf8(data: bytes, offset: int = 0) -> str:
    """``data[offset:]`` as UTF-8, or a FormatError naming the first bad byte (counted
    from the start of ``data``) and its line."""
    try:
        return data[offset:].decode("utf-8")
    except UnicodeDecodeError as exc:
        pos = exc.start + offset
        line = data.count(b"\n", 0, pos) + 1
        raise FormatError(
            f"not UTF-8 text at byte {pos} (line {line}); save the file as UTF-8"
        ) from None


_FILE_KINDS = [
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
]


def _not_regular(name: str, mode: int) -> FormatError:
    kind = next((what for test, what in _FILE_KINDS if test(mode)), "not a file")
    return FormatError(f"cannot read {name!r}: it is not a regular file ({kind})")


def open_regular(name: str):
    """Open a regular file for binary reading, refusing anything else before it can block.

    A FIFO, a directory or a device is refused before it is opened (opening a
    FIFO waits for a writer, reading a device never ends); the file is then
    opened without blocking and checked again, so a FIFO swapped in between
    cannot hang the reader either.
    """
    mode = os.stat(name).st_mode
    if not stat.S_ISREG(mode):
        raise _not_regular(name, mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(name, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(name, mode)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def file_name(path) -> str:
    """``os.fspath(path)``, or FormatError for something that is not a path."""
    try:
        return os.fspath(path)
    except TypeError as exc:
        raise FormatError(f"not a file path: {path!r}") from exc


def open_limited(path):
    """Open a regular file of at most MAX_FILE_BYTES for binary reading; ``(file, size)``."""
    name = file_name(path)
    try:
        f = open_regular(name)
    except OSError as exc:
        raise FormatError(f"cannot read {name!r}: {exc.strerror or exc}") from exc
    try:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(
                f"the file is {size_text(size)}; the limit is {size_text(MAX_FILE_BYTES)}")
    except BaseException:
        f.close()
        raise
    return f, size


def read_bytes(path, progress: Progress | None, share: float) -> bytes:
    """Read a whole file of :func:`open_limited`, reporting progress in [0, share]."""
    f, size = open_limited(path)
    chunks: list[bytes] = []
    total = 0
    try:
        with f:
            report_progress(progress, 0.0)
            while chunk := f.read(_CHUNK):
                if not chunks:
                    sniff_binary(chunk[:4096])  # fail fast on a binary file
                chunks.append(chunk)
                total += len(chunk)
                if total > MAX_FILE_BYTES:  # a growing file or a device
                    raise FormatError(
                        f"the file is larger than {size_text(MAX_FILE_BYTES)}, the limit"
                    )
                if size:
                    report_progress(progress, share * min(1.0, total / size))
    except OSError as exc:
        raise FormatError(f"cannot read {file_name(path)!r}: {exc.strerror or exc}") from exc
    return b"".join(chunks)


def _line_column(text: str, pos: int) -> str:
    """``"line L, column C"`` of a position in a text (both counted from 1, as json does)."""
    line = text.count("\n", 0, pos) + 1
    column = pos - text.rfind("\n", 0, pos)
    return f"line {line}, column {column}"


_QUOTE, _BACKSLASH = ord('"'), ord("\\")
_OPENING, _CLOSING = (ord("["), ord("{")), (ord("]"), ord("}"))


def _too_deep(text: str) -> str:
    """Where the nesting of a JSON text first passes MAX_JSON_DEPTH levels (else its deepest).

    Vectorised over the UTF-8 bytes: brackets inside strings do not count, and
    a quote after an odd run of backslashes does not end a string.
    """
    raw = text.encode("utf-8", "surrogatepass")
    data = np.frombuffer(raw, np.uint8)
    quote = data == _QUOTE
    slashes = np.flatnonzero(data == _BACKSLASH)
    if slashes.size:
        breaks = np.diff(slashes) != 1
        starts = slashes[np.r_[True, breaks]]
        ends = slashes[np.r_[breaks, True]]
        escaped = ends[(ends - starts) % 2 == 0] + 1  # after a run of odd length
        quote[escaped[escaped < data.size]] = False
    opening = (data == _OPENING[0]) | (data == _OPENING[1])
    closing = (data == _CLOSING[0]) | (data == _CLOSING[1])
    events = np.flatnonzero(quote | opening | closing)
    if not events.size:
        return _line_column(text, 0)
    is_quote = quote[events]
    inside = (np.cumsum(is_quote) - is_quote) % 2 == 1
    step = opening[events].astype(np.int64) - closing[events]
    step[inside | is_quote] = 0
    depth = np.cumsum(step)
    over = np.flatnonzero(depth > MAX_JSON_DEPTH)
    pos = int(events[over[0]] if over.size else events[np.argmax(depth)])
    line_start = raw.rfind(b"\n", 0, pos) + 1
    line = raw.count(b"\n", 0, pos) + 1
    column = len(raw[line_start:pos].decode("utf-8", "surrogatepass")) + 1
    return f"line {line}, column {column}"


def _too_long_number(text: str) -> str | None:
    """Where a JSON text has an integer too long for ``int``, and its length, or None."""
    limit = sys.get_int_max_str_digits()
    if not limit:
        return None
    match = re.search(rf"\d{{{limit + 1},}}", text)
    if match is None:
        return None
    digits = len(match.group())
    return (f"a number of {digits:,} digits is too long, the limit is {limit:,} "
            f"({_line_column(text, match.start())})")


def loads_json(text: str, **hooks):
    """:func:`json.loads`, with a place named for the failures json names none for.

    Nesting too deep for the parser and an integer too long for ``int`` are
    FormatErrors naming the line and column; malformed JSON raises
    ``json.JSONDecodeError`` for the caller to word.
    """
    try:
        return json.loads(text, **hooks)
    except RecursionError:
        raise FormatError(f"invalid JSON: nested too deeply ({_too_deep(text)})") from None
    except json.JSONDecodeError:
        raise
    except ValueError:
        where = _too_long_number(text)
        if where is None:
            raise
        raise FormatError(f"invalid JSON: {where}") from None


def guard_reader(kind: str, func, *args, fail: Callable[[str], FormatError] = FormatError):
    """Run a reader; turn any unforeseen exception into ``fail(message)`` (a backstop)."""
    try:
        return func(*args)
    except (FormatError, Cancelled):
        raise
    except RecursionError:
        raise fail(f"the {kind} is nested too deeply to read") from None
    except MemoryError:
        raise fail(f"the {kind} is too large to read into memory") from None
    except Exception as exc:
        raise fail(
            f"internal error while reading the {kind} ({type(exc).__name__}: {exc}); "
            "please report this with the file"
        ) from exc


#: A temporary file of :func:`atomic_write_bytes`: ``.<name>.<host>-<pid>-<token>.tmp``.
_TEMP = re.compile(r"\.(?P<base>.+)\.(?P<host>[0-9a-f]{6})-(?P<pid>\d+)-[0-9a-f]{8}\.tmp")
#: A temporary file of an earlier version (no writer named): ``.<name>.<token>.tmp``.
_OLD_TEMP = re.compile(r"\.(?P<base>.+)\.[0-9a-f]{8}\.tmp")
#: An earlier version's temporary file is stale once untouched this long (seconds):
#: a writer adds to its file as it goes, and no save takes an hour.
OLD_TEMP_SECONDS = 3600.0


def _host_tag() -> str:
    import hashlib
    import socket

    return hashlib.sha1(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:6]


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (True when in doubt)."""
    if pid <= 0:
        return True
    if os.name == "nt":
        import ctypes

        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return kernel32.GetLastError() == 5  # access denied: it exists
        try:
            code = ctypes.c_ulong()
            return not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)) or code.value == 259
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process: it exists
        return True
    return True


def remove_stale_temps(path) -> list[str]:
    """Remove the temporary files that killed writes to ``path`` left beside it; the list.

    Only stale files of this very target are removed: written on this machine
    by a process that no longer exists (this process's own are never touched:
    a write may be under way in another thread), or, for the pattern of earlier
    versions that names no writer, untouched for :data:`OLD_TEMP_SECONDS`.
    Errors are ignored (it is housekeeping).
    """
    import time

    target = os.path.realpath(os.fspath(path))
    directory = os.path.dirname(target) or "."
    base = os.path.basename(target)
    host, me = _host_tag(), os.getpid()
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        if not name.startswith(f".{base}.") or not name.endswith(".tmp"):
            continue
        m = _TEMP.fullmatch(name)
        if m is not None and m["base"] == base:
            pid = int(m["pid"])
            stale = m["host"] == host and pid != me and not _pid_alive(pid)
        else:
            m = _OLD_TEMP.fullmatch(name)
            if m is None or m["base"] != base:
                continue
            try:
                stale = time.time() - os.lstat(os.path.join(directory, name)).st_mtime \
                    > OLD_TEMP_SECONDS
            except OSError:
                continue
        if stale:
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                continue
            removed.append(os.path.join(directory, name))
    return removed


def _named_after(exc: OSError, tmp: str, target: str) -> OSError:
    """``exc`` with the target's name where it named the hidden temporary file."""
    return exc if exc.filename != tmp else type(exc)(exc.errno, exc.strerror, target)


def atomic_write_bytes(path, chunks: Iterable[bytes]) -> None:
    """Write byte chunks to ``path`` atomically.

    Through a hidden file beside it, fsync'ed, then :func:`os.replace` (atomic on
    POSIX and Windows). On any exception ``path`` is untouched and an :class:`OSError`
    names it, not the temporary file. A symbolic link's target is replaced.
    """
    target = os.path.realpath(os.fspath(path))
    directory = os.path.dirname(target) or "."
    base = os.path.basename(target)
    remove_stale_temps(target)
    writer = f"{_host_tag()}-{os.getpid()}"
    while True:
        import secrets  # on the first write, not at launch

        tmp = os.path.join(directory, f".{base}.{writer}-{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666)
        except FileExistsError:
            continue
        except OSError as exc:
            raise _named_after(exc, tmp, target) from None
        break
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        with suppress(OSError):  # keep the permissions of the file being replaced
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(tmp, target)
    except BaseException as exc:
        with suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _named_after(exc, tmp, target) from None
        raise
    try:  # make the rename itself durable (POSIX); best effort
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with suppress(OSError):
            os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
