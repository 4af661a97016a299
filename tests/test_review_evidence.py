"""The Review agent's evidence checks and how they combine with the model's verdict (scripted LLM)."""

from __future__ import annotations

from edge_agent import PROJECT_ROOT
from edge_agent.agent.review import Evidence, ReviewReply, combine, review
from edge_agent.agent.trajectory import StepRecord, Trial
from edge_agent.toolkit import ToolRegistry, load_tools_from_file
from tests.xen_helpers import RoleScript, fake_histories, fake_sites, ground, harness, review_json

TWO = "Get Chiller 6 and Chiller 9 Tonnage for last week at POKMAIN in a single file"
RANGE = {"sensor_name": "Tonnage", "start": "2020-06-01T00:00:00-04:00", "final": "2020-06-08T00:00:00-04:00"}


def _tools() -> ToolRegistry:
    return ToolRegistry([fake_sites, fake_histories, *load_tools_from_file(PROJECT_ROOT / "plugins" / "jsonfiles.py")])


HEADS: dict[str, str] = {}  # observation -> what the tool wrote of the call for an answer (its head)


def _run(h, action: str, args: dict, index: int) -> StepRecord:
    """Really run a tool (so the file store holds what it wrote) and record the step."""
    result = h.rt.tools.get(action).run(args, h.rt.ctx)
    HEADS[result.observation] = result.answer
    return StepRecord(
        index=index, thought="t", action=action, action_input=args, observation=result.observation, ok=result.ok
    )


def _trial(steps, answer) -> Trial:
    fin = StepRecord(
        index=len(steps) + 1, thought="done", action="Finish", action_input={"answer": answer}, kind="finish"
    )
    return Trial(number=1, steps=[*steps, fin], answer=answer)


def _file_of(step: StepRecord) -> str:
    return step.observation.rsplit(" ", 1)[-1]


def test_early_victory_on_a_two_chiller_question_is_only_partial(tmp_path):
    h = harness(
        tmp_path, RoleScript(review=[review_json("Accomplished", "the agent downloaded the file")]), tools=_tools()
    )
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], **RANGE}, 1)
    trial = _trial([s1], f"I downloaded the file {_file_of(s1)}, I am done.")
    ground(h, TWO)
    verdict = review(TWO, trial, h.rt)
    assert verdict.status == "Partially Accomplished" and verdict.by == "code" and not verdict.copied
    assert "Chiller 9" in verdict.reasoning and "Chiller 9" in verdict.suggestions
    assert h.prompts("review") == []  # a failed check settles it: the model could only lower the verdict
    event = [e for e in h.events if e.kind == "review"][0]
    assert event.data["model_status"] is None and event.data["evidence_cap"] == "Partially Accomplished"


def test_a_file_the_answer_names_must_exist(tmp_path):
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished")]), tools=_tools())
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], **RANGE}, 1)
    trial = _trial([s1], "The data is in chiller6_tonnage.json")
    verdict = review("Get Chiller 6 Tonnage for last week at POKMAIN", trial, h.rt)
    assert verdict.status == "Not Accomplished" and "chiller6_tonnage.json" in verdict.reasoning
    assert h.prompts("review") == []


def test_claiming_a_download_without_any_tool_call(tmp_path):
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished")]), tools=_tools())
    trial = _trial([], "I downloaded the file, I am done.")
    verdict = review(TWO, trial, h.rt)
    assert verdict.status == "Not Accomplished"
    assert "no file was written" in verdict.reasoning or "without calling any tool" in verdict.reasoning


def test_both_assets_in_one_call_satisfy_the_single_file_check(tmp_path):
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished", "both chillers in one file")]), tools=_tools())
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 6", "Chiller 9"], **RANGE}, 1)
    verdict = review(TWO, _trial([s1], f"Both chillers are in {_file_of(s1)}"), h.rt)
    assert verdict.status == "Accomplished" and verdict.reasoning == "both chillers in one file"


