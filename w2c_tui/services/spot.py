"""Spot checks: one model's answer to one item now, judged, and (local models) its log-prob
choice. A session keeps what it loaded (local models, checked API endpoints) until it is closed,
so a dialog loads each model once however many items and checks it runs. Nothing is stored."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from typing import Any

from w2c_tui.db.store import Store
from w2c_tui.domain.runs import (
    Backend,
    Method,
    RunConfig,
    SpotCheck,
    Task,
    TaskResult,
)
from w2c_tui.runs import backends


class SpotSession:
    """Executors (and the local models behind them) kept for the length of a dialog."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._executors: dict[str, Any] = {}
        self._models: Any | None = None

    def _models_cache(self) -> Any:
        if self._models is None:
            from w2c_tui.runs.local.loading import ModelCache

            self._models = ModelCache()
        return self._models

    @property
    def loads(self) -> int:
        """Local models loaded by this session so far."""
        return int(self._models.loads) if self._models is not None else 0

    def _executor(self, config: RunConfig) -> Any:
        """A checked executor for `config`, made once per session."""
        key = json.dumps(config.as_json(), sort_keys=True, default=str)
        with self._lock:
            if key not in self._executors:
                models = self._models_cache() if config.backend is Backend.TRANSFORMERS else None
                executor = backends.make_executor(config, models)
                executor.check()
                self._executors[key] = executor
            return self._executors[key]

    def check(self, item_id: int, model: RunConfig, judge: RunConfig | None) -> SpotCheck:
        """Ask `model` for its response to the item, have `judge` read it, and (local models)
        score the four answers by log-probability."""
        task = Task.of(self._store.items.detail(item_id, None).item)
        errors: list[str] = []

        def one(config: RunConfig, the_task: Task) -> TaskResult | None:
            try:
                backends.backend_for(config).check_secrets(config)
                out: list[TaskResult] = []
                self._executor(config).run([the_task], out.append, lambda: False)
            except Exception as error:  # shown to the user beside the other two results
                errors.append(f"{config.method.value}: {error}")
                return None
            if out and out[0].error:
                errors.append(f"{config.method.value}: {out[0].error}")
            return out[0] if out else None

        generated = one(replace(model, method=Method.GENERATE), task)
        text = generated.response_text if generated else None
        verdict = None
        if judge is not None and text is not None:
            verdict = one(replace(judge, method=Method.JUDGE), replace(task, response_text=text))
        mcq = None
        if model.backend is Backend.TRANSFORMERS:
            mcq = one(replace(model, method=Method.MCQ_LOGPROB), task)
        return SpotCheck(
            model=model.model, response=text, judge=verdict, mcq=mcq, errors=tuple(errors)
        )

    def close(self) -> None:
        """Let go of every executor and model."""
        with self._lock:
            self._executors.clear()
            if self._models is not None:
                self._models.clear()
