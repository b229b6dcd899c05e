"""Loading a local model and its tokenizer, with errors that say what to do."""

from __future__ import annotations

import contextlib
import gc
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from w2c_tui.domain.runs import RunStartError

DTYPES = ("auto", "float32", "bfloat16", "float16")
TOKENIZER_INFINITY = 1000000000000000019884624838656
DEFAULT_MAX_LENGTH = 2048
SEQLEN_ATTRS = ("n_positions", "max_position_embeddings", "n_ctx")


@dataclass
class LoadedModel:
    """A model in eval mode on its device, its tokenizer, and the settings they run with."""

    model: Any
    tokenizer: Any
    device: str
    dtype: str
    max_length: int
    pad_id: int
    fused_activations: int = 0
    """gelu_new modules computed by the fused kernel instead (`fuse_activations`)."""


def oom_message(where: str) -> str:
    """What to do about an out-of-memory error."""
    return (
        f"out of memory while {where}: lower --batch-size, or use --dtype bfloat16 "
        "(CUDA out of memory)"
    )


def is_oom(exc: BaseException) -> bool:
    """A CUDA or host out-of-memory error."""
    if isinstance(exc, MemoryError):
        return True
    text = str(exc)
    return "out of memory" in text or "can't allocate memory" in text


def free_memory() -> None:
    """Give cached CUDA memory back after an out-of-memory error."""
    import torch

    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def resolve_device(requested: str) -> str:
    """`auto` → cuda when available, else cpu; an explicit cuda device must exist."""
    import torch

    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if requested.startswith("cuda") and not torch.cuda.is_available():
        raise RunStartError(
            f"--device {requested} asked for CUDA, but torch {torch.__version__} sees no CUDA "
            "device: use --device cpu (or auto), or install a CUDA build of torch"
        )
    return requested


def resolve_dtype(requested: str, device: str) -> str:
    """`auto` → bfloat16 on a GPU, float32 on the CPU."""
    if requested not in DTYPES:
        raise RunStartError(f"unknown --dtype {requested!r}; use one of {', '.join(DTYPES)}")
    if requested == "auto":
        return "float32" if device == "cpu" else "bfloat16"
    return requested


def model_max_length(config: Any, tokenizer: Any) -> int:
    """The context length lm-evaluation-harness uses: config attributes, then the tokenizer."""
    cfg = getattr(config, "text_config", None) or config
    for attr in SEQLEN_ATTRS:
        value = getattr(cfg, attr, None)
        if value is not None:
            return int(value)
    length = getattr(tokenizer, "model_max_length", None)
    if length is not None and length != TOKENIZER_INFINITY:
        return int(length)
    return DEFAULT_MAX_LENGTH


def _not_found(model: str, exc: BaseException) -> RunStartError:
    return RunStartError(
        f"cannot load model {model!r}: {exc}. Pass a directory that holds config.json, the "
        "weights and the tokenizer, or the id of a model already in the Hugging Face cache "
        "(download it first, e.g. `hf download <id>`); nothing is downloaded during a run"
    )


def check_path(model: str) -> None:
    """A path-like `model` must be a directory with config.json (anything else may be a cached
    model id, which loading then checks)."""
    folder = Path(model).expanduser()
    path_like = model.startswith(("/", ".", "~")) or folder.exists()
    if path_like and not folder.exists():
        raise RunStartError(
            f"model path {model!r} does not exist: pass a directory that holds config.json, "
            "the weights and the tokenizer (or the id of a model in the Hugging Face cache)"
        )
    if folder.is_dir() and not (folder / "config.json").is_file():
        raise RunStartError(
            f"model path {model!r} has no config.json: pass a transformers model directory "
            "(config.json, the weights and the tokenizer files, as save_pretrained writes them)"
        )


def load_tokenizer(model: str) -> Any:
    """The model's tokenizer (local files only)."""
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(model, local_files_only=True)
    except (OSError, ValueError) as exc:
        raise _not_found(model, exc) from exc


