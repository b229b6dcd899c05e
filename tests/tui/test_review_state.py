"""The review state without Textual: labels keep the done marks and the progress exact while
the list, the next unlabelled item and the counts come from memory."""

from __future__ import annotations

from paint_checks import calls

from w2c_tui.domain.labels import Label
from w2c_tui.domain.review import ReviewMode
from w2c_tui.services import Services
from w2c_tui.tui.review_views import ReviewController


def counted(state: ReviewController) -> tuple[int, int]:
    progress = state.services.review.progress(state.dataset, state.mode, state.annotator)
    return progress.done, progress.total


def test_labels_move_on_and_keep_marks_and_progress_exact(demo: Services) -> None:
    state = ReviewController(demo, "alice", "demo")
    state.reload()
    assert state.mode is ReviewMode.RESPONSES and state.is_blind
    order = demo.review.order("demo", state.view, state.mode, "alice")
    assert state.rows.count == len(order) == 30
    first = state.detail.item.id if state.detail else None
    assert first == order[0]  # the blind list, in the annotator's shuffled order
    for label in (Label.TOOL_CALL, Label.DIRECT, Label.CANNOT_ANSWER, Label.TOOL_CALL):
        assert state.record(label) is None
        assert (state.progress()[0].done, state.progress()[0].total) == counted(state)
    row = state.rows.row(0)
    assert row is not None and row.labelled  # both responses of the first item labelled
    fresh = demo.review.rows("demo", order[:3], state.view, state.mode, "alice")
    assert [r.labelled for r in fresh] == [state.rows.row(n).labelled for n in range(3)]  # type: ignore[union-attr]
    state.record(None)  # clear the current one: one less done
    assert (state.progress()[0].done, state.progress()[0].total) == counted(state)
    state.toggle_mode()
    assert state.record(Label.REQUEST_FOR_INFO) is None  # item QA
    assert (state.progress()[0].done, state.progress()[0].total) == counted(state)


def test_a_label_that_stays_on_the_item_reads_only_its_verdicts_again(demo: Services) -> None:
    state = ReviewController(demo, "alice", "demo")
    state.reload()
    assert state.detail is not None and len(state.detail.responses) == 2
    item, card = state.detail.item.id, state.card
    assert card is not None and card.response is not None
    with calls(demo.review, "detail") as whole, calls(demo.review, "verdicts_again") as again:
        assert state.record(Label.TOOL_CALL) is None
    assert state.detail.item.id == item and state.card is not None  # on to the other response
    assert state.card.response is not None and state.card.response.id != card.response.id
    assert (whole[0], again[0]) == (0, 1)
    assert state.detail == demo.review.detail(item, "alice")  # what a whole read shows
