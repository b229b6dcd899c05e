"""Annotators and a run writing one database at once: the load test of issue 10.

N annotator processes label random responses through the service (as the TUI does: a label is
acknowledged when `label_response` returns; a WriteError after the TUI's 2 s wait is what the
screen would show as NOT SAVED) while a run's worker process writes results from a real
OpenAI-compatible HTTP server (tests/runs/fake_server.py). Afterwards every acknowledged label
must be the current one in the database, and no unit may have two current verdicts.
Used by tests/cli/test_load.py (bounded) and bench/bench_load.py (figures).
"""

from __future__ import annotations

import json
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbfixtures import WHEN2CALL
from sqlalchemy import text

from w2c_tui.domain.errors import WriteError
from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.review import ItemFilter, ReviewMode
from w2c_tui.domain.runs import Backend, Method, RunConfig
from w2c_tui.services import Services, open_services

sys.path.insert(0, str(Path(__file__).resolve().parent / "runs"))
from fake_server import FakeOpenAI

KEY_WAIT_S = 2.0
"""How long the TUI waits for a label before it shows NOT SAVED (tui/review_labelling.py)."""


def units(svc: Services, dataset: str, limit: int) -> list[tuple[int, int]]:
    """(item id, response id) of up to `limit` responses to label."""
    out: list[tuple[int, int]] = []
    for row in svc.review.window(dataset, ItemFilter(), ReviewMode.RESPONSES, None, 0, limit):
        for panel in svc.review.detail(row.id, None).models:
            out += [(row.id, r.id) for r in panel.responses if r.id is not None]
    return out[:limit]


def annotator(
    url: str, name: str, pairs: list[tuple[int, int]], seconds: float, think_s: float, out: str
) -> None:
    """One annotator process: label random responses for `seconds`, pausing `think_s` after
    each label (a person reads before the next key); write what it saw."""
    svc = open_services(url, migrate=False)
    rng = random.Random(name)
    acked: dict[int, str] = {}
    latencies: list[float] = []
    errors: list[str] = []
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            item, response = rng.choice(pairs)
            label = rng.choice(LABELS)
            start = time.perf_counter()
            try:
                svc.review.label_response(name, item, response, label, deadline_s=KEY_WAIT_S)
            except WriteError as error:
                errors.append(error.reason)
                continue
            latencies.append(time.perf_counter() - start)
            acked[response] = label.value
            if think_s:
                time.sleep(rng.uniform(0.5, 1.5) * think_s)
    finally:
        svc.close()
    Path(out).write_text(
        json.dumps({"name": name, "acked": acked, "latencies": latencies, "errors": errors}),
        encoding="utf-8",
    )


@dataclass
class LoadResult:
    """What the load test saw."""

    backend: str
    annotators: int
    think_ms: float
    seconds: float
    labels: int
    lost: int
    """Acknowledged labels that are not the current verdict in the database."""
    duplicates: int
    """Units with more than one current verdict."""
    errors: int
    reasons: list[str]
    """Why labels were not saved in time (distinct reasons)."""
    p50_ms: float
    p95_ms: float
    run_items: int
    run_items_per_s: float

    def line(self) -> str:
        """One line of figures."""
        return (
            f"{self.backend:<10} {self.annotators} annotators × {self.seconds:.0f} s "
            f"(pause {self.think_ms:.0f} ms after a label): "
            f"{self.labels} labels acknowledged, {self.lost} lost, {self.duplicates} duplicate "
            f"current verdicts, {self.errors} errors shown; label p50 {self.p50_ms:.1f} ms / "
            f"p95 {self.p95_ms:.1f} ms; run {self.run_items} results "
            f"({self.run_items_per_s:.1f}/s) meanwhile"
            + (f"; not saved in time: {'; '.join(self.reasons)}" if self.reasons else "")
        )


