"""The window's widgets: the canvas, the panels and the bars (the views: ``ui/views``)."""
