"""Two prompt versions of one judge on the demo, with a human reference on every response
(tests of `w2c judge compare` and of the judge lab screen)."""

from __future__ import annotations

from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle, RaterSpec, VerdictRecord
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services

V1, V2 = "when2call-judge-v1@aaaaaaaaaaaa", "when2call-judge-v2@bbbbbbbbbbbb"


def setup(svc: Services) -> dict[tuple[str, str], Label]:
    """Alice labels every demo response with gold; two prompt versions of `gpt-j` read them:
    v1 right on all, v2 wrong (tool_call) on every request_for_info response."""
    truth: dict[tuple[str, str], Label] = {}
    rows = svc.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30)
    for row in rows:
        detail = svc.review.detail(row.id, None)
        for response in detail.responses:
            assert response.id is not None and detail.item.gold is not None
            svc.review.label_response("alice", row.id, response.id, detail.item.gold)
            truth[(detail.item.uuid, response.target_model)] = detail.item.gold
    for n, (version, wrong) in enumerate(((V1, False), (V2, True))):
        spec = RaterSpec(RaterKind.JUDGE, "gpt-j", {"prompt": version, "backend": "openai"})
        verdicts = tuple(
            VerdictRecord(
                uuid=uuid,
                rater=spec,
                target_model=model,
                label=Label.TOOL_CALL if wrong and gold is Label.REQUEST_FOR_INFO else gold,
                status=VerdictStatus.OK,
                raw=None,
                line=i,
            )
            for i, ((uuid, model), gold) in enumerate(truth.items(), 1)
        )
        bundle = ImportBundle(
            path=f"{n}.jsonl", kind="official_judge", sha256=str(n) * 64, verdicts=verdicts
        )
        svc.store.imports.apply(bundle, "demo")
    return truth
