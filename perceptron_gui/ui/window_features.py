"""The features a main window installs, in order: the one place that names them all.

Each feature is made with the window and keeps to its typed interface (:mod:`.window_api`).
"""

from __future__ import annotations

__all__ = ["install"]


def install(window) -> None:
    """Install every feature on ``window``, each kept as the window's attribute of its name."""
    from . import theme
    from .features import (
        autosave,
        demo_files,
        demo_player,
        exercise_mode,
        export,
        files,
        game_mode,
        hand_weights,
        presenter,
        shaping,
        theory_worker,
        timeline,
    )
    from .window_layout import add_bound_strip

    window.theory_worker = theory_worker.TheoryWorker(window)
    window.timeline = timeline.Timeline(window)
    window.files = files.FileManager(window)
    window.autosave = autosave.Autosave(window)
    window.demos = demo_player.DemoUI(window)
    window.demo_files = demo_files.DemoFiles(window, window.demos)
    window.exporter = export.Exporter(window)
    window.presenter = presenter.PresenterMode(window)
    window.bound_strip = add_bound_strip(window)  # the bound plot while the views hide
    window.shaping = shaping.ShapingFeature(window)
    window.theme = theme.Theme(window)
    window.game = game_mode.GameUI(window)
    window.exercises = exercise_mode.ExerciseUI(window)
    window.hand_weights = hand_weights.HandWeights(window)
