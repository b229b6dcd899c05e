"""Labelling a custom schema from the keyboard (Pilot): the issue's schema, answers in the
database before the screen moves on, undo saved too, blind fields hidden, free text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from schema_data import BAR_TOML, write_schema
from sqlmodel import Session, col, select
from textual.widgets import Input, Label, OptionList, Static

from w2c_tui.db.tables import LabelRow
from w2c_tui.domain.schema_labels import Unit
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.datasets import DatasetsScreen
from w2c_tui.tui.screens.help import HelpScreen
from w2c_tui.tui.screens.schema_label import SchemaLabelScreen
from w2c_tui.tui.screens.schema_pick import SchemaPickDialog

CT = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "critictool" / "predictions"
PREDICTION_TOML = """\
name = "critique-check"
unit = "critictool-prediction"
blind_hidden = ["prediction", "target_model"]

[[questions]]
name = "error"
title = "Error in the last step?"
options = ["yes", "no"]

[[questions]]
name = "critique_right"
title = "Is the model's critique right?"
options = ["yes", "no"]
after_blind = true
"""
NOTE_TOML = """\
name = "noted"
unit = "item"

[[questions]]
name = "clear"
options = ["yes", "no"]

[[questions]]
name = "note"
kind = "text"
"""


def screen_text(app: W2CApp) -> str:
    console = Console(width=200, record=True, color_system=None)
    parts: list[str] = []
    for widget in app.screen.query(Static):
        with console.capture() as capture:
            console.print(widget.content)
        parts.append(capture.get())
    return "\n".join(parts)


async def schema_screen(app: W2CApp, pilot: Any) -> SchemaLabelScreen:
    await app.workers.wait_for_complete()
    for _ in range(50):
        await pilot.pause()
        if isinstance(app.screen, SchemaLabelScreen):
            return app.screen
    raise AssertionError(f"the schema screen did not open; screen is {app.screen!r}")


async def until(pilot: Any, condition: Callable[[], bool]) -> None:
    """Wait (a bounded number of pauses) until `condition` holds."""
    for _ in range(50):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("the condition never held")


def answers(services: Services, schema: str, unit: Unit) -> dict[str, str]:
    return services.schemas.current("ann", schema, unit)


async def test_label_the_custom_schema_from_the_keyboard(demo: Services, tmp_path: Path) -> None:
    demo.schemas.add(write_schema(tmp_path, BAR_TOML))
    app = W2CApp(demo, annotator="ann", dataset="demo", schema="bar")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        first, second = screen.units[0].unit, screen.units[1].unit
        assert first.response_id is not None and screen.unit_at(0).hidden.get("gold")
        shown = screen_text(app)
        assert "Is the reply acceptable?" in shown and "gold:" not in shown
        await pilot.press("1")
        assert answers(demo, "bar", first) == {"ok": "yes"}  # saved at once
        await pilot.press("3", "2")
        assert answers(demo, "bar", first) == {"ok": "yes", "tone": "rude", "quality": "2"}
        assert screen.index == 1  # complete and committed: on to the next unit
        await pilot.press("9")  # not an option of a yes/no question
        assert answers(demo, "bar", second) == {}
        await pilot.press("2", "1", "3")
        assert answers(demo, "bar", second) == {"ok": "no", "tone": "friendly", "quality": "3"}
        assert screen.index == 2
        await pilot.press("u")  # nothing on this unit yet: back to the last one, its last answer
        assert screen.index == 1
        assert answers(demo, "bar", second) == {"ok": "no", "tone": "friendly"}
        await pilot.press("backspace")
        assert answers(demo, "bar", second) == {"ok": "no"}
        await pilot.press("2", "1")
        assert answers(demo, "bar", second) == {"ok": "no", "tone": "neutral", "quality": "1"}
        assert screen.index == 2
        await pilot.press("k")
        assert "gold:" in screen_text(app)  # a complete label: the hidden fields are shown
        footer = {key for key, b in app.screen.active_bindings.items() if b.binding.show}
        assert {"1", "u", "j", "b", "escape"} <= footer
    assert demo.store.schema_reads.history("ann", "bar", second, "quality") == ["3", None, "1"]


async def test_free_text_questions_take_an_input(services: Services, tmp_path: Path) -> None:
    services.imports.import_demo()
    services.schemas.add(write_schema(tmp_path, NOTE_TOML, "noted.toml"))
    app = W2CApp(services, annotator="ann", dataset="demo", schema="noted")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        unit = screen.unit.unit
        assert unit.response_id is None
        text = screen.query_one("#schema-text", Input)
        assert not text.display
        await pilot.press("2")
        assert text.display and app.focused is text
        await pilot.press("u", "1", "enter")  # typed into the Input, not undo
        assert answers(services, "noted", unit) == {"clear": "no", "note": "u1"}
        assert screen.index == 1 and not text.display
        await pilot.press("2", "enter")  # a required text: Enter on nothing does not skip it
        assert screen.index == 1 and text.display


async def test_enter_on_nothing_skips_an_optional_text(services: Services, tmp_path: Path) -> None:
    services.imports.import_demo()
    optional = NOTE_TOML.replace('kind = "text"', 'kind = "text"\nrequired = false')
    services.schemas.add(write_schema(tmp_path, optional.replace("noted", "noted2"), "n2.toml"))
    app = W2CApp(services, annotator="ann", dataset="demo", schema="noted2")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        unit = screen.unit.unit
        await pilot.press("1")
        assert screen.form.complete and screen.query_one("#schema-text", Input).display
        await pilot.press("enter")
        await until(pilot, lambda: screen.index == 1)
    assert answers(services, "noted2", unit) == {"clear": "yes"}


async def test_a_prediction_schema_keeps_the_prediction_back(
    services: Services, tmp_path: Path
) -> None:
    services.critictool.import_file(
        CT / "interal_base_data_wo_cot.json", dataset="ct", target_model="tiny"
    )
    services.schemas.add(write_schema(tmp_path, PREDICTION_TOML, "critique.toml"))
    app = W2CApp(services, annotator="ann", dataset="ct", schema="critique-check")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        unit = screen.unit
        assert unit.response is not None and unit.target_model == "tiny"
        before = screen_text(app)
        assert unit.response not in before and "(tiny)" not in before
        assert "Is the model's critique right?" not in before
        await pilot.press("1")  # error: yes, the blind part
        assert answers(services, "critique-check", unit.unit) == {"error": "yes"}
        after = screen_text(app)
        assert unit.response in after and "(tiny)" in after
        assert "Is the model's critique right?" in after
        assert screen.index == 0 and screen.form.current is not None


BLIND_TOML = """\
name = "clarity"
unit = "item"
blind_hidden = ["gold"]

