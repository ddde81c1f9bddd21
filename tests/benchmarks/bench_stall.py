"""UI stalls of every user action at 10⁵ and 10⁶ points (issue 13's measure).

For each action a user takes on a large data set (import a CSV, export, edit
all points and undo, open and save, presenter mode, drag a point, import
through the dialog, switch learner (LDA, QDA, naive Bayes, the dual), step,
play, run the dual RBF perceptron to the end and cancel, cancel a long open or
import; on non-separable data, run to the end) the real :class:`MainWindow` is driven
through its public methods and actions, and a 5 ms ``QTimer`` records
``time.perf_counter()`` on every tick.  The longest gap between ticks is the
longest the user waited for the UI; it is compared with the longest gap of the
same timer on the same window left idle, measured in the same run (the idle
baseline).  Goals: gap − idle ≤ 50 ms at 10⁵ points and ≤ 100 ms at 10⁶; any
action longer than 0.5 s shows progress.  Reported, never enforced.

How an action is measured (:func:`measure`): it is started from inside a
local ``QEventLoop`` (so an action that runs a nested loop, a worker or a
timer chain keeps the ticks coming), the loop runs until the action's
completion condition holds, then ``TAIL_S`` longer so that the repaint and
the deferred work it scheduled are inside the measure.  *wall* is the time
from the start to the completion condition, or to the end of the last gap
longer than the idle baseline when that comes later (the action's deferred
repaint).  *Progress* is the time of the
first tick at which a progress bar (a dialog's or the status bar's) was
visible: the event loop ran while it showed.  An action still running after
its cap (or, for "run to end" at 10⁶ points, after ``CANCEL_RUN_S``) is
cancelled as the user would; the row records the time from that Cancel to
the window being idle again.  An action that blocks the UI thread cannot be
cancelled: it is reported as over the cap.

Only the table :data:`ACTIONS` at the top knows the window's internals: when
they move, only its few-line drivers change.

Each window is warmed up as the application's is after it shows (garbage
collected by the UI thread's timer, :mod:`perceptron_gui.ui.interpreter`;
``app.start_warm_up``: superqt's worker module and numba's loop loaded, the
heap frozen), so a collection walks what the actions made, not the whole heap;
the heap is unfrozen when the window closes (frozen, a closed window's objects
would never be collected, and pyqtgraph's lists of views would keep growing).

Data: ``bench_perceptron.make_data`` (separable Gaussian points), seed 0 for
the imported file, seed 1 for "replace all points" and the import dialog's
file; a second window per size gets the same points with :data:`FLIPPED` of
the labels flipped (:func:`make_nonseparable`), so that a run never converges.
"Import a 200 MB CSV" reads a file of 10⁶ rows of 11 columns made once.  Settings, autosave files
and exported files live in a temporary folder; the autosave timer is set to a
day (an autosave firing during a measure would be noise, not the action).

Run: ``python tests/benchmarks/bench_stall.py [--quick] [--only NAMES] [--sizes N,N]``
(offscreen platform set when unset).  ``--quick``: 10³ and 10⁴ points and the
cheap actions only.  ``--only "undo,open a workspace"``: those actions (and the
ones they need, :data:`NEEDS`; "import CSV" loads the data first); ``--sizes``:
those sizes.  A run with either option writes ``bench_stall.only.json``.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script from a checkout: measure this checkout
    sys.path.insert(0, str(ROOT))

from tests.benchmarks.benchlib import environment, write_result  # noqa: E402

NAME = "bench_stall"


# ============================================================================ the drivers
# Each driver gets the window ``w`` and the run's context ``c`` (paths, data, size).
# ``start`` begins the action and returns at once (a file action returns its job);
# the action is complete when ``done`` holds (default: the window is not busy);
# ``cancel`` does what the Cancel button does; ``check`` says the action did its job.

def busy(w) -> bool:
    """True while the window works on something (a worker, a run, playback, a file)."""
    return (w.theory_worker.busy or w.playback.running_to_end or w.actionPlay.isChecked()
            or w.files.busy)


def cancel_file(w, c) -> None:
    w.files.cancel_load()


def import_csv(w, c) -> None:
    w.files.csv.import_csv(c.csv)


def export_png(w, c) -> None:
    w.exporter.export_canvas(c.tmp / "canvas.png", (1920, 1080), fmt="png", wait=False)


def export_svg(w, c) -> None:
    w.exporter.export_canvas(c.tmp / "canvas.svg", (1920, 1080), fmt="svg", wait=False)


def export_gif(w, c) -> None:
    w.exporter.export_gif(c.tmp / "run.gif", frames=c.gif_frames, unit="update", wait=False)


def cancel_gif(w, c) -> None:
    if w.exporter.progress_dialog is not None:
        w.exporter.progress_dialog.cancel()


def play_3s(w, c) -> None:
    w.speedSlider.setValue(100)  # the fastest speed: most steps per frame
    w.actionPlay.setChecked(True)
    c.later(3.0, lambda: w.actionPlay.setChecked(False))


def select(w, key: str) -> None:
    w.learner_panel.selector.setCurrentIndex(w.learner_panel.selector.findData(key))


def set_rbf(w, c) -> None:
    box = w.learner_panel.control("dual", "kernel")
    box.setCurrentIndex(box.findData("rbf"))


def drag_point(w, c) -> None:
    """Grab the point nearest the view's centre and move it for 1 s, a move every 16 ms."""
    canvas, tool = w.canvas, w.canvas.tool
    X = w.workspace.dataset.X
    (x0, x1), (y0, y1) = canvas.view_rect()
    start = X[int(np.argmin(np.hypot(X[:, 0] - (x0 + x1) / 2, X[:, 1] - (y0 + y1) / 2)))]
    if not tool.drag_start(tuple(start), canvas.pixel_size()):
        raise RuntimeError("no point under the pointer")
    step = np.array([(x1 - x0), (y1 - y0)]) / 400
    c.moves = 0

    def move():
        c.moves += 1
        tool.drag_move(tuple(start + c.moves * step))
        if c.moves >= DRAG_MOVES:
            tool.drag_finish(tuple(start + c.moves * step))

    c.repeat(SimpleNamespace(trigger=move), DRAG_MOVES, interval_ms=16)


