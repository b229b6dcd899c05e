"""MCQ-vs-generation consistency: on responses an MCQ reading is the model's own choice, so it
gets a consistency row (agreement, κ, confusion per target model), never a stand-in decision;
in item QA an MCQ scorer reads what the humans read and keeps its decision."""

from __future__ import annotations

from collections import Counter

import pytest
from sklearn.metrics import cohen_kappa_score

from w2c_tui.domain.labels import LABELS, Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle, RaterSpec, VerdictRecord
from w2c_tui.domain.review import ItemFilter, ReviewMode, UnitKind
from w2c_tui.services import Services

LOGPROB = "logprob:demo-logprob"
INDEX = "mcq-index:idx"
DECISIONS = ("can stand in", "cannot stand in", "undecided", "not defined")


def _import(svc: Services, spec: RaterSpec, rows: list[tuple[str, str | None, Label]]) -> None:
    svc.store.imports.apply(
        ImportBundle(
            path=f"{spec.name}.jsonl",
            kind="official_judge",
            sha256=str(len(spec.name)) * 64,
            verdicts=tuple(
                VerdictRecord(
                    uuid=uuid,
                    rater=spec,
                    target_model=model,
                    label=label,
                    status=VerdictStatus.OK,
                    line=n,
                )
                for n, (uuid, model, label) in enumerate(rows, 1)
            ),
        ),
        "demo",
    )


def _label_responses(svc: Services) -> dict[tuple[str, str], tuple[Label | None, Label]]:
    """ann and ben label every response of the first 16 items (two models each): mostly the
    judge's label, another one now and then, and they differ on every 7th unit (a tie, left
    out of the reference). Returns (uuid, model) → (human reference or None, MCQ choice)."""
    out = {}
    k = 0
    for row in svc.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 16):
        detail = svc.review.detail(row.id, None)
        for panel in detail.models:
            [mcq] = [v for v in panel.model_verdicts if v.rater.kind is RaterKind.MCQ_LOGPROB]
            for response in panel.responses:
                assert response.id is not None and mcq.label is not None
                judge = next(v.label for v in response.verdicts if v.rater.kind is RaterKind.JUDGE)
                label = judge or Label.DIRECT
                if k % 3 == 0:
                    label = LABELS[(label.option + k) % 4]
                other = LABELS[(label.option + 1) % 4] if k % 7 == 6 else label
                svc.review.label_response("ann", row.id, response.id, label)
                svc.review.label_response("ben", row.id, response.id, other)
                ref = label if other is label else None
                out[(detail.item.uuid, panel.target_model)] = (ref, mcq.label)
                k += 1
    return out


def test_an_mcq_scorer_on_responses_is_consistency_not_a_rater(demo: Services) -> None:
    pairs = _label_responses(demo)
    index_choices = [  # an MCQ-index scorer of one model: it moves to consistency too
        (uuid, model, LABELS[n % 4])
        for n, (uuid, model) in enumerate(pairs)
        if model == "acme-7b-instruct"
    ]
    _import(demo, RaterSpec(RaterKind.MCQ_INDEX, "idx"), index_choices)
    doc = demo.agreement.judges("demo", bootstrap=200, seed=3)
    decided = {j.key: j for j in doc.judges}
    assert set(decided) == {"judge:demo-judge"}  # no MCQ reading gets a stand-in decision
    judge = decided["judge:demo-judge"]
    assert judge.stats is not None and judge.stand_in.decision in DECISIONS
    assert doc.mcq_consistency is not None
    rows = {(r.scorer, r.target_model): r for r in doc.mcq_consistency.rows}
    models = sorted({model for _, model in pairs})
    assert set(rows) == {
        *((LOGPROB, m) for m in models),
        *((f"{LOGPROB}:norm", m) for m in models),
        (INDEX, "acme-7b-instruct"),
    }
    for model in models:
        both = [(ref, mcq) for (_, m), (ref, mcq) in pairs.items() if m == model and ref]
        row = rows[(LOGPROB, model)]
        assert row.n == len(both) >= 5 and row.n_mcq == 30 and row.n_invalid == 0
        human = [ref.value for ref, _ in both]
        choice = [mcq.value for _, mcq in both]
        assert row.agreement.value == pytest.approx(
            sum(a == b for a, b in zip(human, choice, strict=True)) / len(both), abs=1e-12
        )
        assert row.cohen_kappa.value == pytest.approx(
            cohen_kappa_score(human, choice, labels=[x.value for x in LABELS]), abs=1e-12
        )
        for value in (row.agreement, row.cohen_kappa):
            assert value.ci is not None and value.ci[0] <= value.value <= value.ci[1]
        counts = Counter((ref.option, mcq.option) for ref, mcq in both)
        assert row.confusion == tuple(tuple(counts[(g, c)] for c in range(4)) for g in range(4))
    written = doc.as_json()
    assert list(written)[:5] == ["question", "meta", "humans", "judges", "mcq_consistency"]
    assert all(j["key"] == "judge:demo-judge" for j in written["judges"])  # type: ignore[union-attr]


def test_in_item_qa_an_mcq_scorer_keeps_its_decision(demo: Services) -> None:
    rows = demo.review.window("demo", ItemFilter(), ReviewMode.ITEM_QA, None, 0, 12)
    picks = []
    for n, row in enumerate(rows):
        detail = demo.review.detail(row.id, None)
        gold = detail.item.gold or Label.DIRECT
        demo.review.label_item("ann", row.id, gold)
        demo.review.label_item("ben", row.id, gold if n % 4 else LABELS[(gold.option + 2) % 4])
        picks.append((detail.item.uuid, None, gold if n % 3 else Label.TOOL_CALL))
    _import(demo, RaterSpec(RaterKind.MCQ_LOGPROB, "qa-logprob"), picks)
    dash = demo.agreement.dashboard("demo", kind=UnitKind.ITEM, bootstrap=100)
    decided = {r.key: r for r in dash.automated}
    assert "logprob:qa-logprob" in decided
    row = decided["logprob:qa-logprob"]
    assert row.stats is not None and row.stand_in.decision in DECISIONS
    assert dash.mcq_consistency is None and "mcq_consistency" not in dash.to_json()
