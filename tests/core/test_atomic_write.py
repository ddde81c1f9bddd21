"""The atomic writer cleans up after writes that were killed, and never after live ones."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from perceptron_gui.core.io import files
from perceptron_gui.core.io.files import atomic_write_bytes, remove_stale_temps

ROOT = Path(__file__).resolve().parents[2]

#: A writer that stops in the middle of its save (after 1 MB) until it is killed.
_STUCK_WRITER = textwrap.dedent("""
    import sys, time
    from perceptron_gui.core.io.files import atomic_write_bytes

    def chunks():
        yield b"x" * 2**20
        open(sys.argv[2], "w").close()  # the temporary file holds 1 MB now
        while True:
            time.sleep(0.05)

    atomic_write_bytes(sys.argv[1], chunks())
""")


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def _start_stuck_writer(target: Path, tmp_path: Path) -> subprocess.Popen:
    ready = tmp_path / f"ready-{len(list(tmp_path.iterdir()))}"
    proc = subprocess.Popen([sys.executable, "-c", _STUCK_WRITER, str(target), str(ready)],
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    deadline = time.monotonic() + 120
    while not ready.exists():
        assert proc.poll() is None, "the writer ended early"
        assert time.monotonic() < deadline, "the writer never started"
        time.sleep(0.02)
    return proc


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_save_killed_with_sigkill_leaves_nothing_after_the_next_save(tmp_path):
    target = tmp_path / "work.json"
    target.write_bytes(b"old")
    proc = _start_stuck_writer(target, tmp_path)
    (left,) = _temps(tmp_path)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert _temps(tmp_path) == [left] and target.read_bytes() == b"old"  # what a kill leaves
    atomic_write_bytes(target, [b"new"])
    assert _temps(tmp_path) == [] and target.read_bytes() == b"new"


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_live_writers_temporary_file_is_never_removed(tmp_path):
    target = tmp_path / "work.json"
    proc = _start_stuck_writer(target, tmp_path)
    try:
        (live,) = _temps(tmp_path)
        atomic_write_bytes(target, [b"mine"])
        assert remove_stale_temps(target) == []
        assert _temps(tmp_path) == [live] and target.read_bytes() == b"mine"
        assert (tmp_path / live).stat().st_size == 2**20
    finally:
        proc.kill()
        proc.wait()
    assert remove_stale_temps(target) == [str(tmp_path / live)]


def test_only_this_targets_stale_temporaries_are_removed(tmp_path):
    target = tmp_path / "t.json"
    host, dead, me = files._host_tag(), _dead_pid(), os.getpid()
    keep = [
        f".t.json.{host}-{me}-0123abcd.tmp",  # this process: a write may be under way
        f".t.json.{'0' if host[0] != '0' else '1'}{host[1:]}-{dead}-0123abcd.tmp",  # elsewhere
        f".other.json.{host}-{dead}-0123abcd.tmp",  # another target
        ".t.json.89abcdef.tmp",  # an earlier version's, recent: may be live
        "t.json.tmp", ".t.json.notes.tmp", "t.json.bak",
    ]
    stale = [f".t.json.{host}-{dead}-0123abcd.tmp", ".t.json.fedcba98.tmp"]
    for name in keep + stale:
        (tmp_path / name).write_bytes(b"partial")
    hours_ago = time.time() - 2 * files.OLD_TEMP_SECONDS
    os.utime(tmp_path / ".t.json.fedcba98.tmp", (hours_ago, hours_ago))
    atomic_write_bytes(target, [b"saved"])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(keep + ["t.json"])


def test_a_refused_save_names_the_target_not_the_hidden_file(tmp_path, monkeypatch):
    target = tmp_path / "read-only.json"
    real_open = os.open

    def refuse_new_files(path, flags, *args):
        if flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, *args)

    monkeypatch.setattr(files.os, "open", refuse_new_files)
    with pytest.raises(PermissionError) as info:
        atomic_write_bytes(target, [b"x"])
    assert info.value.filename == str(target)
    assert ".tmp" not in str(info.value) and str(target) in str(info.value)
