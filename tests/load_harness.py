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
        "SELECT COUNT(*) FROM (SELECT 1 FROM verdict WHERE is_current GROUP BY rater_id, item_id,"
        " COALESCE(target_model_id, 0), COALESCE(response_id, 0) HAVING COUNT(*) > 1) AS d"
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
        config = RunConfig.of(
            method=Method.GENERATE,
            backend=Backend.OPENAI,
            model="fake-model",
            dataset=dataset,
            base_url=server.url,
            concurrency=run_concurrency,
        )
        run_id = svc.runs.create(config)
        svc.runs.launch(run_id)
        deadline = time.monotonic() + 120
        while svc.runs.get(run_id).n_done == 0:  # the worker is up and writing
            assert time.monotonic() < deadline, "the run's worker wrote nothing in 120 s"
            time.sleep(0.05)
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


# -- invited browser sessions through `w2c serve` (issue 17) ---------------------------------

LABEL_KEYS = {"1": "direct", "2": "tool_call", "3": "request_for_info", "4": "cannot_answer"}


@dataclass
class ServeLoadResult:
    """What the served-sessions load test saw."""

    backend: str
    sessions: int
    seconds: float
    """From the first key to the last label stored."""
    pressed: int
    """Labels the sessions made: those stored while each app started, plus one per label key
    pressed after that (each labels the next unlabelled response: one new current label)."""
    stored: int
    """Current labels of the invited annotators afterwards."""
    lost: int
    """Per annotator, labels pressed that are not among their current labels."""
    duplicates: int
    strangers: int
    """Current human labels under a name no invitation gave (should be 0)."""
    run_items: int

    def line(self) -> str:
        return (
            f"{self.backend:<10} {self.sessions} invited sessions through `w2c serve`: "
            f"{self.pressed} labels made, {self.stored} stored in {self.seconds:.1f} s, "
            f"{self.lost} lost, {self.duplicates} duplicate current verdicts, {self.strangers} "
            f"under another name; run {self.run_items} results meanwhile"
        )


def served_labels(svc: Services, dataset: str) -> dict[str, list[str]]:
    """Human annotator → their current labels (of responses)."""
    found: dict[str, list[str]] = {}
    for r in svc.store.ratings.ratings(dataset):
        if r.response_id is not None and r.rater.kind.value == "human" and r.label:
            found.setdefault(r.rater.name, []).append(r.label.value)
    return found


async def _session(
    served: Any, token: str, name: str, url: str, dataset: str, keys: list[str], think_s: float
) -> list[str]:
    """One invited browser session: open the link, wait until the app takes a label (the first
    key is repeated until one is stored), then press the other `keys`, pausing `think_s` after
    each. Returns the labels stored before those keys (the app was still starting)."""
    import asyncio

    from serving import Client

    client = Client(served)
    check = open_services(url, migrate=False)
    try:
        assert await client.open(token) == 200, f"{name}'s invitation was refused"
        assert await client.connect() == 101, f"{name}'s websocket was refused"
        await client.wait_output(120)
        deadline = time.monotonic() + 120
        while not served_labels(check, dataset).get(name):
            assert time.monotonic() < deadline, f"{name}'s app never took a label"
            await client.key(keys[0])
            await asyncio.sleep(1.0)
        await asyncio.sleep(1.5)  # a start-up key still on its way lands before the count
        before = served_labels(check, dataset).get(name, [])
        for key in keys[1:]:
            await client.key(key)
            await asyncio.sleep(think_s)
        deadline = time.monotonic() + 120
        while len(served_labels(check, dataset).get(name, [])) < len(before) + len(keys) - 1:
            if time.monotonic() > deadline:
                break  # counted as lost by the caller
            await asyncio.sleep(0.2)
        return before
    finally:
        check.close()
        await client.close()


def run_serve_load(
    svc: Services,
    dataset: str,
    workdir: Path,
    n_sessions: int = 8,
    keys_per_session: int = 12,
    think_s: float = 0.25,
    server_latency_s: float = 0.2,
) -> ServeLoadResult:
    """`n_sessions` invited annotators label through `w2c serve` (each its own app process,
    driven over textual-serve's websocket protocol as a browser's textual.js drives it) while
    a run's worker writes results; afterwards every label pressed must be current under the
    invited name, and no unit may have two current verdicts."""
    import asyncio

    sys.path.insert(0, str(Path(__file__).resolve().parent / "serve"))
    from serving import serve

    rng = random.Random(17)
    names = [f"guest{n}" for n in range(n_sessions)]
    tokens = {name: svc.roles.invite(None, name)[1] for name in names}
    keys = {name: [rng.choice("1234") for _ in range(keys_per_session + 1)] for name in names}
    with FakeOpenAI(latency_s=server_latency_s, keep_bodies=False) as server:
        config = RunConfig.of(
            method=Method.GENERATE,
            backend=Backend.OPENAI,
            model="fake-model",
            dataset=dataset,
            base_url=server.url,
            concurrency=1,
        )
        run_id = svc.runs.create(config)
        svc.runs.launch(run_id)
        deadline = time.monotonic() + 120
        while svc.runs.get(run_id).n_done == 0:
            assert time.monotonic() < deadline, "the run's worker wrote nothing in 120 s"
            time.sleep(0.05)
        done_before = svc.runs.get(run_id).n_done
        with serve(svc.url, workdir, "--max-sessions", str(n_sessions)) as served:

            async def everyone() -> tuple[float, list[list[str]]]:
                start = time.monotonic()
                first = await asyncio.gather(
                    *(
                        _session(served, tokens[n], n, svc.url, dataset, keys[n], think_s)
                        for n in names
                    )
                )
                return time.monotonic() - start, first

            seconds, starts = asyncio.run(everyone())
        run_items = svc.runs.get(run_id).n_done - done_before
        svc.runs.cancel(run_id)
    stored = served_labels(svc, dataset)
    lost = 0
    wanted_all = 0
    for name, start in zip(names, starts, strict=True):
        # what was stored while the app started, and one label per key pressed after that
        wanted = start + [LABEL_KEYS[k] for k in keys[name][1:]]
        have = stored.get(name, [])
        wanted_all += len(wanted)
        lost += sum(max(0, wanted.count(label) - have.count(label)) for label in set(wanted))
    return ServeLoadResult(
        backend=svc.store.engine.dialect.name,
        sessions=n_sessions,
        seconds=seconds,
        pressed=wanted_all,
        stored=sum(len(stored.get(n, [])) for n in names),
        lost=lost,
        duplicates=duplicates(svc),
        strangers=sum(len(v) for k, v in stored.items() if k not in names),
        run_items=run_items,
    )
