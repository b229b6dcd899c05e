"""Sentence-embedding similarity for the CriticTool metrics (sentence-transformers, lazily).

The reference embeds the two strings in one `encode` call, takes their cosine similarity and
clips it at 0; so does `SentenceSimilarity`, so the numbers are the reference's for the same
model. sentence-transformers is the optional extra `similarity`; nothing heavy is imported
until the first score, and a hub model that cannot be had is refused before that (hub.py).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Protocol

from w2c_tui.runs.critictool import hub

DEFAULT_MODEL = "all-mpnet-base-v2"
"""The reference's model (a sentence-transformers name; offline, pass a local folder)."""
MISSING = "the CriticTool metrics need sentence-transformers: pip install 'w2c-tui[similarity]'"


class Similarity(Protocol):
    """Scores how alike two strings are, in [0, 1] (the metrics pass str() of both values)."""

    def __call__(self, pred: str, gold: str) -> float:
        """The similarity of `pred` to `gold`."""
        ...


class SimilarityUnavailable(RuntimeError):
    """sentence-transformers is missing, or the model cannot be loaded."""


class SentenceSimilarity:
    """Cosine similarity of sentence-transformers embeddings, clipped at 0, cached per pair."""

    def __init__(self, model: str | Path = DEFAULT_MODEL, device: str | None = None) -> None:
        """`model`: a sentence-transformers name or a local model folder; `device`: e.g. cpu."""
        self.model_name = str(model)
        self.device = device
        self._model: Any = None
        self._cache: dict[tuple[str, str], float] = {}

    def load(self) -> Any:
        """The SentenceTransformer model (loaded on first use)."""
        if self._model is None:
            self._check_path()
            if importlib.util.find_spec("sentence_transformers") is None:
                raise SimilarityUnavailable(MISSING)
            local_only = self._hub_offline()
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as error:
                raise SimilarityUnavailable(MISSING) from error
            try:
                self._model = SentenceTransformer(
                    self.model_name, device=self.device, local_files_only=local_only
                )
            except (OSError, ValueError) as error:
                raise SimilarityUnavailable(self._cannot_load(str(error))) from error
        return self._model

    def _cannot_load(self, why: str) -> str:
        return f"cannot load the similarity model {self.model_name!r}: {why}"

    def _check_path(self) -> None:
        """A name written as a path (absolute, ./, ../, ~) must exist: otherwise the library
        would take it for a hub name and try to download it."""
        name = self.model_name
        if name.startswith(("/", "./", "../", "~")) and not Path(name).expanduser().exists():
            raise SimilarityUnavailable(f"no similarity model at {name}")

    def _hub_offline(self) -> bool:
        """For a hub name, whether the hub is out of reach (then only the local cache is
        read); SimilarityUnavailable at once when the model is not cached either, instead of
        the library's minute and a half of retries. A local folder: False, no probe."""
        if Path(self.model_name).expanduser().is_dir():
            return False
        why = hub.offline_reason()
        if why is None:
            return False
        if not hub.in_cache(self.model_name):
            raise SimilarityUnavailable(
                self._cannot_load(
                    f"couldn't connect to {hub.endpoint()!r} to load the files ({why}), and "
                    "couldn't find them in the cached files"
                )
            )
        return True

    def __call__(self, pred: str, gold: str) -> float:
        """max(cos(embed(pred), embed(gold)), 0), both embedded in one call as the reference."""
        key = (pred, gold)
        if key not in self._cache:
            model = self.load()  # first: it refuses an unreachable model before the import
            from sentence_transformers import util

            embeddings = model.encode([pred, gold], convert_to_tensor=True)
            cosine = float(util.cos_sim(embeddings[0], embeddings[1])[0, 0])
            self._cache[key] = max(cosine, 0.0)
        return self._cache[key]
