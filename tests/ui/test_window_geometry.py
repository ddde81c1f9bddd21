"""A saved window size comes back relative to the screen: not squeezed on a larger one."""

from __future__ import annotations

import pytest

from perceptron_gui.ui.window_layout import (
    FRAME_PX,
    read_settings,
    restored_size,
    write_settings,
)


def test_a_window_that_filled_a_laptop_takes_the_same_share_of_a_large_screen():
    # saved at its first size on a 1366x768 laptop (1366x720 available): it filled it
    assert restored_size((1346, 680), (1366, 720), (1920, 1040)) == (1892, 982)
    # and the other way round: fitted, frame included
    w, h = restored_size((1892, 982), (1920, 1040), (1366, 720))
    assert w <= 1366 - FRAME_PX // 2 and h <= 720 - FRAME_PX
    assert (w, h) == (1346, 680)


def test_a_size_the_user_chose_is_kept():
    assert restored_size((900, 600), (1366, 720), (1920, 1040)) == (900, 600)
    # filled in height only: the width was chosen
    assert restored_size((900, 700), (1366, 720), (1920, 1080)) == (900, 1040)


@pytest.mark.parametrize("saved_area", [None, (0, 0)])
def test_without_the_saved_screen_the_size_is_only_fitted(saved_area):
    assert restored_size((1280, 680), saved_area, (1920, 1040)) == (1280, 680)
    assert restored_size((3000, 2000), saved_area, (1920, 1040)) == (1900, 1000)


def test_the_window_saves_its_screen_and_restores_relative_to_it(qtbot):
    from perceptron_gui.ui.main_window import MainWindow

    first = MainWindow()
    qtbot.addWidget(first)
    area = first.screen().availableGeometry()
    small = (area.width() // 2, area.height() // 2)
    first.resize(small[0] - 10, small[1] - 20)  # it filled a screen half this one's size
    first.save_settings()
    assert read_settings()["screen"] == f"{area.width()}x{area.height()}"
    write_settings(screen=f"{small[0]}x{small[1]}")
    again = MainWindow()
    qtbot.addWidget(again)
    expected = restored_size((small[0] - 10, small[1] - 20), small,
                             (area.width(), area.height()))
    assert (again.width(), again.height()) == expected
    assert again.width() > 1.8 * (small[0] - 10)
    assert area.contains(again.geometry().topLeft())
