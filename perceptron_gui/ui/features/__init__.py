"""Features built on the window's public interface.

Files, autosave, export, demos (playing, recording, editing), presenter mode,
shaping the Gaussians, the timeline and the theory worker; each module has
``install(window)`` (:mod:`perceptron_gui.ui.window_features` installs them all).
"""
