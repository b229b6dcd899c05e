"""Recording run results: each task's outcome and its checkpoint row, exactly once, in batched
transactions (one commit per batch: the writer thread of a run sends whatever has arrived)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from w2c_tui.db.common import rater_row, target_model_row
from w2c_tui.db.convert import dumps
from w2c_tui.db.critictool_labels import critictool_judge_records
from w2c_tui.db.critictool_runs import critictool_records
from w2c_tui.db.tables import LabelRow, ResponseRow, RunResultRow, RunRow, utcnow
from w2c_tui.db.when2call_labels import QUESTION, schema_for, when2call
from w2c_tui.db.writes import patiently, write_session
from w2c_tui.domain.labels import Label, VerdictStatus
from w2c_tui.domain.records import RaterSpec
from w2c_tui.domain.runs import RunConfig, TaskResult

WRITE_WAIT_MS = 30_000
"""How long a batch waits for the database's write lock (annotators hold it for milliseconds)."""


@dataclass
class _Ids:
    """The run's rater and target model ids, looked up once per batch."""

    config: RunConfig
    spec: RaterSpec | None
    _rater: int | None = None
    _model: int | None = None

    def rater(self, session: Session) -> int:
        if self._rater is None:
            assert self.spec is not None, "a verdict method needs a rater"
            self._rater = rater_row(session, self.spec).id
        assert self._rater is not None
        return self._rater

    def model(self, session: Session) -> int | None:
        if self._model is None:
            config = self.config
            row = target_model_row(
                session, config.target_model or config.model, config.backend.value
            )
            self._model = row.id
        return self._model


