"""Benchmark the review screen's search at 100,000 items on SQLite and PostgreSQL, side by side.

The corpus is the real When2Call test items repeated, each copy's words reshuffled
(search_corpus.py); `--synthetic` uses bench_review.py's 70-word items instead. For each kind
of search it times what the screen runs: the count of matching items, and the list (every
matching id in order, then the first 200 rows); p50 and p95 of `--repeats` warm calls. Both
databases must find the same items (the set of uuids is compared), and on SQLite the trigram
table must find what a LIKE scan finds.

    .venv/bin/python bench/bench_search.py [--items 100000] [--repeats 20] [--synthetic]
        [--pg-url postgresql+psycopg://postgres@127.0.0.1:55432/postgres]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pg_scratch import drop_pg, fresh_pg
from review_data import DATASET, write_items
from review_figures import load_average
from search_corpus import WHEN2CALL_JUDGE, write_corpus
from sqlalchemy.engine import make_url

from w2c_tui.db.item_search import SearchIndex
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.services import Services, open_services

MODE = ReviewMode.ITEM_QA
PG_DATABASE = "w2c_bench_search"
SCREEN_ROWS = 200
WHEN2CALL_SEARCHES = (
    ("word in 1 source item", "sacramento"),
    ("word in 21 source items", "weather"),
    ("word in most items", "the"),
    ("two words", "current weather"),
    ("word prefix", "weath"),
    ("punctuation", "i'm"),
    ("punctuation only", "!!!"),
    ("no match", "quantum chromodynamics"),
    ("2 characters", "ab"),
)
SYNTHETIC_SEARCHES = (
    ("phrase", "São Paulo to Kraków"),
    ("common word", "invoice"),
    ("word prefix", "invoi"),
    ("no match", "quantum chromodynamics"),
    ("2 characters", "zü"),
)


@dataclass
class Timing:
    """One search on one database: milliseconds of each call, the hits and their uuids."""

    count_ms: list[float] = field(default_factory=list)
    screen_ms: list[float] = field(default_factory=list)
    hits: int = 0
    digest: str = ""


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of `values`."""
    ordered = sorted(values)
    rank = max(1, round(share * len(ordered) + 0.4999))
    return ordered[min(rank, len(ordered)) - 1]


def timed(call: Callable[[], object], repeats: int) -> list[float]:
    """Milliseconds of `repeats` calls after one untimed warm-up call."""
    call()
    took = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        took.append((time.perf_counter() - start) * 1000)
    return took


def searches(services: Services, synthetic: bool) -> list[tuple[str, str]]:
    """(what, search text): two uuid fragments of one item, then the corpus's searches."""
    some = services.review.window(DATASET, ItemFilter(), MODE, None, 1000, 1)[0]
    fixed = SYNTHETIC_SEARCHES if synthetic else WHEN2CALL_SEARCHES
    return [("uuid prefix", some.uuid[:8]), ("uuid middle", some.uuid[9:18]), *fixed]


def matched(services: Services, flt: ItemFilter) -> tuple[int, str]:
    """How many items match, and a digest of their uuids (the same set on every database)."""
    review = services.review
    ids = review.order(DATASET, flt, MODE, None)
    uuids = sorted(row.uuid for row in review.rows(DATASET, ids, flt, MODE, None))
    return len(ids), hashlib.sha256("\n".join(uuids).encode()).hexdigest()[:12]


def time_search(services: Services, search: str, repeats: int) -> Timing:
    """Count and list timings of one search."""
    review = services.review
    flt = ItemFilter(search=search)
    timing = Timing()
    timing.count_ms = timed(lambda: review.count(DATASET, flt, MODE, None), repeats)
    timing.screen_ms = timed(
        lambda: review.rows(
            DATASET, review.order(DATASET, flt, MODE, None)[:SCREEN_ROWS], flt, MODE, None
        ),
        repeats,
    )
    timing.hits, timing.digest = matched(services, flt)
    return timing