[[questions]]
name = "clear"
options = ["yes", "no"]

[[questions]]
name = "fair"
options = ["yes", "no"]
after_blind = true
"""


async def open_order(services: Services, annotator: str) -> tuple[list[str], str]:
    """The item uuids in the order `annotator`'s blind screen shows them, and its head."""
    app = W2CApp(services, annotator=annotator, dataset="demo", schema="clarity")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        return [u.item_uuid for u in screen.units], str(
            screen.query_one("#schema-head", Static).content
        )


async def test_blind_order_is_each_annotators_own_and_the_file_position_never_shows(
    demo: Services, tmp_path: Path
) -> None:
    """The real When2Call file's order carries gold (domain.blind): while blind the units come
    in the annotator's own shuffled order, numbered by place in it, with no item id."""
    demo.schemas.add(write_schema(tmp_path, BLIND_TOML, "clarity.toml"))
    file_order = [u.item_uuid for u in demo.schemas.unit_refs("clarity", "demo")]
    ann, head = await open_order(demo, "ann")
    ben, _ = await open_order(demo, "ben")
    assert sorted(ann) == sorted(file_order) == sorted(ben)
    assert ann != file_order and ben != file_order and ann != ben
    assert ann == (await open_order(demo, "ann"))[0]  # the same order every time
    assert "your blind order" in head and "#1/" in head

    app = W2CApp(demo, annotator="ann", dataset="demo", schema="clarity")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        unit = screen.unit
        assert unit.tools  # the tools the item offers are on screen to judge it by
        before = screen_text(app)
        assert unit.item_uuid not in before and "gold:" not in before
        assert unit.tools[0] in before
        await pilot.press("1")  # the blind part done: now the id and gold show
        after = screen_text(app)
        assert unit.item_uuid in after and "gold:" in after
        await pilot.press("b")  # blind off: file order, the same unit still on screen
        assert screen.unit.unit == unit.unit and "file order" in str(
            screen.query_one("#schema-head", Static).content
        )
        assert [u.item_uuid for u in screen.units] == file_order
    with Session(demo.store.engine) as session:
        seen = session.exec(
            select(LabelRow.seen).where(
                col(LabelRow.item_id) == unit.unit.item_id,
                col(LabelRow.schema_name) == screen.schema.name,
            )
        ).all()
    assert seen == ["blind"]  # answered before the reveal, whatever the screen showed after


