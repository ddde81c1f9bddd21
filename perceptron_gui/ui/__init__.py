"""The Qt layer: draws the core's workspace and turns gestures into commands."""
