"""Benchmark: the whole `w2c import` command on N synthetic When2Call test items, this revision
beside a baseline revision, each run into a fresh database.

Each run is the real CLI (`python -m w2c_tui --db URL import FILE`) in a subprocess, process
start, migrations of the new database, reading, validation, storing and the commit included.
The baseline's package is taken from git (`git archive REV w2c_tui`) into the work folder and
put first on the child's PYTHONPATH, so the old writer stays callable without being kept in the
package; `--baseline none` skips it. The default baseline is issue 21's first step (Core
executemany batches, the SQLite search index filled in one statement); `--baseline 3f8a533`
is the row-by-row ORM writer with the per-row search trigger before it.

Figures per run: wall seconds and items/s; the child's CPU seconds (user + sys: other processes
do not inflate them, so compare these when the load differs) and peak RSS; the 1-minute load
average before and after. Modes alternate (new, old, new, old…) over `--repeat` rounds; the
median of each mode is printed last.

Run: ``.venv/bin/python bench/bench_import.py [--items 100000] [--repeat 1] [--pg-url URL]``
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from pg_scratch import drop_pg, fresh_pg
from review_data import write_items

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "1ac4b39"
"""Issue 21's first step: Core batches and the one-statement search fill (3,340 items/s at
20,000 items, quiet)."""


@dataclass
class Run:
    """One timed `w2c import`."""

    mode: str
    backend: str
    items: int
    wall_s: float
    cpu_s: float
    peak_rss_mib: float
    load_before: float
    load_after: float

    @property
    def rate(self) -> float:
        return self.items / self.wall_s


def baseline_code(revision: str, folder: Path) -> Path:
    """The baseline revision's `w2c_tui` package, unpacked under `folder` (a PYTHONPATH)."""
    target = folder / f"baseline-{revision[:12]}"
    if not (target / "w2c_tui").is_dir():
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "w2c_tui"],
            capture_output=True,
            check=True,
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
    return target


def database(backend: str, folder: Path, name: str, pg_url: str | None) -> str:
    """A fresh, empty database for one run."""
    if backend == "postgresql":
        assert pg_url is not None
        return fresh_pg(pg_url, f"w2c_bench_import_{name}")
    path = folder / f"{name}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return f"sqlite:///{path}"


def time_import(code: Path, url: str, path: Path, folder: Path) -> tuple[float, float, float]:
    """(wall s, child CPU s, child peak RSS MiB) of `w2c import` run from `code`."""
    env = {
        **os.environ,
        "PYTHONPATH": str(code),
        "W2C_CONFIG": str(folder / "config.toml"),
        "W2C_ANNOTATIONS_DIR": str(folder / "annotations"),
    }
    command = [sys.executable, "-m", "w2c_tui", "--db", url, "import", str(path)]
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=folder)
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            out.seek(0)
            raise RuntimeError(f"w2c import failed ({child.returncode}): {out.read()[-2000:]!r}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100_000, help="items in the file")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of (new, old)")
    parser.add_argument(
        "--baseline", default=BASELINE, help="git revision of the old writer ('none': skip it)"
    )
    parser.add_argument("--pg-url", help="also time PostgreSQL (a server URL; scratch dbs)")
    parser.add_argument("--workdir", type=Path, help="keep the file and databases here")
    parser.add_argument("--json", action="store_true", help="print the runs as JSON")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Generate the file once, then time each mode on each backend."""
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="w2c-bench-import-") as scratch:
        folder = args.workdir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"when2call_import_{args.items}.jsonl"
        if not path.exists():
            write_items(path, args.items, seed=1)
        codes = {"new": ROOT}
        if args.baseline != "none":
            codes["old"] = baseline_code(args.baseline, folder)
        backends = ["sqlite"] + (["postgresql"] if args.pg_url else [])
        runs: list[Run] = []
        for round_ in range(args.repeat):
            for backend in backends:
                for mode, code in codes.items():
                    url = database(backend, folder, f"{mode}_{round_}", args.pg_url)
                    load_before = os.getloadavg()[0]
                    wall, cpu, rss = time_import(code, url, path, folder)
                    if backend == "postgresql":
                        drop_pg(args.pg_url, f"w2c_bench_import_{mode}_{round_}")
                    run = Run(
                        mode, backend, args.items, wall, cpu, rss, load_before, os.getloadavg()[0]
                    )
                    runs.append(run)
                    print(
                        f"  {backend} {mode}: {wall:.1f} s, {run.rate:,.0f} items/s, "
                        f"cpu {cpu:.1f} s, load {load_before:.2f} → {run.load_after:.2f}",
                        file=sys.stderr,
                        flush=True,
                    )
        report(runs, args, path)


def report(runs: list[Run], args: argparse.Namespace, path: Path) -> None:
    """Every run, then each mode's median, as a table (or JSON)."""
    if args.json:
        print(json.dumps([{**asdict(r), "items_per_s": round(r.rate, 1)} for r in runs], indent=2))
        return
    mib = path.stat().st_size / 2**20
    print(f"`w2c import` of {args.items:,} items ({mib:.0f} MiB), nproc {os.cpu_count()}")
    print(f"{'backend':<11}{'mode':<5}{'wall s':>8}{'items/s':>9}{'cpu s':>8}{'RSS MiB':>9}  load")
    for r in runs:
        print(
            f"{r.backend:<11}{r.mode:<5}{r.wall_s:>8.1f}{r.rate:>9,.0f}{r.cpu_s:>8.1f}"
            f"{r.peak_rss_mib:>9,.0f}  {r.load_before:.2f} → {r.load_after:.2f}"
        )
    for backend in dict.fromkeys(r.backend for r in runs):
        for mode in dict.fromkeys(r.mode for r in runs):
            mine = [r for r in runs if r.backend == backend and r.mode == mode]
            wall = statistics.median(r.wall_s for r in mine)
            cpu = statistics.median(r.cpu_s for r in mine)
            print(
                f"median {backend} {mode}: {args.items / wall:,.0f} items/s "
                f"({wall:.1f} s), {args.items / cpu:,.0f} items per CPU second"
            )


if __name__ == "__main__":
    main()