def test_two_files_without_a_merge_are_partial_and_a_merge_fixes_it(tmp_path):
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished"), review_json("Accomplished")]), tools=_tools())
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], **RANGE}, 1)
    s2 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 9"], **RANGE}, 2)
    ground(h, TWO)
    verdict = review(TWO, _trial([s1, s2], f"Files {_file_of(s1)} and {_file_of(s2)}"), h.rt)
    assert verdict.status == "Partially Accomplished" and "one file" in verdict.reasoning.lower()
    s3 = _run(h, "jsonmerge", {"file_name_1": _file_of(s1), "file_name_2": _file_of(s2)}, 3)
    assert s3.ok, s3.observation
    merged = s3.observation.split(" into ")[1].split(" ")[0]
    g = h.rt.grounding
    for step in (s1, s2, s3):  # what the executor records of each call, so the answer's file has its source
        tool = h.rt.tools.get(step.action)
        g.observe(
            1,
            step.index,
            step.action,
            step.observation,
            head=HEADS[step.observation],
            answers=tool.answers,
            args=step.action_input,
        )
    trial = _trial([s1, s2, s3], f"{g.answer_prefix(1)}; all in {merged}")  # code's heads lead, as the runtime has it
    trial.claims = g.check(trial.answer)
    verdict = review(TWO, trial, h.rt)
    assert verdict.status == "Accomplished", verdict.reasoning


def test_reporting_a_missing_asset_is_accomplished(tmp_path):
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished", "the asset does not exist")]), tools=_tools())
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 7"], **RANGE}, 1)
    assert not s1.ok
    verdict = review(
        "Get Chiller 7 Tonnage for last week at POKMAIN", _trial([s1], "Chiller 7 does not exist at POKMAIN."), h.rt
    )
    assert verdict.status == "Accomplished"


def test_evidence_never_raises_the_model_verdict():
    clean = combine(ReviewReply(status="Not Accomplished", reasoning="wrong sensor"), Evidence())
    assert clean.status == "Not Accomplished" and clean.reasoning == "wrong sensor"


def test_review_call_is_schema_constrained(tmp_path):
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished")]), tools=_tools())
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], **RANGE}, 1)
    review("Get Chiller 6 Tonnage for last week at POKMAIN", _trial([s1], "ok"), h.rt)
    ((role, _, constraint),) = [p for p in h.llm.prompts if p[0] == "review"]
    assert constraint is not None and constraint.regex
    assert "Partially Accomplished" in constraint.regex


def _grounded(h, question: str) -> None:
    from edge_agent.grounding.catalog import Catalog
    from edge_agent.grounding.run import Grounding

    catalog = Catalog.of({"POKMAIN": {"B020 CWP 1": ["Power"], "B020_Total": ["Power"], "Chiller 6": ["Tonnage"]}})
    h.rt.grounding = Grounding.build(question, catalog)


def _review_of_the_linking_facts(tmp_path, question: str):
    """The linking facts, and the Review of a tool-less trial that answers with them alone."""
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished")]), tools=_tools())
    _grounded(h, question)
    prefix = h.rt.grounding.answer_prefix()
    return prefix, review(question, _trial([], prefix + "."), h.rt)


def test_a_missing_asset_answered_from_the_linking_fact_needs_no_tool(tmp_path):
    """'There is no asset B020 at POKMAIN (there are …)' is the whole answer: no tool call is missing."""
    prefix, verdict = _review_of_the_linking_facts(tmp_path, "What is the power consumption of B020 at POKMAIN?")
    assert prefix.startswith("There is no asset B020 at POKMAIN")
    assert verdict.status == "Accomplished", verdict.reasoning


def test_a_question_also_about_an_existing_asset_still_needs_its_data(tmp_path):
    question = "What is the Tonnage of Chiller 6 and Chiller 7 at POKMAIN?"
    prefix, verdict = _review_of_the_linking_facts(tmp_path, question)
    assert "Chiller 7" in prefix
    assert verdict.status == "Not Accomplished" and "without calling any tool" in verdict.reasoning


