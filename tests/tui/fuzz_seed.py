"""The key fuzz test's database: everything a screen can show (labels that disagree,
assignments, guidelines, a finished run, CriticTool data)."""

from __future__ import annotations

from pathlib import Path

from schema_data import write_schema

from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.roles import Role
from w2c_tui.domain.runs import Backend, Method, RunConfig
from w2c_tui.domain.team import Selection
from w2c_tui.services import Services

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"


def seed_database(services: Services, folder: Path) -> None:
    """Everything a screen can show: labels that disagree (adjudication, queue, dashboard),
    assignments (my queue, team), guidelines, a finished run (log, metrics), CriticTool data,
    a label schema."""
    services.imports.import_demo()
    rows = services.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 0, 30)
    for n, row in enumerate(rows):
        detail = services.review.detail(row.id, None)
        gold = detail.item.gold
        assert gold is not None
        for response in detail.responses[:2]:
            assert response.id is not None
            services.review.label_response("ann", row.id, response.id, gold)
            other = Label.DIRECT if n % 3 else gold
            services.review.label_response("ben", row.id, response.id, other)
        if n % 2:
            services.review.label_item("ann", row.id, gold)
    services.roles.add(None, "fuzz", Role.LEAD)  # a team database: the lead gate is open
    services.assignments.assign(
        "demo", ["fuzz", "ann", "ben"], overlap=2, seed=3, selection=Selection(sample=12)
    )
    guide = folder / "guide.md"
    guide.write_text("# How to label\n\n* **tool call**: the reply calls a tool.\n" * 20)
    services.guidelines.set("demo", guide)
    run = services.runs.create(
        RunConfig(
            method=Method.MCQ_INDEX,
            backend=Backend.TRANSFORMERS,
            model="m0",
            dataset="demo",
            limit=6,
        )
    )
    services.runs.execute(run)
    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct-internal", target_model="tiny"
    )
    services.critictool.import_file(
        CT / "external_skip_base_data_wo_cot.json", dataset="ct-external", target_model="tiny"
    )
    services.schemas.add(write_schema(folder))  # a users' label schema, `bar`
