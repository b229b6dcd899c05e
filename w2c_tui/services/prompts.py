"""What the model saw: every item of a dataset rendered under a template, or one item."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.prompts import PromptRecord
from w2c_tui.domain.runs import Task


class PromptService:
    """Renders items under the official families, `chat` (with a tokenizer) or a template file."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def _tokenizer(self, template: str, tokenizer: str | None) -> Any | None:
        from w2c_tui.runs.prompts import CHAT, TemplateError, check_template

        if template == CHAT:
            if not tokenizer:
                raise W2CError(
                    "the chat template is the model's own: name its tokenizer with --tokenizer "
                    "(a local model folder)"
                )
            from w2c_tui.runs.local.loading import load_tokenizer

            return load_tokenizer(tokenizer)
        try:
            check_template(template)
        except TemplateError as error:
            raise W2CError(str(error)) from error
        return None

    def export(
        self, template: str, dataset: str, tokenizer: str | None = None
    ) -> Iterator[PromptRecord]:
        """Every item of `dataset` in file order under `template`."""
        from w2c_tui.runs.prompts import record

        tok = self._tokenizer(template, tokenizer)
        for item in self._store.items.in_order(dataset):
            yield self._record(record, template, Task.of(item), tok)

    def show(
        self, uuid: str, template: str, dataset: str, tokenizer: str | None = None
    ) -> PromptRecord:
        """One item (uuid or a unique prefix) under `template`."""
        from w2c_tui.runs.prompts import record

        tok = self._tokenizer(template, tokenizer)
        return self._record(record, template, Task.of(self._store.items.find(dataset, uuid)), tok)

    @staticmethod
    def _record(build: Any, template: str, task: Task, tok: Any | None) -> PromptRecord:
        try:
            result: PromptRecord = build(template, task, tok)
        except (ValueError, KeyError, TypeError) as error:  # a template or tool-call it cannot take
            raise W2CError(f"cannot render item {task.uuid} with {template}: {error}") from error
        return result
