"""The window renders in each characteristic state (files that decode, not blank)."""

from PySide6 import QtGui

from perceptron_gui.ui.screenshots import STATES, render_states


def test_every_state_renders(qtbot, tmp_path):
    paths = render_states(tmp_path, size=(1100, 720))
    assert set(paths) == set(STATES)
    for name, path in paths.items():
        image = QtGui.QImage(str(path))
        assert not image.isNull(), name
        assert image.width() >= 1100 and image.height() >= 700, name
        # not blank: the canvas area holds many distinct colours
        colours = {image.pixel(x, y) for x in range(0, image.width(), 7)
                   for y in range(0, image.height(), 7)}
        assert len(colours) > 50, name
