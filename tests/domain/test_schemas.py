"""Label schemas: the TOML format, its errors (file:line:field), and the built-ins as data."""

from __future__ import annotations

from pathlib import Path

import pytest

from w2c_tui.domain import critictool_labels as critic
from w2c_tui.domain.errors import InputError
from w2c_tui.domain.labels import LABELS
from w2c_tui.domain.qa import QA_FLAGS
from w2c_tui.domain.schema_builtins import BUILTIN_SCHEMAS, CRITICTOOL, WHEN2CALL_ITEM_QA
from w2c_tui.domain.schema_toml import line_of, parse_schema
from w2c_tui.domain.schemas import Level, QuestionKind, UnitKind

BAR = """\
name = "bar"
title = "The bar's schema"
unit = "response"
blind_hidden = ["gold"]

[[questions]]
name = "ok"
title = "Is the reply fine?"
options = ["yes", "no"]

[[questions]]
name = "tone"
kind = "nominal"
options = [{value = "friendly", title = "Friendly"}, "neutral", "rude"]
when = {ok = "yes"}

[[questions]]
name = "quality"
kind = "ordinal"
options = [1, 2, 3]
after_blind = true

[[questions]]
name = "comment"
kind = "text"
"""


def test_the_bars_schema_parses() -> None:
    schema = parse_schema(BAR, "bar.toml")
    assert schema.name == "bar" and schema.unit is UnitKind.RESPONSE
    assert schema.names == ("ok", "tone", "quality", "comment")
    ok, tone, quality, comment = schema.questions
    assert [o.value for o in ok.options] == ["yes", "no"]
    assert [o.key for o in tone.options] == ["1", "2", "3"]
    assert tone.options[0].title == "Friendly" and tone.level is Level.NOMINAL
    assert tone.when is not None and tone.when.question == "ok"
    assert quality.kind is QuestionKind.ORDINAL and quality.level is Level.ORDINAL
    assert quality.after_blind and [o.value for o in quality.options] == ["1", "2", "3"]
    assert comment.kind is QuestionKind.TEXT and comment.level is None
    assert schema.blind_hidden == ("gold",)


def test_asked_questions_follow_conditions_and_blind() -> None:
    schema = parse_schema(BAR, "bar.toml")
    assert [q.name for q in schema.asked({}, blind_done=False)] == ["ok", "comment"]
    assert [q.name for q in schema.asked({"ok": "yes"})] == ["ok", "tone", "quality", "comment"]
    assert [q.name for q in schema.asked({"ok": "no"})] == ["ok", "quality", "comment"]


def test_interval_level_uses_the_option_numbers() -> None:
    text = BAR.replace('kind = "ordinal"', 'kind = "ordinal"\nlevel = "interval"').replace(
        "[1, 2, 3]", "[1, 2, 5]"
    )
    quality = parse_schema(text).question("quality")
    assert quality.level is Level.INTERVAL and quality.domain() == [1.0, 2.0, 5.0]
    assert parse_schema(BAR).question("quality").domain() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize(
    ("change", "line", "field", "words"),
    [
        (('name = "bar"', 'name = ""'), 1, "name", "must not be empty"),
        (('unit = "response"', 'unit = "turn"'), 3, "unit", "'turn' is not one of"),
        (('["gold"]', '["secret"]'), 4, "blind_hidden", "unknown field 'secret'"),
        (('options = ["yes", "no"]', 'options = ["yes"]'), 9, "questions[0].options", "2 options"),
        (('when = {ok = "yes"}', 'when = {ok = "maybe"}'), 15, "questions[1].when", "'maybe'"),
        (('when = {ok = "yes"}', 'when = {quality = "1"}'), 15, "questions[1].when", "earlier"),
        (('name = "tone"', 'name = "ok"'), 12, "questions[1].name", "a second question"),
        (('kind = "ordinal"', 'kind = "ordinal"\nlevel = "ratio"'), 20, "questions[2].level", ""),
        (("after_blind = true", 'after_blind = "yes"'), 21, "questions[2].after_blind", ""),
        (('kind = "text"', 'kind = "text"\ncolour = 1'), 26, "questions[3].colour", "unknown"),
        (('name = "comment"', 'name = "item"'), 24, "questions[3].name", "column"),
        (("[1, 2, 3]", '[{value = "1", key = "u"}, "2", "3"]'), 20, "questions[2].options", "key"),
    ],
)
def test_bad_schemas_name_file_line_and_field(
    change: tuple[str, str], line: int, field: str, words: str
) -> None:
    text = BAR.replace(*change)
    assert text != BAR
    with pytest.raises(InputError) as caught:
        parse_schema(text, "bar.toml")
    assert (caught.value.path, caught.value.line, caught.value.field) == ("bar.toml", line, field)
    assert words in caught.value.message
    assert str(caught.value).startswith(f"bar.toml:{line}: field '{field}':")


def test_broken_toml_names_its_line() -> None:
    with pytest.raises(InputError) as caught:
        parse_schema('name = "x"\nunit = \n', "x.toml")
    assert caught.value.line == 2 and "not valid TOML" in caught.value.message


def test_a_name_with_control_characters_is_refused() -> None:
    with pytest.raises(InputError, match="control character"):
        parse_schema(BAR.replace('name = "bar"', 'name = "b\\u001bar"'), "bar.toml")


