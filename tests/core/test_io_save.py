"""Saving a workspace reports progress and stops when asked, leaving the old file."""

from __future__ import annotations

import os

import pytest

from perceptron_gui.core import Workspace, generators, io
from perceptron_gui.core.io import workspacefile


def test_a_save_reports_progress_up_to_one(tmp_path, monkeypatch):
    monkeypatch.setattr(workspacefile, "_CHUNK", 10)
    ws = Workspace(generators.separable(45, seed=1))
    seen = []
    io.save_workspace(ws, tmp_path / "a.json", progress=seen.append)
    # the head, five pieces of points, the end; asked once more before the rename
    assert seen == pytest.approx([1 / 7, 2 / 7, 3 / 7, 4 / 7, 5 / 7, 6 / 7, 1.0, 1.0])
    assert io.load_workspace(tmp_path / "a.json").dataset == ws.dataset


@pytest.mark.parametrize("stop_after", [1, 3, 7, 8])
def test_a_cancelled_save_leaves_the_old_file(tmp_path, monkeypatch, stop_after):
    monkeypatch.setattr(workspacefile, "_CHUNK", 10)
    path = tmp_path / "a.json"
    io.save_workspace(Workspace(generators.separable(5, seed=2)), path)
    old = path.read_bytes()
    calls = []

    def progress(fraction):
        calls.append(fraction)
        return len(calls) < stop_after  # Cancel at the stop_after-th report

    with pytest.raises(io.Cancelled):
        io.save_workspace(Workspace(generators.separable(45, seed=1)), path, progress=progress)
    assert len(calls) == stop_after
    assert path.read_bytes() == old and os.listdir(tmp_path) == ["a.json"]
