"""The command line, and the one place a QApplication is made.

Everything Qt is imported inside :func:`main`, so ``--help`` and friends stay instant.
"""

from __future__ import annotations

import argparse
import os
import sys

from .ui.interpreter import no_collection, pause_collection

__all__ = ["main", "build_parser", "build_render_parser", "render_main", "start_warm_up",
           "ensure_application", "table_options", "pause_collection"]

#: The options of a delimited-file import: (name, metavar, help).
_TABLE_OPTIONS = (
    ("x", "COLUMN", "the column of the x coordinates"),
    ("y", "COLUMN", "the column of the y coordinates"),
    ("label", "COLUMN", "the column of the classes"),
    ("positive", "VALUE", "the label of the +1 class; alone: that class against the rest"),
    ("negative", "VALUE", "with --positive: the label of the -1 class (other rows are left out)"),
    ("delimiter", "D", "comma, semicolon, tab, whitespace, pipe or one character (default: "
     "detected)"),
)
#: The choices of ``--colour-scheme``: the keys of View ▸ Colour scheme (``ui.theme.CHOICES``).
COLOUR_SCHEMES = ("system", "light", "dark")


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    """The options of a delimited-file import (shared by the window and ``render``)."""
    group = parser.add_argument_group(
        "reading a CSV or other delimited file",
        "Columns are named by their header, or by their position counted from 1 in a file "
        "without a header; by default the first two numeric columns are x and y and the "
        "last column with few distinct values is the label.")
    for name, metavar, text in _TABLE_OPTIONS:
        group.add_argument(f"--{name}", metavar=metavar, help=text)
    group.add_argument("--skip-bad-rows", action="store_true",
                       help="skip rows with a missing or non-numeric value (their lines are "
                       "reported) instead of stopping")


def table_options(args: argparse.Namespace) -> dict:
    """The delimited-file options given on the command line, as keyword arguments."""
    options = {name: getattr(args, name) for name, _metavar, _text in _TABLE_OPTIONS
               if getattr(args, name, None) is not None}
    if getattr(args, "skip_bad_rows", False):
        options["skip_bad_rows"] = True
    return options


def _is_table(path) -> bool:
    """Whether an existing file is delimited text (by extension, else by its first byte)."""
    from pathlib import Path

    from .core.io.csvfile import TABLE_SUFFIXES

    suffix = Path(path).suffix.lower()
    if suffix in TABLE_SUFFIXES:
        return True
    if suffix == ".json":
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return bool(head) and head[:1] not in (b"{", b"[")


def _not_a_table(options: dict, source: str) -> str:
    """The reason the delimited-file ``options`` cannot apply to ``source``."""
    return (f"{', '.join('--' + k.replace('_', '-') for k in options)}: only for a CSV or "
            f"other delimited file, and {source!r} is not one")


def _fail(reason: str, code: int = 1, prog: str = "perceptron-gui") -> int:
    """Say ``reason`` in one line on stderr; returns the exit status ``code``."""
    print(f"{prog}: {reason}", file=sys.stderr)
    return code


def _read_table_source(path, options: dict, prefix: str):
    """Read a delimited file for the command line; prints what was skipped on stderr."""
    from .core.io import tabular

    table = tabular.read_table(path, **options)
    if table.skipped_lines or table.n_other:
        print(f"{prefix}: {path}: {table.summary}", file=sys.stderr)
    return table


