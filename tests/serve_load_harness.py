"""Invited browser sessions through `w2c serve` and a run writing one database at once: the
served load test of issue 17.

Each invited annotator's app runs in its own process behind `w2c serve`, driven over
textual-serve's websocket protocol as a browser's textual.js drives it (tests/serve/serving.py),
while a run's worker writes results from the fake OpenAI server. Afterwards every label pressed
must be current under the invited name, and no unit may have two current verdicts. Used by
tests/cli/test_load.py (bounded); the serve extra must be installed (aiohttp).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from w2c_tui.services import Services, open_services

sys.path.insert(0, str(Path(__file__).resolve().parent / "runs"))
sys.path.insert(0, str(Path(__file__).resolve().parent / "serve"))
from fake_server import FakeOpenAI
from load_harness import duplicates, start_writing_run
from serving import Client, serve

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
    rng = random.Random(17)
    names = [f"guest{n}" for n in range(n_sessions)]
    tokens = {name: svc.roles.invite(None, name)[1] for name in names}
    keys = {name: [rng.choice("1234") for _ in range(keys_per_session + 1)] for name in names}
    with FakeOpenAI(latency_s=server_latency_s, keep_bodies=False) as server:
        run_id = start_writing_run(svc, dataset, server.url, concurrency=1)
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
