"""The Qt layer: draws the core's workspace and turns gestures into commands."""

from . import subscriptions  # noqa: F401 - a deleted QObject's subscriptions end with it