class RunRecords:
    """The recording half of RunStore."""

    engine: Engine

    def record(
        self, run_id: int, result: TaskResult, config: RunConfig, rater: RaterSpec | None
    ) -> bool:
        """Store one task's outcome with its checkpoint row; False when it was already there."""
        return self.record_many(run_id, [result], config, rater) == 1

    def record_many(
        self,
        run_id: int,
        results: Sequence[TaskResult],
        config: RunConfig,
        rater: RaterSpec | None,
    ) -> int:
        """Store a batch in one transaction; how many were new. A task already recorded (by an
        earlier batch, or twice in this one) is skipped: every task is stored exactly once."""
        if not results:
            return 0

        def batch(some: Sequence[TaskResult]) -> int:  # a busy database is waited for
            return patiently(
                lambda: self._batch(run_id, some, config, rater), deadline_s=WRITE_WAIT_MS / 1000
            )

        try:
            return batch(results)
        except IntegrityError:  # recorded meanwhile by another writer: one at a time
            stored = 0
            for result in results:
                try:
                    stored += batch([result])
                except IntegrityError:
                    continue
            return stored

    def _batch(
        self,
        run_id: int,
        results: Sequence[TaskResult],
        config: RunConfig,
        rater: RaterSpec | None,
    ) -> int:
        """One transaction of bulk statements: the new responses or verdicts (superseding the
        current verdicts of sample 0), their checkpoint rows, the run's counters."""
        ids = _Ids(config, rater)
        # the write lock first (BEGIN IMMEDIATE on SQLite), waiting for annotators' short
        # transactions: a deferred transaction that read first would fail at once instead
        with write_session(self.engine, busy_ms=WRITE_WAIT_MS) as session, session.begin():
            fresh = self._fresh(session, run_id, results)
            ok = [r for r in fresh if not r.error]
            links: dict[int, tuple[int | None, int | None]] = {}
            if ok and config.method.value == "critictool":
                made = critictool_records(session, run_id, ok, ids.model(session))
                links = {id(r): (made[i], None) for i, r in enumerate(ok)}
            elif ok and config.method.value == "critictool_judge":
                critictool_judge_records(session, run_id, ok, ids.rater(session))
                links = {id(r): (r.task.response_id, None) for r in ok}
            elif ok and config.method.value == "generate":
                made = self._responses(session, run_id, ok, ids.model(session))
                links = {id(r): (made[i], None) for i, r in enumerate(ok)}
            elif ok:
                made = self._verdicts(session, run_id, ok, ids)
                links = {id(r): (None, made[i]) for i, r in enumerate(ok)}
            if fresh:
                session.execute(
                    insert(RunResultRow),
                    [
                        {
                            "run_id": run_id,
                            "item_id": r.task.item_id,
                            "sample_index": r.task.sample_index,
                            "status": "error" if r.error else "ok",
                            "error": r.error,
                            "retries": int(r.meta.get("retries", 0)),
                            "response_id": links.get(id(r), (None, None))[0],
                            "label_id": links.get(id(r), (None, None))[1],
                            "created_at": utcnow(),
                        }
                        for r in fresh
                    ],
                )
            session.execute(
                update(RunRow)
                .where(col(RunRow.id) == run_id)
                .values(
                    n_done=RunRow.n_done + len(ok),
                    n_error=RunRow.n_error + len(fresh) - len(ok),
                    heartbeat_at=utcnow(),
                )
            )
            return len(fresh)

    @staticmethod
    def _fresh(session: Session, run_id: int, results: Sequence[TaskResult]) -> list[TaskResult]:
        """The results whose (item, sample) is not recorded yet, each once."""
        items = sorted({r.task.item_id for r in results})
        seen = {
            (int(i), int(s))
            for i, s in session.exec(
                select(RunResultRow.item_id, RunResultRow.sample_index).where(
                    col(RunResultRow.run_id) == run_id, col(RunResultRow.item_id).in_(items)
                )
            ).all()
        }
        fresh = []
        for result in results:
            key = (result.task.item_id, result.task.sample_index)
            if key not in seen:
                seen.add(key)
                fresh.append(result)
        return fresh

    @staticmethod
    def _responses(
        session: Session, run_id: int, results: Sequence[TaskResult], model_id: int | None
    ) -> list[int]:
        """Insert one response per result; their ids in order."""
        rows = [
            {
                "item_id": r.task.item_id,
                "target_model_id": model_id or 0,
                "text": r.response_text,
                "sample_index": r.task.sample_index,
                "run_id": run_id,
                "source": f"run {run_id}",
                "meta_json": dumps(r.meta),
                "created_at": utcnow(),
            }
            for r in results
        ]
        made = session.execute(
            insert(ResponseRow).returning(col(ResponseRow.id), sort_by_parameter_order=True),
            rows,
        )
        return [int(i) for i in made.scalars().all()]

    @staticmethod
    def _verdicts(
        session: Session, run_id: int, results: Sequence[TaskResult], ids: _Ids
    ) -> list[int]:
        """Insert one When2Call label per result (sample 0 supersedes the rater's current one
        on the same unit); their ids in order."""
        rater_id = ids.rater(session)
        judged = [r.task.response_id for r in results if r.task.response_id is not None]
        owner: dict[int, int] = {}
        if judged:
            owner = {
                int(i): int(m)
                for i, m in session.exec(
                    select(ResponseRow.id, ResponseRow.target_model_id).where(
                        col(ResponseRow.id).in_(sorted(set(judged)))
                    )
                ).all()
                if i is not None
            }
        model_id = ids.model(session) if len(judged) < len(results) else None

        def unit(r: TaskResult) -> tuple[int, int | None, int | None]:
            response = r.task.response_id
            model = owner.get(response) if response is not None else model_id
            return (r.task.item_id, model, response)

        current: dict[tuple[int, int | None, int | None], int] = {}
        firsts = [r for r in results if r.task.sample_index == 0]
        if firsts:
            for vid, item, model, response in session.exec(
                select(
                    LabelRow.id,
                    LabelRow.item_id,
                    LabelRow.target_model_id,
                    LabelRow.response_id,
                ).where(
                    when2call(),
                    col(LabelRow.rater_id) == rater_id,
                    col(LabelRow.is_current).is_(True),
                    col(LabelRow.item_id).in_(sorted({r.task.item_id for r in firsts})),
                )
            ).all():
                current[(int(item), model, response)] = int(vid or 0)
            wanted = {unit(r) for r in firsts}
            old = [vid for key, vid in current.items() if key in wanted]
            if old:
                session.execute(
                    update(LabelRow).where(col(LabelRow.id).in_(old)).values(is_current=False)
                )
        rows = []
        for r in results:
            item, model, response = unit(r)
            scores = dict(r.scores)
            if r.task.sample_index:
                scores["sample_index"] = r.task.sample_index
            rows.append(
                {
                    "rater_id": rater_id,
                    "item_id": item,
                    "target_model_id": model,
                    "response_id": response,
                    "schema_name": schema_for(model, response),
                    "question": QUESTION,
                    "value": r.label.value if isinstance(r.label, Label) else None,
                    "status": (r.status or VerdictStatus.OK).value,
                    "raw": r.raw,
                    "scores_json": dumps(scores),
                    "run_id": run_id,
                    "source": f"run {run_id}",
                    "supersedes_id": current.get((item, model, response))
                    if r.task.sample_index == 0
                    else None,
                    "is_current": r.task.sample_index == 0,
                    "created_at": utcnow(),
                }
            )
        made = session.execute(
            insert(LabelRow).returning(col(LabelRow.id), sort_by_parameter_order=True), rows
        )
        return [int(i) for i in made.scalars().all()]