def test_a_missing_sensor_on_an_existing_asset_answered_from_the_linking_fact_needs_no_tool(tmp_path):
    prefix, verdict = _review_of_the_linking_facts(tmp_path, "What was the Tonnage of B020_Total at POKMAIN yesterday?")
    assert prefix.startswith("There is no sensor Tonnage on B020_Total")
    assert verdict.status == "Accomplished", verdict.reasoning


def test_coverage_is_checked_for_the_skysparks_names_not_the_questions_spelling(tmp_path):
    """'chiller6' is Chiller 6: a data call for Chiller 6 covers it; a missing Chiller 7 needs no call."""
    question = "Get the Tonnage of chiller6 and Chiller 7 for last week at POKMAIN"
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished")]), tools=_tools())
    _grounded(h, question)
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], **RANGE}, 1)
    verdict = review(question, _trial([s1], h.rt.grounding.answer_prefix() + f"; the data is in {_file_of(s1)}."), h.rt)
    assert "named in the question but no" not in verdict.reasoning


def _data_trial(h, question: str, answer_of) -> Trial:
    """A trial that read Chiller 6's Tonnage (the grounding recorded the call and its head) and answered."""
    s1 = _run(h, "histories", {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], **RANGE}, 1)
    head = f"Chiller 6 Tonnage (tonref): max 412.5 at 2020-06-03T15:00, 672 values; saved to {_file_of(s1)}"
    h.rt.grounding.observe(1, 1, "histories", s1.observation, head=head, answers=True, call="histories 1")
    trial = _trial([s1], answer_of(h.rt.grounding))
    trial.claims = h.rt.grounding.check(trial.answer)
    return trial


def test_an_answer_code_wrote_from_the_calls_is_settled_without_the_model(tmp_path):
    question = "What was the highest Tonnage of Chiller 6 at POKMAIN last week?"
    h = harness(
        tmp_path, RoleScript(review=[review_json("Not Accomplished", "Only the Power was read")]), tools=_tools()
    )
    _grounded(h, question)
    trial = _data_trial(h, question, lambda g: g.answer_prefix(1))
    assert h.rt.grounding.answer_closed(1) and "412.5" in trial.answer
    verdict = review(question, trial, h.rt)
    assert verdict.status == "Accomplished" and verdict.by == "code" and not verdict.copied
    assert h.prompts("review") == []  # the model's copied example never gets a say


def test_a_data_answer_without_a_figure_of_the_data_is_partial(tmp_path):
    question = "What was the highest Tonnage of Chiller 6 at POKMAIN last week?"
    h = harness(tmp_path, RoleScript(review=[review_json("Accomplished")]), tools=_tools())
    _grounded(h, question)
    trial = _data_trial(h, question, lambda g: "The highest Tonnage of Chiller 6 at POKMAIN.")
    verdict = review(question, trial, h.rt)
    assert verdict.status == "Partially Accomplished" and "no figure or file of the data" in verdict.reasoning
    with_figure = _data_trial(h, question, lambda g: "Chiller 6 peaked at 412.5 tonref.")
    said = review(question, with_figure, h.rt)  # a figure, but not what code wrote of the call: code refuses it
    assert said.status == "Partially Accomplished" and "cannot stand behind this answer" in said.reasoning


def test_a_closed_answer_with_its_end_mark_is_still_the_one_code_wrote(tmp_path):
    question = "What was the highest Tonnage of Chiller 6 at POKMAIN last week?"
    h = harness(
        tmp_path, RoleScript(review=[review_json("Partially Accomplished", "Only the Power was read")]), tools=_tools()
    )
    _grounded(h, question)
    trial = _data_trial(h, question, lambda g: g.answer_prefix(1) + ".")  # the closed pattern allows one "."
    assert review(question, trial, h.rt).status == "Accomplished" and h.prompts("review") == []
