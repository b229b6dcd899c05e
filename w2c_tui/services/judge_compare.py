"""`w2c judge compare`: two prompt versions of one judge on the split's units, against the
humans (stats.prompt_compare has the statistics).

A judge run's rater carries its prompt version, `name@sha256[:12]` of the prompt's text, so
a judge model with two prompts is two raters, and a run of an unchanged prompt lands on the
same rater: the readings are cached by prompt hash. A version is named as the prompt's name
(`when2call-judge-v1`), `name@hash`, or the hash alone; a version without readings is refused
with the `w2c run start` command that makes them. The units are the split's dev part (or its
test part, which counts one use) that have a human reference and both versions' readings.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from w2c_tui.db.store import Store
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.labels import RaterKind
from w2c_tui.domain.review import UnitKind
from w2c_tui.services.consensus import consensus
from w2c_tui.services.metrics_compare import code
from w2c_tui.services.readings import RaterInfo, Readings, stored_readings
from w2c_tui.stats.prompt_compare import PromptComparison, compare_prompts


@dataclass(frozen=True)
class JudgeComparison:
    """Prompt A against prompt B of one judge on one part of the split."""

    dataset: str
    judge: str
    a: str
    b: str
    part: str
    test_uses: int
    units: list[str]
    result: PromptComparison

    def as_json(self) -> dict[str, object]:
        """The `w2c judge compare --json` document (difference = B − A)."""
        return {
            "dataset": self.dataset,
            "judge": self.judge,
            "a": self.a,
            "b": self.b,
            "split": self.part,
            "test_uses": self.test_uses,
            **self.result.as_json(),
            "right_to_wrong": [self.units[i] for i in self.result.right_to_wrong],
            "wrong_to_right": [self.units[i] for i in self.result.wrong_to_right],
        }


def _version(readings: Readings, judge: str, version: str) -> RaterInfo:
    """The judge rater whose prompt version matches `version` (name, name@hash or hash)."""
    mine = [r for r in readings.raters if r.kind is RaterKind.JUDGE and judge in (r.name, r.key)]
    if not mine:
        judges = sorted({r.name for r in readings.raters if r.kind is RaterKind.JUDGE})
        raise W2CError(
            f"no judge {judge!r} has read these responses (judges: {', '.join(judges) or 'none'})."
            f" Judge them first: w2c run start --method judge --model {judge} --judge-prompt "
            f"{version} --target-model MODEL --backend … (or add --start BACKEND here)"
        )
    wanted = {version, Path(version).stem} if version.endswith(".txt") else {version}
    found = []
    for rater in mine:
        prompt = str(rater.config.get("prompt", ""))
        name, _, digest = prompt.partition("@")
        if wanted & {prompt, name} or (len(version) >= 4 and digest.startswith(version)):
            found.append(rater)
    if len(found) == 1:
        return found[0]
    known = ", ".join(sorted(str(r.config.get("prompt", "?")) for r in mine))
    if found:
        raise W2CError(
            f"prompt {version!r} matches {len(found)} runs' prompts; name one as "
            f"name@hash ({known})"
        )
    raise W2CError(
        f"{judge} has no readings with prompt {version!r} (it has: {known}). Judge the stored "
        f"responses with it first: w2c run start --method judge --model {judge} "
        f"--judge-prompt {version} --target-model MODEL --backend … (or add --start BACKEND "
        "here)"
    )


def compare(
    store: Store,
    dataset: str,
    judge: str,
    a: str,
    b: str,
    *,
    part: str = "dev",
    bootstrap: int = 1000,
    seed: int = 0,
    min_humans: int = 1,
) -> JudgeComparison:
    """A vs B on the split's `part` (see the module); asking for test counts one use."""
    if part not in ("dev", "test"):
        raise W2CError(f"--split is dev or test, not {part!r}")
    split = store.splits.get(dataset)
    if split is None:
        raise W2CError(f"{dataset!r} has no split: draw one with `w2c split --test 0.3 --seed S`")
    readings = stored_readings(store.ratings, dataset, UnitKind.BEHAVIOUR)
    ra, rb = _version(readings, judge, a), _version(readings, judge, b)
    if ra.key == rb.key:
        raise W2CError(f"{a!r} and {b!r} are the same prompt version")
    ref = consensus(readings, min_humans).labels
    units = [
        u.key
        for u in readings.units
        if split.units.get(u.key) == part
        and u.key in ref
        and (u.key, ra.key) in readings.values
        and (u.key, rb.key) in readings.values
    ]
    if not units:
        raise W2CError(
            f"no {part} unit of {dataset!r} has a human reference and readings of both prompts"
        )
    uses = store.splits.use_test(dataset) if part == "test" else split.test_uses
    result = compare_prompts(
        np.array([ref[k].option for k in units]),
        np.array([code(readings.values[(k, ra.key)]) for k in units]),
        np.array([code(readings.values[(k, rb.key)]) for k in units]),
        B=bootstrap,
        seed=seed,
    )
    return JudgeComparison(
        dataset=dataset,
        judge=judge,
        a=str(ra.config.get("prompt", a)),
        b=str(rb.config.get("prompt", b)),
        part=part,
        test_uses=uses,
        units=units,
        result=result,
    )


def versions(store: Store, dataset: str) -> dict[str, list[str]]:
    """Judge model → its prompt versions with readings of responses (the judge lab's choices)."""
    readings = stored_readings(store.ratings, dataset, UnitKind.BEHAVIOUR)
    out: dict[str, list[str]] = {}
    for rater in readings.raters:
        prompt = rater.config.get("prompt")
        if rater.kind is RaterKind.JUDGE and prompt and rater.reading == "label":
            out.setdefault(rater.name, []).append(str(prompt))
    return {judge: sorted(found) for judge, found in sorted(out.items())}


class JudgeLabService:
    """What the judge lab screen asks: the choices, and a comparison as plain JSON data."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def versions(self, dataset: str) -> dict[str, list[str]]:
        """Judge model → prompt versions."""
        return versions(self._store, dataset)

    def split(self, dataset: str) -> dict[str, object] | None:
        """The dataset's split as `w2c split --json` writes it (None: no split yet)."""
        from w2c_tui.services.splits import show

        try:
            return show(self._store, dataset).as_json()
        except W2CError:
            return None

    def compare(self, dataset: str, judge: str, a: str, b: str, part: str) -> dict[str, object]:
        """`w2c judge compare --json`'s document (test: counts one use)."""
        return compare(self._store, dataset, judge, a, b, part=part).as_json()

    def item_id(self, dataset: str, unit: str) -> int:
        """The item of a unit key (`uuid@model`)."""
        return self._store.items.find(dataset, unit.split("@")[0]).id


def missing(store: Store, dataset: str, judge: str, wanted: list[str]) -> list[str]:
    """The versions in `wanted` that have no readings yet (to judge before comparing)."""
    readings = stored_readings(store.ratings, dataset, UnitKind.BEHAVIOUR)
    out = []
    for version in wanted:
        try:
            _version(readings, judge, version)
        except W2CError as error:
            if "has no readings with prompt" not in str(error) and "no judge" not in str(error):
                raise
            out.append(version)
    return out


def target_models(store: Store, dataset: str) -> list[str]:
    """The models whose responses the dataset holds (a judge run reads one at a time)."""
    readings = stored_readings(store.ratings, dataset, UnitKind.BEHAVIOUR)
    return sorted({u.target_model for u in readings.units if u.target_model})
