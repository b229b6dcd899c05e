"""Sentence-embedding similarity for the CriticTool metrics (sentence-transformers, lazily).

The reference embeds the two strings in one `encode` call, takes their cosine similarity and
clips it at 0; so does `SentenceSimilarity`, so the numbers are the reference's for the same
model. sentence-transformers is the optional extra `similarity`; nothing heavy is imported
until the first score.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

DEFAULT_MODEL = "all-mpnet-base-v2"
"""The reference's model (a sentence-transformers name; offline, pass a local folder)."""


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
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as error:
                raise SimilarityUnavailable(
                    "the CriticTool metrics need sentence-transformers: "
                    "pip install 'w2c-tui[similarity]'"
                ) from error
            try:
                self._model = SentenceTransformer(self.model_name, device=self.device)
            except (OSError, ValueError) as error:
                raise SimilarityUnavailable(
                    f"cannot load the similarity model {self.model_name!r}: {error}"
                ) from error
        return self._model

    def _check_path(self) -> None:
        """A name written as a path (absolute, ./, ../, ~) must exist: otherwise the library
        would take it for a hub name and try to download it."""
        name = self.model_name
        if name.startswith(("/", "./", "../", "~")) and not Path(name).expanduser().exists():
            raise SimilarityUnavailable(f"no similarity model at {name}")

    def __call__(self, pred: str, gold: str) -> float:
        """max(cos(embed(pred), embed(gold)), 0), both embedded in one call as the reference."""
        key = (pred, gold)
        if key not in self._cache:
            from sentence_transformers import util

            embeddings = self.load().encode([pred, gold], convert_to_tensor=True)
            cosine = float(util.cos_sim(embeddings[0], embeddings[1])[0, 0])
            self._cache[key] = max(cosine, 0.0)
        return self._cache[key]
