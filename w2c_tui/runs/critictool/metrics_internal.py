"""Internal-error metrics per sample, as the reference's LLMEvaluator scores them.

- parse_rate: 1 when the reply has a name and its args are an object or truthy (CoT: and a
  thought);
- critic (the paper's "detect"): error-free sample → 1 when the reply reports no error and
  parsed; erroneous sample → 1 when the reply's `error` is truthy;
- reflect ("category"): 1 when the reply's error is one of the four categories and the gold one;
- name ("tool"): 1 when the reply names the gold tool; args: `arg_score` then, else 0;
- goal (CoT): similarity of the reply's thought to the gold thought, when it has one.
reflect, name, args and goal are scored on erroneous samples only (0 on error-free ones).
"""

from __future__ import annotations

from dataclasses import dataclass

from w2c_tui.domain.critictool import ERROR_TYPES, CriticToolFile, Sample, SampleError, Variant
from w2c_tui.runs.critictool.args import arg_score
from w2c_tui.runs.critictool.parse import Reply, parse_reply
from w2c_tui.runs.critictool.similarity import Similarity

INTERNAL_KEYS = ("critic", "reflect", "name", "args", "parse_rate")
INTERNAL_COT_KEYS = ("critic", "reflect", "name", "args", "goal", "parse_rate")
"""The reference's per-sample keys, in its order (non-CoT, CoT)."""


@dataclass(frozen=True)
class InternalScore:
    """One internal sample's scores."""

    sample_id: str
    error_type: str | None
    variant: Variant | None
    parse_rate: int
    critic: int
    reflect: int
    name: int
    args: float
    goal: float | None
    """None when not scored with CoT."""

    @property
    def erroneous(self) -> bool:
        """The sample has an injected error."""
        return self.error_type is not None

    def as_dict(self) -> dict[str, float]:
        """The reference's per-sample record (its keys, its order)."""
        keys = INTERNAL_KEYS if self.goal is None else INTERNAL_COT_KEYS
        return {key: getattr(self, key) for key in keys}


def parsed_ok(reply: Reply, cot: bool) -> bool:
    """The reference's parse check: a name, args an object or truthy (CoT: and a thought)."""
    has_args = isinstance(reply.args, dict) or bool(reply.args)
    return bool(reply.name) and has_args and (bool(reply.thought) or not cot)


def score_internal(
    sample: Sample,
    prediction: str,
    cot: bool,
    similarity: Similarity,
    variant: Variant | None = None,
) -> InternalScore:
    """Score one internal sample's raw `prediction`."""
    reply = parse_reply(prediction)
    parse_rate = int(parsed_ok(reply, cot))
    gold = sample.gold[0]
    reflect = name = 0
    args = 0.0
    goal: float | None = 0.0 if cot else None
    if not sample.error_type:
        critic = int(not reply.error and bool(parse_rate))
    else:
        critic = int(bool(reply.error))
        reflect = int(
            bool(reply.error) and reply.error in ERROR_TYPES and reply.error == sample.error_type
        )
        if cot and reply.thought:
            goal = similarity(reply.thought, str(gold.thought))
        if reply.name and reply.name == gold.name:
            name = 1
            args = arg_score(sample.tools, reply, gold, similarity)
    return InternalScore(
        sample.sample_id, sample.error_type, variant, parse_rate, critic, reflect, name, args, goal
    )


def score_internal_file(
    critic_file: CriticToolFile, similarity: Similarity, cot: bool | None = None
) -> list[InternalScore]:
    """Scores of every sample of an internal file with predictions (CoT: the file's kind)."""
    kind = critic_file.kind
    if kind.source != "internal":
        raise ValueError(f"{critic_file.path}: not an internal-error file")
    use_cot = kind.cot if cot is None else cot
    scores: list[InternalScore] = []
    for sample in critic_file.samples:
        if sample.predictions is None:
            raise SampleError(
                critic_file.path,
                sample.sample_id,
                "predictions",
                "no prediction to score",
                line=sample.line,
            )
        if use_cot and sample.erroneous and sample.gold[0].thought is None:
            raise SampleError(
                critic_file.path,
                sample.sample_id,
                "ground_truth.thought",
                "CoT scoring needs the gold thought",
                line=sample.line,
            )
        scores.append(
            score_internal(sample, sample.predictions[0], use_cot, similarity, kind.variant)
        )
    return scores