def import_dialog(w, c) -> None:
    """The import dialog on the other data's file; OK as soon as it has read the file."""
    dialog = w.files.csv.show_import_dialog(c.csv_b)

    def ok():
        if not dialog.reading and dialog.okButton.isEnabled():
            c.stop_chain()
            dialog.accept()

    c.repeat(SimpleNamespace(trigger=ok), 10**9, interval_ms=10)


def big_csv(c) -> None:
    """A CSV of about 200 MB (10⁶ rows: x, y, label and 8 more columns), made once."""
    path = c.tmp.parent / "big.csv"
    if not path.exists():
        rng = np.random.default_rng(2)
        X = rng.normal(size=(BIG_CSV_ROWS, 10)) * 3.0
        y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
        with open(path, "w") as f:
            f.write("x,y,label," + ",".join(f"c{k}" for k in range(8)) + "\n")
            for lo in range(0, BIG_CSV_ROWS, 100_000):
                rows = X[lo:lo + 100_000]
                f.writelines(f"{r[0]!r},{r[1]!r},{yy}," + ",".join(map(repr, r[2:])) + "\n"
                             for r, yy in zip(rows.tolist(), y[lo:lo + 100_000].tolist(),
                                              strict=True))
    c.csv_big = path


@dataclass
class Action:
    """One row of the table: how to start, finish, cancel and check an action."""

    name: str
    start: Callable
    done: Callable = lambda w, c: not busy(w)
    cancel: Callable | None = None
    check: Callable = lambda w, c: True
    quick: bool = True  # also in the quick run
    cancel_at_large: bool = False  # Cancel after CANCEL_RUN_S at LARGE points
    cancel_after_s: float | None = None  # the user presses Cancel after this long
    data: str = "separable"  # the data set of its window (:data:`DATA`)
    loads_data: bool = False  # the action that loads its window's data (idle measured after)
    prepare: Callable | None = None  # called with the context before the measure