#: Delay after the window shows before the compiled loop is warmed up (ms).
WARMUP_DELAY_MS = 500


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser (also used by the tests)."""
    from . import __version__
    from .core.learners import registry

    parser = argparse.ArgumentParser(
        prog="perceptron-gui",
        description="Place labeled points, pick a learner ("
        + ", ".join(registry.LEARNERS.values())
        + ") and watch it train step by step, with the margin and the Novikoff bound live.",
        epilog="perceptron-gui render FILE -o OUT draws a workspace, a demo or a data set to "
        "a PNG, an SVG, an animated GIF or a folder of slides without opening a window "
        "(options: perceptron-gui render --help).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--generate", metavar="NAME",
        help="start with a generated data set: blobs, separable, overlapping, xor, circles, moons",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for --generate (default 0)")
    parser.add_argument("--learner", choices=list(registry.LEARNERS),
                        help=f"learner to start with (default {registry.DEFAULT}; with "
                             "--sample, the sample's own)")
    parser.add_argument("--demo", metavar="NAME",
                        help="open the window and play a narrated demo (names: --list-demos)")
    parser.add_argument("--game", action="store_true",
                        help="open the window in the mistake-bound game (Play ▸ New game): "
                        "you choose the points, the perceptron predicts them")
    parser.add_argument("--list-demos", action="store_true",
                        help="print the names of the narrated demos, one per line, and exit")
    parser.add_argument("--sample", metavar="NAME",
                        help="open a classic data set (names: --list-samples)")
    parser.add_argument("--list-samples", action="store_true",
                        help="print the names of the sample data sets and what each shows, "
                        "and exit")
    parser.add_argument("--colour-scheme", choices=COLOUR_SCHEMES, metavar="SCHEME",
                        help="draw the window light, dark or as the desktop does: "
                        f"{', '.join(COLOUR_SCHEMES)} (remembered, as View ▸ Colour scheme; "
                        "default: the choice last made)")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help=argparse.SUPPRESS)
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="a workspace file (.json) to open, a CSV or other delimited file "
                        "to import, or a sample name")
    _add_table_options(parser)
    return parser


def build_render_parser() -> argparse.ArgumentParser:
    """The parser of ``perceptron-gui render`` (headless export, no window)."""
    parser = argparse.ArgumentParser(
        prog="perceptron-gui render",
        description="Render a workspace file or a demo to a PNG, SVG or animated GIF, "
        "without showing a window.",
        epilog="Exit status 0 when OUT was written; otherwise 1 (or 2 for bad arguments) "
        "with a one-line reason on stderr, and nothing written.",
    )
    parser.add_argument("source", metavar="FILE",
                        help="a workspace file (.json), a CSV or other delimited file, a demo "
                        "name (see --list-demos), a sample name (see --list-samples) or a "
                        "demo file")
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="the file to write: .png, .svg or .gif; for a demo also a "
                        "folder (ending in /): numbered PNG slides with their captions, "
                        "slides.md and slides.html")
    parser.add_argument("--steps", type=int, metavar="N",
                        help="PNG/SVG: steps to take first (default 0); GIF: number of frames "
                        "(default: every demo step, or 60 steps of a run)")
    parser.add_argument("--size", metavar="WxH",
                        help="image size in pixels (default 960x720 for a PNG, an SVG or "
                        "slides; 640x480 for a GIF)")
    parser.add_argument("--unit", choices=["update", "sample", "epoch"], default="update",
                        help="what one step of a workspace's run is (default: update, i.e. "
                        "run to the next mistake)")
    parser.add_argument("--fps", type=float, metavar="F",
                        help="GIF frame rate (default 4 for a run, 0.5 for a demo)")
    parser.add_argument("--presenter", action="store_true",
                        help="large fonts, lines and markers (presenter mode sizes)")
    parser.add_argument("--views", nargs="?", const="", metavar="NAMES",
                        help="draw views to the right of the canvas (a PNG, or a demo's GIF "
                        "or slides): names separated by commas, such as 'weights'; for a "
                        "demo, without names, the views it names")
    _add_table_options(parser)
    return parser


def render_main(argv: list[str]) -> int:
    """``perceptron-gui render``: write OUT and return 0, or print one line and return 1/2."""
    from pathlib import Path

    args = build_render_parser().parse_args(argv)

    def fail(reason: str, code: int = 1) -> int:
        return _fail(reason, code, "perceptron-gui render")

    from .ui.features.export import EXTENSIONS, ExportError, parse_size
    from .ui.features.export.headless import is_folder_output

    suffix = Path(args.output).suffix.lower()
    if suffix not in EXTENSIONS and not is_folder_output(args.output):
        return fail(f"unknown output type {suffix or '(none)'!r} for {args.output!r}: "
                    "use .png, .svg or .gif (or, for a demo, a folder ending in / for "
                    "slides)", 2)
    least = 1 if suffix == ".gif" else 0  # a GIF of no frame is no GIF
    if args.steps is not None and args.steps < least:
        return fail(f"bad --steps {args.steps}: expected a number >= {least}", 2)
    try:
        size = parse_size(args.size) if args.size is not None else None
    except ExportError as exc:
        return fail(str(exc), 2)
    source = args.source
    options = table_options(args)
    from .core import io as core_io
    from .core import samples

    try:
        if os.path.isfile(source) and _is_table(source):
            from .core import Workspace

            source = Workspace(_read_table_source(source, options, "perceptron-gui render")
                               .dataset)
        elif options:
            return fail(_not_a_table(options, source), 2)
        elif not os.path.isfile(source) and source in samples.names():
            source = samples.open_workspace(source)[0]
    except core_io.FormatError as exc:
        return fail(f"{args.source}: {exc}")
    # no window: the offscreen platform, unless the caller chose one
    if not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6 import QtCore, QtWidgets

    def quiet(mode, _context, message):  # keep stderr to the one-line reason
        if mode in (QtCore.QtMsgType.QtCriticalMsg, QtCore.QtMsgType.QtFatalMsg):
            sys.stderr.write(message + "\n")

    previous = QtCore.qInstallMessageHandler(quiet)
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])  # noqa: F841
    from .ui import style
    from .ui.features.export import headless

    try:
        summary = headless.render_file(
            source, args.output, steps=args.steps, size=size, fps=args.fps,
            unit=args.unit, scale=style.PRESENTER if args.presenter else None,
            views=args.views)
    except ExportError as exc:
        return fail(str(exc))
    finally:
        QtCore.qInstallMessageHandler(previous)
    print(summary)
    return 0


def start_warm_up():
    """Warm up in a background thread what the first actions need (superqt's worker module,
    :data:`PRELOADED`, the compiled perceptron loop, the posterior's colour maps), with
    garbage collection off; returns the thread.  Not a daemon: quitting during the warm-up
    waits for it rather than tearing numba down mid-import."""
    import threading

    thread = threading.Thread(target=_warm_up, name="numba-warm-up", daemon=False)
    thread.start()
    return thread


def _warm_up() -> None:
    from .core.learners import warmup
    from .ui import workers
    from .ui.widgets.canvas.layers import probability

    with no_collection():
        workers.preload()
        preload_modules()
        warmup.warm_up()
        probability.warm_up()


#: What :func:`preload_modules` imports: the Novikoff certificate's scipy modules
#: (imported on the UI thread the first time the data are separable, they held the loop
#: for 0.5-3 s), the picture export's and the import dialog's (0.1-0.2 s at first use),
#: the generator's and the demo saver's dialogs.
PRELOADED = ("scipy.linalg", "scipy.optimize", "pyqtgraph.exporters",
             "perceptron_gui.ui.features.export.renderer",
             "perceptron_gui.ui.features.export.runner",
             "perceptron_gui.ui.features.import_dialog",
             "perceptron_gui.ui.widgets.generator_dialog",
             "perceptron_gui.ui.widgets.save_demo_dialog")


def preload_modules() -> None:
    """Import :data:`PRELOADED` now (off the UI thread: the warm-up's)."""
    import importlib

    for name in PRELOADED:
        importlib.import_module(name)


def _name_application() -> None:
    """Name the application (its settings and data folder) unless a test or a host did."""
    from PySide6 import QtCore

    if not QtCore.QCoreApplication.organizationName():
        QtCore.QCoreApplication.setOrganizationName("perceptron-gui")
        QtCore.QCoreApplication.setApplicationName("perceptron-gui")


def _user_demos():
    """The shipped demos and the user's own (``--demo NAME`` finds either)."""
    from .core.demos.library import DemoLibrary
    from .ui.features.demo_files import user_demo_dir

    _name_application()
    return DemoLibrary(user_demo_dir())


def _load_demo(name: str):
    """A shipped demo by name or path, else one of the user's demos by name."""
    from .core import demos

    try:
        return demos.load_demo(name)
    except demos.UnknownDemoError:
        library = _user_demos()
        if any(e.user and e.name == name for e in library.entries()):
            return library.load(name)
        raise


def ensure_application():
    """The running QApplication, made (and named: :func:`_name_application`) if there is none."""
    from PySide6 import QtWidgets

    from .ui.icon import app_icon

    app = QtWidgets.QApplication.instance()
    _name_application()
    app = app or QtWidgets.QApplication(sys.argv[:1])
    app.setWindowIcon(app_icon())
    return app


def _command_line_source(args):
    """What the window opens: ("table", TableResult), ("sample", name), ("file", path) or
    None; or an exit status after a one-line reason on stderr."""
    options = table_options(args)
    name = args.sample
    if args.file and name:
        return _fail("give a FILE or --sample, not both", 2)
    if args.file and not os.path.isfile(args.file):
        from .core import samples

        if args.file in samples.names():
            name = args.file
    if name is not None:
        from .core import samples

        if name not in samples.names():
            return _fail(f"no sample named {name!r}; the samples are: "
                         f"{', '.join(samples.names())}", 2)
        return "sample", name
    if not args.file:
        return None
    if os.path.isfile(args.file) and _is_table(args.file):
        from .core import io as core_io

        try:
            return "table", _read_table_source(args.file, options, "perceptron-gui")
        except core_io.FormatError as exc:
            return _fail(f"{args.file}: {exc}")
    if options:
        return _fail(_not_a_table(options, args.file), 2)
    return "file", args.file


def main(argv: list[str] | None = None) -> int:
    """Run the application; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["render"]:  # the headless subcommand (a file named "render": ./render)
        return render_main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.list_samples:
        from .core import samples

        for name in samples.names():
            print(f"{name}\t{samples.SAMPLES[name].description}")
        return 0
    demo = None
    if getattr(args, "list_demos", False) or getattr(args, "demo", None):
        from .core import demos

        if args.list_demos:
            print("\n".join(demos.list_demos() + [e.name for e in _user_demos().entries()
                                                   if e.user]))
            return 0
        try:
            demo = _load_demo(args.demo)
        except demos.DemoError as exc:
            return _fail(str(exc), 2)

    opening = _command_line_source(args)
    if isinstance(opening, int):
        return opening

    resume_collection = pause_collection()
    try:
        return _open_window(args, opening, demo, resume_collection)
    finally:
        resume_collection(final=True)


def _open_window(args, opening, demo, resume_collection) -> int:
    """Build and show the window, run the application; returns its exit code."""
    # the Qt-free core (and numpy) before PySide6: once PySide6 is loaded, its import
    # hook reads the source of every module imported after it (looking for "PySide")
    from .core import Workspace, generators
    from .core.learners import registry

    workspace = Workspace(learner=args.learner or registry.DEFAULT)
    if args.generate:
        if args.generate not in generators.GENERATORS:
            return _fail(f"unknown generator {args.generate!r}; choose from "
                         f"{', '.join(generators.GENERATORS)}", 2)
        workspace.set_dataset(generators.GENERATORS[args.generate](seed=args.seed))

    from .ui.deferred import YieldingTimer
    from .ui.main_window import MainWindow
    from .viewer import delete_window

    app = ensure_application()
    window = MainWindow(workspace)
    if args.colour_scheme is not None:
        window.theme.set_choice(args.colour_scheme)
    from .ui.errors import install_excepthook

    install_excepthook(window)
    window.show()
    YieldingTimer(window, resume_collection).start()  # once the first frame is painted
    YieldingTimer(window, start_warm_up, interval_ms=WARMUP_DELAY_MS).start()
    from .ui.features.autosave_restore import offer_restore

    def open_at_start(_restored) -> None:
        if opening is not None:
            kind, value = opening
            if kind == "table":
                window.files.csv.adopt_table(args.file, value)
            elif kind == "sample":
                window.files.samples.open_sample(value, args.learner)
            else:
                window.files.open_path(args.file)  # asks first if an autosave was restored
        if demo is not None:
            window.demos.play(demo)
        if args.game:
            window.game.new_game()

    # after a crash or a kill: restore the autosave? then the file named, once that is read
    offer_restore(window).when_done(open_at_start)
    if args.quit_after is not None:  # a testing hook: quit without asking about changes
        window.files.force_close = True
        YieldingTimer(app, app.quit, interval_ms=int(args.quit_after * 1000)).start()
    code = app.exec()
    delete_window(window)
    return code
