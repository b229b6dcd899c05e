"""The drill-down tab's text parts: per-class agreement beside the confusion matrix."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from w2c_tui.domain.dashboard import DrilldownDoc
from w2c_tui.present.numbers import estimate_text, f1, pct
from w2c_tui.present.numbers import num as fmt
from w2c_tui.tui.dashboard.common import ABBREV, LABEL_LEGEND, LABELS, table
from w2c_tui.tui.plain import cells


def per_class(drill: DrilldownDoc) -> RenderableType:
    """Per class, on exactly the units of the matrix above."""
    matrix = drill.matrix
    if matrix is None:
        return Text(drill.reason or "—", style="italic")
    classes = matrix.per_class
    t = table(
        "",
        "n",
        "prec.",
        "recall",
        "F1 ×100",
        "κ class vs rest [CI]",
        "α",
        "prev. H",
        "prev. R",
        title=f"per class, on the {matrix.n} units of the matrix",
    )
    for label in LABELS:
        c = classes[label]
        t.add_row(
            *cells(
                ABBREV[label],
                str(c.support),
                fmt(c.precision, 2),
                fmt(c.recall, 2),
                f1(c.f1),
                estimate_text(c.kappa),
                fmt(c.alpha.value),
                pct(c.prevalence_humans),
                pct(c.prevalence_rater),
            )
        )
    return Group(
        t,
        Text(
            f"{LABEL_LEGEND}. κ: Cohen's κ of the binarised labels (class vs rest); α: "
            "Krippendorff's α of the same binary labels; F1 is also the class's specific "
            "agreement (two raters); prev.: share of the class among the humans' (H) and the "
            "rater's (R) labels. "
            f"{matrix.n_disagreements} disagreement(s) listed below.",
            style="dim",
        ),
    )
