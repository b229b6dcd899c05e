"""Assignment plans: who labels which unit, with K-fold overlap, balanced and reproducible."""

from __future__ import annotations

from dataclasses import replace

from w2c_tui.db.assignments import NewAssignment
from w2c_tui.db.store import Store
from w2c_tui.domain.blind import BlindPolicy, PlanBlind
from w2c_tui.domain.errors import W2CError
from w2c_tui.domain.team import (
    AssignedUnit,
    AssignUnits,
    PlanReport,
    QueueProgress,
    Selection,
    queue_key,
)
from w2c_tui.services.planning import assign_units, select_units


def parse_annotators(text: str) -> list[str]:
    """`a,b,c` → ['a', 'b', 'c']; names must be non-empty and distinct."""
    names = [part.strip() for part in text.split(",")]
    if not names or any(not n for n in names):
        raise W2CError(f"--annotators must be a comma-separated list of names (got {text!r})")
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise W2CError(f"--annotators names {', '.join(twice)} more than once")
    return names


class AssignmentService:
    """Plans, shows and clears assignments; tells the review screen about queues."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def assign(
        self,
        dataset: str,
        annotators: list[str],
        *,
        overlap: int,
        seed: int,
        selection: Selection,
        dry_run: bool = False,
    ) -> PlanReport:
        """Create or extend the dataset's plan so every selected unit has `overlap` annotators.

        The same arguments give the same plan; a larger selection with the same seed keeps
        every existing assignment and adds the new units. A plan keeps its overlap and seed:
        changing them needs `clear` first (moving labelled units silently would be worse).
        """
        store = self._store.assignments
        if selection.sample is not None and (selection.per_label or selection.per_tools):
            raise W2CError("--sample cannot be combined with --per-label / --per-tools")
        for name, value in (
            ("--sample", selection.sample),
            ("--per-label", selection.per_label),
            ("--per-tools", selection.per_tools),
        ):
            if value is not None and value < 1:
                raise W2CError(f"{name} must be at least 1 (got {value})")
        if overlap < 1:
            raise W2CError(f"--overlap must be at least 1 (got {overlap})")
        if overlap > len(annotators):
            raise W2CError(
                f"--overlap {overlap} needs at least {overlap} annotators; "
                f"--annotators names {len(annotators)}"
            )
        plan = store.plan(dataset, selection.units)
        if plan is not None and (plan.overlap, plan.seed) != (overlap, seed):
            raise W2CError(
                f"dataset {dataset!r} already has a plan of {selection.units.value} with overlap "
                f"{plan.overlap} and seed {plan.seed}; extend it with the same --overlap and "
                "--seed, or `w2c assign clear` it first"
            )
        candidates = store.candidates(dataset, selection.units)
        if not candidates:
            what = "responses" if selection.units is AssignUnits.RESPONSES else "items"
            raise W2CError(f"dataset {dataset!r} has no {what} to assign")
        chosen, notes = select_units(candidates, selection, seed)
        existing = plan.assigned if plan else {}
        pairs = assign_units(chosen, annotators, overlap, seed, existing)
        new = [NewAssignment(a, u, queue_key(seed, a, u.uuid)) for a, u in pairs]
        loads: dict[str, int] = {a: 0 for a in annotators}
        for people in existing.values():
            for person in people:
                loads[person] = loads.get(person, 0) + 1
        for person, _ in pairs:
            loads[person] += 1
        known = set(existing)
        report = PlanReport(
            dataset=dataset,
            units=selection.units,
            overlap=overlap,
            seed=seed,
            selection=selection.describe(),
            selected=len(chosen),
            new_units=sum(1 for u in chosen if u.key not in known),
            new_assignments=len(new),
            loads=dict(sorted(loads.items())),
            notes=tuple(notes),
        )
        if not report.balanced:
            report = replace(
                report,
                notes=(
                    *report.notes,
                    "loads differ by more than one: annotators were added to an existing plan, "
                    "whose assignments are never moved",
                ),
            )
        if new and not dry_run:
            config: dict[str, object] = {
                "annotators": sorted(loads),
                "selection": selection.describe(),
            }
            store.save(
                dataset,
                selection.units,
                overlap=overlap,
                seed=seed,
                config=config,
                new=new,
            )
        return report

    def default_units(self, dataset: str) -> AssignUnits:
        """Responses when the dataset has any (behaviour labels), else the items (item QA)."""
        if self._store.assignments.candidates(dataset, AssignUnits.RESPONSES):
            return AssignUnits.RESPONSES
        return AssignUnits.ITEMS

    def show(self, dataset: str, annotator: str | None = None) -> list[AssignedUnit]:
        """Every assigned unit in queue order (optionally one annotator's)."""
        return self._store.assignments.show(dataset, annotator)

    def clear(self, dataset: str, annotator: str | None = None) -> int:
        """Remove assignments (never labels); returns how many were removed."""
        return self._store.assignments.clear(dataset, annotator)

    def annotators(self) -> list[str]:
        """Every human annotator in the database (for switching who labels)."""
        return self._store.team.annotators()

    def blind(
        self, dataset: str, units: AssignUnits, annotator: str | None = None
    ) -> PlanBlind | None:
        """The plan's blind policy (with `annotator`: only a plan that assigns them units)."""
        return self._store.assignments.blind(dataset, units, annotator)

    def set_blind(self, dataset: str, units: AssignUnits, policy: BlindPolicy) -> None:
        """Set a plan's blind policy (`w2c assign --blind`)."""
        if not self._store.assignments.set_blind(dataset, units, policy):
            raise W2CError(f"dataset {dataset!r} has no plan of {units.value} to set --blind on")

    def queue(self, dataset: str, annotator: str, units: AssignUnits) -> QueueProgress | None:
        """The annotator's assigned / done on this kind of unit (None: no assignments)."""
        return self._store.assignments.progress(dataset, annotator, units)
