"""The command line in tests: ``main`` in this process, or several ``main`` in one fresh one.

A process costs seconds (it imports the application): what ends before a window
runs in this process; what opens the window runs in a fresh one, one command
line after another.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from perceptron_gui.app import main

ROOT = Path(__file__).resolve().parents[1]

_MAINS = """
import json, sys
from perceptron_gui import app
for argv in json.loads(sys.argv[1]):
    code = app.main(argv)
    for stream in (sys.stdout, sys.stderr):
        print("exit", code, file=stream, flush=True)
"""


def call(capsys, *args) -> SimpleNamespace:
    """``main(args)`` in this process: its exit status (argparse's own exits, such as
    ``--help``, included), stdout and stderr."""
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return SimpleNamespace(returncode=code, stdout=out, stderr=err)


def mains_in_one_process(home: Path, *argvs: list[str], timeout: float = 240
                         ) -> list[SimpleNamespace]:
    """``main(argv)`` for each of ``argvs`` in turn, in one fresh process whose settings
    and data folders are in ``home``: the exit status, stdout and stderr of each."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(home / "config"),
               XDG_DATA_HOME=str(home / "data"))
    proc = subprocess.run([sys.executable, "-c", _MAINS, json.dumps(argvs)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr

    def split(text: str) -> list[tuple[int, str]]:
        parts, lines = [], []
        for line in text.splitlines():
            if line.startswith("exit "):
                parts.append((int(line.split()[1]), "\n".join(lines)))
                lines = []
            else:
                lines.append(line)
        assert len(parts) == len(argvs), (text, proc.stderr)
        return parts

    return [SimpleNamespace(returncode=code, stdout=out, stderr=err)
            for (code, out), (_, err) in zip(split(proc.stdout), split(proc.stderr),
                                             strict=True)]
