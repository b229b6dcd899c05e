"""Allow `python -m w2c_tui`."""

from w2c_tui.cli import main

main()
