"""perceptron-gui."""
