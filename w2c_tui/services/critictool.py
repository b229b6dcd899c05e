"""CriticTool datasets: import files (samples and predictions), read samples and predictions
back with the item and response ids that labels, verdicts and agreement key on."""

from __future__ import annotations

from pathlib import Path

from w2c_tui.db.store import Store
from w2c_tui.domain.critictool import CriticToolFile
from w2c_tui.domain.critictool_stored import (
    DEFAULT_DATASET,
    PredictionSet,
    StoredPrediction,
    StoredSample,
)
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.records import ImportReport
from w2c_tui.domain.runs import RunConfig, RunStartError
from w2c_tui.io.importers.critictool import read_critictool
from w2c_tui.runs.critictool.protocol import ProtocolError
from w2c_tui.runs.critictool.runner import critictool_describe, parsed_round

IMPORT_KIND = "critictool"


def prediction_sets(critic_file: CriticToolFile) -> list[PredictionSet]:
    """The file's predictions, per sample, with each round parsed (empty: no predictions)."""
    return [
        PredictionSet(
            sample_id=s.sample_id,
            rounds=s.predictions,
            parsed=tuple(parsed_round(r) for r in s.predictions),
            raw_json=s.raw_json,
        )
        for s in critic_file.samples
        if s.predictions is not None
    ]


class CriticToolService:
    """CriticTool samples and predictions in the store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def import_file(
        self,
        path: Path,
        *,
        dataset: str | None = None,
        target_model: str | None = None,
        dry_run: bool = False,
    ) -> ImportReport:
        """Import a CriticTool dataset or predictions file, whole or not at all.

        A sample is its file's id within the dataset, as in the official code; its content
        (`item_sha256`) is a fingerprint: importing the same file again changes nothing, a known
        id with other content is refused, and a predictions file attaches its predictions to
        the samples of the same ids a dataset file brought in (or brings them in itself).
        Predictions need `target_model`."""
        return self.import_read(
            read_critictool(path), dataset=dataset, target_model=target_model, dry_run=dry_run
        )

    def import_read(
        self,
        critic_file: CriticToolFile,
        *,
        dataset: str | None = None,
        target_model: str | None = None,
        dry_run: bool = False,
    ) -> ImportReport:
        """Import a CriticTool file already read (`import_file`)."""
        path = critic_file.path
        predictions = prediction_sets(critic_file)
        if predictions and not target_model:
            raise InputError(
                str(path),
                "a CriticTool predictions file: name the model that made them with --target-model",
            )
        name = dataset or self._default_dataset(critic_file)
        return self._store.critictool_writer.apply(
            critic_file,
            name,
            predictions=predictions,
            target_model=target_model if predictions else None,
            dry_run=dry_run,
        )

    def _default_dataset(self, critic_file: CriticToolFile) -> str:
        holding = self._store.critictool_writer.datasets_holding(
            [(s.sample_id, s.item_sha256) for s in critic_file.samples]
        )
        if len(holding) > 1:
            raise InputError(
                critic_file.path,
                f"its samples are in several datasets ({', '.join(holding)}): name one with "
                "--dataset",
            )
        return holding[0] if holding else DEFAULT_DATASET

    def datasets(self) -> list[str]:
        """Names of the CriticTool datasets."""
        return self._store.critictool.datasets()

    def samples(self, dataset: str) -> list[StoredSample]:
        """Every sample of `dataset` in import order, each with its item id."""
        return self._store.critictool.samples(dataset)

    def sample(self, item_id: int) -> StoredSample:
        """One sample by its item id (NotFoundError when it is not a CriticTool sample)."""
        return self._store.critictool.sample(item_id)

    def predictions(self, item_id: int, target_model: str | None = None) -> list[StoredPrediction]:
        """Every model's predictions for one sample (or one model's), each with its response
        id."""
        return self._store.critictool.predictions(item_id=item_id, target_model=target_model)

    def dataset_predictions(
        self, dataset: str, *, target_model: str | None = None, run_id: int | None = None
    ) -> list[StoredPrediction]:
        """Predictions of a whole dataset, optionally of one model or one run."""
        return self._store.critictool.predictions(
            dataset=dataset, target_model=target_model, run_id=run_id
        )


def check_run(store: Store, config: RunConfig, item_ids: list[int]) -> None:
    """RunStartError unless a CriticTool run can start: a CriticTool dataset, a valid mode and
    retry limit, and no sample already predicted by the model in the run's setting."""
    if config.dataset not in store.critictool.datasets():
        raise RunStartError(
            f"--method critictool runs on a CriticTool dataset; {config.dataset!r} is not one "
            "(import CriticTool files with w2c import)"
        )
    try:
        critictool_describe(config)
    except ProtocolError as error:
        raise RunStartError(str(error)) from error
    model = config.target_model or config.model
    clashes = store.critictool.clashes(item_ids, model, config.critic_mode, config.critic_cot)
    if clashes:
        raise RunStartError(
            f"{clashes} of these samples already have predictions of {model!r} in this setting "
            f"({config.critic_mode}, {'CoT' if config.critic_cot else 'no CoT'}): store this run "
            "under another --target-model, or run a second mode on --source external only"
        )


def check_judge_run(store: Store, config: RunConfig, item_ids: list[int]) -> list[int]:
    """RunStartError unless a CriticTool judge run can start: a CriticTool dataset, one repeat,
    and, with --target-model, predictions of that model in the run's setting to judge; the ids
    of the items it will judge."""
    if config.dataset not in store.critictool.datasets():
        raise RunStartError(
            f"--method critictool_judge judges a CriticTool dataset; {config.dataset!r} is not "
            "one (import CriticTool files with w2c import)"
        )
    if config.repeats != 1:
        raise RunStartError(
            "a CriticTool judge labels each unit once: --repeats must be 1 (start another run "
            "with another --seed to ask again)"
        )
    if config.critic_mode not in ("skip", "finish"):
        raise RunStartError(f"--critic-mode must be skip or finish, not {config.critic_mode!r}")
    if not config.target_model:
        wanted = set(item_ids)
        models = sorted(
            {
                p.target_model
                for p in store.critictool.predictions(dataset=config.dataset)
                if p.item_id in wanted
            }
        )
        if models:
            raise RunStartError(
                "these samples have predictions (of " + ", ".join(models) + "), and reviewers "
                "label each prediction as its own unit: give the target model (--target-model) "
                "whose predictions the judge labels (without one it labels samples that have "
                "no prediction)"
            )
        return item_ids
    judged = store.critictool.judged(
        item_ids, config.target_model, config.critic_mode, config.critic_cot
    )
    if not judged:
        raise RunStartError(
            f"no predictions of {config.target_model!r} to judge in this setting (internal, and "
            f"external in {config.critic_mode} mode; {'CoT' if config.critic_cot else 'no CoT'}): "
            "check --target-model, --critic-mode and --cot (w2c critictool metrics lists the "
            "predictions)"
        )
    return [i for i in item_ids if i in judged]
