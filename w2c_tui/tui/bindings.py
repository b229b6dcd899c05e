"""Key bindings of the review screen, declared once (ids let users remap them)."""

from __future__ import annotations

from textual.binding import Binding

REVIEW_BINDINGS: list[Binding] = [
    Binding("1", "label(1)", "direct", id="label-1", tooltip="Label: direct answer"),
    Binding("2", "label(2)", "tool call", id="label-2", tooltip="Label: tool call"),
    Binding("3", "label(3)", "req. info", id="label-3", tooltip="Label: request for info"),
    Binding("4", "label(4)", "cannot", id="label-4", tooltip="Label: cannot answer"),
    Binding("x", "clear_label", "clear label", id="clear-label", show=False),
    Binding("j,n,down", "move(1)", "next", id="next-item"),
    Binding("k,p,up", "move(-1)", "prev", id="prev-item"),
    Binding("pagedown", "move(20)", "page down", id="page-down", show=False),
    Binding("pageup", "move(-20)", "page up", id="page-up", show=False),
    Binding("right_square_bracket", "response(1)", "next resp.", id="next-response", show=False),
    Binding("left_square_bracket", "response(-1)", "prev resp.", id="prev-response", show=False),
    Binding("space", "next_unlabelled", "next unlabelled", id="next-unlabelled"),
    Binding("s", "skip", "skip", id="skip"),
    Binding("u", "undo", "undo", id="undo"),
    Binding("b", "toggle_blind", "blind", id="blind"),
    Binding("m", "toggle_mode", "mode", id="mode"),
    Binding("f", "filter", "filter", id="filter"),
    Binding("slash", "search", "search", id="search"),
    Binding("r", "queue", "queue", id="queue", show=False),
    Binding("o", "cycle_order", "order", id="order", show=False),
    Binding("a", "agreement", "agreement", id="agreement"),
    Binding("R", "runs", "runs", id="runs"),
    Binding("S", "spot_check", "spot check", id="spot-check", show=False),
    Binding("g", "goto", "go to uuid", id="goto", show=False),
    Binding("t", "toggle_tools", "tools", id="tools", show=False),
    Binding("v", "whole_text", "whole text", id="whole-text", show=False),
    Binding("c", "checklist", "QA flags", id="checklist", show=False),
    Binding("e", "note", "note", id="note", show=False),
    Binding("Q", "toggle_queue", "my queue", id="my-queue"),
    Binding("ctrl+s", "retry_save", "retry save", id="retry-save", show=False),
    Binding("U", "switch_annotator", "annotator", id="switch-annotator", show=False),
    Binding("T", "team", "team", id="team"),
    Binding("G", "guidelines", "guidelines", id="guidelines"),
    Binding("A", "adjudicate", "adjudicate", id="adjudicate", show=False),
    Binding("d", "datasets", "datasets", id="datasets"),
    Binding("question_mark", "help", "help", id="help"),
]

HELP_GROUPS: list[tuple[str, list[str]]] = [
    (
        "Labelling",
        ["label-1", "label-2", "label-3", "label-4", "clear-label", "undo", "skip", "retry-save"],
    ),
    (
        "Moving",
        [
            "next-item",
            "prev-item",
            "page-down",
            "page-up",
            "next-response",
            "prev-response",
            "next-unlabelled",
            "goto",
        ],
    ),
    (
        "What you see",
        [
            "blind",
            "mode",
            "my-queue",
            "filter",
            "search",
            "queue",
            "order",
            "tools",
            "whole-text",
            "checklist",
            "note",
        ],
    ),
    ("Team", ["switch-annotator", "team", "guidelines", "adjudicate"]),
    ("Screens", ["agreement", "runs", "spot-check", "datasets", "help"]),
]

DESCRIPTIONS: dict[str, str] = {
    "label-1": "label: direct answer (response mode: the response's behaviour; item QA: "
    "the correct behaviour), then move on",
    "label-2": "label: tool call, then move on",
    "label-3": "label: request for information, then move on",
    "label-4": "label: cannot answer, then move on",
    "clear-label": "withdraw your label on the current response / item (kept in history)",
    "undo": "undo your last change (label, flag or note); history keeps both",
    "skip": "leave the current response / item unlabelled and go to the next unlabelled one",
    "next-item": "next item in the list",
    "prev-item": "previous item in the list",
    "page-down": "20 items down",
    "page-up": "20 items up",
    "next-response": "next response of this item",
    "prev-response": "previous response of this item",
    "next-unlabelled": "next item you have not finished",
    "goto": "jump to an item by uuid",
    "blind": "blind mode: the list shuffled for you; a response's model and raters hidden "
    "until you label it, gold and scores until the whole item has your labels",
    "mode": "switch between response labelling and item QA",
    "filter": "filter: gold label, number of tools, source, labelled, human≠judge",
    "search": "search the question text (and uuids)",
    "queue": "disagreement queue on / off: items the raters disagree on, most disputed first",
    "order": "list order: the list's own (file, or your blind order) or most informative "
    "first (`w2c next`: the responses whose label most narrows the judge's agreement "
    "interval; not while blind)",
    "agreement": "agreement and calibration dashboard: humans, judges and log-prob scorers",
    "runs": "runs: start evaluation runs (local model or OpenAI-compatible API), watch them",
    "spot-check": "spot check: a model's answer to this item now, judged, with its log-prob MCQ",
    "tools": "tools as one signature line each, or as full JSON below the answers (remembered)",
    "whole-text": "the item's question, answers and the selected response, whole (long texts "
    "are cut on screen)",
    "checklist": "item QA: toggle the quality checklist flags",
    "note": "item QA: edit your note on the item",
    "datasets": "datasets: counts, switch dataset",
    "help": "this help",
    "my-queue": "your assigned units only, in your queue's seeded order (on by default when "
    "you have assignments); again: every item",
    "retry-save": "try again to save a label the database did not take (busy or read-only)",
    "switch-annotator": "label as someone else: an annotator of this database or a new name",
    "team": "team progress: assigned / done / rate per annotator, complete units, human α",
    "guidelines": "the dataset's labelling guidelines beside the item (show / hide)",
    "adjudicate": "adjudication queue: units where the humans disagree, most split first",
}


APP_BINDINGS: list[Binding] = [Binding("q", "quit", "quit", id="quit")]
"""The app's own keys, on every screen."""
