"""The core must never import Qt: checked in a fresh interpreter."""

import subprocess
import sys


def test_core_imports_no_qt_and_nothing_heavy():
    code = (
        "import sys\n"
        "import perceptron_gui.core as core\n"
        "from perceptron_gui.core import Dataset, PrimalPerceptron, DualPerceptron, LDA\n"
        "from perceptron_gui.core import theory, generators, datasets, Workspace\n"
        "ws = Workspace(datasets.blobs(20, seed=0)); ws.step(); ws.readouts()\n"
        "bad = sorted({m.split('.')[0] for m in sys.modules}\n"
        "             & {'PySide6', 'shiboken6', 'pyqtgraph', 'sklearn'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "", f"the core loaded {out.stdout.strip()}"
