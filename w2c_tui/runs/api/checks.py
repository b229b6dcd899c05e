"""Start-up checks: reachable server, accepted key, served model, and what the method needs."""

from __future__ import annotations

from w2c_tui.domain.critictool_labels import Question
from w2c_tui.domain.run_options import OpenAIOptions
from w2c_tui.domain.runs import Method, RunConfig, RunStartError
from w2c_tui.runs.api import _template
from w2c_tui.runs.api.calls import Api
from w2c_tui.runs.api.client import public_url
from w2c_tui.runs.api.echo import NO_ECHO_HELP, NoPromptLogprobs, read_echo
from w2c_tui.runs.api.endpoint import refuses
from w2c_tui.runs.api.judging import ask
from w2c_tui.runs.api.retry import Attempts, describe_error, with_retries
from w2c_tui.runs.api.tokens import probe_tokens
from w2c_tui.runs.critictool.judge import response_format

PROBE_TEXT = "The quick brown fox jumps over the lazy dog."
"""What the echo probe scores: several tokens with any tokenizer."""
PROBE_FIRST = "Hello."
"""Sent before PROBE_TEXT in the list-prompt probe (a shorter text, so swapped choices show)."""


def check_config(config: RunConfig, options: OpenAIOptions) -> None:
    """What the config alone says is impossible for this backend."""
    if config.method is Method.MCQ_LOGPROB:
        try:
            _template.check_mcq_template(config.template)
        except ValueError as exc:
            raise RunStartError(str(exc)) from None
    elif (
        config.method is Method.GENERATE
        and not options.native_tools
        and config.template != _template.DEFAULT_TEMPLATE
    ):
        raise RunStartError(
            f"generation with tools in the prompt uses the {_template.DEFAULT_TEMPLATE} "
            f"template split into chat messages, not {config.template!r}; use it, or "
            "native_tools"
        )
    if options.max_retries < 0 or options.timeout_s <= 0:
        raise RunStartError("max_retries must be ≥ 0 and timeout_s > 0")


async def check_endpoint(api: Api) -> None:
    """RunStartError saying what to fix; fills `api.endpoint` with what the server accepts."""
    import openai

    config = api.config
    where = public_url(api.options.base_url)
    served = await _served_models(api, where)
    try:
        if config.method is Method.MCQ_LOGPROB:
            await _probe_echo(api)
        elif config.method is Method.JUDGE:
            await ask(api, Attempts(), [{"role": "user", "content": _JUDGE_PROBE}])
        elif config.method is Method.CRITICTOOL_JUDGE:
            probe = [{"role": "user", "content": _CRITIC_JUDGE_PROBE}]
            await ask(api, Attempts(), probe, None, response_format([Question.ERROR]))
        elif served is None or config.model not in served:
            await api.chat(Attempts(), [{"role": "user", "content": "ping"}], max_tokens=1)
    except NoPromptLogprobs as exc:
        raise RunStartError(f"{NO_ECHO_HELP} ({exc}; server {where})") from None
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        raise RunStartError(_auth_help(api, where, exc)) from None
    except openai.APIConnectionError as exc:
        raise RunStartError(_unreachable(api, where, exc)) from None
    except openai.APIStatusError as exc:
        if exc.status_code == 404 or refuses(exc, "model"):
            available = f"; it serves: {', '.join(sorted(served))}" if served else ""
            raise RunStartError(
                f"model {config.model!r} is not served at {where}{available}"
            ) from None
        raise RunStartError(
            f"a test call to {where} failed: {api.redact(describe_error(exc))}"
        ) from None
    except (openai.APIError, ValueError) as exc:
        raise RunStartError(
            f"{where} answered a test call with an unreadable reply: "
            f"{api.redact(describe_error(exc))}"
        ) from None


