"""The changelog written beside a cleaned export: every dropped or relabelled item and why."""

from __future__ import annotations

from datetime import UTC, datetime

from w2c_tui.domain.labels import Label
from w2c_tui.domain.outcomes import Change, ChangeKind, CleanPlan

SECTIONS = (
    (ChangeKind.DROPPED, "Dropped"),
    (ChangeKind.RELABELLED, "Relabelled"),
    (ChangeKind.TIE_KEPT, "Ties: the dataset's gold kept"),
)


def _cell(text: str) -> str:
    """Markdown table cell text: pipes escaped, one line."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _label(label: Label | None) -> str:
    return label.value if label is not None else "—"


def _why(change: Change) -> str:
    parts = [change.reason]
    if change.humans:
        parts.append("humans: " + ", ".join(f"{n}: {lab.value}" for n, lab in change.humans))
    if change.note:
        parts.append(f"note: {change.note}")
    return "; ".join(parts)


def changelog_markdown(plan: CleanPlan, export: str, written: int) -> str:
    """The changelog of `plan`, exported as `export` with `written` items."""
    options = plan.options
    drop = ", ".join(sorted(options.drop_flags)) or "none"
    lines = [
        f"# Changelog of {export}",
        "",
        f"- dataset: {plan.dataset} ({plan.n_items} items, {plan.n_reviewed} reviewed in item QA)",
        f"- written: {written} items; dropped {plan.count(ChangeKind.DROPPED)}, "
        f"relabelled {plan.count(ChangeKind.RELABELLED)}, "
        f"ties kept {plan.count(ChangeKind.TIE_KEPT)}",
        f"- options: --gold {options.gold.value}; --drop-flagged {drop}; "
        f"--only-reviewed {'yes' if options.only_reviewed else 'no'}",
        f"- made: {datetime.now(UTC).isoformat(timespec='seconds')}",
    ]
    for kind, title in SECTIONS:
        entries = [c for c in plan.changes if c.kind is kind]
        lines += ["", f"## {title} ({len(entries)})", ""]
        if not entries:
            lines.append("(none)")
            continue
        lines += ["| line | uuid | gold | written | why |", "|---:|---|---|---|---|"]
        for c in entries:
            lines.append(
                f"| {c.position + 1} | {_cell(c.uuid)} | {_label(c.dataset_gold)} | "
                f"{_label(c.gold) if kind is not ChangeKind.DROPPED else 'dropped'} | "
                f"{_cell(_why(c))} |"
            )
    return "\n".join(lines) + "\n"
