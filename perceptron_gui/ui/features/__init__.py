"""Features built on the window's public interface.

Files, autosave, export, demos (playing, recording, editing), presenter mode,
shaping the Gaussians, the timeline and the theory worker, each made with the
window by :mod:`perceptron_gui.ui.window_features`.
"""
