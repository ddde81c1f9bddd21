"""The views beside the canvas in an export: drawn offscreen at an exact size, put on the right.

The views are real widgets never shown on screen (as the export's canvas);
:func:`beside` paints only into images, so it runs in a worker.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from .common import MIN_SIZE, ExportError, deliver_layout

__all__ = ["VIEWS_SHARE", "ViewsRenderer", "beside", "check_views", "side_height", "split"]

#: The share of an exported picture's width the views take (the canvas keeps the rest).
VIEWS_SHARE = 0.42


def check_views(names) -> tuple[str, ...]:
    """``names`` as a tuple of registered view names, or an ExportError naming the unknown one."""
    from ...views import VIEW_TYPES

    names = tuple(names)
    for name in names:
        if name not in VIEW_TYPES:
            raise ExportError(f"unknown view {name!r}; expected one of {', '.join(VIEW_TYPES)}")
    if len(set(names)) != len(names):
        raise ExportError(f"a view is named twice in {', '.join(names)}")
    return names


def split(width: int, views: int, share: float = VIEWS_SHARE) -> tuple[int, int]:
    """``(canvas width, views width)`` of a picture ``width`` pixels wide (ExportError
    below :data:`~.common.MIN_SIZE`)."""
    if not views:
        return int(width), 0
    side = int(round(width * share))
    if side < MIN_SIZE or width - side < MIN_SIZE:
        raise ExportError(f"{width} px is too narrow for the canvas and the views side by "
                          f"side: at least {2 * MIN_SIZE + 2} px")
    return int(width) - side, side


def side_height(like, width: int, height: int) -> int:
    """The views' height in a picture ``height`` tall: all of it, or with views on screen
    (``like``) their shape on screen at ``width`` (top-aligned, the canvas often taller)."""
    shapes = [(v.width(), v.height()) for v in (like or {}).values() if v.width() > 0]
    if not shapes:
        return int(height)
    w, h = shapes[0][0], sum(s[1] for s in shapes)
    return int(min(height, max(MIN_SIZE, round(width * h / w))))


def beside(left: QtGui.QImage, right: QtGui.QImage | None) -> QtGui.QImage:
    """``left`` with ``right`` to its right, top-aligned, on ``left``'s top-right colour."""
    if right is None or right.isNull():
        return left
    out = QtGui.QImage(left.width() + right.width(), max(left.height(), right.height()),
                       QtGui.QImage.Format.Format_RGB32)
    out.fill(left.pixelColor(left.width() - 1, 0))
    painter = QtGui.QPainter(out)
    painter.drawImage(0, 0, left)
    painter.drawImage(left.width(), 0, right)
    painter.end()
    return out


def _qpalette() -> QtGui.QPalette:
    """The widgets' palette for the scheme drawn now (the application's if it is of it)."""
    from ... import style
    from ...theme import dark_qpalette

    app = QtWidgets.QApplication.instance()
    palette = QtGui.QPalette(app.palette())
    dark_now = palette.color(QtGui.QPalette.ColorRole.Window).lightness() < 128
    want_dark = style.current().name == "dark"
    if dark_now == want_dark:
        return palette
    return dark_qpalette() if want_dark else app.style().standardPalette()


def _fit(view, width: int, height: int) -> bool:
    """Lay ``view`` out at its least height if ``height`` is less, wider in proportion (to
    be scaled down into ``width`` × ``height``: every plot whole); whether it changed."""
    changed = False
    for _ in range(3):  # a wider pane may arrange its plots anew: settle
        least = max(view.minimumSizeHint().height(), height)
        size = (round(width * least / height), least)
        if size == (view.width(), view.height()):
            break
        view.resize(*size)
        deliver_layout()
        changed = True
    return changed


class ViewsRenderer:
    """The views named, offscreen, on ``workspace``, in ``size`` pixels (stacked); each takes
    the state (a zoom, the layers chosen) of its namesake on screen in ``like``."""

    def __init__(self, workspace, names, size, *, scale=None, like=None, controls=True):
        from ... import style
        from ...views import VIEW_TYPES

        self.size = (int(size[0]), int(size[1]))
        self.names = check_views(names)
        self.views = []
        heights = [self.size[1] // len(self.names)] * len(self.names) if self.names else []
        if heights:
            heights[-1] += self.size[1] - sum(heights)
        for name, height in zip(self.names, heights, strict=True):
            view = VIEW_TYPES[name](workspace)
            view.setAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen)
            view.resize(self.size[0], height)
            view.setAutoFillBackground(True)
            if not controls:
                view.hide_controls()
            view.show()
            if scale is not None and scale != style.NORMAL:
                view.set_scale(scale)
            if like and name in like:
                view.copy_state_from(like[name])
            self.views.append(view)
        #: Each view's pixels in the image (a view may be laid out larger: :func:`_fit`).
        self._slots = [(view.width(), view.height()) for view in self.views]
        deliver_layout()

    def __enter__(self) -> ViewsRenderer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def image(self) -> QtGui.QImage:
        """The views as they draw the workspace now, stacked in one image."""
        from ... import style

        out = QtGui.QImage(*self.size, QtGui.QImage.Format.Format_RGB32)
        out.fill(QtGui.QColor(style.current().background))
        painter = QtGui.QPainter(out)
        y = 0
        palette = _qpalette()
        for view, (width, height) in zip(self.views, self._slots, strict=True):
            view.setPalette(palette)
            view.refresh()
            view.grab()  # a first paint: a label whose text grew asks for room only then
            deliver_layout()
            view.refresh()  # again, laid out: ticks and labels sized to the final plot
            deliver_layout()
            if _fit(view, width, height):
                view.refresh()
                deliver_layout()
            pixmap = view.grab()
            if (pixmap.width(), pixmap.height()) != (width, height):
                pixmap = pixmap.scaled(width, height,
                                       QtCore.Qt.AspectRatioMode.IgnoreAspectRatio,
                                       QtCore.Qt.TransformationMode.SmoothTransformation)
            painter.drawPixmap(0, y, pixmap)
            y += height
        painter.end()
        return out

    def close(self) -> None:
        """Destroy the offscreen views now."""
        for view in self.views:
            view.close()
            view.deleteLater()
            QtCore.QCoreApplication.sendPostedEvents(view, QtCore.QEvent.Type.DeferredDelete)
        self.views = []
