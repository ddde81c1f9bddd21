"""Drive the window from a notebook or a script: :func:`show` and the :class:`Viewer` it returns.

Qt is imported only when :func:`show` is called, so ``import perceptron_gui`` stays
light; pandas never is (a DataFrame or a Series is recognised by ``to_numpy``).
"""

from __future__ import annotations

import atexit
import os
import sys
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: ``import perceptron_gui`` imports this module
    import numpy as np

    from .core import Dataset

__all__ = ["Viewer", "show", "as_dataset"]

#: The undo-menu text of data handed over from Python.
DATA_DESCRIPTION = "Data from Python"

_open_windows: weakref.WeakSet = weakref.WeakSet()


def _is_pandas(obj) -> bool:
    return type(obj).__module__.split(".")[0] == "pandas" and hasattr(obj, "to_numpy")


def _points(X) -> np.ndarray:
    """``X`` as an array of shape (n, 2), or ValueError saying how to pick two columns."""
    if _is_pandas(X):
        if X.ndim == 2 and X.shape[1] != 2:
            names = list(X.columns)
            hint = f"X[{names[:2]!r}]" if len(names) >= 2 else "a DataFrame with two columns"
            raise ValueError(f"X has {X.shape[1]} columns {names!r}; pass two of them, "
                             f"e.g. {hint}")
        X = X.to_numpy()
    from .core.values import as_array

    arr = as_array(X, "X")
    if arr.ndim == 2 and arr.shape[1] > 2:
        raise ValueError(f"X has {arr.shape[1]} columns; pass two of them, e.g. X[:, [0, 1]]")
    if arr.ndim == 2 and arr.shape[1] < 2:
        raise ValueError(f"X has {arr.shape[1]} column; the canvas needs two (x and y)")
    return arr


def _labels(y) -> np.ndarray:
    """``y`` as a 1-D array (a Series, a one-column DataFrame or an (n, 1) array are flattened)."""
    if _is_pandas(y):
        y = y.to_numpy()
    import numpy as np

    from .core.values import check_label_types

    check_label_types(y)  # before NumPy turns [1, "1"] into two equal strings
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    return arr


def as_dataset(X, y, feature_names=None, class_names=None) -> tuple[Dataset, dict]:
    """Check ``X`` and ``y`` as :func:`show` takes them; return the data set and the label mapping.

    Parameters
    ----------
    X : array-like of shape (n, 2)
        Finite coordinates: a NumPy array, nested lists or a pandas DataFrame.
    y : array-like of shape (n,)
        Labels of any kind (strings, 0/1, ±1, booleans): two distinct values are
        mapped to -1/+1, three to eight to the classes 0 … m − 1 in sorted order,
        as :meth:`Dataset.from_labels` does.
    feature_names : pair of str, optional
        The canvas's axis titles; default: a DataFrame's column names.
    class_names : sequence of str, optional
        One name per class (−1 and +1, or 0 … m − 1); default: the labels when they
        are not already −1 and +1 (``"ja"``, ``"nein"``).

    Returns
    -------
    dataset : Dataset
    mapping : dict
        Original label -> its class.

    Raises
    ------
    ValueError
        For data the window cannot show, saying how to fix it.
    """
    if X is None or y is None:
        raise ValueError("X and y must be given together (or neither, for an empty window)")
    from .core import Dataset

    if feature_names is None and _is_pandas(X) and X.ndim == 2 and X.shape[1] == 2:
        feature_names = [str(c) for c in X.columns]
    from .core.values import MAX_CLASSES

    try:
        dataset, mapping = Dataset.from_labels(_points(X), _labels(y), most=MAX_CLASSES)
    except ValueError as exc:
        if "distinct values" not in str(exc):
            raise
        raise ValueError(f"{exc}. The window shows at most {MAX_CLASSES} classes: pass "
                         "fewer, e.g. show(X[m], y[m]) with m = np.isin(y, [a, b]).") from None
    if feature_names is not None or class_names is not None:
        dataset = dataset.with_names(feature_names,
                                     class_names if class_names is not None
                                     else dataset.class_names)
    return dataset, mapping


