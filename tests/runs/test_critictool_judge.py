"""`--method critictool_judge`: a run through the real openai client against the test server
(and one on a tiny local chat model) whose answers land as answers of the `critictool` schema
by the judge's rater, beside humans and the self-critique in the agreement engine; runs that
cannot start say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from critic_judge_data import ANSWER, DATASET, PREDICTIONS, Q
from fake_server import FakeOpenAI
from typer.testing import CliRunner

from w2c_tui.cli import app
from w2c_tui.domain.critictool_labels import CriticToolLabel, ErrorCategory
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.runs import Backend, Method, RunConfig, RunStartError, RunStatus
from w2c_tui.runs.critictool import judge
from w2c_tui.services import Services
from w2c_tui.services.critictool_agreement import CriticToolAgreementService


def scripted(tmp_path: Path) -> tuple[Path, list[str]]:
    """The predictions fixture with markers for the test server: sample 1 answers prose then
    a readable repair, sample 2 never answers readably, sample 3 says "no error"."""
    data = json.loads(PREDICTIONS.read_text(encoding="utf-8"))
    ids = list(data)
    prose = "[[reply:It looks wrong to me.]] [[repair:" + json.dumps(ANSWER) + "]]"
    never = "[[reply:no idea]] [[repair:still no idea]]"
    clean = {**ANSWER, "error": "no", "category": "none"}
    fine = "[[reply:" + json.dumps(clean) + "]]"
    for sample_id, marker in zip(ids[1:4], (prose, never, fine), strict=True):
        data[sample_id]["query_prompt"][1]["content"] += " " + marker
    path = tmp_path / "interal_base_data_wo_cot.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path, ids


def judge_config(server: FakeOpenAI, **overrides: object) -> RunConfig:
    values: dict[str, object] = {
        "method": Method.CRITICTOOL_JUDGE,
        "backend": Backend.OPENAI,
        "model": "fake-model",
        "dataset": "ct",
        "target_model": "tiny",
        "base_url": server.url,
        "concurrency": 3,
        "structured": False,
    }
    values.update(overrides)
    return RunConfig.of(**values)  # type: ignore[arg-type]


def test_a_judge_run_writes_labels_that_meet_the_humans(services: Services, tmp_path: Path) -> None:
    svc = services
    path, ids = scripted(tmp_path)
    svc.critictool.import_file(path, dataset="ct", target_model="tiny")
    units = svc.critictool_review.open("ct", "tiny").units
    assert len(units) == len(ids) == 21
    with FakeOpenAI(default_reply=json.dumps(ANSWER)) as server:
        run_id = svc.runs.create(judge_config(server))
        info = svc.runs.execute(run_id)
        bodies = [s.body for s in server.seen if s.path.endswith("/chat/completions")]
    assert info.status is RunStatus.DONE, info
    assert (info.n_total, info.n_done, info.n_error) == (21, 20, 1)
    results = {r.uuid: r for r in svc.runs.results(run_id)}
    unread = results[ids[2]]
    assert unread.status == "error" and "still no idea" in (unread.error or "")
    assert "could not be read" in (unread.error or "")
    assert (results[ids[1]].answers or {})["category"] == "parameters_value_error"
    exported = CliRunner().invoke(
        app, ["--db", svc.url, "verdicts", "export", "--run", str(run_id)]
    )
    assert exported.exit_code == 0, exported.output
    lines = {r["uuid"]: r for r in map(json.loads, exported.output.splitlines())}
    assert lines[ids[3]]["answers"]["category"] == "none" and "answers" not in lines[ids[2]]
    assert "--- repair turn ---" in (results[ids[1]].raw or "")
    assert results[ids[3]].answers == {
        "error": "no",
        "category": "none",
        "critique_right": "yes",
        "tool_right": "yes",
        "args_right": "no",
    }
    # every first turn asked the questions of a judged prediction and showed the prediction
    asked = [b["messages"][0]["content"] for b in bodies if b and len(b["messages"]) == 1]
    assert asked[0].endswith('{"error": "no"}')  # the start-up check's probe
    asked = asked[1:]
    assert len(asked) == 21
    for text in asked:
        assert "<AGENT_OUTPUT>" in text and "critique_right" in text
        assert "observed_policy" not in text  # internal samples have no policy
    repairs = [b["messages"][-1]["content"] for b in bodies if b and len(b["messages"]) == 3]
    assert len(repairs) == 2 and all("(not valid JSON)" in r for r in repairs)
    # the judge is a rater like any other: its labels are current rows on the prediction units
    ratings = [r for r in svc.critictool_review.ratings("ct") if r.rater.kind is RaterKind.JUDGE]
    assert len(ratings) == 20
    assert {(r.item_id, r.response_id) for r in ratings} <= {
        (u.item_id, u.response_id) for u in units
    }
    human = svc.critictool_review.rater("ann")
    for unit in units[:5]:
        svc.store.critictool_labels.set_label(
            human,
            unit.item_id,
            unit.response_id,
            CriticToolLabel(error=True, category=ErrorCategory.PARAMETERS_VALUE),
        )
    agreement = {a.label: a for a in CriticToolAgreementService(svc.store).compute("ct", "tiny")}
    category = agreement["category"]
    assert "judge:fake-model" in category.raters
    pair = {(p.a, p.b): p for p in category.pairs}[("ann", "judge:fake-model")]
    assert pair.n == 4  # ids[2] has no judge label: 5 human units, 4 shared
    assert pair.percent_agreement.value == 3 / 4  # ids[3]: the judge said none

    # a second run of the same judge supersedes its labels: one current row per unit
    with FakeOpenAI(default_reply=json.dumps({**ANSWER, "args_right": "yes"})) as server:
        again = svc.runs.execute(svc.runs.create(judge_config(server)))
    assert again.status is RunStatus.DONE
    ratings = [r for r in svc.critictool_review.ratings("ct") if r.rater.kind is RaterKind.JUDGE]
    assert len(ratings) == 20
    unit = units[0]
    judge_id = ratings[0].rater.id
    history = svc.store.critictool_labels.history(judge_id, unit.item_id, unit.response_id)
    assert [h.args_right for h in history] == [False, True]


def test_judge_runs_that_cannot_start_say_why(services: Services, tmp_path: Path) -> None:
    svc = services
    svc.critictool.import_file(PREDICTIONS, dataset="ct", target_model="tiny")
    svc.critictool.import_file(DATASET, dataset="plain")
    with FakeOpenAI() as server:
        with pytest.raises(RunStartError, match=r"give the target model \(--target-model\)"):
            svc.runs.create(judge_config(server, target_model=None))
        with pytest.raises(RunStartError, match="no predictions of 'other'"):
            svc.runs.create(judge_config(server, target_model="other"))
        with pytest.raises(RunStartError, match="--repeats must be 1"):
            svc.runs.create(judge_config(server, repeats=2))
        svc.imports.import_demo()
        with pytest.raises(RunStartError, match="'demo' is not one"):
            svc.runs.create(judge_config(server, dataset="demo"))
    # samples without predictions are judged alone: the blind questions only
    reply = '{"error": "yes", "category": "tool_select_error"}'
    with FakeOpenAI(default_reply=reply) as server:
        info = svc.runs.execute(
            svc.runs.create(judge_config(server, dataset="plain", target_model=None))
        )
        asked = [
            s.body["messages"][0]["content"] for s in server.seen if s.body and "messages" in s.body
        ]
    n = len(svc.critictool_review.open("plain").units)
    assert (info.status, info.n_done, info.n_error) == (RunStatus.DONE, n, 0)
    assert not any("<AGENT_OUTPUT>" in a or "critique_right" in a for a in asked[1:])
    ratings = [r for r in svc.critictool_review.ratings("plain") if r.rater.kind is RaterKind.JUDGE]
    assert len(ratings) == n and {r.response_id for r in ratings} == {None}
    assert {r.label.category for r in ratings} == {ErrorCategory.TOOL_SELECT}


def test_a_local_chat_model_judges_with_one_repair_turn(services: Services) -> None:
    """The tiny Qwen2 model (random weights) never writes the JSON object: every unit gets
    its first reply and one repair turn, then an error that quotes both; no label is
    invented."""
    from tiny_models import cpu_config, tiny_model_dir

    services.critictool.import_file(DATASET, dataset="plain")
    config = cpu_config(
        Method.CRITICTOOL_JUDGE,
        tiny_model_dir("qwen2"),
        "plain",
        max_tokens=4,
        batch_size=4,
        threads=1,
        limit=5,
    )
    info = services.runs.execute(services.runs.create(config))
    assert (info.status, info.n_total, info.n_done + info.n_error) == (RunStatus.DONE, 5, 5)
    for result in services.runs.results(info.id):
        if result.status == "error":
            error = result.error or ""
            assert "could not be read" in error and "repair turn" in error
        else:  # a random model that happens to write a full answer is read like any judge
            assert (
                judge.parse_reply(
                    (result.raw or "").split("\n--- repair turn ---\n")[-1], (Q.ERROR, Q.CATEGORY)
                ).label
                is not None
            )
    ratings = [
        r for r in services.critictool_review.ratings("plain") if r.rater.kind is RaterKind.JUDGE
    ]
    assert len(ratings) == info.n_done
    assert services.runs.describe(info.id)["judge_prompt_version"].startswith(
        "critictool-judge-v1@"
    )


def test_one_judge_model_under_two_prompts_is_two_columns(
    services: Services, tmp_path: Path
) -> None:
    svc = services
    svc.critictool.import_file(PREDICTIONS, dataset="ct", target_model="tiny")
    mine = tmp_path / "terse.txt"
    mine.write_text("{trajectory}\n{prediction}\n{questions}\nJSON: {answer_format}", "utf-8")
    other = {**ANSWER, "error": "no", "category": "none"}
    for prompt, reply in (("critictool-judge-v1", ANSWER), (str(mine), other)):
        with FakeOpenAI(default_reply=json.dumps(reply)) as server:
            config = judge_config(server, judge_prompt=prompt, limit=6)
            assert svc.runs.execute(svc.runs.create(config)).n_done == 6
    agreement = {a.label: a for a in CriticToolAgreementService(svc.store).compute("ct", "tiny")}
    columns = [r for r in agreement["detect"].raters if r.startswith("judge:fake-model")]
    assert len(columns) == 2
    assert any("(critictool-judge-v1@" in c for c in columns)
    assert any("(terse@" in c for c in columns)
    pair = next(p for p in agreement["detect"].pairs if {p.a, p.b} == set(columns))
    assert pair.n == 6 and pair.percent_agreement.value == 0.0
