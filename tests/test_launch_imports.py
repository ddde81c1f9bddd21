"""Launch pays only for what the first frame needs: no heavy library is imported by then."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Libraries the first frame does not need (CSV import, the warm-up, export, theory).
HEAVY = ("pandas", "numba", "llvmlite", "scipy", "PIL", "matplotlib", "sklearn")
#: Modules that wait until they are used: the CSV sniffer and its dialog, the demos,
#: numpy's masked arrays, secrets (a hidden u in the game).
LATER = ("perceptron_gui.core.io.tabular", "perceptron_gui.ui.features.import_dialog",
         "perceptron_gui.core.demos", "perceptron_gui.core.report", "html", "numpy.ma",
         "secrets") + tuple(
    f"perceptron_gui.ui.features.export.{m}"
    for m in ("renderer", "animation", "job", "dialogs", "frames", "headless", "points"))

_PROBE = """
import json, sys
from PySide6 import QtCore, QtWidgets
from perceptron_gui import app

seen = {}

class Probe(QtCore.QObject):
    def eventFilter(self, obj, ev):
        if (not seen and ev.type() == QtCore.QEvent.Type.Paint
                and isinstance(obj, QtWidgets.QWidget)
                and obj.window().objectName() == "mainWindow"):
            seen["modules"] = sorted(
                name for name in sys.modules if name.split(".")[0] in HEAVY
                or any(name == m or name.startswith(m + ".") for m in LATER))
        return False

qapp = QtWidgets.QApplication(sys.argv[:1])
probe = Probe()
qapp.installEventFilter(probe)
app.WARMUP_DELAY_MS = 60_000  # this measures the first frame, not the warm-up after it
code = app.main(["--quit-after", "0.2"])
print(json.dumps(seen.get("modules")), flush=True)
sys.exit(code)
"""


def test_no_heavy_library_is_imported_when_the_window_first_shows(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    code = _PROBE.replace("HEAVY", repr(HEAVY)).replace("LATER", repr(LATER))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert loaded == [], f"imported before the first frame: {loaded}"


_ORDER = """
import json, sys

order = []

class Recorder:
    def find_spec(self, name, path=None, target=None):
        order.append(name)
        return None

sys.meta_path.insert(0, Recorder())
from perceptron_gui import app
app.WARMUP_DELAY_MS = 60_000
code = app.main(["--quit-after", "0.1"])
print(json.dumps(order), flush=True)
sys.exit(code)
"""


def test_the_core_loads_before_pyside6(tmp_path):
    # PySide6's import hook reads the source of every module imported after it
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, "-c", _ORDER], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    order = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "PySide6" in order and "perceptron_gui.core.workspace" in order
    first_qt = order.index("PySide6")
    assert order.index("perceptron_gui.core.workspace") < first_qt
    assert order.index("numpy") < first_qt