def _check_learner(name: str, params: dict) -> None:
    """ValueError for an unknown learner, an unknown parameter or an invalid value."""
    from .core.learners import registry

    spec = registry.get(name)
    unknown = sorted(set(params) - set(spec.defaults))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for learner {name!r}; "
                         f"expected some of {sorted(spec.defaults)}")
    spec.validate(dict(spec.defaults, **params))


class Viewer:
    """A main window driven from Python, made by :func:`show`: the window redraws after each
    method as after the same action from its menus.

    Attributes
    ----------
    window : perceptron_gui.ui.main_window.MainWindow
    label_mapping : dict
        How the labels given to :func:`show` or :meth:`set_data` were mapped:
        original value -> -1 or +1 (empty before any data).
    """

    def __init__(self, window, label_mapping: dict | None = None):
        self.window = window
        self.label_mapping = dict(label_mapping or {})
        self._workspace = window.workspace

    def __repr__(self) -> str:
        from .core.text import fmt_count

        ws = self.workspace
        return (f"<Viewer: {fmt_count(ws.dataset.n)} points, learner {ws.learner_name!r}, "
                f"step {ws.step_count}>")

    @property
    def workspace(self):
        """The core :class:`~perceptron_gui.core.Workspace` the window shows."""
        return self._workspace

    def set_data(self, X, y, *, feature_names=None, class_names=None) -> dict:
        """Replace the points by ``(X, y)`` (checked as by :func:`as_dataset`): one undo step,
        the run from ``w = 0``, the view fitted; returns the label mapping."""
        dataset, mapping = as_dataset(X, y, feature_names, class_names)
        from .core.commands import EditData
        from .core.dataset import ReplaceAll

        window = self.window
        window.playback.stop()
        ws = window.workspace
        if ws.running and ws.learner.frontier > ws.step_count:
            # computed steps after the cursor would make the window ask the user
            # whether to discard them; a call from Python has already decided
            ws.seek(ws.learner.frontier)
        if not window.dispatch(EditData(ReplaceAll.from_dataset(dataset, DATA_DESCRIPTION))):
            raise RuntimeError("the window refused the new data (see its status bar)")
        window.canvas.fit_view()
        self.label_mapping = mapping
        return dict(mapping)

    def set_learner(self, name: str, **params) -> None:
        """Use learner ``name`` (a key of the learner registry) with ``params``; the run restarts.
        Invalid ``params`` raise ValueError and change nothing."""
        _check_learner(name, params)
        self.window.playback.stop()
        if params:
            self._now("set_params", values=params, learner=name)
        self._now("set_learner", learner=name)

    def _now(self, name: str, **args) -> None:
        """Carry the command ``name`` out at once (the window's routes would build a learner
        off the UI thread; a script's next line needs it)."""
        from .core.commands import from_dict
        from .ui.commands import Context

        Context(self.workspace).carry_out(from_dict({"command": name, **args}))

    def _check_can_run(self):
        """The workspace, its playback stopped; ValueError when it cannot run."""
        ws = self.workspace
        if ws.running:
            self.window.playback.stop()
            return ws
        if not ws.capabilities.steps:
            from .core.learners import registry
            from .core.text import either

            steppers = either(map(repr, registry.stepping()))
            raise ValueError(f"learner {ws.learner_name!r} is fitted at once and has no steps; "
                             f"use viewer.set_learner(...) with {steppers} to step")
        raise ValueError(f"cannot run on these data: {ws.problem}")

    def step(self, n: int = 1):
        """Examine the next ``n`` samples; returns the last :class:`StepEvent` (None at the end).
        ValueError for a learner without steps or data it cannot use."""
        import numpy as np

        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a whole number >= 1, got {n!r}")
        ws = self._check_can_run()
        return ws.current_event if ws.advance(int(n)) else None

    def step_update(self):
        """Run to the next update (mistake); returns its :class:`StepEvent` (None at the end)."""
        ws = self._check_can_run()
        if not ws.can_step:
            return None
        self._now("run", action="step_update")
        return ws.current_event

    def run_to_end(self):
        """Run until the perceptron converges or reaches ``max_iter``; returns the last event."""
        ws = self._check_can_run()
        self._now("run", action="run_to_end")
        return ws.current_event

    def reset(self) -> None:
        """Back to ``w = 0`` (the computed run is kept for replay, as the window's Reset does)."""
        from .core.commands import Run

        self.window.dispatch(Run("reset"))

    def screenshot(self, path, *, canvas_only: bool = True, size=None) -> str:
        """Write the canvas (default; ``size`` in pixels, default as on screen) or the window to
        ``path``, a ``.png`` (or the canvas's ``.svg``), atomically; ExportError says why not."""
        from .ui.features import export

        window = self.window
        window.settle()  # the views redraw now, not on their next timer tick
        if not canvas_only:
            export.export_window_png(window, path)
            return os.fspath(path)
        canvas = window.canvas
        if size is None:
            size = (max(canvas.width(), export.MIN_SIZE), max(canvas.height(), export.MIN_SIZE))
        from .ui import style

        return export.export_canvas(self.workspace, path, tuple(size), layers=canvas.layers(),
                                    view=canvas.view_rect(),
                                    scale=style.PRESENTER if window.presenting else style.NORMAL)

    def close(self) -> None:
        """Close the window without asking about unsaved changes, and delete it."""
        delete_window(self.window, close=True)


