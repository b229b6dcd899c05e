"""What a response card shows: the response (JSON highlighted), what is revealed of it, the
other raters' verdicts and the log-prob MCQ chart. Pure functions of the card: the review
screen's read-ahead builds them off the UI thread (screens/review_prefetch.py)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.highlighter import JSONHighlighter
from rich.table import Table
from rich.text import Text

from w2c_tui.domain.labels import LABELS, Label, RaterKind, VerdictStatus
from w2c_tui.domain.models import Verdict
from w2c_tui.domain.names import printable
from w2c_tui.tui.cards import Card
from w2c_tui.tui.widgets.item_view import LONG_TEXT, clipped

if TYPE_CHECKING:
    from w2c_tui.tui.review_state import PendingLabel

JSON_HIGHLIGHTER = JSONHighlighter()
BAR_WIDTH = 12
SHORT = {
    Label.DIRECT: "direct",
    Label.TOOL_CALL: "tool call",
    Label.REQUEST_FOR_INFO: "req. info",
    Label.CANNOT_ANSWER: "cannot",
}
KIND_NAMES = {
    RaterKind.JUDGE: "judge",
    RaterKind.MCQ_INDEX: "MCQ index",
    RaterKind.MCQ_LOGPROB: "log-prob MCQ",
    RaterKind.HUMAN: "human",
    RaterKind.GOLD: "gold",
    RaterKind.ADJUDICATOR: "adjudicator",
}

CardKey = tuple[object, int, str | None, "PendingLabel | None"]


def card_key(card: Card, annotator: str | None, pending: PendingLabel | None) -> CardKey:
    """What a card's lines depend on besides the card itself."""
    unit = card.response.id if card.response is not None else card.target_model
    return (unit, card.number, annotator, pending)


def card_body(card: Card, annotator: str | None, pending: PendingLabel | None) -> RenderableType:
    """A card's content: the response, what is revealed of it, the scores. Pure: safe to
    build off the UI thread."""
    parts: list[RenderableType] = []
    if pending is not None:
        parts.append(
            Text(
                f"Your label was NOT saved: {pending.reason}\nIt stays here; ctrl+s tries "
                "again (also every few seconds), u discards it.",
                style="bold",
            )
        )
    if card.response is None:
        parts.append(Text("no free-form response from this model", style="italic"))
    else:
        parts.append(_response_text(card.response.text))
    if not card.revealed:
        parts.append(
            Text(
                "blind: model and raters shown once you label this; gold and scores once the "
                "item is done (b: blind off)",
                style="dim italic",
            )
        )
        return Group(*parts)
    verdicts = list(card.response.verdicts if card.response else ())
    if card.scores_revealed:
        verdicts += list(card.model_verdicts)
    others = [
        v for v in verdicts if not (v.rater.kind is RaterKind.HUMAN and v.rater.name == annotator)
    ]
    lines = Text()
    if card.blind and card.mine is not None and card.response is not None:
        lines.append(
            f"revealed by your label: model {printable(card.target_model)}\n", style="bold"
        )
    for verdict in others:
        if verdict.rater.kind is RaterKind.MCQ_LOGPROB:
            continue
        lines.append(
            f"{KIND_NAMES[verdict.rater.kind]} {printable(verdict.rater.name)}: ", style="dim"
        )
        _append_label(lines, verdict)
        lines.append("\n")
    if not card.scores_revealed and card.model_verdicts:
        lines.append(
            "item-level scores of this model: hidden until every response of the item has "
            "your label\n",
            style="dim italic",
        )
    if lines:
        lines.rstrip()
        parts.append(lines)
    for verdict in others:
        if verdict.rater.kind is RaterKind.MCQ_LOGPROB:
            parts.append(_logprob_chart(verdict))
    return Group(*parts)


def _response_text(text: str | None) -> RenderableType:
    if not text:
        return Text("(empty response)", style="italic")
    if len(text) > LONG_TEXT:  # never highlight (or lay out) megabytes: cut, v shows it all
        return clipped(text)
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        try:
            pretty = json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
        except json.JSONDecodeError:
            return Text(text)
        # a regex highlighter: pygments' Syntax costs several ms per card on every move
        return JSON_HIGHLIGHTER(Text(pretty))
    return Text(text)


def _append_label(text: Text, verdict: Verdict) -> None:
    if verdict.status is VerdictStatus.INVALID:
        text.append("INVALID", style="bold reverse")
        raw = (verdict.raw or "").replace("\n", " ")
        text.append(f"  raw: {raw[:160]}{'…' if len(raw) > 160 else ''}", style="italic")
    elif verdict.label is not None:
        text.append(verdict.label.value, style="bold")
    else:
        text.append(verdict.status.value, style="italic")


def _logprob_chart(verdict: Verdict) -> RenderableType:
    scores = verdict.scores
    lls = scores.get("loglikelihoods") or scores.get("scores_raw")
    title = Text(f"log-prob MCQ {printable(verdict.rater.name)}", style="dim")
    if not isinstance(lls, list) or len(lls) != len(LABELS):
        title.append(": ")
        _append_label(title, verdict)
        return title
    values = [float(v) for v in lls]
    raw = Label.named(scores.get("pred_raw")) or verdict.label
    norm = Label.named(scores.get("pred_norm") or scores.get("pred_norm_chars"))
    low, high = min(values), max(values)
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True, min_width=11)
    table.add_column(no_wrap=True, width=BAR_WIDTH)
    table.add_column(no_wrap=True, justify="right")
    table.add_column(no_wrap=True)
    for label, value in zip(LABELS, values, strict=True):
        share = 1.0 if high == low else (value - low) / (high - low)
        filled = max(1, round(share * BAR_WIDTH))
        marks = []
        if label is raw:
            marks.append("◀ raw")
        if label is norm:
            marks.append("◀ norm")
        table.add_row(
            f"{label.option + 1} {SHORT[label]}",
            "█" * filled + "·" * (BAR_WIDTH - filled),
            f"{value:10.2f}",
            " ".join(marks),
        )
    if scores.get("scoring") or "api-suite" in verdict.rater.name:
        title.append("  (not likelihoods: see the rater's config)", style="italic")
    return Group(title, table)
