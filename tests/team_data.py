"""A small dataset built in code for the team-workflow tests: names that must stay hidden."""

from __future__ import annotations

import json

from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import (
    ImportBundle,
    ItemRecord,
    RaterSpec,
    ResponseRecord,
    VerdictRecord,
)
from w2c_tui.services import Services

MODELS = ("model-alpha-SECRET", "model-beta-SECRET")
JUDGE = RaterSpec(RaterKind.JUDGE, "judge-gpt")
SCORER = RaterSpec(RaterKind.MCQ_LOGPROB, "scorer-lp")
TOOL = json.dumps({"name": "get_weather", "parameters": {"city": {"type": "string"}}})


def _answers(n: int) -> tuple[tuple[str, str], ...]:
    return (
        ("direct", f"It is sunny in town {n}."),
        ("tool_call", json.dumps({"name": "get_weather", "arguments": {"city": f"T{n}"}})),
        ("request_for_info", "Which city do you mean?"),
        ("cannot_answer", "I cannot check the weather."),
    )


def secret_bundle(n_items: int = 3) -> ImportBundle:
    """Items with gold request_for_info; per item two responses (one per model); the judge reads
    response 1 as tool_call and response 2 as INVALID with a unique raw text; a log-prob
    scorer gives each model item-level scores."""
    items, responses, verdicts = [], [], []
    for n in range(n_items):
        uuid = f"item-{n:03d}"
        items.append(
            ItemRecord(
                uuid=uuid,
                question=f"What is the weather like in town {n}?",
                tools=(TOOL,),
                answers=_answers(n),
                gold=Label.REQUEST_FOR_INFO,
                line=n + 1,
            )
        )
        for index, model in enumerate(MODELS):
            responses.append(
                ResponseRecord(uuid=uuid, target_model=model, text=f"reply {index} to {n}", line=1)
            )
            verdicts.append(
                VerdictRecord(
                    uuid=uuid,
                    rater=JUDGE,
                    target_model=model,
                    label=Label.TOOL_CALL if index == 0 else None,
                    status=VerdictStatus.OK if index == 0 else VerdictStatus.INVALID,
                    raw=f"JUDGE-RAW-{model}-{n}",
                    line=1,
                    response_index=len(responses) - 1,
                )
            )
            verdicts.append(
                VerdictRecord(
                    uuid=uuid,
                    rater=SCORER,
                    target_model=model,
                    label=Label.CANNOT_ANSWER,
                    status=VerdictStatus.OK,
                    line=1,
                    scores={"loglikelihoods": [-9.0, -8.0, -7.0, -1.0]},
                )
            )
    return ImportBundle(
        path="secret.jsonl",
        kind="test",
        sha256="0" * 64,
        items=tuple(items),
        responses=tuple(responses),
        verdicts=tuple(verdicts),
    )


def load_secret(services: Services, n_items: int = 3, dataset: str = "secret") -> str:
    """Store the secret dataset; returns its name."""
    services.store.imports.apply(secret_bundle(n_items), dataset)
    return dataset
