"""Reading a run's results back, one row per task (`w2c verdicts export --run ID`): the
verdict, response or CriticTool judge's answers each task produced."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from w2c_tui.db.tables import CriticLabelRow, ItemRow, ResponseRow, RunResultRow, VerdictRow


class RunResults:
    """The reading half of RunStore's results."""

    engine: Engine

    def results(self, run_id: int) -> list[dict[str, Any]]:
        """One row per task: uuid, sample, status, label, raw, scores, error (for exports)."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(RunResultRow)
                .where(col(RunResultRow.run_id) == run_id)
                .order_by(col(RunResultRow.id))
            ).all()
            answers = {
                (label.item_id, label.response_id): label
                for label in session.exec(
                    select(CriticLabelRow).where(col(CriticLabelRow.source) == f"run {run_id}")
                ).all()
            }
            out = []
            for row in rows:
                item = session.get(ItemRow, row.item_id)
                verdict = session.get(VerdictRow, row.verdict_id) if row.verdict_id else None
                response = session.get(ResponseRow, row.response_id) if row.response_id else None
                out.append(
                    {
                        "uuid": item.uuid if item else None,
                        "position": item.position if item else None,
                        "sample_index": row.sample_index,
                        "status": (verdict.status if verdict else "ok")
                        if row.status == "ok"
                        else "error",
                        "label": verdict.label if verdict else None,
                        "raw": verdict.raw if verdict else None,
                        "scores": json.loads(verdict.scores_json) if verdict else {},
                        "response": response.text if response else None,
                        "error": row.error,
                        "retries": row.retries,
                    }
                )
                critic = answers.get((row.item_id, row.response_id))
                if critic is not None and row.status == "ok":
                    out[-1]["answers"] = json.loads(critic.answers_json)
                    out[-1]["raw"] = critic.raw
            out.sort(
                key=lambda r: (
                    r["position"] if r["position"] is not None else -1,
                    r["sample_index"],
                )
            )
            return out
