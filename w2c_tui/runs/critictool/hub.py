"""Whether a similarity model can come from the Hugging Face hub, decided cheaply and before
sentence-transformers (and torch) is imported.

Offline, the library retries the hub for about 90 s before it gives up; here the
`HF_HUB_OFFLINE` setting, or one failed connection to the hub (or to the HTTPS proxy), is
enough to know. A model already in the local cache is then loaded from it alone.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_ENDPOINT = "https://huggingface.co"
PROBE_SECONDS = 1.0
"""How long the one connection attempt (name lookup included) may take."""
TRUE = {"1", "on", "yes", "true"}
ORGANISATION = "sentence-transformers"
"""Where sentence-transformers looks for a bare model name (all-mpnet-base-v2)."""


def endpoint() -> str:
    """The hub's address (HF_ENDPOINT, else huggingface.co)."""
    return os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT


def _connects(host: str, port: int, seconds: float) -> str | None:
    """None when a TCP connection to host:port opens within `seconds`, else why not."""
    outcome: list[str | None] = []

    def attempt() -> None:
        try:
            socket.create_connection((host, port), timeout=seconds).close()
            outcome.append(None)
        except OSError as error:
            outcome.append(str(error) or type(error).__name__)

    # a name lookup ignores socket timeouts: the attempt runs aside and is waited for, bounded
    thread = threading.Thread(target=attempt, name="hub-probe", daemon=True)
    thread.start()
    thread.join(seconds)
    return outcome[0] if outcome else f"no answer within {seconds:g} s"


def offline_reason(seconds: float = PROBE_SECONDS) -> str | None:
    """Why the hub cannot be reached (HF_HUB_OFFLINE set, or one failed connection), or None
    when it answered."""
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        if os.environ.get(name, "").strip().lower() in TRUE:
            return f"{name} is set"
    proxy = os.environ.get("HTTPS_PROXY") or os.environ.get("https_proxy")
    target = urlsplit(proxy or endpoint())
    if not target.hostname:
        return None  # an address we cannot probe: let the library try
    port = target.port or (80 if target.scheme == "http" else 443)
    why = _connects(target.hostname, port, seconds)
    if why is None:
        return None
    via = f"the proxy {target.hostname}:{port}" if proxy else f"{target.hostname}:{port}"
    return f"{via}: {why}"


def cache_folders() -> list[Path]:
    """Where a hub model may already be: SENTENCE_TRANSFORMERS_HOME, then the hub cache
    (HF_HUB_CACHE, HF_HOME/hub, XDG_CACHE_HOME/huggingface/hub, ~/.cache/huggingface/hub)."""
    folders = []
    if home := os.environ.get("SENTENCE_TRANSFORMERS_HOME"):
        folders.append(Path(home))
    if hub := os.environ.get("HF_HUB_CACHE"):
        folders.append(Path(hub))
    elif hf_home := os.environ.get("HF_HOME"):
        folders.append(Path(hf_home) / "hub")
    else:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path("~/.cache").expanduser())
        folders.append(Path(xdg) / "huggingface" / "hub")
    return [folder.expanduser() for folder in folders]


def in_cache(name: str) -> bool:
    """Whether the hub model `name` (a bare name: also under sentence-transformers/) has a
    config.json in a local cache."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    repos = [name] if "/" in name else [name, f"{ORGANISATION}/{name}"]
    return any(
        isinstance(try_to_load_from_cache(repo, "config.json", cache_dir=folder), str)
        for folder in cache_folders()
        for repo in repos
    )