async def _probe_echo(api: Api) -> None:
    """One echo request; NoPromptLogprobs unless the prompt's log-probs come back. A server that
    fails max_tokens=0 in any way (`transformers serve` breaks the connection) is tried with 1.
    Then one request with two prompts in the list form of `prompt` learns whether the server
    answers them in one go (`batch_prompts`; the second prompt must echo as it did alone)."""
    import openai

    try:
        completion, max_tokens = await api.echo(Attempts(), PROBE_TEXT)
    except (openai.APIStatusError, openai.APIConnectionError) as exc:
        status = getattr(exc, "status_code", None)
        if api.endpoint.echo_max_tokens != 0 or status in (401, 403, 404):
            raise
        api.endpoint.echo_max_tokens = 1
        completion, max_tokens = await api.echo(Attempts(), PROBE_TEXT)
    alone = read_echo(completion, PROBE_TEXT, max_tokens)
    if api.config.bos and api.endpoint.bos_switch:  # compare with what our ids will be
        plain = await api.echo_plain(Attempts(), PROBE_TEXT)
    else:
        plain = alone
    await probe_tokens(api, plain, PROBE_TEXT)
    if api.config.bos and api.tokenizer is not None and api.tokenizer.bos_token_id is None:
        raise RunStartError(
            "--bos was asked for, but the tokenizer has no BOS token: run without --bos"
        )
    if api.config.bos and not api.endpoint.token_prompts:
        await _check_bos(api)
    if api.endpoint.batch_prompts is None:
        batch = await api.echo_batch(Attempts(), [PROBE_FIRST, PROBE_TEXT])
        if batch is not None and batch[1].tokens != alone.tokens:
            api.endpoint.batch_prompts = False


async def _check_bos(api: Api) -> None:
    """--bos means what it means locally (lm-eval's add_bos_token=True: a BOS token in front of
    every context): refuse where the server cannot be made to add one."""
    if not api.endpoint.bos_switch:
        raise RunStartError(
            "--bos was asked for, but this server does not take `add_special_tokens`, so "
            "whether a BOS token is added cannot be chosen: run without --bos (the server's "
            "default is then recorded), or use the transformers backend"
        )
    if not await api.bos_adds_a_token(Attempts(), PROBE_TEXT):
        raise RunStartError(
            "--bos was asked for, but the server's tokenizer adds no BOS token with "
            "add_special_tokens=true (its tokenizer has no BOS post-processor), so the scores "
            "would be those without BOS: run without --bos, or use the transformers backend, "
            "which prepends the BOS token itself"
        )


_JUDGE_PROBE = 'Reply with this JSON object and nothing else: {"classification": "direct"}'
_CRITIC_JUDGE_PROBE = 'Reply with this JSON object and nothing else: {"error": "no"}'


async def _served_models(api: Api, where: str) -> set[str] | None:
    """The model ids from /models; None when the server has no such endpoint."""
    import openai

    async def listing() -> set[str]:
        page = await api.client.models.list()
        return {model.id for model in page.data}

    try:
        return await with_retries(
            listing,
            policy=api.policy,
            max_retries=api.max_retries,
            attempts=Attempts(),
            redact=api.redact,
            rng=api.rng,
            retry_connection=False,
        )
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        raise RunStartError(_auth_help(api, where, exc)) from None
    except openai.APIConnectionError as exc:
        raise RunStartError(_unreachable(api, where, exc)) from None
    except (openai.APIStatusError, openai.APIResponseValidationError, ValueError):
        return None


def _auth_help(api: Api, where: str, exc: BaseException) -> str:
    env = api.options.api_key_env
    source = f"the key in ${env}" if env else "no key (api_key_env is not set)"
    return (
        f"{where} refused {source}: {api.redact(describe_error(exc))}; check the key, or set "
        "api_key_env to the variable that holds it"
    )


def _unreachable(api: Api, where: str, exc: BaseException) -> str:
    return (
        f"cannot reach {where} ({api.redact(describe_error(exc))}); check the base URL and "
        "that the server is running"
    )
