"""MLflow for the tests: the one skip gate for the extra, a real `mlflow server` on 127.0.0.1
(a free port, a temporary SQLite backend and artifact folder, served artifacts, one worker;
torn down with its whole process group), and a URI where nothing listens."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from dbfixtures import require_module

START_TIMEOUT_S = 120.0


def require_mlflow() -> None:
    """Skip (fail under CI) unless the mlflow extra imports."""
    require_module("mlflow", "mlflow")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dead_uri() -> str:
    """An http URI on 127.0.0.1 where nothing listens (a tracking server that is down)."""
    return f"http://127.0.0.1:{free_port()}"


def _healthy(uri: str) -> bool:
    try:
        with urllib.request.urlopen(f"{uri}/health", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@contextmanager
def mlflow_server(folder: Path) -> Iterator[str]:
    """A real MLflow tracking server; yields its http URI, stops it (and its workers) after."""
    require_mlflow()
    folder.mkdir(parents=True, exist_ok=True)
    uri = f"http://127.0.0.1:{free_port()}"
    log = (folder / "server.log").open("wb")
    command = [
        str(Path(sys.executable).with_name("mlflow")),
        "server",
        "--host", "127.0.0.1",
        "--port", uri.rsplit(":", 1)[1],
        "--backend-store-uri", f"sqlite:///{folder / 'mlflow.db'}",
        "--artifacts-destination", str(folder / "artifacts"),
        "--serve-artifacts",
        "--workers", "1",
    ]  # fmt: skip
    env = {
        **os.environ,
        "MLFLOW_SUPPRESS_PRINTING_URL_TO_STDOUT": "true",
        "MLFLOW_DISABLE_TELEMETRY": "true",
        # the server's background jobs (about nine huey worker processes of ~280 MB each) serve
        # features these tests do not use
        "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
    }
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _healthy(uri):
            if process.poll() is not None or time.monotonic() > deadline:
                tail = (folder / "server.log").read_text(errors="replace")[-3000:]
                pytest.fail(f"mlflow server did not come up at {uri}:\n{tail}")
            time.sleep(0.2)  # polling a condition (the health check), not a fixed wait
        yield uri
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


@pytest.fixture(scope="session")
def mlflow_server_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real MLflow server shared by the tests that use it (per xdist worker)."""
    with mlflow_server(tmp_path_factory.mktemp("mlflow-server")) as uri:
        yield uri