ACTIONS = [
    Action("import CSV", import_csv, cancel=cancel_file, loads_data=True,
           check=lambda w, c: w.workspace.dataset.n == c.n),
    Action("20 steps", lambda w, c: c.repeat(w.actionStep, 20),
           done=lambda w, c: c.chain_done() and not busy(w), cancel=lambda w, c: c.stop_chain(),
           check=lambda w, c: w.workspace.step_count >= c.steps0 + 20),
    Action("play for 3 s", play_3s, cancel=lambda w, c: w.actionPlay.setChecked(False),
           check=lambda w, c: w.workspace.step_count > c.steps0, quick=False),
    Action("export PNG 1920×1080", export_png, done=lambda w, c: not w.exporter.busy,
           cancel=cancel_gif, check=lambda w, c: c.written("canvas.png"), quick=False),
    Action("export SVG", export_svg, done=lambda w, c: not w.exporter.busy,
           cancel=cancel_gif, check=lambda w, c: c.written("canvas.svg"), quick=False),
    Action("export GIF", export_gif, done=lambda w, c: not w.exporter.busy, cancel=cancel_gif,
           check=lambda w, c: c.written("run.gif"), quick=False),
    Action("save as", lambda w, c: w.files.save_to(c.tmp / "saved.json"),
           check=lambda w, c: c.written("saved.json")),
    Action("replace all points", lambda w, c: w.push_edit(c.replace_all()),
           check=lambda w, c: w.workspace.dataset == c.data_b),
    Action("undo", lambda w, c: w.actionUndo.trigger(),
           check=lambda w, c: w.workspace.dataset == c.data_a),
    Action("redo", lambda w, c: w.actionRedo.trigger(),
           check=lambda w, c: w.workspace.dataset == c.data_b),
    Action("open a workspace", lambda w, c: w.files.open_path(c.tmp / "saved.json", ask=False),
           cancel=cancel_file, check=lambda w, c: w.workspace.dataset == c.data_a),
    Action("presenter mode on", lambda w, c: w.presenter.set_active(True),
           check=lambda w, c: w.presenter.active),
    Action("presenter mode off", lambda w, c: w.presenter.set_active(False),
           check=lambda w, c: not w.presenter.active),
    Action("drag a point for 1 s", drag_point,
           done=lambda w, c: c.chain_done() and not w.canvas.tool.dragging and not busy(w),
           cancel=lambda w, c: c.stop_chain(), check=lambda w, c: w.workspace.dataset != c.data_a),
    Action("import through the dialog", import_dialog,
           done=lambda w, c: w.files.csv.dialog is None and not busy(w),
           cancel=lambda w, c: w.files.csv.dialog.reject(),
           check=lambda w, c: w.workspace.dataset == c.data_b),
    Action("switch to LDA", lambda w, c: select(w, "lda"),
           check=lambda w, c: w.workspace.learner_name == "lda"),
    Action("switch to QDA", lambda w, c: select(w, "qda"),
           check=lambda w, c: w.workspace.learner_name == "qda"),
    Action("switch to naive Bayes", lambda w, c: select(w, "naive_bayes"),
           check=lambda w, c: w.workspace.learner_name == "naive_bayes"),
    Action("switch to the dual", lambda w, c: select(w, "dual"),
           check=lambda w, c: w.workspace.learner_name == "dual"),
    Action("set the RBF kernel", set_rbf,
           check=lambda w, c: w.workspace.params["kernel"] == "rbf"),
    Action("dual RBF: 5 steps", lambda w, c: c.repeat(w.actionStep, 5),
           done=lambda w, c: c.chain_done() and not busy(w), cancel=lambda w, c: c.stop_chain(),
           check=lambda w, c: w.workspace.step_count >= c.steps0 + 5),
    Action("dual RBF: run to end", lambda w, c: w.actionRunToEnd.trigger(),
           cancel=lambda w, c: w.actionCancel.trigger(),
           check=lambda w, c: w.workspace.step_count > c.steps0, quick=False,
           cancel_at_large=True),
    Action("open a workspace: Cancel at 0.5 s",
           lambda w, c: w.files.open_path(c.tmp / "saved.json", ask=False), cancel=cancel_file,
           cancel_after_s=0.5, quick=False),
    Action("import a 200 MB CSV: Cancel at 0.5 s", lambda w, c: w.files.csv.import_csv(c.csv_big),
           cancel=cancel_file, cancel_after_s=0.5, quick=False, prepare=big_csv),
    # on non-separable data (a window of its own): the run never converges
    Action("import CSV (non-separable)", import_csv, cancel=cancel_file, loads_data=True,
           data="non-separable", quick=False, check=lambda w, c: w.workspace.dataset.n == c.n),
    Action("run to end (non-separable): Cancel at 3 s", lambda w, c: w.actionRunToEnd.trigger(),
           cancel=lambda w, c: w.actionCancel.trigger(), cancel_after_s=3.0,
           data="non-separable", quick=False),
    Action("run to end (non-separable)", lambda w, c: w.actionRunToEnd.trigger(),  # on from 3 s
           cancel=lambda w, c: w.actionCancel.trigger(), data="non-separable",
           check=lambda w, c: w.workspace.step_count > c.steps0 or not w.workspace.can_step,
           quick=False,
           cancel_at_large=True),
]

