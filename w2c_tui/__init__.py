"""w2c-tui: a keyboard-driven terminal workbench for When2Call-style tool-calling evaluation."""

__version__ = "0.1.0"
