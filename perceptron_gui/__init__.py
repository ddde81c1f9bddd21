"""perceptron-gui: watch the perceptron, its dual and LDA learn, step by step.

``perceptron_gui.show(X, y)`` opens the window from a notebook or a script;
``import perceptron_gui`` loads neither NumPy nor Qt.
"""

__version__ = "0.1.0"

from .viewer import Viewer, show  # noqa: E402 (after the version)

__all__ = ["Viewer", "show", "__version__"]
