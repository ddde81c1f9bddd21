"""Features built on the window's public interface.

Files, autosave, export, demos, presenter mode, the timeline and the theory worker;
each module has ``install(window)``.
"""
