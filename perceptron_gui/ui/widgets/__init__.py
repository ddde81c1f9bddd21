"""The window's widgets: the canvas, the panels, the plots and the bars that show the workspace."""
