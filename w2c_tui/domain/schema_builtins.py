"""The built-in label schemas, as data, from what the code already defines.

- `when2call-behaviour`: a When2Call behaviour label on a model's response (`domain.labels`).
- `when2call-item-qa`: an item's correct behaviour and the paper's Table 6 checklist
  (`domain.qa`); the question checks of a gold class are asked when the annotator's own
  behaviour answer is that class.
- `critictool`: the seven CriticTool questions (`domain.critictool_labels`); the questions
  about the model's prediction come after the blind ones (`BLIND_QUESTIONS`).
"""

from __future__ import annotations

from w2c_tui.domain import critictool_labels as critic
from w2c_tui.domain.labels import LABEL_TITLES, LABELS
from w2c_tui.domain.qa import QA_FLAGS, QUESTION_GROUP_GOLD
from w2c_tui.domain.schemas import (
    Condition,
    LabelSchema,
    Level,
    Option,
    Question,
    QuestionKind,
    UnitKind,
)

YES_NO = (Option("yes", "yes", "1"), Option("no", "no", "2"))

BEHAVIOUR_OPTIONS = tuple(
    Option(label.value, LABEL_TITLES[label], str(index + 1)) for index, label in enumerate(LABELS)
)


def _behaviour_question(title: str) -> Question:
    return Question(
        name="behaviour",
        title=title,
        kind=QuestionKind.NOMINAL,
        level=Level.NOMINAL,
        options=BEHAVIOUR_OPTIONS,
    )


WHEN2CALL_BEHAVIOUR = LabelSchema(
    name="when2call-behaviour",
    title="When2Call behaviour of a response",
    description="Which of the four When2Call behaviours a model's response shows.",
    unit=UnitKind.RESPONSE,
    questions=(_behaviour_question("Which behaviour does the response show?"),),
    blind_hidden=("gold", "held_out_param", "target_tool", "orig_question", "source_id"),
    builtin=True,
)


def _checklist() -> tuple[Question, ...]:
    out = []
    for spec in QA_FLAGS:
        gold = QUESTION_GROUP_GOLD.get(spec.group)
        out.append(
            Question(
                name=spec.code,
                title=f"{spec.group}: {spec.text}?",
                kind=QuestionKind.NOMINAL,
                level=Level.NOMINAL,
                options=YES_NO,
                when=Condition("behaviour", (gold.value,)) if gold is not None else None,
                after_blind=True,
                required=False,
            )
        )
    return tuple(out)


WHEN2CALL_ITEM_QA = LabelSchema(
    name="when2call-item-qa",
    title="When2Call item QA",
    description="An item's correct behaviour, then the When2Call paper's checklist (Table 6) "
    "and a note.",
    unit=UnitKind.ITEM,
    questions=(
        _behaviour_question("What is the correct behaviour?"),
        *_checklist(),
        Question(
            name="note",
            title="Note",
            kind=QuestionKind.TEXT,
            level=None,
            after_blind=True,
            required=False,
        ),
    ),
    blind_hidden=("gold", "held_out_param", "target_tool", "orig_question", "source_id"),
    builtin=True,
)


def _critictool_question(question: critic.Question) -> Question:
    return Question(
        name=question.value,
        title=critic.QUESTION_TITLES[question],
        kind=QuestionKind.NOMINAL,
        level=Level.NOMINAL,
        options=tuple(
            Option(value, title, str(index + 1), _implied(question, value))
            for index, (value, title) in enumerate(critic.options(question))
        ),
        when=Condition(critic.Question.ERROR.value, ("yes",))
        if question is critic.Question.CATEGORY
        else None,
        after_blind=question not in critic.BLIND_QUESTIONS,
        when_unit=_critictool_facts(question),
    )


def _implied(question: critic.Question, value: str) -> tuple[tuple[str, str], ...]:
    """ "No error" answers the category `none` as well (`CriticToolLabel.answer`)."""
    if question is critic.Question.ERROR and value == "no":
        return ((critic.Question.CATEGORY.value, critic.ErrorCategory.NONE.value),)
    return ()


def _critictool_facts(question: critic.Question) -> tuple[Condition, ...]:
    """The policies are asked on external samples only, the model's questions only where a
    prediction is there (`critictool_labels.questions`)."""
    facts = []
    if question in (critic.Question.EXPECTED_POLICY, critic.Question.OBSERVED_POLICY):
        facts.append(Condition("source", ("external",)))
    if question not in critic.BLIND_QUESTIONS:
        facts.append(Condition("prediction", ("yes",)))
    return tuple(facts)


CRITICTOOL = LabelSchema(
    name="critictool",
    title="CriticTool trajectory and prediction",
    description="The seven CriticTool questions and a note: the error in the last step, its "
    "category and the expected policy (blind), then the model's critique, corrected call and "
    "policy. The policies are asked on external samples only.",
    unit=UnitKind.CRITICTOOL_PREDICTION,
    questions=(
        *(_critictool_question(q) for q in critic.Question),
        Question(
            name=critic.NOTE,
            title="Note",
            kind=QuestionKind.TEXT,
            level=None,
            after_blind=True,
            required=False,
        ),
    ),
    blind_hidden=("gold", "prediction", "target_model"),
    builtin=True,
)

BUILTIN_SCHEMAS: dict[str, LabelSchema] = {
    s.name: s for s in (WHEN2CALL_BEHAVIOUR, WHEN2CALL_ITEM_QA, CRITICTOOL)
}
"""The schemas every database has, by name (a user's schema may not take these names)."""
