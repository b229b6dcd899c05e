"""How long the outcome exports take on a large dataset.

Builds N items by repeating the bundled demo's 30 lines with fresh uuids (or `--source FILE`,
e.g. the real 300-item judge file), imports them into a fresh SQLite database, has two
annotators label 10 % of the items in item QA and flag 5 %, adjudicates a few, then times the
QA summary, `items export` in each format, the preference pairs and the joined table.

    .venv/bin/python bench/bench_outcomes.py                       # 20,000 items
    .venv/bin/python bench/bench_outcomes.py --items 3652 \
        --source ../shared/data/when2call/when2call_test_llm_judge.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from w2c_tui.domain.labels import LABELS, Label  # noqa: E402
from w2c_tui.domain.outcomes import (  # noqa: E402
    CleanOptions,
    GoldSource,
    ItemFormat,
    Ratio,
    TableFormat,
)
from w2c_tui.services import open_services  # noqa: E402

DEMO = ROOT / "w2c_tui" / "demo" / "when2call_demo.jsonl"


def build(source: Path, n: int, out: Path) -> None:
    """N lines cycling through `source`, each with a fresh uuid (json.dumps layout kept)."""
    lines = [json.loads(x) for x in source.read_text(encoding="utf-8").splitlines() if x]
    with out.open("w", encoding="utf-8") as handle:
        for k in range(n):
            obj = dict(lines[k % len(lines)])
            obj["uuid"] = str(uuid.UUID(int=k + 1, version=4))
            handle.write(json.dumps(obj) + "\n")


def timed(label: str, fn: Callable[[], object], rows: list[tuple[str, float]]) -> object:
    start = time.perf_counter()
    result = fn()
    rows.append((label, time.perf_counter() - start))
    print(f"  {label}: {rows[-1][1]:.2f} s", file=sys.stderr)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20000)
    parser.add_argument("--source", type=Path, default=DEMO)
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    rows: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = folder / "items.jsonl"
        build(args.source, args.items, data)
        svc = open_services(f"sqlite:///{folder / 'w.db'}")
        try:
            timed("import", lambda: svc.imports.import_path(data, dataset="big"), rows)
            items = svc.store.item_qa.items("big")
            for k, item in enumerate(items):
                if k % 10 == 0:
                    svc.review.label_item("ann", item.id, item.gold or Label.TOOL_CALL)
                if k % 20 == 0:
                    svc.review.set_flag("ben", item.id, "qca_vague", True)
                if k % 500 == 5:
                    svc.review.label_item("ann", item.id, LABELS[0])
            timed("qa summary", lambda: svc.qa.summary("big"), rows)
            options = CleanOptions(drop_flags=frozenset({"any"}), gold=GoldSource.QA_CONSENSUS)
            for fmt in ItemFormat:
                out = folder / f"clean{fmt.suffix or '-hf'}"
                timed(
                    f"items export {fmt.value}",
                    lambda fmt=fmt, out=out: svc.exports.items("big", fmt, options, out),
                    rows,
                )
            timed(
                "export preference 2:1",
                lambda: svc.preference.export("big", 1, Ratio(2, 1), folder / "pref.jsonl"),
                rows,
            )
            timed(
                "export table csv",
                lambda: svc.exports.table("big", TableFormat.CSV, folder / "t.csv"),
                rows,
            )
        finally:
            svc.close()
    print(f"{args.items} items from {args.source.name}; load {load_start:.2f} → "
          f"{os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")  # fmt: skip
    print("| step | seconds |\n|---|---:|")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.2f} |")


if __name__ == "__main__":
    main()
