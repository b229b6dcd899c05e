"""Which response cards the review screen shows, in which order, and what each reveals.

The blind rules (docs/team.md): committing a label on a response reveals what belongs to that
response — its model and the other raters' verdicts on it. The gold label and the item-level
scores (a log-prob or MCQ-index reading of a model on the item) are revealed only when every
response of the item in the annotator's queue carries their label (in item QA: once the item
label is in). Nothing else reaches the screen before that.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from w2c_tui.domain.labels import RaterKind, VerdictStatus
from w2c_tui.domain.models import ItemDetail, Response, Verdict
from w2c_tui.domain.review import ReviewMode
from w2c_tui.domain.team import Seen


@dataclass(frozen=True, slots=True)
class Card:
    """One response (or a model's scores without a response) as the panel shows it."""

    target_model: str
    response: Response | None
    model_verdicts: tuple[Verdict, ...]
    number: int
    mine: Verdict | None
    revealed: bool
    """The model's name and the other raters' verdicts on this response may be shown."""
    scores_revealed: bool = True
    """The item-level scores of this model may be shown (they go with the gold label)."""
    queued: bool = True
    """The response is in the annotator's queue (or there is no queue for this item)."""
    blind: bool = False
    """Shown in blind mode (what is revealed was earned by a label)."""

    @property
    def labelable(self) -> bool:
        """Only responses can be labelled."""
        return self.response is not None and self.response.id is not None


def own_verdict(response: Response, annotator: str | None) -> Verdict | None:
    """The annotator's current label on a response."""
    for verdict in response.verdicts:
        if (
            verdict.rater.kind is RaterKind.HUMAN
            and verdict.rater.name == annotator
            and verdict.status is VerdictStatus.OK
        ):
            return verdict
    return None


def queue_responses(detail: ItemDetail) -> list[Response]:
    """The responses the annotator owes a label: the assigned ones, else every response."""
    labelable = [r for r in detail.responses if r.id is not None]
    if detail.assigned:
        return [r for r in labelable if r.id in detail.assigned]
    return labelable


def gold_revealed(detail: ItemDetail, annotator: str | None, blind: bool, mode: ReviewMode) -> bool:
    """Whether the gold label and the item-level scores may be shown now."""
    if not blind:
        return True
    if mode is ReviewMode.ITEM_QA:
        return detail.qa.label is not None
    owed = queue_responses(detail)
    return bool(owed) and all(own_verdict(r, annotator) is not None for r in owed)


def seen_for(card: Card | None, gold: bool, blind: bool, mode: ReviewMode) -> Seen:
    """What the annotator has seen of the unit they are about to label."""
    if not blind:
        return Seen.OPEN
    if mode is ReviewMode.ITEM_QA:
        return Seen.GOLD if gold else Seen.BLIND
    if card is None or card.mine is None:
        return Seen.BLIND
    return Seen.GOLD if gold else Seen.REVEALED


def build_cards(
    detail: ItemDetail, annotator: str | None, blind: bool, mode: ReviewMode = ReviewMode.RESPONSES
) -> list[Card]:
    """Cards in display order; blind mode shuffles them so position does not name the model."""
    entries: list[tuple[str, Response | None, tuple[Verdict, ...]]] = []
    for panel in detail.models:
        if panel.responses:
            entries.extend((panel.target_model, r, panel.model_verdicts) for r in panel.responses)
        else:
            entries.append((panel.target_model, None, panel.model_verdicts))
    if blind:
        salt = f"{annotator}:{detail.item.uuid}"
        entries.sort(
            key=lambda e: hashlib.sha256(
                f"{salt}:{e[0]}:{e[1].id if e[1] else ''}".encode()
            ).hexdigest()
        )
    gold = gold_revealed(detail, annotator, blind, mode)
    cards = []
    for number, (model, response, model_verdicts) in enumerate(entries, 1):
        mine = own_verdict(response, annotator) if response else None
        if not blind:
            revealed = True
        elif mode is ReviewMode.ITEM_QA or response is None:
            revealed = gold
        else:
            revealed = mine is not None
        cards.append(
            Card(
                target_model=model,
                response=response,
                model_verdicts=model_verdicts,
                number=number,
                mine=mine,
                revealed=revealed,
                scores_revealed=gold,
                blind=blind,
                queued=not detail.assigned
                or (response is not None and response.id in detail.assigned),
            )
        )
    return cards
