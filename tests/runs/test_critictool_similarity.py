"""The similarity: the reference's clipped cosine, loaded lazily, never from a hub by accident."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from tiny_similarity import tiny_similarity_dir

from w2c_tui.runs.critictool.similarity import SentenceSimilarity, SimilarityUnavailable


def test_negative_cosines_are_clipped_at_zero() -> None:
    from sentence_transformers import SentenceTransformer, util

    pred, gold = "Use the city key.", "Call the weather tool with the city."
    model = SentenceTransformer(str(tiny_similarity_dir()), device="cpu")
    embeddings = model.encode([pred, gold], convert_to_tensor=True)
    assert float(util.cos_sim(embeddings[0], embeddings[1])[0, 0]) < 0
    similarity = SentenceSimilarity(tiny_similarity_dir(), device="cpu")
    assert similarity(pred, gold) == 0.0
    assert 0 < similarity("hello world", "hello world!") <= 1 + 1e-6


def test_an_absent_path_is_refused_without_a_download(tmp_path: Path) -> None:
    similarity = SentenceSimilarity(tmp_path / "no-model")
    with pytest.raises(SimilarityUnavailable, match="no similarity model at"):
        similarity("a", "b")


def test_without_sentence_transformers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(SimilarityUnavailable, match=r"w2c-tui\[similarity\]"):
        SentenceSimilarity(tiny_similarity_dir()).load()


def test_nothing_heavy_is_imported_with_the_critictool_modules() -> None:
    modules = ["torch", "sentence_transformers", "numpy", "transformers", "openai"]
    code = (
        "import sys\n"
        "import w2c_tui.io.importers.critictool, w2c_tui.runs.critictool.protocol\n"
        "import w2c_tui.runs.critictool.metrics_external, w2c_tui.runs.critictool.summary\n"
        f"print([m for m in {modules!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
