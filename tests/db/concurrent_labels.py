"""A labelling process for the concurrency tests and the load bench: label units, report acks.

    python concurrent_labels.py URL ANNOTATOR SEED N UNITS_JSON

Prints `ready` once imported and connected, waits for a line on stdin (so every process
starts at once), then records N labels on random units (item id, response id) with random
labels through the service, the way the TUI does, and prints one JSON object: acknowledged
changes, errors, latencies (ms).
"""

from __future__ import annotations

import json
import random
import sys
import time


def main(argv: list[str]) -> None:
    url, annotator, seed, n, units_json = argv
    from w2c_tui.domain.errors import WriteError
    from w2c_tui.domain.labels import LABELS
    from w2c_tui.services import open_services

    units = [tuple(u) for u in json.loads(units_json)]
    rng = random.Random(int(seed))
    services = open_services(url, migrate=False)
    services.review.progress  # noqa: B018  (everything imported before the start)
    acks: list[list[object]] = []
    errors: list[str] = []
    latencies: list[float] = []
    print("ready", flush=True)
    sys.stdin.readline()
    for _ in range(int(n)):
        item_id, response_id = rng.choice(units)
        label = rng.choice(LABELS)
        began = time.perf_counter()
        try:
            change = services.review.label_response(annotator, item_id, response_id, label)
        except WriteError as error:
            errors.append(str(error))
            continue
        latencies.append((time.perf_counter() - began) * 1000)
        if change is not None:
            acks.append([change.verdict_id, item_id, response_id, label.value])
    services.close()
    print(json.dumps({"acks": acks, "errors": errors, "latencies_ms": latencies}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
