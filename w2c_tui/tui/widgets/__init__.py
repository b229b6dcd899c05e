"""Widgets of the review workbench."""
