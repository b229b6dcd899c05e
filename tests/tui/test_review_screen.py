"""Pilot-driven behaviour of the review screen: labelling, undo, blind reveal, filters."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from w2c_tui.config import Settings, load_settings
from w2c_tui.domain.labels import Label, RaterKind, VerdictStatus
from w2c_tui.domain.review import ItemFilter, ReviewMode, ToolCount
from w2c_tui.services import Services
from w2c_tui.tui.app import W2CApp
from w2c_tui.tui.screens.checklist import ChecklistDialog
from w2c_tui.tui.screens.datasets import DatasetsScreen
from w2c_tui.tui.screens.dialogs import AnnotatorDialog, FilterDialog
from w2c_tui.tui.screens.help import HelpScreen
from w2c_tui.tui.screens.review import ReviewScreen
from w2c_tui.tui.widgets.items_list import ItemsList

SIZE = (160, 45)
Review = Callable[[W2CApp, object], Awaitable[ReviewScreen]]


async def test_empty_database_imports_the_demo(services: Services, wait_review: Review) -> None:
    app = W2CApp(services, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.dataset == "demo"
        assert screen.query_one(ItemsList).count == 30
        assert any("demo" in n.message for n in app._notifications)


async def test_first_start_asks_for_the_annotator(
    demo: Services, tmp_path: Path, wait_review: Review
) -> None:
    config = tmp_path / "cfg.toml"
    app = W2CApp(demo, settings=Settings(path=config))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, AnnotatorDialog)
        await pilot.press(*"carol", "enter")
        screen = await wait_review(app, pilot)
        assert screen.annotator == "carol"
    assert load_settings(config).annotator == "carol"


async def test_label_key_commits_and_moves_to_next_unlabelled_response(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        first_card = screen.state.card
        assert first_card is not None and first_card.response is not None
        item_id = screen.state.detail.item.id if screen.state.detail else None
        await pilot.press("2")
        [record] = demo.labels.export()
        assert (record.annotator, record.label, record.target_model) == (
            "alice",
            Label.TOOL_CALL,
            first_card.target_model,
        )
        # moved on to the other response of the same item
        assert screen.state.detail is not None and screen.state.detail.item.id == item_id
        assert screen.state.card is not None and screen.state.card.response is not None
        assert screen.state.card.response.id != first_card.response.id
        await pilot.press("3")
        # both responses labelled: the next item with unlabelled responses
        assert screen.state.detail.item.id != item_id
        assert demo.review.progress("demo", ReviewMode.RESPONSES, "alice").done == 2
        assert screen.query_one(ItemsList).row(0).labelled  # type: ignore[union-attr]


async def test_undo_restores_the_previous_label(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        response = screen.state.card.response if screen.state.card else None
        assert response is not None
        await pilot.press("4", "u")
        assert screen.state.card is not None and screen.state.card.response is not None
        assert screen.state.card.response.id == response.id  # undo brings you back to it
        assert screen.state.card.mine is None
        [record] = demo.labels.export()
        assert record.status is VerdictStatus.MISSING and record.n_edits == 1


async def test_blind_mode_hides_until_labelled_then_reveals(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        assert screen.state.is_blind
        assert screen.query_one(ItemsList).hide_gold
        assert all(not c.revealed for c in screen.state.cards)
        assert screen.state.gold_hidden
        labelled = screen.state.card
        await pilot.press("1")
        revealed = [
            c
            for c in screen.state.cards
            if c.response
            and labelled
            and labelled.response
            and c.response.id == labelled.response.id
        ]
        assert revealed and revealed[0].revealed
        await pilot.press("b")
        assert not screen.state.is_blind and all(c.revealed for c in screen.state.cards)
        assert not screen.query_one(ItemsList).hide_gold


async def test_filters_search_and_jump(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        screen.state.set_filter(ItemFilter(tools=ToolCount.NONE))
        screen.render_all()
        assert screen.query_one(ItemsList).count == 4
        assert screen.state.detail is not None and screen.state.detail.item.n_tools == 0
        await pilot.press("slash")
        assert isinstance(app.screen, FilterDialog)
        await pilot.press(*"Zürich", "enter")
        await pilot.pause()
        assert screen.state.filter.search == "Zürich"
        assert screen.state.detail is not None and "Zürich" in screen.state.detail.item.question
        target = demo.review.window("demo", ItemFilter(), ReviewMode.RESPONSES, None, 17, 1)[0]
        await pilot.press("g", *target.uuid[:10], "enter")
        await pilot.pause()
        assert screen.state.detail is not None and screen.state.detail.item.uuid == target.uuid
        assert screen.state.filter == ItemFilter()  # cleared to show the item


async def test_item_qa_label_flags_and_note(demo: Services, wait_review: Review) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("m")
        assert screen.mode is ReviewMode.ITEM_QA and not screen.state.is_blind
        item_id = screen.state.detail.item.id if screen.state.detail else -1
        await pilot.press("c")
        assert isinstance(app.screen, ChecklistDialog)
        await pilot.press("space", "down", "space", "3")  # label while the checklist is open
        assert isinstance(app.screen, ChecklistDialog)  # … and it stays open
        qa = demo.review.detail(item_id, "alice").qa
        assert qa.label is Label.REQUEST_FOR_INFO and len(qa.flags) == 2
        await pilot.press("escape")
        assert screen.state.detail is not None and screen.state.detail.item.id == item_id
        await pilot.press("e", *"odd wording", "f4", "enter")  # F4 labels from the note
        await pilot.pause()
        qa = demo.review.detail(item_id, "alice").qa
        assert qa.label is Label.CANNOT_ANSWER and qa.note == "odd wording"
        assert screen.state.detail.item.id == item_id  # still on the item
        await pilot.press("3")  # outside the dialogs a label moves on, as before
        detail = screen.state.detail
        assert detail is not None and detail.item.id != item_id
        await pilot.press("u")  # undo the label, keep flags and note
        qa = demo.review.detail(item_id, "alice").qa
        assert qa.label is Label.CANNOT_ANSWER and len(qa.flags) == 2


async def test_datasets_screen_switches_dataset(
    demo: Services, judge_file: Path, wait_review: Review
) -> None:
    demo.imports.import_path(judge_file, dataset="real")
    app = W2CApp(demo, annotator="alice", dataset="demo")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("d")
        assert isinstance(app.screen, DatasetsScreen)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen.dataset == "real"
        assert screen.query_one(ItemsList).count == 300


async def test_help_lists_keys_and_keys_are_configurable(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice", settings=Settings(keys={"undo": "z"}))
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("2", "z")
        await pilot.pause()
        [record] = demo.labels.export()
        assert record.label is None  # z undid the label
        assert screen.state.undo_stack == []


async def test_human_and_judge_verdicts_shown_after_reveal(
    demo: Services, wait_review: Review
) -> None:
    app = W2CApp(demo, annotator="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_review(app, pilot)
        await pilot.press("b")
        card = screen.state.card
        assert card is not None and card.response is not None
        kinds = {v.rater.kind for v in card.response.verdicts} | {
            v.rater.kind for v in card.model_verdicts
        }
        assert {RaterKind.JUDGE, RaterKind.MCQ_LOGPROB} <= kinds
