"""The strict-names check and the run audit (bench/audit.py), on two plants with names in different styles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.agent.trajectory import RunResult, StepRecord, Trial
from edge_agent.evaluation.audit import NameShapes, audit_run, unknown_names
from edge_agent.evaluation.checker import Evidence, check_task
from edge_agent.evaluation.tasks import parse_tasks
from tests.plants import NamesOnly

Plant = NamesOnly


POK = Plant(
    {
        "POKMAIN": {
            "Chiller 3": ["Tonnage", "Power"],
            "Chiller 6": ["Tonnage", "Power"],
            "Chiller 12": ["Tonnage"],
            "B020_Total": ["Power"],
        },
        "RCHMAIN": {"B705 AHU 1": ["Supply Air Temp"]},
    }
)
OTHER = Plant(
    {
        "PLANT-NORTH": {"CH-01": ["SupplyTemp", "kW_total"], "CH-02": ["SupplyTemp"], "AHU_B2": ["FanSpeed"]},
        "WERK-SUD": {"Boiler P-3": ["FlowRate"]},
    }
)


def test_invented_assets_and_sites_are_found_in_the_plants_own_style():
    assert unknown_names("Chiller 6 and Chiller 5 ran", POK) == ["Chiller 5"]
    assert unknown_names("Sites: POKMAIN, RCHMAIN, DUBMAIN, HQ3SBY", POK) == ["DUBMAIN", "HQ3SBY"]
    assert unknown_names("chiller 12 and CHILLER 3 and Chiller 6's power", POK) == []
    assert unknown_names("B705 AHU 1 ran; B705 AHU 4 did not", POK) == ["B705 AHU 4"]
    # a file the answer names is no name of the SkySpark's, whatever its hash looks like
    assert unknown_names("saved to history_Chiller_6_Tonnage-26312196.json", POK) == []
    assert unknown_names("Chiller 5 saved to history_Chiller_5-1a2b.json", POK) == ["Chiller 5"]
    # another style: hyphenated ids, sites with a hyphen
    assert unknown_names("CH-01 and CH-07 at PLANT-NORTH", OTHER) == ["CH-07"]
    assert unknown_names("ch 02 and AHU_B2 and Boiler P-3 at WERK-SUD", OTHER) == []


def test_figures_units_dates_and_files_are_not_names():
    text = (
        "Chiller 6 Tonnage: max 412.5 at 2020-06-03T14:00, mean 301.2, 168 values in "
        "history_Chiller_6-1a2b.json (UTC, JSON, kW)"
    )
    assert unknown_names(text, POK) == []


def test_names_the_question_wrote_are_allowed():
    answer = "There is no asset Chiller 7 at POKMAIN (there are Chiller 3, Chiller 6, Chiller 12)."
    assert unknown_names(answer, POK) == ["Chiller 7"]
    assert unknown_names(answer, POK, allowed="What is the power of Chiller 7 at POKMAIN?") == []


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(["Chiller", "chiller", "CHILLER"]),
    st.integers(min_value=0, max_value=99),
    st.sampled_from([" ", "_", "-", ""]),
)
def test_an_asset_shaped_name_is_unknown_exactly_when_the_plant_lacks_it(stem, n, sep):
    name = f"{stem}{sep}{n}"
    found = unknown_names(f"The answer is about {name}.", POK)
    exists = n in (3, 6, 12)
    assert (found == []) == exists, (name, found)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "POKMAIN",
                "RCHMAIN",
                "Chiller 3",
                "Chiller 12",
                "B020_Total",
                "412.5",
                "kW",
                "and",
                "at",
                "the",
                "2020-06-01",
                "JSON",
            ]
        ),
        max_size=12,
    )
)
def test_text_made_of_existing_names_and_figures_names_nothing_unknown(words):
    assert unknown_names(" ".join(words), POK) == []


def test_shapes_come_from_the_catalog_not_a_list():
    shapes = NameShapes(["AB12CD"], ["Pump-7", "Pump-8"])
    assert shapes.unknown("Pump-9 at XY34ZW") == ["XY34ZW", "Pump-9"]
    assert shapes.unknown("Chiller 5 at the plant") == []  # not this plant's shapes
    short = NameShapes(["DC1", "DC2-ANNEX"], ["CRAC-01", "UPS-A"])
    assert short.unknown("The AHU, the VFD and the HVAC at DC3 (UTC): CRAC-01, UPS and CRAC-09") == ["DC3", "CRAC-09"]


TASKS = parse_tasks(
    {
        "name": "t",
        "tasks": [
            {
                "id": "sites",
                "question": "Which sites are there?",
                "now": "2020-06-08T09:00:00-04:00",
                "expect": {"answer_mentions_all": ["POKMAIN", "RCHMAIN"]},
            },
            {
                "id": "missing",
                "question": "What is the power of Chiller 7 at POKMAIN?",
                "now": "2020-06-08T09:00:00-04:00",
                "expect": {"answer_says_missing": {"name": "Chiller 7", "kind": "asset", "site": "POKMAIN"}},
            },
        ],
    }
)


def test_strict_checker_fails_an_answer_padded_with_invented_names():
    task = TASKS.tasks[0]
    padded = Evidence("The sites are POKMAIN, RCHMAIN, DUBMAIN and HQ3SBY.", question=task.question)
    verdict = check_task(task, padded, POK)
    assert not verdict.passed and "DUBMAIN" in verdict.checks[-1].detail
    assert check_task(task, padded, POK, strict_names=False).passed  # the checker before issue 11
    assert check_task(task, Evidence("POKMAIN and RCHMAIN.", question=task.question), POK).passed


def test_strict_checker_allows_the_missing_name_from_the_question():
    task = TASKS.tasks[1]
    ev = Evidence("There is no asset Chiller 7 at POKMAIN.", question=task.question)
    assert check_task(task, ev, POK).passed


def _run(answer: str, steps: list[StepRecord], question: str = "Which chillers at POKMAIN?") -> RunResult:
    trial = Trial(number=1, steps=steps, outcome="finished", answer=answer)
    return RunResult(
        run_id="r",
        question=question,
        strategy="react",
        model="m",
        now="",
        status="answered",
        answer=answer,
        trials=[trial],
    )


def test_audit_counts_invented_calls_and_ungrounded_answers():
    steps = [
        StepRecord(
            index=1,
            thought="",
            action="assets",
            action_input={"site_name": "POKMAIN"},
            observation="found 4 assets at POKMAIN: Chiller 3, Chiller 6, Chiller 12, B020_Total",
            kind="tool",
            ok=True,
        ),
        StepRecord(
            index=2,
            thought="",
            action="sensors",
            action_input={"site_name": "POKMAIN", "asset_name": "Chiller 5"},
            observation="Error: no asset",
            kind="tool",
            ok=False,
        ),
    ]
    good = audit_run(_run("There are 4 assets: Chiller 3, Chiller 6, Chiller 12, B020_Total.", steps), POK)
    assert good.invented_calls == 1 and good.invented == ["Chiller 5"] and not good.ungrounded_answer
    bad = audit_run(_run("There are 5 chillers, the biggest is 40.0 tons, also DUBMAIN.", steps), POK)
    assert bad.ungrounded_answer and {"5", "40.0", "DUBMAIN"} <= set(bad.ungrounded)
    assert good.unverified_thoughts == 0


def test_audit_counts_thoughts_that_guessed_before_their_step_read():
    steps = [
        StepRecord(
            index=1,
            thought="POKMAIN has 4 assets, I think",
            action="assets",
            action_input={"site_name": "POKMAIN"},
            kind="tool",
            ok=True,
            observation="found 4 assets at POKMAIN: Chiller 3, Chiller 6, Chiller 12, B020_Total",
        ),
        StepRecord(
            index=2,
            thought="Chiller 12 is the 4th of 4; Chiller 5 is not there",
            action="Finish",
            action_input={"answer": "4"},
            kind="finish",
            ok=True,
        ),
    ]
    audit = audit_run(_run("There are 4 assets.", steps), POK)
    assert audit.unverified_thoughts == 2 and audit.unverified == ["4", "4th", "5"]
