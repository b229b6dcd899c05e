"""Presentation shared by the front ends: how numbers read in the TUI, the CLI and the HTML
report alike. Pure formatting over plain values (no I/O, no front-end library), so any layer
that renders text for a person may import it; it imports only the standard library."""
