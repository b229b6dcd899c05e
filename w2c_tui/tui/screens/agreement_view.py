"""Where the user is on the agreement dashboard (kept between visits) and the keys that move
them there."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.binding import Binding, BindingType

SLICINGS: list[str | None] = [None, "gold", "tools", "source", "model"]
NARROW = 120
"""Below this many columns the raters list starts hidden."""
KEYS = [
    (
        "1–8",
        "tabs: overview · judges · drill-down · calibration · metrics · slices · QA summary · "
        "corrected scores",
    ),
    ("d", "drill-down: next rater"),
    ("m", "drill-down: into the matrix (arrows pick a cell, its units appear below)"),
    ("enter", "on a unit: open it on the review screen (a brings you back here)"),
    ("s", "slices: none → gold class → tool count → source → model"),
    ("u", "units: responses (item × model) or items (item QA)"),
    ("i", "invalid outputs: missing, or a category of their own (always wrong)"),
    ("f", "show / hide the raters list (space chooses, then r)"),
    ("r", "recompute (after choosing raters on the left with space)"),
    ("escape / a", "back to the review screen"),
]


@dataclass
class AgreementView:
    """Where the user was on the dashboard (kept between visits)."""

    tab: str = "tab-overview"
    rater: str | None = None
    cell: tuple[int, int] | None = None
    unit_kind: str = "behaviour"
    invalid_mode: str = "missing"
    by: str | None = None
    raters: list[str] | None = None
    scroll: dict[str, float] = field(default_factory=dict)


AGREEMENT_BINDINGS: list[BindingType] = [
    Binding("escape,a", "close", "back", id="agreement-close"),
    Binding("question_mark", "help", "keys", id="agreement-help"),
    Binding("r", "recompute", "recompute", id="agreement-recompute"),
    Binding("s", "slices", "slices", id="agreement-slices"),
    Binding("d", "next_rater", "next rater", id="agreement-next-rater"),
    Binding("m", "matrix", "matrix", id="agreement-matrix"),
    Binding("u", "unit_kind", "units", id="agreement-units"),
    Binding("i", "invalid_mode", "invalid", id="agreement-invalid"),
    Binding("f", "raters_panel", "raters", id="agreement-raters-panel"),
    Binding("J", "judge_lab", "judge lab", id="agreement-judge-lab"),
    *[
        Binding(str(n), f"tab('{tab}')", name, id=f"agreement-tab-{n}", show=False)
        for n, tab, name in (
            (1, "tab-overview", "overview"),
            (2, "tab-judges", "judges"),
            (3, "tab-drill", "drill-down"),
            (4, "tab-calibration", "calibration"),
            (5, "tab-metrics", "metrics"),
            (6, "tab-slices", "slices"),
            (7, "tab-qa", "QA summary"),
            (8, "tab-corrected", "corrected scores"),
        )
    ],
]
