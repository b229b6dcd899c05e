"""Benchmark: what the schema labelling screen reads before it can show the first unit.

It used to read every unit whole (item text, tools parsed, response text) before opening;
now it reads the units named only (`SchemaService.unit_refs`: ids, uuid, the item's random
key) and reads one unit's text when it gets there (`SchemaService.unit`). Both are timed on a
fresh SQLite file with N synthetic items (each with one tool) and a one-question item schema,
in a temporary folder; the bench checks that both name the same units in the same order.

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
            whole = svc.schemas.units("bench", "big")
            whole_s = time.perf_counter() - start
            start = time.perf_counter()
            refs = svc.schemas.unit_refs("bench", "big")
            first = svc.schemas.unit("bench", refs[0].unit)
            refs_s = time.perf_counter() - start
        finally:
            svc.close()
    assert [u.unit for u in whole] == [r.unit for r in refs] and first == whole[0]
    print(f"{args.items:,} items: every unit whole {whole_s * 1000:,.0f} ms;")
    print(f"named only + the first unit {refs_s * 1000:,.0f} ms ({whole_s / refs_s:.1f}× less)")


if __name__ == "__main__":
    main()
