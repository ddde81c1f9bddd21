"""The views area builds a tab's view when the tab is first shown or the view is asked for."""

from __future__ import annotations

from perceptron_gui.ui import style
from perceptron_gui.ui.views import VIEW_TYPES


def test_only_the_tab_in_front_is_built_at_start(window):
    area = window.views
    front = area.currentWidget()
    assert isinstance(front, VIEW_TYPES[front.name])
    assert list(area.views()) == [front.name]
    assert area.names() == list(VIEW_TYPES)


def test_a_view_asked_for_is_built_in_its_tab_with_the_area_s_scale(window):
    area = window.views
    front = area.currentIndex()
    area.set_scale(style.PRESENTER)
    for index, name in enumerate(area.names()):
        view = area.view(name)
        assert isinstance(view, VIEW_TYPES[name]) and area.view(name) is view
        assert area.widget(index) is view and area.tabText(index) == VIEW_TYPES[name].title
        assert view.scale == style.PRESENTER
    assert list(area.views()) == list(VIEW_TYPES) and area.currentIndex() == front


def test_a_tab_shown_builds_its_view(window, qtbot):
    area = window.views
    window.set_views_visible(True)
    qtbot.waitUntil(area.isVisible)
    for index, name in enumerate(area.names()):
        area.setCurrentIndex(index)
        shown = area.currentWidget()
        assert isinstance(shown, VIEW_TYPES[name]) and shown.isVisible()
        assert area.views()[name] is shown