async def test_the_datasets_screen_opens_a_schema(demo: Services, tmp_path: Path) -> None:
    """d, then s: the schemas listed; a built-in one refused with the CLI's reason, a users'
    one opened on the selected dataset; Esc comes back to the datasets."""
    demo.schemas.add(write_schema(tmp_path, BAR_TOML))
    app = W2CApp(demo, annotator="ann", dataset="demo")
    async with app.run_test(size=(160, 45)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "label with a schema" in screen_text(app)
        await pilot.press("escape", "d")
        await until(pilot, lambda: isinstance(app.screen, DatasetsScreen))
        footer = {key for key, b in app.screen.active_bindings.items() if b.binding.show}
        assert "s" in footer
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, SchemaPickDialog))
        options = app.screen.query_one(OptionList)
        names = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert names[-1] == "bar" and "when2call-behaviour" in names
        assert names[2] == "critictool"
        await pilot.press("home", "down", "down", "enter")  # labelled on its own screen
        why = app.screen.query_one("#schema-pick-why", Label)
        await until(pilot, lambda: "CriticTool screen" in str(why.render()))
        assert isinstance(app.screen, SchemaPickDialog)
        assert "is labelled on the CriticTool screen" in str(why.render())
        await pilot.press("end", "enter")
        screen = await schema_screen(app, pilot)
        assert screen.dataset == "demo" and screen.schema.name == "bar"
        await pilot.press("1")
        assert answers(demo, "bar", screen.units[0].unit) == {"ok": "yes"}
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DatasetsScreen))


async def test_an_annotators_queue_comes_first_and_q_shows_every_unit(
    demo: Services, tmp_path: Path
) -> None:
    """Assigned responses: a response schema opens on ann's queue in its order, `Q` switches to
    every unit and back, staying on the unit on screen."""
    from w2c_tui.domain.team import Selection

    demo.schemas.add(write_schema(tmp_path, BAR_TOML))
    demo.assignments.assign(
        "demo", ["ann", "ben"], overlap=1, seed=3, selection=Selection(sample=6)
    )
    queue = [Unit(a.item_id, a.response_id) for a in demo.assignments.show("demo", "ann")]
    assert queue and all(u.response_id is not None for u in queue)
    app = W2CApp(demo, annotator="ann", dataset="demo", schema="bar")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        assert [r.unit for r in screen.units] == queue
        assert f"#1/{len(queue)} your queue" in screen_text(app)
        await pilot.press("j")
        here = screen.units[screen.index].unit
        await pilot.press("Q")
        assert len(screen.units) == 60 and screen.units[screen.index].unit == here
        assert "your blind order" in screen_text(app)
        await pilot.press("Q")
        assert [r.unit for r in screen.units] == queue and screen.index == 1
    assert demo.schemas.queue("bar", "demo", "ben") != queue  # each annotator's own


async def test_item_qa_on_the_schema_screen_skips_the_optional_checks(demo: Services) -> None:
    """`when2call-item-qa` on the schema screen: the behaviour is required; the checks of its
    class and the note are offered and skipped with `s` (one) and `S` (the rest); the label is
    the review screen's."""
    app = W2CApp(demo, annotator="ann", dataset="demo", schema="when2call-item-qa")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await schema_screen(app, pilot)
        first = screen.units[0].unit
        await pilot.press("1")  # direct answer
        assert screen.index == 0 and screen.form.complete and not screen.form.done
        assert "optional: s skips it" in screen_text(app)
        flagged = screen.form.current
        assert flagged is not None and not flagged.required
        await pilot.press("1")  # the first check offered: yes
        await pilot.press("s")  # the next check: skipped
        assert screen.index == 0 and screen.form.current is not None
        await pilot.press("S")  # every optional question left, the note included
        await until(pilot, lambda: screen.index == 1)
    assert answers(demo, "when2call-item-qa", first) == {
        "behaviour": "direct",
        flagged.name: "yes",
    }
    qa = demo.review.detail(first.item_id, "ann").qa
    assert qa.flags == frozenset({flagged.name}) and qa.note == ""
