"""Rich renderables for the calibration dashboard's panels, from the typed document."""
