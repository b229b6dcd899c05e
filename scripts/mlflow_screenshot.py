"""Take docs/images/mlflow-run.png: a run of w2c-tui as MLflow's web UI shows it.

A maintainer's script (needs the dev install: the mlflow extra and the tests' local OpenAI-
compatible server) and Debian's headless `chromium`. It starts a real `mlflow server` on
127.0.0.1 with a temporary store, imports the demo into a temporary database, runs a judge with
3 repeats against the local server with `w2c run start --mlflow URI --wait`, and screenshots
the MLflow page of that run.

    .venv/bin/python scripts/mlflow_screenshot.py [--out docs/images/mlflow-run.png]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "runs")]

from fake_server import FakeOpenAI  # noqa: E402
from mlflow_fixtures import mlflow_server  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from w2c_tui.cli import app  # noqa: E402
from w2c_tui.services import open_services  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs/images/mlflow-run.png")
    parser.add_argument("--width", type=int, default=1500)
    parser.add_argument("--height", type=int, default=1650)
    args = parser.parse_args()
    browser = os.environ.get("W2C_TEST_CHROMIUM") or shutil.which("chromium")
    if browser is None:
        sys.exit("no chromium on PATH (apt-get install chromium) and W2C_TEST_CHROMIUM unset")
    with tempfile.TemporaryDirectory() as tmp, mlflow_server(Path(tmp) / "mlflow") as uri:
        db = f"sqlite:///{tmp}/w2c.db"
        os.environ["W2C_EXPORTS_DIR"] = f"{tmp}/exports"
        os.environ["W2C_SCREENSHOT_KEY"] = "sk-not-a-real-key"
        open_services(db).imports.import_demo()
        with FakeOpenAI(default_reply='{"classification": "tool_call"}') as server:
            result = CliRunner().invoke(
                app,
                [
                    "--db", db, "run", "start", "--method", "judge", "--backend", "openai",
                    "--model", "fake-model", "--target-model", "acme-7b-instruct",
                    "--base-url", server.url, "--api-key-env", "W2C_SCREENSHOT_KEY",
                    "--repeats", "3", "--temperature", "0.7", "--wait", "--json",
                    "--mlflow", uri,
                ],
            )  # fmt: skip
        if result.exit_code != 0:
            sys.exit(f"the run failed: {result.stderr}")
        page = json.loads(result.stdout)["mlflow"][0]["url"]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                f"--window-size={args.width},{args.height}", "--virtual-time-budget=20000",
                f"--screenshot={args.out}", page,
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )  # fmt: skip
        print(f"wrote {args.out} ({page})")


if __name__ == "__main__":
    main()