def delete_window(window, close: bool = False) -> None:
    """Delete ``window`` now, closed first without asking if ``close``: left to interpreter
    shutdown, a pyqtgraph scene's destructor can call into Python and crash (SIGSEGV)."""
    from PySide6 import QtCore

    if close:
        window.files.force_close = True
        window.close()
    window.deleteLater()
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)


def _enable_ipython_event_loop() -> bool:
    """In IPython without ``%gui qt``, turn it on (as napari does) so the window responds;
    whether IPython's Qt event loop runs now."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    if getattr(shell, "active_eventloop", None) in ("qt", "qt6"):
        return True
    try:
        shell.enable_gui("qt")
    except Exception:  # noqa: BLE001 - no Qt integration in this shell: keep going without
        return False
    return getattr(shell, "active_eventloop", None) in ("qt", "qt6")


def _delete_open_windows() -> None:
    """At exit, delete the windows :func:`show` opened while Python is alive."""
    if not _open_windows:
        return
    import shiboken6

    for window in list(_open_windows):
        if shiboken6.isValid(window):  # not already deleted by Qt
            delete_window(window, close=True)


def show(X=None, y=None, *, learner: str | None = None, block: bool = False,
         feature_names=None, class_names=None, **params) -> Viewer:
    """Open the main window on ``(X, y)`` and return a :class:`Viewer` that drives it.

    Parameters
    ----------
    X, y, feature_names, class_names
        As :func:`as_dataset` takes them; without ``X`` and ``y`` the window
        opens empty.
    learner : str, optional
        A key of the learner registry (default: its default).
    block : bool, default=False
        Run the event loop until the window closes (for a plain script), then
        delete the window; the viewer's ``workspace`` remains.
    **params
        Parameters of ``learner`` (e.g. ``kernel="rbf", gamma=0.5``), as
        :meth:`Viewer.set_learner` takes them.

    Raises
    ------
    ValueError
        For data :func:`as_dataset` refuses, or an unknown learner, parameter
        or value; nothing opens then.
    """
    from .core.learners import registry

    dataset, mapping = (as_dataset(X, y, feature_names, class_names)
                        if X is not None or y is not None else (None, {}))
    name = learner if learner is not None else registry.DEFAULT
    _check_learner(name, params)

    ipython_loop = _enable_ipython_event_loop()
    from PySide6 import QtCore

    from .app import ensure_application
    from .core import Workspace
    from .ui import interpreter
    from .ui.main_window import MainWindow

    app = ensure_application()
    workspace = Workspace(dataset, learner=name, params={name: params} if params else None)
    window = MainWindow(workspace)
    window.show()
    if dataset is not None:
        window.canvas.fit_view()
    window.raise_()
    _open_windows.add(window)
    viewer = Viewer(window, mapping)
    blocking = block and QtCore.QThread.currentThread().loopLevel() == 0
    if blocking or ipython_loop:
        # as the application does: never a collection inside a Qt call (only where
        # an event loop runs the collector's timer: a script that does not block
        # keeps Python's automatic collection)
        interpreter.start()
    if blocking:
        app.exec()
        delete_window(window)
        interpreter.stop()
    return viewer


atexit.register(_delete_open_windows)