#: The kinds of data, a window each (non-separable: :func:`make_nonseparable`).
DATA = ("separable", "non-separable")


#: What an action needs done before it (an action that loads the data, "import CSV", always is).
NEEDS = {"undo": "replace all points", "redo": "undo", "open a workspace": "save as",
         "set the RBF kernel": "switch to the dual", "dual RBF: 5 steps": "set the RBF kernel",
         "dual RBF: run to end": "set the RBF kernel",
         "presenter mode off": "presenter mode on",
         "open a workspace: Cancel at 0.5 s": "save as",
         "run to end (non-separable)": "run to end (non-separable): Cancel at 3 s"}


def selected(names) -> list[Action]:
    """The actions named in ``names`` and those they need, in table order."""
    known = {a.name for a in ACTIONS}
    unknown = set(names) - known
    if unknown:
        raise SystemExit(f"unknown action(s) {sorted(unknown)}; known: {sorted(known)}")
    wanted, todo = set(), list(names)
    while todo:
        name = todo.pop()
        wanted.add(name)
        if name in NEEDS and NEEDS[name] not in wanted:
            todo.append(NEEDS[name])
    kinds = {a.data for a in ACTIONS if a.name in wanted}
    return [a for a in ACTIONS if a.name in wanted or (a.loads_data and a.data in kinds)]


def progress_bars(w) -> list:
    """The window's progress bars (its dialogs' and its status bar's)."""
    return w.findChildren(_qt().QtWidgets.QProgressBar)


def new_window():
    """A shown main window of the usual size."""
    from perceptron_gui.ui.main_window import MainWindow

    w = MainWindow()
    w.resize(1280, 800)
    w.show()
    return w


def warm_up() -> None:
    """What the application does after its window shows: collection by the UI thread's
    timer (:mod:`perceptron_gui.ui.interpreter`), and in the background superqt's worker
    module and numba's loop loaded, the heap frozen (done and waited for)."""
    from perceptron_gui import app
    from perceptron_gui.ui import interpreter as collector

    collector.start()
    app.start_warm_up().join()


def close_window(w) -> None:
    """Close without the unsaved-changes question."""
    w.files.force_close = True
    w.close()
    w.deleteLater()


# ============================================================================ the measure

SIZES = (100_000, 1_000_000)
SIZES_QUICK = (1_000, 10_000)
LARGE = 1_000_000
TICK_MS = 5
BAR_LOOKUP_TICKS = 10  # look for new progress bars every this many ticks
TAIL_S, TAIL_S_QUICK = 0.3, 0.1  # the loop runs this long after an action completes
PAUSE_S, PAUSE_S_QUICK = 0.3, 0.05  # and this long between actions
IDLE_S, IDLE_S_QUICK = 3.0, 0.5
CAP_S, CAP_S_QUICK = 60.0, 15.0  # cancel an action still running after this
CANCEL_RUN_S = 20.0  # "run to end" at LARGE points: Cancel pressed after this
DRAG_MOVES = 60  # "drag a point": one move every 16 ms for about 1 s
BIG_CSV_ROWS = 1_000_000  # the "200 MB CSV": this many rows of 11 columns
FLIPPED = 0.02  # non-separable data: this share of the labels flipped
HARD_STOP_S = 60.0  # after a Cancel that did not end the action: give up the row
GIF_FRAMES = {LARGE: 3}  # the frame counts: 3 at 10⁶ points, else 10
GOAL_MS = {LARGE: 100.0}  # gap − idle: 100 ms at 10⁶ points, else 50
FULL = {"idle_s": IDLE_S, "cap_s": CAP_S, "tail_s": TAIL_S, "pause_s": PAUSE_S,
        "collect": True}
