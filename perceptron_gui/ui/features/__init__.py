"""Features built on the window's public interface: files, autosave, export, demos, presenter, timeline."""
