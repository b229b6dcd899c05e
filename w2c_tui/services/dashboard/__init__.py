"""The calibration dashboard's panels, one module per part of the document (domain.dashboard)."""