QUICK = {"idle_s": IDLE_S_QUICK, "cap_s": CAP_S_QUICK, "tail_s": TAIL_S_QUICK,
         "pause_s": PAUSE_S_QUICK, "collect": False}


def _qt():
    import PySide6.QtCore
    import PySide6.QtWidgets

    return SimpleNamespace(QtCore=PySide6.QtCore, QtWidgets=PySide6.QtWidgets)


def _bench_perceptron():
    spec = importlib.util.spec_from_file_location("bench_perceptron", HERE / "bench_perceptron.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_nonseparable(n: int, seed: int):
    """``bench_perceptron.make_data`` with :data:`FLIPPED` of the labels flipped at random:
    every epoch has mistakes, so a run goes on to ``max_iter``."""
    X, y = _bench_perceptron().make_data(n, seed=seed)
    flip = np.random.default_rng(seed + 100).random(n) < FLIPPED
    return X, np.where(flip, -y, y)


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (the machine may be shared)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not available on this platform
        return None


def uptime() -> str | None:
    """The ``uptime`` line, as the shell shows it."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


class Context(SimpleNamespace):
    """What the drivers need: paths, data, size, and small timer helpers."""

    def later(self, seconds: float, func) -> None:
        """Call ``func`` after ``seconds`` on the UI thread."""
        _qt().QtCore.QTimer.singleShot(round(seconds * 1000), self.window, func)

    def repeat(self, action, times: int, interval_ms: int = 0) -> None:
        """Trigger ``action`` ``times`` times, each from a fresh event-loop iteration
        (``interval_ms`` apart)."""
        self.left = times

        def fire():
            if self.left > 0:
                self.left -= 1
                action.trigger()
            if self.left <= 0:
                self.chain.stop()

        self.chain = _qt().QtCore.QTimer(self.window, interval=interval_ms)
        self.chain.timeout.connect(fire)
        self.chain.start()

    def chain_done(self) -> bool:
        return not self.chain.isActive()

    def stop_chain(self) -> None:
        self.left = 0
        self.chain.stop()

    def written(self, name: str) -> bool:
        return (self.tmp / name).is_file() and (self.tmp / name).stat().st_size > 0

    def replace_all(self):
        from perceptron_gui.core.dataset import ReplaceAll

        return ReplaceAll.from_dataset(self.data_b, "replace all points")


@dataclass
class Record:
    """The ticks and moments of one measured action."""

    ticks: list = field(default_factory=list)
    t0: float = math.nan
    returned: bool = False
    done_at: float | None = None
    progress_at: float | None = None
    cancel_requested: float | None = None
    cancel_handled: float | None = None
    stopped: bool = False
    error: str | None = None


def measure(window, action: Action, ctx, *, cap_s: float, cancel_s: float | None = None,
            tail_s: float = TAIL_S, stall_ms: float = 4 * TICK_MS) -> dict:
    """Run one action in a local event loop and return its row (gaps in ms, times in s).

    Parameters
    ----------
    window : MainWindow
    action : Action
    ctx : Context
    cap_s : float
        Cancel the action if it has not completed after this long.
    cancel_s : float, optional
        Cancel earlier, after this long (the user presses Cancel).
    tail_s : float
        Keep the loop running this long after completion.
    stall_ms : float
        A gap longer than this (the idle baseline) is the action's: the row's
        ``wall_s`` runs to the end of the last such gap when that is after
        the completion condition (a deferred repaint), else to completion.
    """
    qt = _qt()
    QtCore = qt.QtCore
    rec = Record()
    loop = QtCore.QEventLoop()
    cancel_after = min(cap_s, cancel_s) if cancel_s is not None else cap_s

    def check() -> None:
        if rec.done_at is not None or not rec.returned:
            return
        try:
            done = rec.error or action.done(window, ctx)
        except Exception as exc:  # a driver that no longer fits the window: end the row
            rec.error = done = f"done: {type(exc).__name__}: {exc}"
        if done:
            rec.done_at = time.perf_counter()
            QtCore.QTimer.singleShot(round(tail_s * 1000), loop.quit)

    bars: list = []

    def tick() -> None:
        now = time.perf_counter()
        rec.ticks.append(now)
        if rec.progress_at is None:
            if len(rec.ticks) % BAR_LOOKUP_TICKS == 1:  # a lookup costs ~0.3 ms: not every tick
                bars[:] = progress_bars(window)
            if _any_visible(bars):
                rec.progress_at = now
        check()

    def on_cancel() -> None:
        if rec.done_at is None:
            # the moment Cancel is pressed (a timer may fire a little early or late)
            rec.cancel_requested = rec.cancel_handled = time.perf_counter()
            try:
                if action.cancel is not None:
                    action.cancel(window, ctx)
            except Exception as exc:
                rec.error = f"cancel: {type(exc).__name__}: {exc}"
            hard_stop.start()
            check()

    def on_hard_stop() -> None:
        if rec.done_at is None:
            rec.stopped = True
            loop.quit()

    def begin() -> None:
        rec.t0 = time.perf_counter()
        watchdog.start(round(cancel_after * 1000))
        try:
            action.start(window, ctx)
        except Exception as exc:  # reported in the row; the other actions still run
            rec.error = f"{type(exc).__name__}: {exc}"
        rec.returned = True
        check()

    timer = QtCore.QTimer(interval=TICK_MS)
    timer.setTimerType(QtCore.Qt.PreciseTimer)
    timer.timeout.connect(tick)
    watchdog = QtCore.QTimer(singleShot=True)
    watchdog.setTimerType(QtCore.Qt.PreciseTimer)
    watchdog.timeout.connect(on_cancel)
    hard_stop = QtCore.QTimer(singleShot=True, interval=round(HARD_STOP_S * 1000))
    hard_stop.timeout.connect(on_hard_stop)
    ctx.window = window
    ctx.steps0 = window.workspace.step_count
    timer.start()
    QtCore.QTimer.singleShot(0, begin)
    loop.exec()
    end = time.perf_counter()
    for t in (timer, watchdog, hard_stop):
        t.stop()
    ticks = [t for t in rec.ticks if t > rec.t0]
    gaps = np.diff([rec.t0, *ticks, end])
    worst = int(np.argmax(gaps))
    done_at = rec.done_at if rec.done_at is not None else end
    ends = np.array([*ticks, end])
    stalls = ends[gaps > stall_ms / 1000]
    busy_until = max(done_at, float(stalls[-1]) if len(stalls) else done_at)
    ok = rec.error is None and not rec.stopped
    if ok and rec.cancel_requested is None:  # a cancelled action need not have done its job
        try:
            ok = bool(action.check(window, ctx))
        except Exception as exc:
            rec.error = f"check failed: {type(exc).__name__}: {exc}"
            ok = False
    return {
        "action": action.name,
        "gap_ms": 1000 * float(gaps[worst]),
        "gap_ends_at_s": ([*ticks, end][worst] - rec.t0),
        "wall_s": busy_until - rec.t0,
        "done_s": done_at - rec.t0,
        "progress_after_s": None if rec.progress_at is None else rec.progress_at - rec.t0,
        "cancelled": rec.cancel_requested is not None,
        "cancel_pressed_at_s": (None if rec.cancel_requested is None
                                else rec.cancel_requested - rec.t0),
        "cancel_handled_after_s": (None if rec.cancel_requested is None
                                   else rec.cancel_handled - rec.cancel_requested),
        "cancel_to_control_s": (None if rec.cancel_requested is None or rec.stopped
                                else done_at - rec.cancel_requested),
        "over_cap": done_at - rec.t0 > cap_s,
        "stopped": rec.stopped,
        "ok": ok,
        "error": rec.error,
        "ticks": len(ticks),
    }


def _any_visible(widgets) -> bool:
    try:
        return any(x.isVisible() for x in widgets)
    except RuntimeError:  # one was deleted since the lookup
        return False


def idle_action(seconds: float) -> Action:
    """Nothing happens for ``seconds``: the idle baseline."""
    def start(w, c):
        c.idle_over = False
        c.later(seconds, lambda: setattr(c, "idle_over", True))

    return Action("idle", start, done=lambda w, c: c.idle_over)


def settle(seconds: float) -> None:
    """Let the event loop run (repaints, deferred work) for ``seconds``."""
    QtCore = _qt().QtCore
    loop = QtCore.QEventLoop()
    QtCore.QTimer.singleShot(round(seconds * 1000), loop.quit)
    loop.exec()


@contextlib.contextmanager
def _isolated(tmp: Path):
    """Settings, autosave and dialogs answered, inside ``tmp``; all restored afterwards."""
    qt = _qt()
    QtCore, B = qt.QtCore, qt.QtWidgets.QMessageBox
    env = {"XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data"),
           "PERCEPTRON_GUI_AUTOSAVE_SECONDS": "86400"}
    saved_env = {k: os.environ.get(k) for k in env}
    names = (QtCore.QCoreApplication.organizationName(),
             QtCore.QCoreApplication.applicationName())
    dialogs: list[str] = []

    def answer(value):
        def fake(parent, title, text, *args, **kwargs):
            dialogs.append(f"{title}: {text}")
            return value
        return staticmethod(fake)

    patched = {"question": answer(B.Yes), "warning": answer(B.Ok),
               "critical": answer(B.Ok), "information": answer(B.Ok)}
    originals = {k: B.__dict__.get(k, getattr(B, k)) for k in patched}
    os.environ.update(env)
    QtCore.QCoreApplication.setOrganizationName("perceptron-gui-bench")
    QtCore.QCoreApplication.setApplicationName("perceptron-gui-bench")
    QtCore.QSettings.setDefaultFormat(QtCore.QSettings.IniFormat)
    QtCore.QSettings.setPath(QtCore.QSettings.IniFormat, QtCore.QSettings.UserScope,
                             str(tmp / "settings"))
    from perceptron_gui.ui import errors  # every box of the program is made there

    boxes = {"warn": answer(B.Ok).__func__, "ask": answer(B.Yes).__func__}
    box_originals = {k: getattr(errors, k) for k in boxes}
    for k, v in patched.items():
        setattr(B, k, v)
    for k, v in boxes.items():
        setattr(errors, k, v)
    try:
        yield dialogs
    finally:
        for k, v in originals.items():
            setattr(B, k, v)
        for k, v in box_originals.items():
            setattr(errors, k, v)
        QtCore.QCoreApplication.setOrganizationName(names[0])
        QtCore.QCoreApplication.setApplicationName(names[1])
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def measure_size(n: int, actions, tmp: Path, *, idle_s: float, cap_s: float,
                 tail_s: float = TAIL_S, pause_s: float = PAUSE_S, collect: bool = True,
                 data: str = "separable") -> dict:
    """Every action of ``actions`` on a fresh window with ``n`` points of ``data``
    (:data:`DATA`); the size's dict.

    ``collect``: a full garbage collection before each measure (0.2 s each), so
    that a collection the action did not cause does not land inside it.
    """
    from perceptron_gui.core import Dataset, io

    make = make_nonseparable if data == "non-separable" else _bench_perceptron().make_data
    folder = tmp / f"n{n}-{data}"
    folder.mkdir(parents=True, exist_ok=True)
    data_a, data_b = (Dataset(*make(n, seed=s)) for s in (0, 1))
    io.write_csv(data_a, folder / "points.csv")
    io.write_csv(data_b, folder / "points_b.csv")
    ctx = Context(tmp=folder, csv=folder / "points.csv", csv_b=folder / "points_b.csv", n=n,
                  data_a=data_a, data_b=data_b, gif_frames=GIF_FRAMES.get(n, 10))
    for action in actions:
        if action.prepare is not None:
            action.prepare(ctx)
    window = new_window()
    try:
        settle(max(3 * pause_s, 0.3))
        warm_up()
        idle_empty = measure(window, idle_action(idle_s), ctx, cap_s=idle_s + 30, tail_s=0)
        idle, rows = idle_empty, []
        for action in actions:
            cancel_s = (CANCEL_RUN_S if action.cancel_at_large and n >= LARGE
                        else action.cancel_after_s)
            if collect:
                gc.collect()
            row = measure(window, action, ctx, cap_s=cap_s, cancel_s=cancel_s, tail_s=tail_s,
                          stall_ms=max(idle["gap_ms"], 4 * TICK_MS))
            rows.append(row)
            print(f"  n={n:>9,}  {row['action']:<24} gap {row['gap_ms']:9.1f} ms  "
                  f"wall {row['wall_s']:7.2f} s{'' if row['ok'] else '  NOT OK'}"
                  f"{'  cancelled' if row['cancelled'] else ''}", file=sys.stderr, flush=True)
            if action.loads_data:  # the data are in: the idle baseline
                settle(pause_s)
                if collect:
                    gc.collect()
                idle = measure(window, idle_action(idle_s), ctx, cap_s=idle_s + 30, tail_s=0)
            settle(pause_s)
    finally:
        close_window(window)
        settle(0.2)
        gc.unfreeze()  # the next size's window starts from an app without this one
        gc.collect()
        from perceptron_gui.ui import interpreter as collector

        collector.stop()
    idle_ms = idle["gap_ms"]
    for row in rows:
        row["n"] = n
        row["idle_ms"] = idle_ms
        row["excess_ms"] = row["gap_ms"] - idle_ms
        row["goal_ms"] = GOAL_MS.get(n, 50.0)
    return {"n": n, "data": data, "idle_ms": idle_ms, "idle_ticks": idle["ticks"],
            "idle_empty_ms": idle_empty["gap_ms"], "rows": rows}


def run(quick: bool = False, only=None, sizes=None) -> dict:
    """Measure every action at each size; JSON-ready (no correctness is asserted on speed).

    ``only``: the names of the actions to measure (see :func:`selected`);
    ``sizes``: the numbers of points (default :data:`SIZES`, or :data:`SIZES_QUICK`).
    """
    qt = _qt()
    app = qt.QtWidgets.QApplication.instance() or qt.QtWidgets.QApplication([])
    assert app is not None
    sizes = sizes or (SIZES_QUICK if quick else SIZES)
    actions = selected(only) if only else [a for a in ACTIONS if a.quick or not quick]
    started = time.perf_counter()
    load_before, uptime_before = load_average(), uptime()
    with tempfile.TemporaryDirectory(prefix="bench_stall_") as tmp, _isolated(Path(tmp)) as asked:
        sizes_out = [measure_size(n, [a for a in actions if a.data == kind], Path(tmp),
                                  data=kind, **(QUICK if quick else FULL))
                     for n in sizes for kind in DATA if any(a.data == kind for a in actions)]
    result = {
        "benchmark": NAME,
        "quick": quick,
        "partial": bool(only) or sizes != (SIZES_QUICK if quick else SIZES),
        "sizes": sizes_out,
        "dialogs_answered": asked,
        "seconds": time.perf_counter() - started,
        "load_before": load_before,
        "load_after": load_average(),
        "uptime_before": uptime_before,
        "uptime_after": uptime(),
        "platform": os.environ.get("QT_QPA_PLATFORM"),
        "environment": dict(environment("pyside6", "pyqtgraph"),
                            package=importlib.util.find_spec("perceptron_gui").origin),
    }
    result["ratios"] = {
        f"{row['action']} at {s['n']:,} points: gap − idle (ms)":
            {"value": row["excess_ms"], "goal": row["goal_ms"]}
        for s in sizes_out for row in s["rows"]
    }
    return result


# ============================================================================ the table

def format_table(r: dict) -> str:
    """A Markdown table: one row per action, one column per size (:mod:`stall_table`)."""
    spec = importlib.util.spec_from_file_location("stall_table", HERE / "stall_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.format_table(r, GOAL_MS)


def write_json(r: dict) -> Path:
    """Write the result beside this file."""
    return write_result(NAME, r, ".only" if r.get("partial") else None)


def _options(argv) -> dict:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", help="comma-separated action names")
    parser.add_argument("--sizes", help="comma-separated numbers of points")
    args = parser.parse_args(argv)
    return {"quick": args.quick,
            "only": [x.strip() for x in args.only.split(",")] if args.only else None,
            "sizes": tuple(int(float(x)) for x in args.sizes.split(",")) if args.sizes else None}


if __name__ == "__main__":
    result = run(**_options(sys.argv[1:]))
    print(format_table(result))
    print(f"written to {write_json(result)}")
