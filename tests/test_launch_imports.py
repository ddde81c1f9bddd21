"""Launch pays only for what the first frame needs: no heavy library is imported by then."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Libraries the first frame does not need (CSV import, the warm-up, export, theory).
HEAVY = ("pandas", "numba", "llvmlite", "scipy", "PIL", "matplotlib", "sklearn")
#: Modules that wait until they are used: the CSV sniffer and its dialog, the demos,
#: numpy's masked arrays, secrets (a hidden u in the game), the generator's and the
#: demo saver's dialogs.
LATER = ("perceptron_gui.core.io.tabular", "perceptron_gui.ui.features.import_dialog",
         "perceptron_gui.core.demos", "perceptron_gui.core.report", "html", "numpy.ma",
         "secrets", "perceptron_gui.ui.widgets.generator_dialog",
         "perceptron_gui.ui.widgets.save_demo_dialog") + tuple(
    f"perceptron_gui.ui.features.export.{m}"
    for m in ("renderer", "animation", "job", "dialogs", "frames", "headless", "points"))

_PROBE = """
import json, sys

order = []

class Recorder:
    def find_spec(self, name, path=None, target=None):
        order.append(name)
        return None

sys.meta_path.insert(0, Recorder())
from perceptron_gui import app

seen = {}
make_application = app.ensure_application

def ensure_application():  # as main makes it, with a probe of the first paint
    from PySide6 import QtCore, QtWidgets

    class Probe(QtCore.QObject):
        def eventFilter(self, obj, ev):
            if (not seen and ev.type() == QtCore.QEvent.Type.Paint
                    and isinstance(obj, QtWidgets.QWidget)
                    and obj.window().objectName() == "mainWindow"):
                seen["modules"] = sorted(
                    name for name in sys.modules if name.split(".")[0] in HEAVY
                    or any(name == m or name.startswith(m + ".") for m in LATER))
            return False

    qapp = make_application()
    qapp.installEventFilter(Probe(qapp))
    return qapp

app.ensure_application = ensure_application
app.WARMUP_DELAY_MS = 60_000  # this measures the first frame, not the warm-up after it
code = app.main(["--quit-after", "0.2"])
print(json.dumps({"first frame": seen.get("modules"), "order": order}), flush=True)
sys.exit(code)
"""


@pytest.fixture(scope="module")
def launch(tmp_path_factory):
    """One launch to the window, recorded: the order in which modules were first looked
    for, and the heavy or later modules loaded when the window was first painted."""
    home = tmp_path_factory.mktemp("launch")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(home / "config"),
               XDG_DATA_HOME=str(home / "data"))
    code = _PROBE.replace("HEAVY", repr(HEAVY)).replace("LATER", repr(LATER))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_no_heavy_library_is_imported_when_the_window_first_shows(launch):
    loaded = launch["first frame"]
    assert loaded == [], f"imported before the first frame: {loaded}"


def test_the_core_loads_before_pyside6(launch):
    # PySide6's import hook reads the source of every module imported after it
    order = launch["order"]
    assert "PySide6" in order and "perceptron_gui.core.workspace" in order
    first_qt = order.index("PySide6")
    assert order.index("perceptron_gui.core.workspace") < first_qt
    assert order.index("numpy") < first_qt


#: Core modules the workspace of a launch does not need: files, commands, the game's
#: commands, demos, samples, exercises, reports, the compiled loop's warm-up.
CORE_LATER = ("perceptron_gui.core.io", "perceptron_gui.core.commands",
              "perceptron_gui.core.game_commands", "perceptron_gui.core.demos",
              "perceptron_gui.core.samples", "perceptron_gui.core.exercises",
              "perceptron_gui.core.report", "perceptron_gui.core.learners.warmup", "json")


def test_the_core_a_launch_imports_before_pyside6_leaves_files_and_modes_out():
    # what app._open_window imports and makes before PySide6, in a fresh interpreter
    code = ("import sys\n"
            "from perceptron_gui.core import Workspace, generators\n"
            "from perceptron_gui.core.learners import registry\n"
            "Workspace(learner=registry.DEFAULT)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or any("
            f"m == n or m.startswith(n + '.') for n in {CORE_LATER!r})))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=str(ROOT), timeout=120, check=True)
    assert proc.stdout.strip() == "[]", f"imported with the workspace: {proc.stdout}"


def test_every_name_of_the_core_imports_with_a_star():
    import perceptron_gui.core as core

    names: dict = {}
    exec("from perceptron_gui.core import *", names)  # io is imported as it is named
    assert set(core.__all__) <= set(names) and names["io"].FormatError
