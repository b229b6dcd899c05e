"""Reading a run's results back, one row per task (`w2c verdicts export --run ID`): the
When2Call label, response or CriticTool judge's answers each task produced."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.tables import ItemRow, LabelRow, ResponseRow, RunResultRow
from w2c_tui.domain.runs import RunResult
from w2c_tui.domain.schema_builtins import CRITICTOOL


@dataclass(frozen=True, slots=True)
class _Reading:
    """A CriticTool judge's reading of one unit in one run."""

    raw: str | None
    answers: dict[str, str]


def _readings(session: Session, run_id: int) -> dict[tuple[int, int | None], _Reading]:
    """The run's CriticTool readings by unit (its answers of the `critictool` schema)."""
    raws: dict[tuple[int, int | None], str | None] = {}
    answers: dict[tuple[int, int | None], dict[str, str]] = defaultdict(dict)
    for row in session.exec(
        select(LabelRow).where(
            col(LabelRow.schema_name) == CRITICTOOL.name, col(LabelRow.source) == f"run {run_id}"
        )
    ).all():
        unit = (row.item_id, row.response_id)
        raws[unit] = raws.get(unit) or row.raw
        if row.value is not None:
            answers[unit][row.question] = row.value
    return {unit: _Reading(raw, answers[unit]) for unit, raw in raws.items()}


class RunResults:
    """The reading half of RunStore's results."""

    engine: Engine

    def results(self, run_id: int) -> list[RunResult]:
        """One result per task, in item order (then sample)."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(RunResultRow)
                .where(col(RunResultRow.run_id) == run_id)
                .order_by(col(RunResultRow.id))
            ).all()
            answers = _readings(session, run_id)
            out = []
            for row in rows:
                item = session.get(ItemRow, row.item_id)
                verdict = session.get(LabelRow, row.label_id) if row.label_id else None
                response = session.get(ResponseRow, row.response_id) if row.response_id else None
                scores = json.loads(verdict.scores_json or "{}") if verdict else {}
                critic = answers.get((row.item_id, row.response_id))
                critic = critic if row.status == "ok" else None
                lls = scores.get("loglikelihoods")
                out.append(
                    RunResult(
                        uuid=item.uuid if item else None,
                        position=item.position if item else None,
                        sample_index=row.sample_index,
                        status=((verdict.status or "ok") if verdict else "ok")
                        if row.status == "ok"
                        else "error",
                        label=verdict.value if verdict else None,
                        raw=critic.raw if critic else verdict.raw if verdict else None,
                        response=response.text if response else None,
                        error=row.error,
                        retries=row.retries,
                        loglikelihoods=tuple(lls) if lls is not None else None,
                        pred_raw=scores.get("pred_raw"),
                        pred_norm=scores.get("pred_norm"),
                        answers=dict(sorted(critic.answers.items())) if critic else None,
                    )
                )
            out.sort(key=lambda r: (r.position if r.position is not None else -1, r.sample_index))
            return out