def test_line_of_finds_top_level_and_question_fields() -> None:
    assert line_of(BAR, "title") == 2
    assert line_of(BAR, "questions[2]") == 17
    assert line_of(BAR, "questions[2].kind") == 19
    assert line_of(BAR, "questions[3].options") == 23  # not there: the question's header
    assert line_of(BAR, "questions[9].name") is None


def test_check_answers() -> None:
    schema = parse_schema(BAR)
    assert schema.question("tone").check(" rude ") == "rude"
    with pytest.raises(ValueError, match="'polite' is not one of friendly, neutral, rude"):
        schema.question("tone").check("polite")
    with pytest.raises(ValueError, match="empty"):
        schema.question("comment").check("  ")


def test_extends_allows_additions_only() -> None:
    old = parse_schema(BAR)
    more = parse_schema(BAR.replace('"neutral", "rude"]', '"neutral", "rude", "curt"]'))
    assert more.extends(old) is None
    assert old.extends(more) == "question 'tone' lost option(s) curt"
    fewer = parse_schema(BAR.replace('[[questions]]\nname = "comment"\nkind = "text"\n', ""))
    assert fewer.extends(old) == "question 'comment' was removed"


def test_builtins_mirror_the_code() -> None:
    assert set(BUILTIN_SCHEMAS) == {"when2call-behaviour", "when2call-item-qa", "critictool"}
    behaviour = BUILTIN_SCHEMAS["when2call-behaviour"]
    assert behaviour.unit is UnitKind.RESPONSE
    assert [o.value for o in behaviour.questions[0].options] == [label.value for label in LABELS]
    assert WHEN2CALL_ITEM_QA.names[1:-1] == tuple(f.code for f in QA_FLAGS)
    assert WHEN2CALL_ITEM_QA.names[-1] == "note"  # the checklist and the note are optional
    assert [q.required for q in WHEN2CALL_ITEM_QA.questions][1:] == [False] * (len(QA_FLAGS) + 1)
    assert WHEN2CALL_ITEM_QA.question("qca_vague").when is not None
    assert WHEN2CALL_ITEM_QA.question("rfi_reason").when is None
    assert CRITICTOOL.names == (*(q.value for q in critic.Question), critic.NOTE)
    assert CRITICTOOL.question(critic.NOTE).kind is QuestionKind.TEXT
    blind = {q.name for q in CRITICTOOL.questions if not q.after_blind}
    assert blind == {q.value for q in critic.BLIND_QUESTIONS}
    for question in critic.Question:
        ours = [o.value for o in CRITICTOOL.question(question.value).options]
        assert ours == [value for value, _ in critic.options(question)]
    for schema in BUILTIN_SCHEMAS.values():
        assert schema.builtin and all(
            q.level is Level.NOMINAL for q in schema.questions if q.kind is not QuestionKind.TEXT
        )


def test_the_documented_example_parses() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "schemas.md"
    text = docs.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    schema = parse_schema(example, str(docs))
    assert schema.names == ("ok", "tone", "quality", "comment")
    assert [o.key for o in schema.question("tone").options] == ["f", "e", "r"]
    assert schema.question("quality").after_blind


WHEN_UNIT = """\
name = "ct-check"
unit = "critictool-prediction"

[[questions]]
name = "ok"
options = ["yes", "no"]

[[questions]]
name = "policy_fine"
options = ["yes", "no"]
when_unit = {source = "external", prediction = "yes"}
"""


def test_questions_asked_by_the_units_facts() -> None:
    schema = parse_schema(WHEN_UNIT, "ct.toml")
    question = schema.question("policy_fine")
    assert question.as_json()["when_unit"] == {"source": ["external"], "prediction": ["yes"]}
    external = {"source": "external", "prediction": "yes"}
    assert [q.name for q in schema.asked({}, facts=external)] == ["ok", "policy_fine"]
    assert [q.name for q in schema.asked({}, facts={**external, "prediction": "no"})] == ["ok"]
    for text, why in (
        (WHEN_UNIT.replace("critictool-prediction", "item"), "a item unit has no facts"),
        (WHEN_UNIT.replace("source =", "colour ="), "'colour' is not a fact"),
        (WHEN_UNIT.replace('"external"', '"elsewhere"'), "'elsewhere' is not a value of 'source'"),
    ):
        with pytest.raises(InputError, match=why) as caught:
            parse_schema(text, "ct.toml")
        assert "questions[1].when_unit" in str(caught.value)


IMPLIES = """\
name = "implying"
unit = "item"

[[questions]]
name = "broken"
options = [{value = "yes"}, {value = "no", implies = {why = "fine"}}]

[[questions]]
name = "why"
options = ["fine", "typo", "crash"]
when = {broken = "yes"}
"""


def test_an_option_implies_a_later_answer() -> None:
    schema = parse_schema(IMPLIES, "implying.toml")
    assert schema.implied({"broken": "no"}) == {"why": "fine"}
    assert schema.questions[0].as_json()["options"][1]["implies"] == {"why": "fine"}
    assert CRITICTOOL.implied({"error": "no"}) == {"category": "none"}
    for text, why in (
        (IMPLIES.replace('{why = "fine"}', '{how = "fine"}'), "'how', which is not a later"),
        (IMPLIES.replace('{why = "fine"}', '{why = "ok"}'), "'ok', which is not an option"),
    ):
        with pytest.raises(InputError, match=why) as caught:
            parse_schema(text, "implying.toml")
        assert "questions[0].options" in str(caught.value)
