"""``perceptron-gui render FILE`` and ``perceptron-gui --demo FILE`` answer every hostile file.

Each ends at once with its exit status (1 for render, 2 for ``--demo``) and
one line on stderr, the core's message, never a traceback: FIFOs (made at
run time), JSON nested 100,000 deep, a 5,000-digit integer, UTF-32 text (one
command line after another in one fresh process), a workspace file given to
``--demo`` (``python -m perceptron_gui`` itself), and every JSON file of the
bad-file corpus (in this process, for speed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from perceptron_gui.app import main
from tests.cli import mains_in_one_process
from tests.hostile import make_fifo, needs_fifo

BAD = Path(__file__).resolve().parent / "core" / "data" / "bad"
EXPECTED = json.loads((BAD / "EXPECTED.json").read_text(encoding="utf-8"))
JSON_CASES = sorted(name for name in EXPECTED if name.endswith(".json"))

DIGITS = ('{"format": "perceptron-gui-workspace", "version": 1, "learner": "primal",\n'
          ' "points": [{"x": ' + "7" * 5000 + ', "y": 0, "label": 1}]}')
DEMO_DIGITS = ('{"format": "perceptron-gui-demo", "version": 1, "title": "T",\n'
               ' "description": "D", "learner": "primal", "steps": [],\n'
               ' "data": {"points": [{"x": ' + "7" * 5000 + ', "y": 0, "label": 1}]}}')
LONG_TITLE = json.dumps({
    "format": "perceptron-gui-demo", "version": 1, "title": "x" * 10**6, "description": "D",
    "learner": "primal", "steps": [{"action": "step", "caption": "c"}],
    "data": {"points": [{"x": 1, "y": 0, "label": 1}, {"x": -1, "y": 0, "label": -1}]}})

#: name -> (file content, or None for a FIFO; what stderr must say)
HOSTILE = {
    "fifo": (None, "is not a regular file (a FIFO)"),
    "nested": ("[" * 100_000, "invalid JSON: nested too deeply (line 1, column 101)"),
    "digits": (DIGITS, "invalid JSON: a number of 5,000 digits is too long, the limit is "
                       "4,300 (line 2, column 19)"),
    "demo_digits": (DEMO_DIGITS, "invalid JSON: a number of 5,000 digits is too long, "
                                 "the limit is 4,300 (line 3, column 28)"),
    "utf32": ('{"format": "perceptron-gui-demo"}'.encode("utf-32"),
              "the file is UTF-32 text; save it as UTF-8"),
    # an unbreakable title froze the caption fitting (--demo hung)
    "long_title": (LONG_TITLE, "title: 1,000,000 characters are more than the limit of 100"),
}


def _hostile_file(folder: Path, case: str) -> Path:
    path = folder / f"{case}.json"
    content, _ = HOSTILE[case]
    if content is None:
        make_fifo(path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _run(*args, timeout=120):
    """The command in a fresh process (no display); a hang fails with TimeoutExpired."""
    home = tempfile.mkdtemp(prefix="perceptron-gui-hostile-")
    env = dict(os.environ, XDG_CONFIG_HOME=f"{home}/config", XDG_DATA_HOME=f"{home}/data",
               QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "perceptron_gui", *args],
                          capture_output=True, text=True, timeout=timeout, env=env)


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


# ------------------------------------------------------------------------- subprocess


def test_render_and_demo_answer_every_hostile_file(tmp_path, subtests):
    """``render`` (exit 1) and ``--demo`` (exit 2) on each hostile file, one command line
    after another in one fresh process (no display); a hang fails with TimeoutExpired."""
    runs, argvs = {}, []
    for kind, skip in (("render", "demo_digits"), ("demo", "digits")):
        for case in HOSTILE:
            if case == skip or (HOSTILE[case][0] is None and not hasattr(os, "mkfifo")):
                continue
            where = tmp_path / f"{kind}-{case}"
            where.mkdir()
            src, out = _hostile_file(where, case), where / "out.png"
            runs[kind, case] = (src, out)
            argvs.append(["render", str(src), "-o", str(out)] if kind == "render"
                         else ["--demo", str(src)])
    results = mains_in_one_process(tmp_path, *argvs, timeout=240)
    assert len(runs) >= 8
    for ((kind, case), (src, out)), result in zip(runs.items(), results, strict=True):
        with subtests.test(kind=kind, case=case):
            line = _one_line(result.stderr)
            if kind == "render":
                assert result.returncode == 1
                assert line.startswith("perceptron-gui render: ") and HOSTILE[case][1] in line, \
                    line
                assert not out.exists()
            else:
                assert result.returncode == 2
                assert line.startswith(f"perceptron-gui: {src.name}: ") \
                    and HOSTILE[case][1] in line, line


def test_demo_option_names_a_workspace_file_as_one(tmp_path):
    from perceptron_gui.core import Workspace, generators
    from perceptron_gui.core.io import save_workspace

    path = tmp_path / "work.json"
    save_workspace(Workspace(dataset=generators.generate("blobs", n=10, seed=1)), path)
    result = _run("--demo", str(path))
    assert result.returncode == 2
    assert _one_line(result.stderr) == (
        "perceptron-gui: work.json: a workspace file, not a demo: open it with File ▸ Open, "
        "or on the command line without --demo")


# ------------------------------------------------------------------------- in process


@needs_fifo
def test_render_and_demo_in_process_refuse_a_fifo(qapp, tmp_path, capsys):
    from tests.hostile import outcome

    fifo = make_fifo(tmp_path / "pipe.json")
    code = outcome(lambda: main(["render", fifo, "-o", str(tmp_path / "x.png")]), fifo)
    assert code == 1 and "(a FIFO)" in _one_line(capsys.readouterr().err)
    code = outcome(lambda: main(["--demo", fifo]), fifo)
    assert code == 2 and "(a FIFO)" in _one_line(capsys.readouterr().err)


def test_render_answers_every_json_file_of_the_corpus(qapp, tmp_path, capsys):
    assert len(JSON_CASES) >= 80
    out = tmp_path / "out.png"
    for name in JSON_CASES:
        code = main(["render", str(BAD / name), "-o", str(out)])
        line = _one_line(capsys.readouterr().err)
        assert code == 1, name
        assert EXPECTED[name] in line and "internal error" not in line, (name, line)
        assert line.count(name) == 1, line
        assert not out.exists(), name


def test_demo_option_answers_every_json_file_of_the_corpus(capsys):
    """``--demo`` reads each file with the demo reader: one line naming the file, exit 2.

    The schema messages are the demo format's; what is wrong with the file
    itself (encoding, binary, nesting, long numbers) is said as for a workspace.
    """
    file_level = ("nested too deeply", "digits is too long", "text; save it as UTF-8",
                  "not a text file", "NUL byte", "not UTF-8 text")
    for name in JSON_CASES:
        code = main(["--demo", str(BAD / name)])
        line = _one_line(capsys.readouterr().err)
        assert code == 2, name
        assert line.startswith(f"perceptron-gui: {name}: "), line
        assert "internal error" not in line, line
        if any(fragment in EXPECTED[name] for fragment in file_level):
            assert EXPECTED[name] in line, (name, line)
