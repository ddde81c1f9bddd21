"""The app opens its real window on Qt's xcb platform (under Xvfb), and closes on request.

The other GUI tests run offscreen, which needs none of the xcb libraries; this one
catches a system package the README forgot.  It runs wherever ``Xvfb`` is
installed, and fails rather than skips under ``CI=true`` (``.ci/run`` installs
the README's packages and ``xvfb``).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .xlib import Display

pytestmark = pytest.mark.display

WINDOW_TIMEOUT = 90.0  # seconds: start-up of a cold interpreter on a busy CI machine
EXIT_TIMEOUT = 60.0


def _xvfb_program() -> str:
    program = shutil.which("Xvfb")
    if program is None:
        message = "Xvfb is not installed (apt-get install xvfb)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}: CI must run the real-window test")
        pytest.skip(message)
    return program


@pytest.fixture
def xvfb(tmp_path):
    """A fresh Xvfb server; yields its display name (Xvfb picks a free number itself)."""
    program = _xvfb_program()  # skips (or fails on CI) before anything is opened
    read_end, write_end = os.pipe()
    log = open(tmp_path / "xvfb.log", "wb")
    server = subprocess.Popen(
        [program, "-displayfd", str(write_end), "-screen", "0", "1366x768x24",
         "-nolisten", "tcp"],
        pass_fds=(write_end,), stdout=log, stderr=subprocess.STDOUT)
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + 30
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read_end], [], [], 0.5)
            if ready:
                chunk = os.read(read_end, 16)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            server.kill()
            server.wait()
            pytest.fail("Xvfb did not start:\n" + (tmp_path / "xvfb.log").read_text())
        yield f":{number.strip().decode()}"
    finally:
        os.close(read_end)
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=30)
        log.close()


def _missing_libraries() -> str:
    """The libraries of PySide6's xcb plugin that ``ldd`` does not find (Qt's message may
    name another)."""
    import PySide6

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=False)
    return "\n".join(sorted({line.strip() for line in out.stdout.splitlines()
                             if "not found" in line}))


def _our_window(display: Display, pid: int):
    return next((w for w in display.mapped_windows() if w.pid == pid), None)


def test_the_window_opens_on_xcb_and_closes(xvfb, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", DISPLAY=xvfb,
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("WAYLAND_DISPLAY", None)
    stderr = tmp_path / "app.stderr"
    with open(stderr, "wb") as err:
        app = subprocess.Popen([sys.executable, "-m", "perceptron_gui"], env=env,
                               stdout=subprocess.DEVNULL, stderr=err)
    try:
        with Display(xvfb) as display:
            window = None
            deadline = time.monotonic() + WINDOW_TIMEOUT
            while window is None and app.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
                window = _our_window(display, app.pid)
            if window is None:
                state = ("exited with status " f"{app.returncode}" if app.poll() is not None
                         else f"showed no window within {WINDOW_TIMEOUT:.0f} s")
                pytest.fail(f"the app {state} on the xcb platform; its stderr:\n"
                            + stderr.read_text(errors="replace")
                            + "\nlibraries of the xcb plugin not found (ldd):\n"
                            + (_missing_libraries() or "none"))
            assert "perceptron-gui" in window.title
            assert window.width >= 400 and window.height >= 300
            assert display.icon_sizes(window.id), "the window has no icon (_NET_WM_ICON)"
            display.close(window.id)
            code = app.wait(timeout=EXIT_TIMEOUT)
        assert code == 0, stderr.read_text(errors="replace")
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
