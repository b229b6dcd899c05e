"""Benchmark: what the schema labelling screen reads before it can show the first unit, and
per step after that.

It reads the units named only (`SchemaService.unit_refs`: ids, uuid, the item's random key)
and one unit's text when it gets there (`SchemaService.unit`); it used to read every unit whole
before opening (683 ms at 20,000 items, bench/README.md). Timed on a fresh SQLite file with N
synthetic items (each with one tool) and a one-question item schema, in a temporary folder:
opening (the names and the first unit), then reading the next 100 units one by one.

Run: ``.venv/bin/python bench/bench_schema_open.py [--items N]``
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from w2c_tui.services import open_services

SCHEMA = 'name = "bench"\nunit = "item"\n\n[[questions]]\nname = "ok"\noptions = ["yes", "no"]\n'
LABELS = ("direct", "tool_call", "request_for_info", "cannot_answer")
TOOL = {"name": "get_time", "description": "The time in a city.", "parameters": {}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        items = Path(folder) / "items.jsonl"
        with items.open("w", encoding="utf-8") as out:
            for i in range(args.items):
                record = {
                    "uuid": f"b-{i:06d}",
                    "question": f"What time is it in city {i}? " + "Please be brief. " * 10,
                    "correct_answer": "tool_call",
                    "answers": {k: k for k in LABELS},
                    "tools": [json.dumps(TOOL)],
                }
                out.write(json.dumps(record) + "\n")
        (Path(folder) / "bench.toml").write_text(SCHEMA, encoding="utf-8")
        svc = open_services(f"sqlite:///{folder}/w.db")
        try:
            svc.imports.import_path(items, dataset="big")
            svc.schemas.add(Path(folder) / "bench.toml")
            start = time.perf_counter()
            refs = svc.schemas.unit_refs("bench", "big")
            first = svc.schemas.unit("bench", refs[0].unit)
            open_s = time.perf_counter() - start
            start = time.perf_counter()
            steps = [svc.schemas.unit("bench", ref.unit) for ref in refs[1:101]]
            step_s = (time.perf_counter() - start) / len(steps)
        finally:
            svc.close()
    assert len(refs) == args.items and first.item_uuid == refs[0].item_uuid
    print(f"{args.items:,} items: opening (names + the first unit) {open_s * 1000:,.0f} ms;")
    print(f"each next unit {step_s * 1000:.2f} ms (mean of {len(steps)})")


if __name__ == "__main__":
    main()
