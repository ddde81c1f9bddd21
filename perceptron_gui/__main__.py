"""``python -m perceptron_gui``: the same as the ``perceptron-gui`` command."""

import sys

from .app import main

sys.exit(main())
