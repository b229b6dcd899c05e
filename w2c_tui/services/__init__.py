"""The operations the CLI and the TUI offer, over the store, the readers and the scorers."""

from w2c_tui.db.engine import display_url
from w2c_tui.services.root import Services, open_services

__all__ = ["Services", "display_url", "open_services"]
