"""The lens part of the review state: which list is shown (filter, mode) and how (blind)."""

from __future__ import annotations

from w2c_tui.domain.blind import BlindPolicy
from w2c_tui.domain.review import ItemFilter, ListOrder, ReviewMode
from w2c_tui.domain.team import AssignUnits
from w2c_tui.tui.review_state import Notice, ReviewScope

MODE_UNITS = (
    (ReviewMode.RESPONSES, AssignUnits.RESPONSES),
    (ReviewMode.ITEM_QA, AssignUnits.ITEMS),
)
"""Each labelling mode and the kind of unit it labels."""


class ReviewLens:
    """Filter, labelling mode and blind mode per labelling mode."""

    def __init__(self) -> None:
        self.filter = ItemFilter()
        self.mode = ReviewMode.RESPONSES
        self.blind = {ReviewMode.RESPONSES: True, ReviewMode.ITEM_QA: False}
        self.blind_required: dict[ReviewMode, str] = {}
        """Modes whose assignment plan requires blind mode, with the plan's description."""
        self.no_responses = False
        """The dataset has no model responses (it opened in item QA)."""

    @property
    def is_blind(self) -> bool:
        """Blind mode in the current labelling mode."""
        return self.blind[self.mode]

    @property
    def view(self) -> ItemFilter:
        """The filter with the list's order: shuffled per annotator while blind."""
        order = ListOrder.SHUFFLED if self.is_blind else ListOrder.FILE
        return self.filter.with_(order=order, blind=self.is_blind)

    @property
    def units(self) -> AssignUnits:
        """The kind of unit the current mode labels."""
        return AssignUnits.ITEMS if self.mode is ReviewMode.ITEM_QA else AssignUnits.RESPONSES

    @property
    def mode_label(self) -> str:
        """The mode as the header shows it."""
        if self.no_responses and self.mode is ReviewMode.ITEM_QA:
            return f"{self.mode.display_name} (no responses in this dataset)"
        return self.mode.display_name

    def apply_plans(self, scope: ReviewScope) -> None:
        """Blind mode as the annotator's assignment plans say (docs/team.md): a plan with an
        overlap of 2 or more opens blind in both modes; `required` cannot be switched off."""
        self.blind = {ReviewMode.RESPONSES: True, ReviewMode.ITEM_QA: False}
        self.blind_required = {}
        for mode, units in MODE_UNITS:
            plan = scope.services.assignments.blind(scope.dataset, units, scope.annotator)
            if plan is None:
                continue
            self.blind[mode] = plan.opens_blind(self.blind[mode])
            if plan.policy is BlindPolicy.REQUIRED:
                self.blind_required[mode] = (
                    f"the assignment plan of {units.value} on {scope.dataset} requires blind "
                    f"mode (overlap {plan.overlap}); a lead sets it with `w2c assign --blind`"
                )

    def flip_blind(self) -> Notice | None:
        """Blind mode on / off in the current mode; a Notice (and no change) when the plan
        requires it."""
        if self.is_blind and self.mode in self.blind_required:
            return Notice(
                f"Blind mode stays on: {self.blind_required[self.mode]}.",
                severity="warning",
                title="Blind required",
            )
        self.blind[self.mode] = not self.blind[self.mode]
        return None

    def closed_while_blind(self, scope: ReviewScope, what: str) -> Notice | None:
        """Why `what` (a screen that shows other raters and gold of any unit) stays closed:
        blind mode is on in a mode where this annotator has units left (their queue's, else
        every unit of the dataset). None when it may open."""
        for mode, units in MODE_UNITS:
            if not self.blind[mode]:
                continue
            queue = scope.services.assignments.queue(scope.dataset, scope.annotator, units)
            if queue is not None:
                done, total, where = queue.done, queue.total, f"your {mode.display_name} queue"
            else:
                counted = scope.services.review.progress(scope.dataset, mode, scope.annotator)
                done, total, where = counted.done, counted.total, mode.display_name
            if done >= total:
                continue
            way_out = (
                f"blind mode is required there ({self.blind_required[mode]})"
                if mode in self.blind_required
                else f"or turn blind mode off in {mode.display_name} with b (your labels then "
                "record that you had seen everything)"
            )
            return Notice(
                f"{what} shows other raters' labels and gold of units you have not labelled. "
                f"It opens once {where} is done ({done}/{total}); {way_out}.",
                severity="warning",
                title="Closed while blind",
            )
        return None