_frozen = False


def import_model_class(model: str) -> Any:
    """The model's config, its modeling module imported; then, once per process, the objects
    alive so far moved out of the cyclic garbage collector's way (`gc.freeze`).

    torch and transformers leave ~10^6 objects behind them, each of which every full collection
    and the interpreter's final ones walk: on the 2-core dev machine exiting after a log-prob run
    took 0.8-0.9 s, 0.2 s frozen (bench/README.md). Frozen objects are still freed by reference
    counting; only reference cycles among them would stay, and these are import-time objects
    that live as long as the process anyway. The model itself is loaded after the freeze, so a
    model dropped later is collected as usual."""
    global _frozen
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING

    config = AutoConfig.from_pretrained(model, local_files_only=True)
    with contextlib.suppress(KeyError, ImportError):  # from_pretrained then says what is wrong
        MODEL_FOR_CAUSAL_LM_MAPPING[type(config)]  # imports the modeling module
    if not _frozen:
        gc.freeze()
        _frozen = True
    return config


def load(model: str, device: str, dtype: str) -> LoadedModel:
    """Load `model` (a path or a cached id) for inference on `device` in `dtype`."""
    import torch
    from transformers import AutoModelForCausalLM

    check_path(model)
    tokenizer = load_tokenizer(model)
    try:
        config = import_model_class(model)
        net: Any = AutoModelForCausalLM.from_pretrained(
            model, config=config, dtype=getattr(torch, dtype), local_files_only=True
        )
        net = net.to(device).eval()
        fused = fuse_activations(net)
    except (OSError, ValueError) as exc:
        raise _not_found(model, exc) from exc
    except (RuntimeError, MemoryError) as exc:
        if is_oom(exc):
            raise RunStartError(oom_message(f"loading {model!r} on {device}")) from exc
        raise
    pad = tokenizer.pad_token_id
    if pad is None:
        pad = tokenizer.eos_token_id if tokenizer.eos_token_id is not None else 0
    return LoadedModel(
        model=net,
        tokenizer=tokenizer,
        device=device,
        dtype=dtype,
        max_length=model_max_length(net.config, tokenizer),
        pad_id=int(pad),
        fused_activations=fused,
    )


def fuse_activations(model: Any) -> int:
    """Swap GPT-2's `gelu_new` modules (the tanh formula written as six tensor operations) for
    `gelu_pytorch_tanh`, the same formula in one fused kernel; returns how many were swapped.

    On the CPU the six operations were ~13% of a log-prob run's forward time on a small GPT-2
    (each one a pass over the MLP's activations). The values differ from the unfused ones by
    float rounding only (bench_mcq.py checks every log-likelihood against lm-eval's)."""
    from transformers.activations import GELUTanh, NewGELUActivation

    swapped = 0
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if type(child) is NewGELUActivation:
                setattr(module, name, GELUTanh())
                swapped += 1
    return swapped


def config_hash(model: str) -> str | None:
    """sha256 (first 16 hex) of the model's config.json, when it can be found locally."""
    from transformers.utils.hub import cached_file

    try:
        path = cached_file(model, "config.json", local_files_only=True)
    except (OSError, ValueError):
        return None
    if path is None:
        return None
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class ModelCache:
    """Loaded models by (model, device, dtype): a spot-check session loads each model once and
    uses it for the answer, the judge and the log-prob scores, however many checks it runs."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._loaded: dict[tuple[str, str, str], LoadedModel] = {}
        self.loads = 0
        """How many models were actually loaded (the tests count them)."""

    def get(self, model: str, device: str, dtype: str) -> LoadedModel:
        """The model, loaded on first use."""
        key = (model, device, dtype)
        with self._lock:
            if key not in self._loaded:
                self._loaded[key] = load(model, device, dtype)
                self.loads += 1
            return self._loaded[key]

    def clear(self) -> None:
        """Drop every model (and the CUDA memory they held)."""
        with self._lock:
            self._loaded.clear()
        free_memory()
