"""A CriticTool predictions file in the official format where two ids share their content and
not their predictions (issue 19): the fixture's file plus COPY, TWIN's record answered
otherwise."""

from __future__ import annotations

import copy
import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "io" / "fixtures" / "critictool"
PRED_INTERNAL = FIXTURES / "predictions" / "interal_base_data_wo_cot.json"
TWIN = "boolint1"
COPY = "boolint1copy"
COPY_REPLY = '{"name": "", "args": {}}'


def twin_file(folder: Path) -> Path:
    """Write the file under `folder` with the official name (its kind is read from it)."""
    data = json.loads(PRED_INTERNAL.read_text(encoding="utf-8"))
    data[COPY] = copy.deepcopy(data[TWIN])
    data[COPY]["predictions"] = COPY_REPLY
    path = folder / "twins" / PRED_INTERNAL.name
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def erroneous_ids(path: Path) -> set[str]:
    """The ids of the file's samples with an injected error (the official `error_num` set)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {sid for sid, record in data.items() if record.get("error_type")}
