"""The command line, and the one place a QApplication is made.

``perceptron-gui`` opens the window.  Everything Qt is imported inside
:func:`main`, so ``--help`` and friends stay instant.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser (also used by the tests)."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="perceptron-gui",
        description="Place labeled points, pick a learner (primal or dual perceptron, LDA) "
        "and watch it train step by step, with the margin and the Novikoff bound live.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--generate", metavar="NAME",
        help="start with a generated data set: blobs, separable, overlapping, xor, circles, moons",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for --generate (default 0)")
    parser.add_argument("--learner", choices=["primal", "dual", "lda"], default="primal",
                        help="learner to start with (default primal)")
    parser.add_argument("--demo", metavar="NAME",
                        help="open the window and play a narrated demo (names: --list-demos)")
    parser.add_argument("--list-demos", action="store_true",
                        help="print the names of the narrated demos, one per line, and exit")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help=argparse.SUPPRESS)
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="a workspace file (.json) to open, or a CSV file to import")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the application; returns the process exit code."""
    args = build_parser().parse_args(argv)
    demo = None
    if getattr(args, "list_demos", False) or getattr(args, "demo", None):
        from .core import demos

        if args.list_demos:
            print("\n".join(demos.list_demos()))
            return 0
        try:
            demo = demos.load_demo(args.demo)
        except demos.DemoError as exc:
            print(f"perceptron-gui: {exc}", file=sys.stderr)
            return 2

    from PySide6 import QtCore, QtWidgets

    from .core import Workspace, datasets
    from .ui.main_window import MainWindow

    QtCore.QCoreApplication.setOrganizationName("perceptron-gui")
    QtCore.QCoreApplication.setApplicationName("perceptron-gui")
    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    workspace = Workspace(learner=args.learner)
    if args.generate:
        if args.generate not in datasets.GENERATORS:
            print(f"perceptron-gui: unknown generator {args.generate!r}; choose from "
                  f"{', '.join(datasets.GENERATORS)}", file=sys.stderr)
            return 2
        workspace.set_dataset(datasets.GENERATORS[args.generate](seed=args.seed))
    window = MainWindow(workspace)
    from .ui.errors import install_excepthook

    install_excepthook(window)
    window.show()
    from .ui.autosave import offer_restore

    offer_restore(window)  # after a crash or a kill: restore the autosave?
    if args.file:
        window.files.open_path(args.file)
    if demo is not None:
        window.demos.play(demo)
    if args.quit_after is not None:  # a testing hook: quit without asking about changes
        window.files.force_close = True
        QtCore.QTimer.singleShot(int(args.quit_after * 1000), app.quit)
    return app.exec()
