"""Task results of a run written in batches: one transaction per batch, each task exactly once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from w2c_tui.db.common import chunked, rater_row, target_model_row
from w2c_tui.db.convert import dumps
from w2c_tui.db.tables import ResponseRow, RunResultRow, RunRow, VerdictRow
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.runs import RunConfig, TaskResult

VerdictKey = tuple[int, int | None, int | None]
"""(item, target model, response): the unit a current verdict of one rater is about."""


def record_results(
    engine: Engine,
    run_id: int,
    results: Sequence[TaskResult],
    config: RunConfig,
    rater: RaterSpec | None,
) -> int:
    """Store the outcomes with their checkpoint rows; how many were new.

    A batch is one transaction. When some task of it was recorded already (the unique run,
    item and sample checkpoint refuses it), the batch is written again one task at a time,
    so the others are kept and none is stored twice.
    """
    if not results:
        return 0
    try:
        _write(engine, run_id, results, config, rater)
        return len(results)
    except IntegrityError:
        if len(results) == 1:
            return 0
    return sum(record_results(engine, run_id, [r], config, rater) for r in results)


def _write(
    engine: Engine,
    run_id: int,
    results: Sequence[TaskResult],
    config: RunConfig,
    rater: RaterSpec | None,
) -> None:
    with Session(engine) as session, session.begin():
        run = session.get(RunRow, run_id)
        assert run is not None
        checkpoints = [
            RunResultRow(
                run_id=run_id,
                item_id=r.task.item_id,
                sample_index=r.task.sample_index,
                status="error" if r.error else "ok",
                error=r.error,
                retries=int(r.meta.get("retries", 0)),
            )
            for r in results
        ]
        session.add_all(checkpoints)
        session.flush()  # the unique (run, item, sample) rows: exactly once
        done = [r for r in results if not r.error]
        stored = [c for r, c in zip(results, checkpoints, strict=True) if not r.error]
        if config.method.value == "generate":
            for checkpoint, response_id in zip(
                stored, _responses(session, run_id, done, config), strict=True
            ):
                checkpoint.response_id = response_id
        elif done:
            assert rater is not None
            for checkpoint, verdict_id in zip(
                stored, _verdicts(session, run_id, done, config, rater), strict=True
            ):
                checkpoint.verdict_id = verdict_id
        run.n_done += len(done)
        run.n_error += len(results) - len(done)
        run.heartbeat_at = datetime.now(UTC)
        session.add(run)


def _responses(
    session: Session, run_id: int, done: Sequence[TaskResult], config: RunConfig
) -> list[int | None]:
    """Insert the generated responses; their ids in the same order."""
    if not done:
        return []
    model = target_model_row(session, config.target_model or config.model, config.backend.value)
    rows = [
        ResponseRow(
            item_id=r.task.item_id,
            target_model_id=model.id or 0,
            text=r.response_text,
            sample_index=r.task.sample_index,
            run_id=run_id,
            source=f"run {run_id}",
            meta_json=dumps(r.meta),
        )
        for r in done
    ]
    session.add_all(rows)
    session.flush()
    return [row.id for row in rows]


def _verdicts(
    session: Session,
    run_id: int,
    done: Sequence[TaskResult],
    config: RunConfig,
    rater: RaterSpec,
) -> list[int | None]:
    """Insert the verdicts (sample 0 supersedes the rater's current one); their ids in order."""
    rater_id = rater_row(session, rater).id or 0
    own_model = None
    judged = {r.task.response_id for r in done if r.task.response_id is not None}
    response_models: dict[int, int] = {}
    for chunk in chunked(sorted(judged)):
        for response_id, model_id in session.exec(
            select(ResponseRow.id, ResponseRow.target_model_id).where(
                col(ResponseRow.id).in_(chunk)
            )
        ).all():
            response_models[int(response_id or 0)] = model_id
    if any(r.task.response_id is None for r in done):
        own_model = target_model_row(
            session, config.target_model or config.model, config.backend.value
        ).id

    def key(result: TaskResult) -> VerdictKey:
        response_id = result.task.response_id
        model = own_model if response_id is None else response_models.get(response_id)
        return (result.task.item_id, model, response_id)

    # Within one run a unit has one task of sample 0 (items are unique, a judge reads one
    # response per item), so a batch never supersedes its own verdicts.
    current = _current(session, rater_id, {key(r) for r in done if r.task.sample_index == 0})
    rows = []
    for r in done:
        task = r.task
        previous = current.get(key(r)) if task.sample_index == 0 else None
        if previous is not None:
            previous.is_current = False
            session.add(previous)
        scores = dict(r.scores)
        if task.sample_index:
            scores["sample_index"] = task.sample_index
        rows.append(
            VerdictRow(
                rater_id=rater_id,
                item_id=task.item_id,
                target_model_id=key(r)[1],
                response_id=task.response_id,
                label=r.label.value if isinstance(r.label, Label) else None,
                status=(r.status or VerdictStatus.OK).value,
                raw=r.raw,
                scores_json=dumps(scores),
                run_id=run_id,
                source=f"run {run_id}",
                supersedes_id=previous.id if previous else None,
                is_current=task.sample_index == 0,
            )
        )
    session.add_all(rows)
    session.flush()
    return [row.id for row in rows]


def _current(
    session: Session, rater_id: int, keys: set[VerdictKey]
) -> dict[VerdictKey, VerdictRow]:
    """The rater's current verdicts on these units (a unit with no model has none)."""
    found: dict[VerdictKey, VerdictRow] = {}
    items = sorted({item for item, model, _ in keys if model is not None})
    for chunk in chunked(items):
        for row in session.exec(
            select(VerdictRow)
            .where(
                col(VerdictRow.rater_id) == rater_id,
                col(VerdictRow.is_current).is_(True),
                col(VerdictRow.item_id).in_(chunk),
            )
            .order_by(col(VerdictRow.id))
        ).all():
            unit = (row.item_id, row.target_model_id, row.response_id)
            if unit in keys:
                found.setdefault(unit, row)
    return found
