"""An export that fails says where, and leaves nothing of itself behind."""

from __future__ import annotations

import os

import pytest

from perceptron_gui.ui.features.export import common, slides
from perceptron_gui.ui.features.export.common import ExportError


def test_slides_that_fail_part_way_leave_no_file(tmp_path, monkeypatch):
    frames = slides._Slides()
    frames.frames = [b"png"] * 8
    frames.captions = [f"caption {i}" for i in range(8)]
    calls = []
    real = slides.write_checked

    def full_disk(path, data, cancelled=None):
        calls.append(path)
        if len(calls) == 8:  # as write_file reports a full disk
            raise ExportError(f"cannot write {os.fspath(path)!r}: No space left on device")
        real(path, data, cancelled)

    monkeypatch.setattr(slides, "write_checked", full_disk)
    folder = tmp_path / "slides"
    with pytest.raises(ExportError, match="No space left"):
        slides._save(frames, folder, "T", None)
    assert len(calls) == 8 and list(folder.iterdir()) == []


def test_a_folder_that_is_not_writable_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(common.os, "access", lambda *_args: False)
    with pytest.raises(ExportError, match=rf"the folder '{tmp_path}' is not writable"):
        common.check_writable(tmp_path / "x.png")


def test_a_demo_is_read_with_the_run_budget_render_holds_it_to():
    from perceptron_gui.core.demos import steps

    assert steps.MAX_RUN_STEPS == common.RENDER_STEP_BUDGET
