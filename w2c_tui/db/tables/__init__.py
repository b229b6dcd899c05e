"""SQLModel tables of the annotation store (see docs/architecture.md), one module per concern:
`core` (datasets, items, target models, responses, raters, runs, imports), `schema_labels`
(label schemas and the one label store: every schema's answers, When2Call's labels, item-QA
checklist and notes, and CriticTool's included), `critictool` (CriticTool samples and
predictions), `splits` (frozen dev/test splits), `tracking` (what was logged to MLflow) and
`team` (assignments, guidelines, review places, roles, invitations). Importing this package
imports every one of them, so `SQLModel.metadata` holds every table (Alembic compares against
it)."""

from __future__ import annotations

from w2c_tui.db.tables.base import one_current, utcnow
from w2c_tui.db.tables.core import (
    DatasetRow,
    ImportLogRow,
    ItemRow,
    RaterRow,
    ResponseRow,
    RunResultRow,
    RunRow,
    TargetModelRow,
)
from w2c_tui.db.tables.critictool import CriticToolPredictionRow, CriticToolSampleRow
from w2c_tui.db.tables.schema_labels import CURRENT_LABEL_UNIT, LabelRow, LabelSchemaRow
from w2c_tui.db.tables.splits import DataSplitRow
from w2c_tui.db.tables.team import (
    AssignmentPlanRow,
    AssignmentRow,
    GuidelineRow,
    GuidelineSeenRow,
    InviteRow,
    ReviewPlaceRow,
    TeamMemberRow,
)
from w2c_tui.db.tables.tracking import TrackingLogRow

__all__ = [
    "CURRENT_LABEL_UNIT",
    "AssignmentPlanRow",
    "AssignmentRow",
    "CriticToolPredictionRow",
    "CriticToolSampleRow",
    "DataSplitRow",
    "DatasetRow",
    "GuidelineRow",
    "GuidelineSeenRow",
    "ImportLogRow",
    "InviteRow",
    "ItemRow",
    "LabelRow",
    "LabelSchemaRow",
    "RaterRow",
    "ResponseRow",
    "ReviewPlaceRow",
    "RunResultRow",
    "RunRow",
    "TargetModelRow",
    "TeamMemberRow",
    "TrackingLogRow",
    "one_current",
    "utcnow",
]
