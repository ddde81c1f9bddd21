"""perceptron-gui: watch the perceptron, its dual and LDA learn, step by step.

The mathematics lives in :mod:`perceptron_gui.core` (no Qt); the window in
:mod:`perceptron_gui.ui`.  ``perceptron_gui.MainWindow`` is imported lazily so
that ``import perceptron_gui.core`` never loads Qt.
"""

__version__ = "0.1.0"

__all__ = ["MainWindow", "__version__"]


def __getattr__(name):
    if name == "MainWindow":
        from .ui.main_window import MainWindow

        return MainWindow
    raise AttributeError(f"module 'perceptron_gui' has no attribute {name!r}")
