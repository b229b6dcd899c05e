"""The user's `[keys]` remaps checked at start: an id that names no binding, or a key another
binding of the same screen already uses, is reported (and that remap left out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual.binding import Binding


def _keys(text: str) -> list[str]:
    return [key.strip() for key in text.split(",") if key.strip()]


def screen_bindings() -> dict[str, list[Binding]]:
    """The bindings with ids, per screen (the app's own ones apply on every screen)."""
    from w2c_tui.tui.bindings import APP_BINDINGS, REVIEW_BINDINGS
    from w2c_tui.tui.screens.agreement import AgreementScreen
    from w2c_tui.tui.screens.critictool import CRITIC_BINDINGS
    from w2c_tui.tui.screens.datasets import DatasetsScreen
    from w2c_tui.tui.screens.help import HelpScreen
    from w2c_tui.tui.screens.runs import RunsScreen

    def own(bindings: Sequence[object]) -> list[Binding]:
        return [b for b in bindings if isinstance(b, Binding) and b.id]

    app = own(APP_BINDINGS)
    screens: dict[str, Sequence[object]] = {
        "review": REVIEW_BINDINGS,
        "agreement": AgreementScreen.BINDINGS,
        "datasets": DatasetsScreen.BINDINGS,
        "help": HelpScreen.BINDINGS,
        "runs": RunsScreen.BINDINGS,
        "critictool": CRITIC_BINDINGS,
    }
    return {name: own(bindings) + app for name, bindings in screens.items()}


def check_keymap(
    keymap: Mapping[str, str], screens: Mapping[str, Sequence[Binding]] | None = None
) -> tuple[dict[str, str], list[str]]:
    """(the remaps that can be applied, what is wrong with the others)."""
    screens = screens if screens is not None else screen_bindings()
    known = {b.id for bindings in screens.values() for b in bindings if b.id}
    problems: list[str] = []
    valid: dict[str, str] = {}
    for binding_id, keys in keymap.items():
        if binding_id not in known:
            problems.append(
                f"[keys] {binding_id!r} names no binding (see the help screen, `?`, for the "
                "binding ids); ignored"
            )
        elif not _keys(keys):
            problems.append(f"[keys] {binding_id!r} gives no key; ignored")
        else:
            valid[binding_id] = keys
    for binding_id in list(valid):
        clash = _clash(binding_id, valid, screens)
        if clash is not None:
            problems.append(clash)
            del valid[binding_id]
    return valid, problems


def _clash(
    binding_id: str, keymap: Mapping[str, str], screens: Mapping[str, Sequence[Binding]]
) -> str | None:
    """Which other binding already answers one of `binding_id`'s new keys, if any."""
    wanted = set(_keys(keymap[binding_id]))
    for screen, bindings in screens.items():
        if not any(b.id == binding_id for b in bindings):
            continue
        for other in bindings:
            if other.id == binding_id:
                continue
            remapped = keymap.get(other.id) if other.id else None
            theirs = _keys(remapped if remapped is not None else other.key)
            taken = wanted.intersection(theirs)
            if taken:
                key = sorted(taken)[0]
                return (
                    f"[keys] {binding_id!r} = {keymap[binding_id]!r}: key {key!r} is already "
                    f"used by {other.id!r} on the {screen} screen; ignored"
                )
    return None
