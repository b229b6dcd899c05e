"""Runs in the store: rows, progress, tasks to do, and results recorded exactly once."""

from __future__ import annotations

import socket
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.common import chunked, dataset_row, rater_row, target_model_row
from w2c_tui.db.convert import dumps, loads, to_item
from w2c_tui.db.critictool_queries import critictool_samples, judged_predictions
from w2c_tui.db.run_claims import RunClaims
from w2c_tui.db.run_records import WRITE_WAIT_MS, RunRecords
from w2c_tui.db.run_results import RunResults
from w2c_tui.db.tables import (
    DatasetRow,
    ItemRow,
    RaterRow,
    ResponseRow,
    RunResultRow,
    RunRow,
    TargetModelRow,
)
from w2c_tui.db.writes import patiently, write_session
from w2c_tui.domain.errors import NotFoundError
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.runs import RunConfig, RunInfo, RunStatus, Task


def now() -> datetime:
    """UTC now."""
    return datetime.now(UTC)


class RunStore(RunRecords, RunResults, RunClaims):
    """Reads and writes runs (recording results: run_records; claiming runs: run_claims)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(
        self,
        config: RunConfig,
        *,
        fingerprint: str,
        describe: dict[str, Any],
        rater: RaterSpec | None,
        n_total: int,
        log_path: str | None,
    ) -> int:
        """A new pending run."""
        with Session(self.engine) as session, session.begin():
            ds = dataset_row(session, config.dataset)
            model = target_model_row(
                session, config.target_model or config.model, config.backend.value
            )
            rater_id = rater_row(session, rater).id if rater else None
            row = RunRow(
                kind=config.method.value,
                target_model_id=model.id,
                rater_id=rater_id,
                dataset_id=ds.id,
                fingerprint=fingerprint,
                n_total=n_total,
                config_json=dumps({"config": config.as_json(), "describe": describe}),
                status=RunStatus.PENDING.value,
                host=socket.gethostname(),
                log_path=log_path,
            )
            session.add(row)
            session.flush()
            assert row.id is not None
            return row.id

    def get(self, run_id: int) -> RunInfo:
        """One run (NotFoundError when there is none)."""
        with Session(self.engine) as session:
            row = session.get(RunRow, run_id)
            if row is None:
                raise NotFoundError(f"no run {run_id}")
            return self._info(session, row)

    def all(self) -> list[RunInfo]:
        """Every run, newest first."""
        with Session(self.engine) as session:
            rows = session.exec(select(RunRow).order_by(col(RunRow.id).desc())).all()
            return [self._info(session, r) for r in rows]

    @staticmethod
    def _info(session: Session, row: RunRow) -> RunInfo:
        assert row.id is not None
        stored = loads(row.config_json)
        rater = session.get(RaterRow, row.rater_id) if row.rater_id else None
        return RunInfo(
            id=row.id,
            config=RunConfig.from_json(stored["config"]),
            fingerprint=row.fingerprint,
            status=RunStatus(row.status),
            n_total=row.n_total,
            n_done=row.n_done,
            n_error=row.n_error,
            error=row.error,
            pid=row.pid,
            created_at=row.created_at,
            started_at=row.started_at,
            finished_at=row.finished_at,
            heartbeat_at=row.heartbeat_at,
            log_path=row.log_path,
            rater=f"{rater.kind}:{rater.name}" if rater else None,
            host=row.host,
            worker_started=row.worker_started,
        )

    def describe(self, run_id: int) -> dict[str, Any]:
        """What the executor said identifies the computation."""
        with Session(self.engine) as session:
            row = session.get(RunRow, run_id)
            if row is None:
                raise NotFoundError(f"no run {run_id}")
            described: dict[str, Any] = loads(row.config_json).get("describe", {})
            return described

    def update(self, run_id: int, **values: Any) -> None:
        """Set columns of a run (status given as RunStatus). The write lock is taken first and
        a busy database waited for (WRITE_WAIT_MS, then retried to the same deadline): a run's
        heartbeat and status never fail for a lock another process holds briefly."""

        def write() -> None:
            with write_session(self.engine, busy_ms=WRITE_WAIT_MS) as session, session.begin():
                row = session.get(RunRow, run_id)
                if row is None:
                    raise NotFoundError(f"no run {run_id}")
                for key, value in values.items():
                    setattr(row, key, value.value if isinstance(value, RunStatus) else value)
                session.add(row)

        patiently(write, deadline_s=WRITE_WAIT_MS / 1000)

    def status(self, run_id: int) -> RunStatus:
        """The run's current status (read fresh: another process may have changed it)."""
        with Session(self.engine) as session:
            value = session.exec(select(RunRow.status).where(col(RunRow.id) == run_id)).first()
            if value is None:
                raise NotFoundError(f"no run {run_id}")
            return RunStatus(value)

    def done(self, run_id: int) -> set[tuple[int, int]]:
        """(item id, sample index) of every task already recorded."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(RunResultRow.item_id, RunResultRow.sample_index).where(
                    col(RunResultRow.run_id) == run_id
                )
            ).all()
            return {(int(i), int(s)) for i, s in rows}

    def tasks(self, config: RunConfig, item_ids: Sequence[int]) -> list[Task]:
        """The run's tasks in item order: items × repeats (judges: × the model's responses;
        CriticTool judges: the samples, or the target model's predictions in the run's
        setting)."""
        with Session(self.engine) as session:
            ds = dataset_row(session, config.dataset)
            rows = {
                r.id: r
                for chunk in chunked(item_ids)
                for r in session.exec(select(ItemRow).where(col(ItemRow.id).in_(chunk))).all()
            }
            responses: dict[int, ResponseRow] = {}
            if config.target_model and config.method.value == "judge":
                model = session.exec(
                    select(TargetModelRow).where(col(TargetModelRow.name) == config.target_model)
                ).first()
                if model is None:
                    raise NotFoundError(f"no responses of model {config.target_model!r} to judge")
                for chunk in chunked(item_ids):  # an item's responses are in one chunk
                    for response in session.exec(
                        select(ResponseRow)
                        .where(
                            col(ResponseRow.target_model_id) == model.id,
                            col(ResponseRow.item_id).in_(chunk),
                        )
                        .order_by(col(ResponseRow.id))
                    ).all():
                        responses[response.item_id] = response  # the latest response counts
            method = config.method.value
            critic = (
                critictool_samples(session, item_ids)
                if method in ("critictool", "critictool_judge")
                else None
            )
            judged_critictool = (
                judged_predictions(
                    session, item_ids, config.target_model, config.critic_mode, config.critic_cot
                )
                if method == "critictool_judge" and config.target_model
                else None
            )
            tasks = []
            for item_id in item_ids:
                row = rows.get(item_id)
                if row is None:
                    continue
                item = to_item(row, ds.name)
                judged = responses.get(item_id)
                if config.method.value == "judge" and judged is None:
                    continue
                if critic is not None and item_id not in critic:
                    continue
                if judged_critictool is not None:
                    prediction = judged_critictool.get(item_id)
                    if prediction is None:
                        continue
                    tasks.append(
                        replace(
                            Task.of(item, 0, prediction.response_id, None),
                            critic=critic[item_id] if critic else None,
                            critictool_rounds=prediction.rounds,
                        )
                    )
                    continue
                for sample in range(config.repeats):
                    task = Task.of(
                        item, sample, judged.id if judged else None, judged.text if judged else None
                    )
                    tasks.append(replace(task, critic=critic[item_id]) if critic else task)
            return tasks

    def set_identity(
        self, run_id: int, fingerprint: str, describe: dict[str, Any], rater: RaterSpec | None
    ) -> None:
        """Record what the executor said identifies the computation, and the run's rater
        (waiting for a busy database as `update` does)."""

        def write() -> None:
            with write_session(self.engine, busy_ms=WRITE_WAIT_MS) as session, session.begin():
                row = session.get(RunRow, run_id)
                if row is None:
                    raise NotFoundError(f"no run {run_id}")
                stored = loads(row.config_json)
                stored["describe"] = describe
                row.config_json = dumps(stored)
                row.fingerprint = fingerprint
                if rater is not None:
                    row.rater_id = rater_row(session, rater).id
                session.add(row)

        patiently(write, deadline_s=WRITE_WAIT_MS / 1000)

    def dataset_name(self, dataset_id: int) -> str:
        """A dataset's name by id."""
        with Session(self.engine) as session:
            row = session.get(DatasetRow, dataset_id)
            if row is None:
                raise NotFoundError(f"no dataset {dataset_id}")
            return row.name
