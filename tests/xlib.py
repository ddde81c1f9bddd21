"""A few Xlib calls through ctypes: find a process's mapped windows on a display, and close them.

The real-window test uses them instead of xdotool or xwininfo, so that it needs
nothing beyond ``libx11-6`` (which Qt's xcb platform needs anyway) and Xvfb.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from dataclasses import dataclass

_IS_VIEWABLE = 2  # XWindowAttributes.map_state
_CLIENT_MESSAGE = 33
_ANY_PROPERTY_TYPE = 0
_ERRORS_IGNORED = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(
    lambda _display, _event: 0)


class _WindowAttributes(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int),
        ("height", ctypes.c_int), ("border_width", ctypes.c_int), ("depth", ctypes.c_int),
        ("visual", ctypes.c_void_p), ("root", ctypes.c_ulong), ("class_", ctypes.c_int),
        ("bit_gravity", ctypes.c_int), ("win_gravity", ctypes.c_int),
        ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong),
        ("backing_pixel", ctypes.c_ulong), ("save_under", ctypes.c_int),
        ("colormap", ctypes.c_ulong), ("map_installed", ctypes.c_int),
        ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
        ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
        ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p),
    ]


class _ClientMessage(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p), ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong), ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class _Event(ctypes.Union):
    _fields_ = [("client", _ClientMessage), ("pad", ctypes.c_long * 24)]


@dataclass(frozen=True)
class Window:
    """A top-level window: its X id, title, owning process and size."""

    id: int
    title: str
    pid: int | None
    width: int
    height: int


def _load_xlib() -> ctypes.CDLL:
    name = ctypes.util.find_library("X11") or "libX11.so.6"
    lib = ctypes.CDLL(name)
    lib.XOpenDisplay.restype = ctypes.c_void_p
    lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    lib.XDefaultRootWindow.restype = ctypes.c_ulong
    lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    lib.XInternAtom.restype = ctypes.c_ulong
    lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    lib.XQueryTree.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
        ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
        ctypes.POINTER(ctypes.c_uint)]
    lib.XGetWindowAttributes.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(_WindowAttributes)]
    lib.XGetWindowProperty.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_long, ctypes.c_long,
        ctypes.c_int, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
        ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong),
        ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_void_p)]
    lib.XSendEvent.argtypes = [
        ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_Event)]
    lib.XFree.argtypes = [ctypes.c_void_p]
    lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.XSetErrorHandler.argtypes = [ctypes.c_void_p]
    # a window may vanish between two calls; Xlib's default handler would exit the process
    lib.XSetErrorHandler(ctypes.cast(_ERRORS_IGNORED, ctypes.c_void_p))
    return lib


class Display:
    """A connection to an X display (a context manager).

    Parameters
    ----------
    name : str
        The display, e.g. ``":1"``.
    """

    def __init__(self, name: str):
        self._x = _load_xlib()
        self._display = self._x.XOpenDisplay(name.encode())
        if not self._display:
            raise OSError(f"cannot open X display {name!r}")

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *_exc) -> None:
        self._x.XCloseDisplay(self._display)

    def _atom(self, name: str) -> int:
        return self._x.XInternAtom(self._display, name.encode(), 0)

    def _property(self, window: int, name: str) -> list[int] | bytes | None:
        """A window property: its 32-bit items, or its bytes (8-bit); None when it lacks it."""
        kind, fmt = ctypes.c_ulong(), ctypes.c_int()
        count, after, data = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.c_void_p()
        status = self._x.XGetWindowProperty(
            self._display, window, self._atom(name), 0, 1 << 20, 0, _ANY_PROPERTY_TYPE,
            ctypes.byref(kind), ctypes.byref(fmt), ctypes.byref(count), ctypes.byref(after),
            ctypes.byref(data))
        try:
            if status != 0 or not kind.value or not data:
                return None
            if fmt.value == 8:
                return ctypes.string_at(data, count.value)
            if fmt.value == 32:  # Xlib hands 32-bit items over as C longs
                return list(ctypes.cast(data, ctypes.POINTER(ctypes.c_long))[: count.value])
            return None
        finally:
            if data:
                self._x.XFree(data)

    def mapped_windows(self) -> list[Window]:
        """The viewable children of the root window (the top-levels, with no window manager)."""
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        if not self._x.XQueryTree(self._display, self._x.XDefaultRootWindow(self._display),
                                  ctypes.byref(root), ctypes.byref(parent),
                                  ctypes.byref(children), ctypes.byref(count)):
            return []
        ids = [children[i] for i in range(count.value)]
        if children:
            self._x.XFree(children)
        found = []
        for window in ids:
            attributes = _WindowAttributes()
            if not self._x.XGetWindowAttributes(self._display, window, ctypes.byref(attributes)):
                continue
            if attributes.map_state != _IS_VIEWABLE:
                continue
            title = self._property(window, "_NET_WM_NAME")
            title = title.decode("utf-8", "replace") if isinstance(title, bytes) else ""
            pid = self._property(window, "_NET_WM_PID")
            found.append(Window(window, title, pid[0] if isinstance(pid, list) else None,
                                attributes.width, attributes.height))
        return found

    def icon_sizes(self, window: int) -> list[tuple[int, int]]:
        """The sizes of the images in a window's ``_NET_WM_ICON`` (empty: no icon)."""
        items = self._property(window, "_NET_WM_ICON")
        items = items if isinstance(items, list) else []
        sizes, i = [], 0
        while i + 2 <= len(items):
            width, height = items[i], items[i + 1]
            sizes.append((width, height))
            i += 2 + width * height
        return sizes

    def close(self, window: int) -> None:
        """Ask a window to close, as a window manager's close button does (WM_DELETE_WINDOW)."""
        event = _Event()
        event.client.type = _CLIENT_MESSAGE
        event.client.window = window
        event.client.message_type = self._atom("WM_PROTOCOLS")
        event.client.format = 32
        event.client.data[0] = self._atom("WM_DELETE_WINDOW")
        self._x.XSendEvent(self._display, window, 0, 0, ctypes.byref(event))
        self._x.XSync(self._display, 0)
