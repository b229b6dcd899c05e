"""Which response cards the review screen shows, in which order, and what each reveals."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from w2c_tui.domain.labels import RaterKind, VerdictStatus
from w2c_tui.domain.models import ItemDetail, Response, Verdict


@dataclass(frozen=True, slots=True)
class Card:
    """One response (or a model's scores without a response) as the panel shows it."""

    target_model: str
    response: Response | None
    model_verdicts: tuple[Verdict, ...]
    number: int
    mine: Verdict | None
    revealed: bool

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


def build_cards(detail: ItemDetail, annotator: str | None, blind: bool) -> list[Card]:
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
    cards = []
    for number, (model, response, model_verdicts) in enumerate(entries, 1):
        mine = own_verdict(response, annotator) if response else None
        cards.append(
            Card(
                target_model=model,
                response=response,
                model_verdicts=model_verdicts,
                number=number,
                mine=mine,
                revealed=not blind or mine is not None,
            )
        )
    return cards
