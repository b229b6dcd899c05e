"""Numbers on nothing: a subset of fewer than MIN_UNITS units shows no κ, and a rater whose
outputs are all invalid says so."""

from __future__ import annotations

from w2c_tui.domain.dashboard import MIN_UNITS, SliceBy
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.records import ImportBundle, RaterSpec, VerdictRecord
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services

BROKEN = "judge:broken-judge"


def _three_humans_on_four_responses(svc: Services) -> list[tuple[str, str]]:
    """ann, ben and cat label 4 responses: unanimous on 3, split 2–1 on the third one.
    Returns each labelled unit's (uuid, target model)."""
    done = []
    for row in svc.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 2):
        for response in svc.review.detail(row.id, None).responses:
            assert response.id is not None
            k = len(done)
            if k == 4:
                break
            for name in ("ann", "ben", "cat"):
                label = Label.DIRECT if k == 2 and name == "cat" else Label.TOOL_CALL
                svc.review.label_response(name, row.id, response.id, label)
            done.append((svc.review.detail(row.id, None).item.uuid, response.target_model))
    assert len(done) == 4
    return done


def _broken_judge(svc: Services, units: list[tuple[str, str]]) -> None:
    """A judge whose every output (one per labelled unit) could not be parsed."""
    spec = RaterSpec(RaterKind.JUDGE, "broken-judge")
    svc.store.imports.apply(
        ImportBundle(
            path="broken.jsonl",
            kind="official_judge",
            sha256="4" * 64,
            verdicts=tuple(
                VerdictRecord(
                    uuid=uuid,
                    rater=spec,
                    target_model=model,
                    label=None,
                    status=VerdictStatus.INVALID,
                    raw="I think it is… a tool?",
                    line=n,
                )
                for n, (uuid, model) in enumerate(units, 1)
            ),
        ),
        "demo",
    )


def test_subsets_below_the_minimum_show_no_kappa(demo: Services) -> None:
    _three_humans_on_four_responses(demo)
    dash = demo.agreement.dashboard("demo", bootstrap=50, by=SliceBy.TOOLS)
    judge = next(r for r in dash.automated if r.key == "judge:demo-judge")
    assert judge.stats is not None and judge.n == 4
    strat = judge.stats.stratified
    assert (strat.unanimous.value, strat.unanimous.n) == (None, 3)
    assert strat.unanimous.reason == "too few units (n=3)"
    assert (strat.split.value, strat.split.reason) == (None, "too few units (n=1)")
    written = judge.to_json()["stratified"]
    assert written["unanimous"]["value"] is None  # type: ignore[index]
    assert written["unanimous"]["reason"] == "too few units (n=3)"  # type: ignore[index]
    assert dash.slices is not None
    shown = [
        row.cohen_kappa
        for part in dash.slices.slices
        for row in part.rows
        if row.rater == judge.key and row.n_consensus
    ]
    assert shown and all(0 < k.n < MIN_UNITS for k in shown)
    assert all(k.value is None and k.reason == f"too few units (n={k.n})" for k in shown)


def test_a_rater_whose_outputs_are_all_invalid_says_so(demo: Services) -> None:
    _broken_judge(demo, _three_humans_on_four_responses(demo))
    dash = demo.agreement.dashboard("demo", bootstrap=0)
    row = next(r for r in dash.automated if r.key == BROKEN)
    assert row.invalid_rate == 1.0 and row.stats is None
    assert row.reason == "not defined: all 4 outputs are invalid"
    assert row.stand_in.decision == "not defined"
    assert row.stand_in.text == f"{BROKEN}: not defined — all 4 outputs are invalid"
    assert dash.drilldown[BROKEN].reason == "not defined: all 4 outputs are invalid"
    strict = demo.agreement.dashboard("demo", bootstrap=0, invalid_mode="wrong")
    counted = next(r for r in strict.automated if r.key == BROKEN)
    assert counted.stats is not None and counted.n == 4  # invalid is a category there
