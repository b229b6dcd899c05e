"""A blind unit's pre-label view says nothing of gold, measured on the real judge file.

For every item metadata field the item pane shows before the label (domain.blind.item_facts,
the function the pane itself renders) and for the number the list and title show (the place
in the annotator's blind order), a one-feature classifier of gold — the commonest gold of the
feature's value in the training folds, 5-fold cross-validation — must not beat chance (the
commonest gold's share) by more than 10 points. The feature is tried as the value itself, as
present / absent, and as a length bucket. The task itself (question, tools, candidate answers)
is what the annotator judges and is always shown; its figures are printed, not held to this.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence
from pathlib import Path

from w2c_tui.domain.blind import GOLD_REVEALING, MAX_GAIN, item_facts, metadata
from w2c_tui.domain.models import Item
from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode
from w2c_tui.services import Services

FOLDS = 5


def cv_accuracy(values: Sequence[Hashable], golds: Sequence[Hashable], seed: int = 0) -> float:
    """Majority-class-per-value accuracy, `FOLDS`-fold cross-validated (an unseen value gets
    the training folds' commonest gold)."""
    order = list(range(len(golds)))
    random.Random(seed).shuffle(order)
    hits = 0
    for fold in range(FOLDS):
        test = [i for n, i in enumerate(order) if n % FOLDS == fold]
        train = [i for n, i in enumerate(order) if n % FOLDS != fold]
        by_value: dict[Hashable, Counter[Hashable]] = defaultdict(Counter)
        for i in train:
            by_value[values[i]][golds[i]] += 1
        fallback = Counter(golds[i] for i in train).most_common(1)[0][0]
        for i in test:
            counts = by_value.get(values[i])
            guess = counts.most_common(1)[0][0] if counts else fallback
            hits += guess == golds[i]
    return hits / len(golds)


def length_bucket(value: object) -> int:
    """Powers of two of the text's length (0 when absent)."""
    return len(str(value)).bit_length() if value is not None else 0


def features(name: str, values: list[str | None]) -> dict[str, list[Hashable]]:
    """The ways one field can be read: its value, whether it is there, how long it is."""
    return {
        f"{name} (value)": list(values),
        f"{name} (present)": [v is not None for v in values],
        f"{name} (length)": [length_bucket(v) for v in values],
    }


def real_items(services: Services, judge_file: Path) -> tuple[str, list[Item]]:
    services.imports.import_path(judge_file)
    dataset = services.datasets.resolve(None)
    ids = services.review.order(dataset, ItemFilter(), ReviewMode.ITEM_QA, None)
    return dataset, [services.review.detail(i, None).item for i in ids]


def test_no_field_of_the_blind_view_predicts_gold(services: Services, judge_file: Path) -> None:
    dataset, items = real_items(services, judge_file)
    assert len(items) == 300
    golds = [item.gold for item in items]
    chance = Counter(golds).most_common(1)[0][1] / len(golds)
    shown = services.review.pre_label(dataset)
    facts = [{f.name: f.value for f in item_facts(i, blind=True, shown=shown)} for i in items]
    names = sorted({name for fact in facts for name in fact})
    assert names, "the blind view shows no metadata at all: the measure would prove nothing"
    assert not set(names) & GOLD_REVEALING
    columns: dict[str, list[Hashable]] = {}
    for name in names:
        columns.update(features(name, [fact.get(name) for fact in facts]))
    # the number shown while blind: the place in this annotator's blind order, in tenths
    annotator = "alice"
    blind = ItemFilter(order=ListOrder.SHUFFLED, blind=True)
    order = services.review.order(dataset, blind, ReviewMode.ITEM_QA, annotator)
    place = {item_id: n for n, item_id in enumerate(order)}
    columns["number (tenth of the blind order)"] = [place[i.id] * 10 // len(order) for i in items]
    scores = {name: cv_accuracy(values, golds) for name, values in columns.items()}
    print(f"chance {chance:.3f}; " + "; ".join(f"{k} {v:.3f}" for k, v in scores.items()))
    leaks = {k: round(v, 3) for k, v in scores.items() if v > chance + MAX_GAIN}
    assert not leaks, f"fields of the blind view predict gold (chance {chance:.3f}): {leaks}"


def test_the_measure_finds_what_the_blind_view_holds_back(
    services: Services, judge_file: Path
) -> None:
    """The same measure on what waits for the reveal: it would have caught every one."""
    _, items = real_items(services, judge_file)
    golds = [item.gold for item in items]
    chance = Counter(golds).most_common(1)[0][1] / len(golds)
    every = [{f.name: f.value for f in metadata(i)} for i in items]
    scores = {}
    for name in ("held_out_param", "target_tool"):
        for feature, values in features(name, [f.get(name) for f in every]).items():
            scores[feature] = cv_accuracy(values, golds)
    # the file position (the old number): the real file is sorted by gold
    scores["file position (tenth)"] = cv_accuracy([i.position * 10 // 300 for i in items], golds)
    print("; ".join(f"{k} {v:.3f}" for k, v in scores.items()))
    for name in ("held_out_param (present)", "target_tool (present)", "file position (tenth)"):
        assert scores[name] > chance + MAX_GAIN, name
    asks = next(i for i in items if i.held_out_param)  # a request_for_info item
    revealed = {f.name for f in item_facts(asks, blind=False)}
    assert {"source_id", "held_out_param", "target_tool", "kind"} <= revealed  # after: all


def test_the_task_itself_is_measured_too(services: Services, judge_file: Path) -> None:
    """Question, tools and candidate answers are what the annotator judges (always shown);
    their figures are printed for the record and none is a giveaway."""
    _, items = real_items(services, judge_file)
    golds = [item.gold for item in items]
    chance = Counter(golds).most_common(1)[0][1] / len(golds)
    columns: dict[str, list[Hashable]] = {
        "tools (count)": [i.n_tools for i in items],
        "question (length)": [length_bucket(i.question) for i in items],
    }
    for name in ("direct", "tool_call", "request_for_info", "cannot_answer"):
        columns[f"answer {name} (length)"] = [
            length_bucket(dict(i.answers).get(name)) for i in items
        ]
    scores = {name: cv_accuracy(values, golds) for name, values in columns.items()}
    print(f"chance {chance:.3f}; " + "; ".join(f"{k} {v:.3f}" for k, v in scores.items()))
    assert max(scores.values()) < chance + 0.2
