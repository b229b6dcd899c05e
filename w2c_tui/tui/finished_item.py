"""The finished item in blind mode: whether the annotator's labels reveal its gold, and the
one line that then shows what gold was beside those labels.

`mine` holds labels just committed that the item's detail (read before them) does not hold
yet: by response id, or None for the item's own label (item QA). They count in place of what
the detail holds, so a label that moves on to the next item needs no re-read of this one.
"""

from __future__ import annotations

from w2c_tui.domain.labels import Label
from w2c_tui.domain.models import ItemDetail, Response
from w2c_tui.domain.review import ReviewMode
from w2c_tui.tui.cards import own_verdict, queue_responses

Mine = dict[int | None, Label | None]
"""Labels just committed, by response id (None: the item's own label)."""


def own_label(response: Response, annotator: str, mine: Mine) -> Label | None:
    """The annotator's label on `response`: the one in `mine`, else the one the detail holds."""
    if response.id in mine:
        return mine[response.id]
    verdict = own_verdict(response, annotator)
    return verdict.label if verdict is not None else None


def reveals(detail: ItemDetail, mode: ReviewMode, annotator: str, mine: Mine) -> bool:
    """Whether the item's gold is revealed once `mine` is added to what `detail` holds (the
    rule of cards.gold_revealed: the item's label, or every response in the queue labelled)."""
    if mode is ReviewMode.ITEM_QA:
        return mine.get(None, detail.qa.label) is not None
    owed = queue_responses(detail)
    return bool(owed) and all(own_label(r, annotator, mine) is not None for r in owed)


def finished_line(
    number: str, detail: ItemDetail, mode: ReviewMode, annotator: str, mine: Mine
) -> str:
    """The finished item in one line: its number, gold and the annotator's labels."""
    item = detail.item
    gold = item.gold.value if item.gold else "—"
    if mode is ReviewMode.ITEM_QA:
        label = mine.get(None, detail.qa.label)
        return f"{number} done · gold {gold} · you: {label.value if label else '—'}"
    labels = []
    for response in queue_responses(detail):
        own = own_label(response, annotator, mine)
        if own is not None:
            labels.append(f"{own.value} ({response.target_model})")
    return f"{number} done · gold {gold} · you: {', '.join(labels)}"
