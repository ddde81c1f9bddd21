"""perceptron-gui: watch the perceptron, its dual and LDA learn, step by step.

The mathematics lives in :mod:`perceptron_gui.core` (no Qt); the window in
:mod:`perceptron_gui.ui`.  ``perceptron_gui.show(X, y)`` opens the window from
a notebook or a script and returns a :class:`~perceptron_gui.viewer.Viewer`
that drives it.  ``show``, ``Viewer`` and ``MainWindow`` are imported lazily,
so ``import perceptron_gui`` loads neither Qt nor pandas.
"""

__version__ = "0.1.0"

__all__ = ["MainWindow", "Viewer", "show", "__version__"]


def __getattr__(name):
    if name == "MainWindow":
        from .ui.main_window import MainWindow

        return MainWindow
    if name in ("show", "Viewer"):
        from . import viewer

        return getattr(viewer, name)
    raise AttributeError(f"module 'perceptron_gui' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
