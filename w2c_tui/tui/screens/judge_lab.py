"""The judge lab: two prompt versions of a judge side by side on the split's dev units, the
units that flipped (Enter opens one on the review screen), and the test result only when
asked for (t twice: every test comparison is counted)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

if TYPE_CHECKING:
    from w2c_tui.services import Services


def _est(doc: Any, *, signed: bool = False) -> str:
    """An estimate document ({value, ci, reason}) as '0.812 [0.74, 0.88]'."""
    if doc["value"] is None:
        return f"— ({doc['reason']})"
    fmt = "+.3f" if signed else ".3f"
    ci = doc["ci"]
    return f"{doc['value']:{fmt}}" + (f" [{ci[0]:{fmt}}, {ci[1]:{fmt}}]" if ci else "")


class JudgeLabScreen(ModalScreen[int | None]):
    """Returns the item id of a flipped unit to open on the review screen, or None."""

    BINDINGS = [
        Binding("escape", "close", "back", id="lab-close"),
        Binding("j", "judge", "next judge", id="lab-judge"),
        Binding("a", "prompt(0)", "prompt A", id="lab-prompt-a"),
        Binding("b", "prompt(1)", "prompt B", id="lab-prompt-b"),
        Binding("t", "test", "test result", id="lab-test"),
    ]

    def __init__(self, services: Services, dataset: str) -> None:
        super().__init__()
        self.services = services
        self.dataset = dataset
        self.versions = services.judge_lab.versions(dataset)
        self.judges = [j for j, found in self.versions.items() if len(found) >= 2]
        self.judge = self.judges[0] if self.judges else None
        self.chosen = [0, 1]
        self.part = "dev"
        self.armed = False
        self.units: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog--wide", id="judge-lab"):
            yield Static("", id="lab-head", markup=False)
            yield Static("", id="lab-result")
            yield DataTable(id="lab-flips", cursor_type="row")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("flip", "unit (uuid@model)")
        self.refresh_result()

    def _pair(self) -> tuple[str, str] | None:
        if self.judge is None:
            return None
        found = self.versions[self.judge]
        return found[self.chosen[0] % len(found)], found[self.chosen[1] % len(found)]

    def refresh_result(self) -> None:
        head = self.query_one("#lab-head", Static)
        result = self.query_one("#lab-result", Static)
        table = self.query_one(DataTable)
        table.clear()
        split = self.services.judge_lab.split(self.dataset)
        pair = self._pair()
        if pair is None:
            head.update(
                f"Judge lab · {self.dataset}: no judge has readings with two prompt versions. "
                "Run a judge with another --judge-prompt first (Esc closes)."
            )
            result.update("")
            return
        if split is None:
            head.update(
                f"Judge lab · {self.dataset}: no dev/test split yet — `w2c split --test 0.3 "
                "--seed S` freezes one (Esc closes)."
            )
            result.update("")
            return
        a, b = pair

        def say(uses: object) -> None:
            head.update(
                f"Judge lab · {self.dataset} · {self.judge}: A = {a}, B = {b} on {self.part} "
                f"(test used {uses} times) · j judge · a/b prompt · t test · "
                "Enter opens a flipped unit"
            )

        say(split["test_uses"])
        if a == b:
            result.update(Text("A and B are the same prompt: a or b picks another.", "italic"))
            return
        try:
            doc = self.services.judge_lab.compare(self.dataset, self.judge or "", a, b, self.part)
        except Exception as error:  # a W2CError says what is missing
            result.update(Text(str(error), "italic"))
            return
        say(doc["test_uses"])
        t = Table("", "A", "B", "B − A [95% CI]", title=f"{doc['n']} {self.part} units")
        for key, label in (("accuracy", "accuracy vs humans"), ("kappa", "Cohen κ vs humans")):
            part = doc[key]
            assert isinstance(part, dict)
            t.add_row(
                label, _est(part["a"]), _est(part["b"]), _est(part["difference"], signed=True)
            )
        test = doc["mcnemar"]
        assert isinstance(test, dict)
        note = Text(
            f"McNemar exact p = {test['p_exact']:.3g} · right→wrong {test['b_right_to_wrong']}"
            f" · wrong→right {test['c_wrong_to_right']}"
        )
        result.update(Group(t, note))
        self.units = []
        for flip in ("right_to_wrong", "wrong_to_right"):
            units = doc[flip]
            assert isinstance(units, list)
            for unit in units:
                self.units.append(unit)
                table.add_row(flip.replace("_to_", " → ").replace("_", " "), unit)

    def action_judge(self) -> None:
        if self.judges:
            self.judge = self.judges[(self.judges.index(self.judge or "") + 1) % len(self.judges)]
            self.chosen, self.part = [0, 1], "dev"
            self.refresh_result()

    def action_prompt(self, which: int) -> None:
        self.chosen[which] += 1
        self.part, self.armed = "dev", False
        self.refresh_result()

    def action_test(self) -> None:
        if not self.armed:
            self.armed = True
            self.notify("The test result counts one use of the test split: t again to see it.")
            return
        self.armed, self.part = False, "test"
        self.refresh_result()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self.units):
            self.dismiss(
                self.services.judge_lab.item_id(self.dataset, self.units[event.cursor_row])
            )

    def action_close(self) -> None:
        self.dismiss(None)
