"""perceptron-gui: watch the perceptron, its dual and LDA learn, step by step.

The mathematics lives in :mod:`perceptron_gui.core` (no Qt); the window in
:mod:`perceptron_gui.ui` (its class is
:class:`perceptron_gui.ui.main_window.MainWindow`).  ``perceptron_gui.show(X, y)``
opens the window from a notebook or a script and returns a
:class:`~perceptron_gui.viewer.Viewer` that drives it.  :mod:`.viewer` imports
Qt only when :func:`show` is called, so ``import perceptron_gui`` loads the
core and numpy (as every use of the package does) but neither Qt nor pandas.
"""

__version__ = "0.1.0"

from .viewer import Viewer, show

__all__ = ["Viewer", "show", "__version__"]