def check_sqlite_scan(services: Services, search: str, hits: int) -> None:
    """The trigram table finds what the LIKE scan it replaced finds."""
    items = services.store.items
    if items.search_index is not SearchIndex.TRIGRAM:
        return
    items._search_index = SearchIndex.SCAN
    try:
        scanned = services.review.count(DATASET, ItemFilter(search=search), MODE, None)
    finally:
        items._search_index = None
    if scanned != hits:
        raise SystemExit(f"sqlite: the index finds {hits} for {search!r}, the scan {scanned}")


def build(url: str, path: Path) -> Services:
    """Import the items file into the database at `url`."""
    services = open_services(url)
    start = time.perf_counter()
    report = services.imports.import_path(path, dataset=DATASET)
    took = time.perf_counter() - start
    print(f"imported {report.items_new} items into {make_url(url).get_backend_name()} "
          f"in {took:.1f} s (load {load_average()})")  # fmt: skip
    return services


def run(
    url: str, path: Path, synthetic: bool, repeats: int
) -> tuple[list[tuple[str, str]], dict[str, Timing]]:
    """Build one database and time every search on it: (what, search text), timings."""
    services = build(url, path)
    try:
        print(f"{make_url(url).get_backend_name()}: load average {load_average()} at start")
        results: dict[str, Timing] = {}
        labels = searches(services, synthetic)
        for what, search in labels:
            results[search] = timing = time_search(services, search, repeats)
            if services.store.engine.dialect.name == "sqlite":
                check_sqlite_scan(services, search, timing.hits)
            print(f"  {what:<24} {search!r:<26} {timing.hits:>7} hits", file=sys.stderr)
        print(f"{make_url(url).get_backend_name()}: load average {load_average()} at end")
        return labels, results
    finally:
        services.close()


def figures(timing: Timing | None) -> str:
    """'count p50 / p95 · list p50 / p95' in ms."""
    if timing is None:
        return "—"
    c, s = timing.count_ms, timing.screen_ms
    return (
        f"{percentile(c, 0.5):6.1f} / {percentile(c, 0.95):6.1f} · "
        f"{percentile(s, 0.5):6.1f} / {percentile(s, 0.95):6.1f}"
    )


def report(
    labels: list[tuple[str, str]], results: dict[str, dict[str, Timing]], repeats: int
) -> None:
    """The table: a row per search, count and list p50 / p95 per database."""
    names = list(results)
    print(f"\nms, p50 / p95 of {repeats} warm calls: count · list (ids in order + {SCREEN_ROWS})")
    print(f"{'search':<24} {'text':<24} {'hits':>7}  " + "  ".join(f"{n:<33}" for n in names))
    for what, search in labels:
        hits = {r[search].hits for r in results.values() if search in r}
        cells = "  ".join(f"{figures(results[n].get(search)):<33}" for n in names)
        print(f"{what:<24} {search[:24]!s:<24} {'/'.join(map(str, sorted(hits))):>7}  {cells}")


def main(argv: list[str] | None = None) -> int:
    """Build, time, compare, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--synthetic", action="store_true", help="bench_review's 70-word items")
    parser.add_argument("--source", type=Path, default=WHEN2CALL_JUDGE, help="When2Call JSONL")
    parser.add_argument("--pg-url", help="a PostgreSQL server URL to time there too")
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="w2c-search-") as folder:
        path = Path(folder) / "items.jsonl"
        if args.synthetic:
            write_items(path, args.items, seed=2)
        else:
            write_corpus(path, args.items, args.source, seed=2)
        targets = [("sqlite", f"sqlite:///{Path(folder) / 'search.db'}")]
        if args.pg_url:
            targets.append(("postgresql", fresh_pg(args.pg_url, PG_DATABASE)))
        results: dict[str, dict[str, Timing]] = {}
        labels: list[tuple[str, str]] = []
        try:
            for name, url in targets:
                labels, results[name] = run(url, path, args.synthetic, args.repeats)
        finally:
            if args.pg_url:
                drop_pg(args.pg_url, PG_DATABASE)
    report(labels, results, args.repeats)
    differ = [s for _, s in labels if len({r[s].digest for r in results.values() if s in r}) > 1]
    print(f"load average at end: {load_average()}")
    if differ:
        print(f"the databases found different items for {differ}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
