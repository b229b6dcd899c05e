"""Benchmark the review screen's search at 100,000 items on SQLite (and PostgreSQL if given).

Builds the synthetic When2Call items of bench_review.py, then times what the screen runs for a
search: the count of matching items, the first window of 200, and what the screen runs (every
matching id in order, then the first 200 rows), median of 5 warm calls, for
searches from one hit to most items. On SQLite each is also timed without the trigram table
(the LIKE scan the index replaced), and each count is checked against that scan.

    .venv/bin/python bench/bench_search.py [--items 100000] [--corpus synthetic|real]
        [--pg-url postgresql+psycopg://postgres@127.0.0.1:55432/postgres]

`--corpus real` (issue 21): the 300 real When2Call judge items (../shared/data, read by path)
repeated to `--items`, each copy with a fresh uuid and its question's words reshuffled
(seeded): a realistic vocabulary, where the synthetic questions draw on about 70 words.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import tempfile
import time
import uuid as uuidlib
from collections import Counter
from pathlib import Path

from pg_scratch import fresh_pg
from review_data import DATASET, write_items
from review_figures import load_average, median_ms
from sqlalchemy.engine import make_url

from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services, open_services

MODE = ReviewMode.ITEM_QA
PG_DATABASE = "w2c_bench_search"


REAL = (
    Path(os.environ.get("W2C_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    / "when2call"
    / "when2call_test_llm_judge.jsonl"
)
WORD = re.compile(r"[A-Za-z]{4,}")


def write_real(path: Path, n: int, seed: int) -> list[tuple[str, str]]:
    """The real items repeated to `n`, words of each copy's question reshuffled; returns the
    searches to time on it (picked from the corpus itself)."""
    rng = random.Random(seed)
    lines = [json.loads(line) for line in REAL.read_text(encoding="utf-8").splitlines() if line]
    words: Counter[str] = Counter()
    questions = []
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            item = dict(lines[i % len(lines)])
            tokens = item["question"].split()
            rng.shuffle(tokens)
            item["question"] = " ".join(tokens)
            item["uuid"] = str(uuidlib.UUID(int=rng.getrandbits(128), version=4))
            out.write(json.dumps(item) + "\n")
            if i < len(lines):  # one copy of each real item
                questions.append(item["question"])
                words.update(w.lower() for w in WORD.findall(item["question"]))
    common = words.most_common(1)[0][0]
    rare = next(w for w, c in sorted(words.items()) if c == 1 and len(w) >= 7)
    phrase = " ".join(questions[17].split()[2:4])
    return [
        ("common word", common),
        ("rare word", rare),
        ("phrase", phrase),
        ("word prefix", rare[:5]),
        ("no match", "quantum chromodynamics"),
        ("2 characters (scan)", "zq"),
    ]


def searches(
    services: Services, real: list[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """(what, search text): one hit, a phrase, a common word, nothing, two characters."""
    some = services.review.window(DATASET, ItemFilter(), MODE, None, 0, 1)[0]
    if real is not None:
        return [("uuid fragment (1 hit)", some.uuid[9:18]), *real]
    return [
        ("uuid fragment (1 hit)", some.uuid[9:18]),
        ("phrase", "São Paulo to Kraków"),
        ("common word", "invoice"),
        ("no match", "quantum chromodynamics"),
        ("2 characters (scan)", "zü"),
    ]


def time_searches(
    services: Services, label: str, real: list[tuple[str, str]] | None = None
) -> None:
    """Print count and window timings of every search on this database."""
    review = services.review
    items = services.store.items
    for what, search in searches(services, real):
        flt = ItemFilter(search=search)
        rows = []
        for indexed in (True, False) if items.indexed_search else (items.indexed_search,):
            items._indexed_search = indexed
            count_ms, _ = median_ms(lambda f=flt: review.count(DATASET, f, MODE, None))
            window_ms, _ = median_ms(lambda f=flt: review.window(DATASET, f, MODE, None, 0, 200))
            # What the review screen runs: every matching id in order, then the first rows.
            screen_ms, _ = median_ms(
                lambda f=flt: review.rows(
                    DATASET, review.order(DATASET, f, MODE, None)[:200], f, MODE, None
                )
            )
            hits = review.count(DATASET, flt, MODE, None)
            rows.append((indexed, count_ms, window_ms, screen_ms, hits))
        items._indexed_search = None
        if len({hits for *_, hits in rows}) != 1:
            raise SystemExit(f"{label}: the index and the scan disagree on {search!r}: {rows}")
        for indexed, count_ms, window_ms, screen_ms, hits in rows:
            how = "index" if indexed else "scan"
            print(
                f"{label:<10} {what:<24} {how:<6} count {count_ms:8.1f} ms   "
                f"window(0,200) {window_ms:8.1f} ms   screen {screen_ms:8.1f} ms   "
                f"{hits:>7} hits"
            )


def build(url: str, path: Path) -> Services:
    """Import the items file into the database at `url`."""
    services = open_services(url)
    start = time.perf_counter()
    report = services.imports.import_path(path, dataset=DATASET)
    took = time.perf_counter() - start
    print(f"imported {report.items_new} items into {make_url(url).get_backend_name()} "
          f"in {took:.1f} s", file=sys.stderr)  # fmt: skip
    return services


def main(argv: list[str] | None = None) -> int:
    """Build, time, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--pg-url", help="a PostgreSQL server URL to time there too")
    parser.add_argument("--corpus", choices=("synthetic", "real"), default="synthetic")
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="w2c-search-") as folder:
        path = Path(folder) / "items.jsonl"
        real = write_real(path, args.items, seed=2) if args.corpus == "real" else None
        if real is None:
            write_items(path, args.items, seed=2)
        targets = [("sqlite", f"sqlite:///{Path(folder) / 'search.db'}")]
        if args.pg_url:
            targets.append(("postgresql", fresh_pg(args.pg_url, PG_DATABASE)))
        for label, url in targets:
            services = build(url, path)
            try:
                time_searches(services, label, real)
            finally:
                services.close()
    print(f"load average at end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
