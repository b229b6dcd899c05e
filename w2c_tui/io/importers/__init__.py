"""The import formats, one module each, and the registry that tells a file's format from its
first bytes and reads it, all from one read of the file."""

from __future__ import annotations

from pathlib import Path

from w2c_tui.domain.critictool import CriticToolFile
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.names import name_problem
from w2c_tui.domain.records import ImportBundle
from w2c_tui.io.importers import (
    api_suite,
    critictool,
    lm_eval_samples,
    official,
    when2call_test,
    when2call_train,
)
from w2c_tui.io.importers.base import Importer, Read, Source
from w2c_tui.io.jsonl import ProgressCallback
from w2c_tui.io.options import ReadOptions

IMPORTERS: tuple[Importer, ...] = (
    critictool.IMPORTER,
    official.JUDGE,
    lm_eval_samples.IMPORTER,
    api_suite.IMPORTER,
    official.INFERENCE,
    when2call_train.PREF,
    when2call_train.SFT,
    when2call_test.IMPORTER,
)
"""In the order detection asks them (the first whose sniff says yes reads the file)."""

BY_KIND = {importer.kind: importer for importer in IMPORTERS}
CRITICTOOL = critictool.KIND

KINDS: tuple[str, ...] = (
    "when2call_test",
    "when2call_sft",
    "when2call_pref",
    "lm_eval_samples",
    "official_judge",
    "official_inference",
    "api_suite",
)
"""The kinds that read into an ImportBundle, in the order `--kind` lists them (CriticTool, the
last choice of `--kind`, reads into a CriticToolFile)."""

# What detection looks for, in the order it checks (shown when it recognises nothing).
LOOKED_FOR = tuple(i.looked_for for i in IMPORTERS if i.looked_for is not None)

DEFAULT_OPTIONS = ReadOptions()


def _detect(source: Source) -> Importer:
    if source.is_dir:
        return next(i for i in IMPORTERS if i.folders and i.sniff(source))
    if not source.path.exists():
        raise InputError(str(source.path), "no such file or folder")
    for importer in IMPORTERS:
        if importer.sniff(source):
            return importer
    line, obj = source.first
    keys = ", ".join(list(obj)[:12]) + (", …" if len(obj) > 12 else "")
    raise InputError(
        str(source.path),
        f"cannot tell what kind of file this is: the first line has "
        f"the keys {keys or '(none)'}; looked for " + "; ".join(LOOKED_FOR),
        line=line,
    )


def detect_kind(path: Path) -> str:
    """The kind of `path`, from its content (a folder can only be an API-suite run)."""
    return _detect(Source(path)).kind


def read_input(
    path: Path,
    kind: str | None = None,
    options: ReadOptions = DEFAULT_OPTIONS,
    progress: ProgressCallback | None = None,
) -> Read:
    """Read and validate all of `path` as `kind` (told from its first bytes when None), reading
    the file once: an ImportBundle, or a CriticToolFile for CriticTool; InputError on bad input."""
    source = Source(path)
    if kind is None:
        importer = _detect(source)
    else:
        found = BY_KIND.get(kind)
        if found is None:
            raise InputError(
                str(path), f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})"
            )
        importer = found
        if not importer.folders and path.is_dir():
            raise InputError(str(path), f"expected a file for kind {kind!r}, got a folder")
    read = importer.read(source, options, progress)
    return read if isinstance(read, CriticToolFile) else check_names(read)


def read_bundle(
    path: Path,
    kind: str | None = None,
    options: ReadOptions = DEFAULT_OPTIONS,
    progress: ProgressCallback | None = None,
) -> ImportBundle:
    """`read_input` of a When2Call file or run folder (an InputError for a CriticTool file)."""
    read = read_input(path, kind, options, progress)
    if isinstance(read, CriticToolFile):
        raise InputError(str(path), "a CriticTool file: import it with `w2c import`")
    return read


def check_names(bundle: ImportBundle) -> ImportBundle:
    """`bundle`, when every model, rater and dataset name in it is acceptable
    (`domain.names`); else an InputError naming the line and field of the first bad one."""
    checked: set[str] = set()

    def check(name: str | None, line: int | None, field: str) -> None:
        if name is None or name in checked:
            return
        problem = name_problem(name)
        if problem is not None:
            raise InputError(bundle.path, f"the name {problem}", line, field)
        checked.add(name)

    check(bundle.default_dataset, None, "dataset")
    for response in bundle.responses:
        check(response.target_model, response.line, "target_model")
    for verdict in bundle.verdicts:
        check(verdict.rater.name, verdict.line, verdict.rater.kind.value)
        check(verdict.target_model, verdict.line, "target_model")
    return bundle
