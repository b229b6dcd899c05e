"""External-error metrics per sample, as the reference's EnvironmentEvaluator scores them.

Over the sample's replies, in order:
- parse_rate: 1 unless some reply fails the parse check (see `parsed_ok`);
- retry: 1 when some reply repeats the failed call (gold [0]) exactly;
- any other reply is a break-out: break = 1 if parse_rate is 1; then
  skip mode: name = 1 when it names the gold next step ([1]); args = `arg_score` against it,
  or the similarity of the args when that step is FinishAction; thought (CoT) = similarity to
  the gold thought;
  finish mode: name = 1 when it is FinishAction; thought (CoT) = similarity of its thought to
  the fixed finish message, or of its args when FinishAction and that is higher.
A later break-out's similarities overwrite an earlier one's (the official loop stops at the
first, so there is at most one); name and break, once 1, stay 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.domain.critictool import (
    FINISH_ACTION,
    CriticToolFile,
    ExternalMode,
    Sample,
    SampleError,
    Variant,
)
from w2c_tui.domain.critictool_prompts import finish_message
from w2c_tui.runs.critictool.args import arg_score
from w2c_tui.runs.critictool.metrics_internal import parsed_ok
from w2c_tui.runs.critictool.parse import Reply, parse_reply
from w2c_tui.runs.critictool.similarity import Similarity

EXTERNAL_KEYS: dict[tuple[ExternalMode, bool], tuple[str, ...]] = {
    ("skip", False): ("retry", "break", "name", "args", "parse_rate"),
    ("skip", True): ("retry", "break", "thought", "name", "args", "parse_rate"),
    ("finish", False): ("retry", "break", "name", "parse_rate"),
    ("finish", True): ("retry", "break", "thought", "name", "parse_rate"),
}
"""The reference's per-sample keys by (mode, CoT), in its order."""


@dataclass(frozen=True)
class ExternalScore:
    """One external sample's scores."""

    sample_id: str
    variant: Variant | None
    mode: ExternalMode
    cot: bool
    parse_rate: int
    retry: int
    broke: int
    """The reference's `break`."""
    name: int
    args: float | None
    """None in finish mode (not scored there)."""
    thought: float | None
    """None without CoT."""

    def as_dict(self) -> dict[str, float]:
        """The reference's per-sample record (its keys, its order)."""
        values: dict[str, float | None] = {
            "retry": self.retry,
            "break": self.broke,
            "thought": self.thought,
            "name": self.name,
            "args": self.args,
            "parse_rate": self.parse_rate,
        }
        return {key: float(values[key] or 0) for key in EXTERNAL_KEYS[(self.mode, self.cot)]}


@dataclass
class _Tally:
    broke: int = 0
    name: int = 0
    args: float = 0.0
    thought: float = 0.0


def _skip(sample: Sample, reply: Reply, cot: bool, tally: _Tally, similarity: Similarity) -> None:
    step = sample.gold[1]
    if cot:
        tally.thought = similarity(reply.thought, str(step.thought))
    if reply.name == step.name:
        tally.name = 1
        if reply.name != FINISH_ACTION:
            tally.args = arg_score(sample.tools, reply, step, similarity)
        else:
            tally.args = similarity(str(reply.args), str(step.args))


def _finish(sample: Sample, reply: Reply, cot: bool, tally: _Tally, similarity: Similarity) -> None:
    message = finish_message(sample.gold[0].name)
    if cot:
        tally.thought = similarity(reply.thought, message)
    if reply.name == FINISH_ACTION:
        tally.name = 1
        if cot:
            tally.thought = max(tally.thought, similarity(str(reply.args), message))


def score_external(
    sample: Sample,
    predictions: tuple[str, ...],
    mode: ExternalMode,
    cot: bool,
    similarity: Similarity,
    variant: Variant | None = None,
) -> ExternalScore:
    """Score one external sample's raw replies (one per round)."""
    replies = [parse_reply(text) for text in predictions]
    parse_rate = int(all(parsed_ok(reply, cot) for reply in replies))
    retry = 0
    tally = _Tally()
    for reply in replies:
        if reply.is_call(sample.gold[0]):
            retry = 1
            continue
        if parse_rate:
            tally.broke = 1
        (_skip if mode == "skip" else _finish)(sample, reply, cot, tally, similarity)
    return ExternalScore(
        sample_id=sample.sample_id,
        variant=variant,
        mode=mode,
        cot=cot,
        parse_rate=parse_rate,
        retry=retry,
        broke=tally.broke,
        name=tally.name,
        args=tally.args if mode == "skip" else None,
        thought=tally.thought if cot else None,
    )


def score_external_file(
    critic_file: CriticToolFile,
    similarity: Similarity,
    mode: ExternalMode | None = None,
    cot: bool | None = None,
) -> list[ExternalScore]:
    """Scores of every sample of an external file with predictions (mode, CoT: the file's)."""
    kind = critic_file.kind
    if kind.source != "external":
        raise ValueError(f"{critic_file.path}: not an external-error file")
    use_mode = mode or kind.mode
    if use_mode is None:
        raise ValueError(f"{critic_file.path}: say the mode (skip or finish): the file does not")
    use_cot = kind.cot if cot is None else cot
    scores: list[ExternalScore] = []
    for sample in critic_file.samples:
        if sample.predictions is None:
            raise SampleError(
                critic_file.path,
                sample.sample_id,
                "predictions",
                "no predictions to score",
                line=sample.line,
            )
        if use_cot and use_mode == "skip" and sample.gold[1].thought is None:
            raise SampleError(
                critic_file.path,
                sample.sample_id,
                "ground_truth[1].thought",
                "CoT scoring needs the gold thought",
                line=sample.line,
            )
        scores.append(
            score_external(sample, sample.predictions, use_mode, use_cot, similarity, kind.variant)
        )
    return scores
