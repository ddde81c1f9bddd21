"""Test-wide settings: Qt renders offscreen, and no test touches the user's settings."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