def duplicates(svc: Services) -> int:
    """Units with more than one current verdict (the unique index should make this 0)."""
    query = text(
        f"SELECT COUNT(*) FROM (SELECT 1 FROM label WHERE is_current AND {WHEN2CALL} GROUP BY "
        "rater_id, item_id, COALESCE(target_model_id, 0), COALESCE(response_id, 0) "
        "HAVING COUNT(*) > 1) AS d"
    )
    with svc.store.engine.connect() as connection:
        return int(connection.execute(query).scalar_one())


def current_labels(svc: Services, dataset: str, name: str) -> dict[int, str | None]:
    """The annotator's current verdict per response."""
    return {
        r.response_id: (r.label.value if r.label else None)
        for r in svc.store.ratings.ratings(dataset)
        if r.response_id is not None and r.rater.name == name
    }


def start_writing_run(svc: Services, dataset: str, url: str, concurrency: int) -> int:
    """Launch a generate run on the fake OpenAI server at `url` and return its id once its
    worker process is up and has written a first result."""
    config = RunConfig.of(
        method=Method.GENERATE,
        backend=Backend.OPENAI,
        model="fake-model",
        dataset=dataset,
        base_url=url,
        concurrency=concurrency,
    )
    run_id = svc.runs.create(config)
    svc.runs.launch(run_id)
    deadline = time.monotonic() + 120
    while svc.runs.get(run_id).n_done == 0:  # the worker is up and writing
        assert time.monotonic() < deadline, "the run's worker wrote nothing in 120 s"
        time.sleep(0.05)
    return run_id


def run_load(
    svc: Services,
    dataset: str,
    workdir: Path,
    n_annotators: int,
    seconds: float,
    n_units: int,
    think_s: float = 0.0,
    run_concurrency: int = 16,
    server_latency_s: float = 0.02,
) -> LoadResult:
    """Start a run and `n_annotators` labelling processes for `seconds`; check and measure.

    The annotators start once the worker has written its first result, so the figures cover
    a run that is writing (a slow worker start on a busy machine does not empty the window);
    on a small dataset, a low `run_concurrency` and a higher `server_latency_s` keep the run
    going for the whole window."""
    pairs = units(svc, dataset, n_units)
    assert pairs, "the dataset has no responses to label"
    context = multiprocessing.get_context("spawn")
    with FakeOpenAI(latency_s=server_latency_s, keep_bodies=False) as server:
        run_id = start_writing_run(svc, dataset, server.url, run_concurrency)
        done_before = svc.runs.get(run_id).n_done
        started = time.monotonic()
        outs = [workdir / f"annotator-{n}.json" for n in range(n_annotators)]
        procs = [
            context.Process(
                target=annotator,
                args=(svc.url, f"load{n}", pairs, seconds, think_s, str(outs[n])),
            )
            for n in range(n_annotators)
        ]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(seconds + 120)
        elapsed = time.monotonic() - started
        run_items = svc.runs.get(run_id).n_done - done_before
        svc.runs.cancel(run_id)
    reports = [json.loads(o.read_text(encoding="utf-8")) for o in outs]
    lost = 0
    for report in reports:
        current = current_labels(svc, dataset, report["name"])
        lost += sum(current.get(int(r)) != label for r, label in report["acked"].items())
    latencies = sorted(x for r in reports for x in r["latencies"])
    return LoadResult(
        backend=svc.store.engine.dialect.name,
        annotators=n_annotators,
        think_ms=think_s * 1000,
        seconds=seconds,
        labels=len(latencies),
        lost=lost,
        duplicates=duplicates(svc),
        errors=sum(len(r["errors"]) for r in reports),
        reasons=sorted({e for r in reports for e in r["errors"]}),
        p50_ms=statistics.median(latencies) * 1000 if latencies else 0.0,
        p95_ms=latencies[int(len(latencies) * 0.95)] * 1000 if latencies else 0.0,
        run_items=run_items,
        run_items_per_s=run_items / elapsed,
    )


def summary(result: LoadResult) -> dict[str, Any]:
    """The result as a dict (for --json)."""
    return dict(result.__dict__)
