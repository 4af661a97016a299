"""Algorithm 1 (`xen.solve`) on a scripted LLM: every path of the loop, per strategy."""

from __future__ import annotations

import threading

import pytest

from edge_agent.agent.prompting import FEEDBACK_HEADING, QUESTION_LABEL
from edge_agent.agent.trajectory import RunResult
from edge_agent.agent.xen import feedback_from, solve
from edge_agent.app import compute_metrics
from edge_agent.failures import Interrupted
from tests.plants import OTHER, POK
from tests.xen_helpers import DISTILL_OK, RoleScript, finish, harness, reflect_json, review_json, step

Q = "Get Chiller 6 Tonnage for last week at POKMAIN"
HIST6 = step(
    "Get the data.",
    "histories",
    {
        "site_name": "POKMAIN",
        "asset_names": ["Chiller 6"],
        "sensor_name": "Tonnage",
        "start": "2020-06-01T00:00:00",
        "final": "2020-06-08T00:00:00",
    },
)


def _metrics(h, outcome):
    result = RunResult(
        run_id="r",
        question=Q,
        strategy=h.rt.settings.strategy,
        model="scripted",
        now="",
        status=outcome.status,
        trials=outcome.trials,
    )
    return compute_metrics(result, h.metered, 0.0)


def test_accomplished_first_time(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            distill=[DISTILL_OK],
            react=[HIST6, finish("Data of Chiller 6 is in the file.")],
            review=[review_json("Accomplished")],
        ),
    )
    out = solve(Q, h.rt)
    assert out.status == "answered" and out.answer == "Data of Chiller 6 is in the file."
    assert len(out.trials) == 1 and out.trials[0].review.status == "Accomplished"
    assert out.trials[0].reflection is None
    assert h.roles() == ["distill", "react", "react", "review"]
    assert [e.kind for e in h.events if e.kind in ("distill", "review", "reflect")] == ["distill", "review"]
    assert out.distilled.start == "2020-06-01T00:00:00" and out.distilled.end == "2020-06-08T00:00:00"
    m = _metrics(h, out)
    assert m.completed_round1 and m.completed_final and m.reflections == 0 and m.llm_calls == 4
    assert m.trajectory_length == 2


def test_progress_masks_what_thoughts_and_reviews_guessed(tmp_path):
    guess = HIST6.replace("Get the data.", "Chiller 6 peaked at 412.5 tons at RCHMAIN; get the data.")
    h = harness(
        tmp_path,
        RoleScript(
            distill=[DISTILL_OK],
            react=[guess, finish("Data of Chiller 6 is in the file.", "The file is written.")],
            review=[review_json("Accomplished", "It read 99.9 tons of Chiller 6 at POKMAIN.")],
        ),
    )
    out = solve(Q, h.rt)
    first, second = out.trials[0].steps
    assert first.thought.startswith("Chiller 6 peaked at 412.5 tons at RCHMAIN")  # the log keeps what was written
    assert first.unverified == ["412.5", "RCHMAIN"] and second.unverified == []
    shown = [e.step.shown_thought for e in h.events if e.kind == "step"]
    assert shown == ["Chiller 6 peaked at [unverified] tons at [unverified]; get the data.", "The file is written."]
    (review,) = [e for e in h.events if e.kind == "review"]
    assert review.text.startswith("Accomplished: ") and "99.9" not in review.text  # the guess is never shown
    assert out.answer == "Data of Chiller 6 is in the file."
    assert _metrics(h, out).unverified_thoughts == 1


def test_partial_then_reflect_then_accomplished_and_feedback_precedes_question(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            distill=[DISTILL_OK],
            react=[HIST6, finish("Part done."), HIST6.replace("Get the data.", "Get it again."), finish("All done.")],
            review=[review_json("Partially Accomplished", "half of it", "add the rest"), review_json("Accomplished")],
            reflect=[reflect_json("It stopped after one part.", "Finish only after every part.")],
        ),
    )
    out = solve(Q, h.rt)
    assert out.status == "answered" and out.answer == "All done."
    assert [t.review.status for t in out.trials] == ["Partially Accomplished", "Accomplished"]
    assert out.trials[0].reflection.startswith("Diagnosis: It stopped after one part.")
    assert h.roles() == ["distill", "react", "react", "review", "reflect", "react", "react", "review"]
    first_of_trial2 = h.prompts("react")[2]
    user = first_of_trial2.user
    assert FEEDBACK_HEADING in user and QUESTION_LABEL in user
    assert user.index(FEEDBACK_HEADING) < user.index(QUESTION_LABEL)
    fb = user[: user.index(QUESTION_LABEL)]
    assert "Partially Accomplished" in fb and "add the rest" in fb and "Finish only after every part." in fb
    # the stable prefix is the same in both trials (KV reuse)
    assert h.prompts("react")[0].system == first_of_trial2.system
    # trial 1 had no feedback at all
    assert FEEDBACK_HEADING not in h.prompts("react")[0].user
    m = _metrics(h, out)
    assert not m.completed_round1 and m.completed_final and m.reflections == 1 and m.trials == 2


def test_exhausted_trial_is_not_reviewed_and_reflected_by_code(tmp_path):
    # code knows why a trial that ran out of steps failed: no review, no Reflect model call
    sites = lambda n: step(f"Look at the sites {n}.", "sites", {})  # noqa: E731
    h = harness(
        tmp_path,
        RoleScript(
            react=[sites(1), sites(2), HIST6, finish("Done with Chiller 6.")], review=[review_json("Accomplished")]
        ),
        max_steps=2,
        distill=False,
    )
    out = solve(Q, h.rt)
    assert out.trials[0].outcome == "max_steps" and out.trials[0].review is None
    assert out.trials[0].reflection.startswith("Diagnosis: It used all 2 steps without calling Finish.")
    assert "Do not repeat a call" in out.trials[0].reflection and out.trials[0].reflection_by == "code"
    assert h.roles() == ["react", "react", "react", "react", "review"]
    assert out.status == "answered" and out.trials[1].review.status == "Accomplished"


def test_loop_stop_goes_to_a_code_reflection(tmp_path):
    same = step("I list the sites.", "sites", {})
    h = harness(
        tmp_path,
        RoleScript(react=[same] * 4 + [HIST6, finish("Chiller 6 data written.")], review=[review_json("Accomplished")]),
        max_steps=6,
        distill=False,
    )
    out = solve(Q, h.rt)
    assert out.trials[0].outcome == "loop" and out.trials[0].loops_caught >= 1
    assert out.trials[0].review is None and "kept repeating itself" in out.trials[0].reflection
    assert "reflect" not in h.roles()
    assert out.status == "answered" and len(out.trials) == 2


def test_max_trials_reached_returns_best_answer_without_a_last_reflection(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            react=[
                HIST6,
                finish("first"),
                HIST6.replace("Get the data.", "Again.").replace("Chiller 6", "Chiller 9"),  # a new call each trial
                finish("second"),
                HIST6.replace("Get the data.", "Once more.").replace("Chiller 6", "Chiller 3"),
                finish("third"),
            ],
            review=[
                review_json("Not Accomplished"),
                review_json("Partially Accomplished"),
                review_json("Not Accomplished"),
            ],
            reflect=[reflect_json(), reflect_json()],
        ),
        max_trials=3,
        distill=False,
    )
    out = solve(Q, h.rt)
    assert len(out.trials) == 3
    assert [t.reflection is not None for t in out.trials] == [True, True, False]
    assert out.answer == "second" and out.status == "answered"  # the best-reviewed answer
    assert h.roles().count("reflect") == 2
    m = _metrics(h, out)
    assert not m.completed_round1 and not m.completed_final and m.reflections == 2


def test_nothing_answered_gives_up(tmp_path):
    sites = [
        step(f"Sites {i}.", "sites", {}) if i % 2 else HIST6.replace("Get the data.", f"Data {i}.") for i in range(4)
    ]
    h = harness(tmp_path, RoleScript(react=sites, reflect=[reflect_json()]), max_steps=2, max_trials=2, distill=False)
    out = solve(Q, h.rt)
    assert out.status == "gave_up" and out.answer is None and len(out.trials) == 2


def test_react_strategy_is_one_trial_without_review(tmp_path):
    h = harness(tmp_path, RoleScript(react=[HIST6, finish("Data of Chiller 6 is in the file.")]), strategy="react")
    out = solve(Q, h.rt)
    assert set(h.roles()) == {"react"} and len(out.trials) == 1 and out.trials[0].review is None
    # the facts are worked out in code for every strategy; only the goal needs the model (not asked here); without
    # a catalog, code names nothing (names come from the linking) and still works out the period
    assert out.distilled is not None and out.distilled.assets == [] and out.distilled.goal == ""
    assert out.status == "answered"
    assert _metrics(h, out).completed_final  # without review, a finished trial counts as completed


def test_the_reviews_checks_hold_back_an_answer_in_every_strategy(tmp_path):
    """The Review's checks are code: where they find the answer short (here: no tool was called), the run is partial
    with what they found, with or without the Review model (react asks no model for it)."""
    h = harness(tmp_path / "react", RoleScript(react=[finish("an answer")]), strategy="react")
    out = solve(Q, h.rt)
    assert out.status == "partial" and out.answer == "an answer"
    assert out.detail.startswith("the checks found: ") and "tool" in out.detail, out.detail
    h = harness(tmp_path / "xen", RoleScript(react=[finish("an answer")]), strategy="reactxen", max_trials=1)
    out = solve(Q, h.rt)  # reviewed: Not Accomplished by the same checks, which hold the answer back
    assert out.status == "gave_up" and out.reason == "unverified" and "tool" in out.detail


def test_react_review_retries_with_review_feedback_and_never_reflects_or_distills(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            react=[finish("guess"), HIST6, finish("Chiller 6 data written.")], review=[review_json("Accomplished")]
        ),
        strategy="react-review",
    )
    out = solve(Q, h.rt)
    assert "reflect" not in h.roles() and "distill" not in h.roles()
    assert out.trials[0].reflection is None
    assert h.roles().count("review") == 1  # trial 1 (no tool called) is settled by the checks
    assert "Look the data up with the tools" in h.prompts("react")[1].user
    assert out.answer == "Chiller 6 data written."


def test_review_reply_failing_validation_is_retried_then_defaults(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(react=[HIST6, finish("done")], review=["not json at all", '{"status": "Maybe"}']),
        strategy="react-review",
        max_trials=1,
    )
    out = solve(Q, h.rt)
    verdict = out.trials[0].review
    assert h.roles().count("review") == 2
    # no usable model verdict: code writes it from the evidence (a file was made and the answer names no
    # figure the run did not see, so the evidence allows Accomplished)
    assert verdict.by == "code" and verdict.status == "Accomplished" and not verdict.copied
    retry_prompt = h.prompts("review")[1]
    assert "could not be used" in retry_prompt.user


def test_review_reply_valid_on_retry_is_used(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            react=[HIST6, finish("Chiller 6 data written.")], review=['{"status": "Accomp', review_json("Accomplished")]
        ),
        strategy="react-review",
        max_trials=1,
    )
    out = solve(Q, h.rt)
    assert out.trials[0].review.status == "Accomplished"


def test_reflect_reply_failing_validation_falls_back_to_code_diagnosis(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            react=[finish("guess"), HIST6, finish("ok Chiller 6")],
            review=[review_json("Accomplished")],
            reflect=["oops", "{}"],
        ),
        distill=False,
    )
    out = solve(Q, h.rt)
    assert out.trials[0].reflection.startswith("Diagnosis: It finished, but the review said Not Accomplished")
    assert "Look the data up with the tools" in out.trials[0].reflection


def test_cancel_stops_before_review(tmp_path):
    cancel = threading.Event()

    def finish_and_cancel(prompt, role, constraint):
        cancel.set()
        return finish("x")

    h = harness(tmp_path, RoleScript(react=[finish_and_cancel]), cancel=cancel, distill=False)
    out = solve(Q, h.rt)
    assert out.status == "cancelled" and "review" not in h.roles() and len(out.trials) == 1


def test_a_cancel_during_review_is_not_retried_and_the_run_is_cancelled(tmp_path):
    cancel = threading.Event()

    def interrupted(prompt, role, constraint):
        cancel.set()
        raise Interrupted()

    h = harness(
        tmp_path,
        RoleScript(react=[HIST6, finish("Chiller 6 data written.")], review=[interrupted]),
        cancel=cancel,
        distill=False,
    )
    out = solve(Q, h.rt)
    assert out.status == "cancelled" and h.roles().count("review") == 1 and len(out.trials) == 1


def test_cancel_before_start_runs_nothing(tmp_path):
    cancel = threading.Event()
    cancel.set()
    h = harness(tmp_path, RoleScript(), cancel=cancel)
    out = solve(Q, h.rt)
    assert out.status == "cancelled" and out.trials == [] and h.roles() == []


def test_distilled_facts_reach_the_trial_prompt_after_the_question(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            distill=[DISTILL_OK], react=[HIST6, finish("Chiller 6 data written.")], review=[review_json("Accomplished")]
        ),
    )
    solve(Q, h.rt)
    user = h.prompts("react")[0].user
    assert user.index(QUESTION_LABEL + Q) < user.index("start 2020-06-01, final 2020-06-08")
    assert "Chiller 6" in user[user.index(QUESTION_LABEL) :]


@pytest.mark.parametrize(
    "catalog, question, missing",
    [
        (POK, "Get Chiller 7 Tonnage for last week at POKMAIN", "Chiller 7"),
        (OTHER, "Get CH-09 Flow Rate for last week at Plant-North", "CH-09"),
    ],
)
def test_a_question_naming_only_what_the_skyspark_lacks_costs_no_model_call_at_all(
    tmp_path, catalog, question, missing
):
    """Distill's goal would be read by no step: code writes the Finish and settles the review."""
    h = harness(tmp_path, RoleScript())  # nothing scripted: any model call fails the test
    h.rt.catalog = lambda: catalog
    out = solve(question, h.rt)
    assert h.roles() == [] and out.status == "answered" and out.answer.startswith(f"There is no asset {missing}")
    assert [e.kind for e in h.events if e.kind == "distill"] == ["distill"] and out.distilled.goal == ""
    assert out.trials[0].review.status == "Accomplished" and out.trials[0].steps[0].by == "code"


def test_feedback_keeps_only_recent_attempts():
    from edge_agent.agent.trajectory import Review, Trial

    trials = [
        Trial(
            number=i,
            answer=f"a{i}",
            review=Review(status="Not Accomplished", reasoning=f"r{i}"),
            reflection=f"Diagnosis: d{i}",
        )
        for i in (1, 2, 3)
    ]
    text = feedback_from(trials, 8)
    assert "Attempt 1" not in text and "Attempt 2" in text and "Attempt 3" in text and "d3" in text


def test_a_trial_that_repeats_the_earlier_calls_ends_the_retries(tmp_path):
    # trial 2 makes the same call as trial 1 after the reflection: a third trial would repeat it again, so none runs
    h = harness(
        tmp_path,
        RoleScript(
            distill=[DISTILL_OK],
            react=[HIST6, finish("Part done."), HIST6, finish("Part done again.")],
            review=[review_json("Partially Accomplished", "half of it", "add the rest")] * 2,
            reflect=[reflect_json("It stopped after one part.", "Finish only after every part.")],
        ),
        max_trials=3,
    )
    out = solve(Q, h.rt)
    assert len(out.trials) == 2 and out.trials[1].reflection is None
    assert h.roles() == ["distill", "react", "react", "review", "reflect", "react", "react", "review"]


def test_an_answer_refused_for_words_nothing_placed_is_not_retried():
    """Code refuses prose about a question with words it could not place; a second trial would read the same words,
    so the loop does not pay for one (`unplaceable`); a refusal for another reason is worth a retry."""
    from types import SimpleNamespace

    from edge_agent.agent.trajectory import Trial
    from edge_agent.agent.xen import unplaceable
    from edge_agent.grounding.run import Grounding

    g = Grounding.build("what gubbins do we log on Chiller 6 at POKMAIN", POK)
    assert "gubbins" in g.unplaced
    g.observe(1, 1, "sensors", "found 2 sensors on Chiller 6: Tonnage, Power")
    prose = Trial(number=1, answer="Chiller 6 has Tonnage and Power.")
    prose.claims = g.check(prose.answer)
    assert unplaceable(prose, SimpleNamespace(grounding=g))
    placed = Grounding.build("what sensors do we log on Chiller 6 at POKMAIN", POK)
    placed.observe(1, 1, "sensors", "found 2 sensors on Chiller 6: Tonnage, Power")
    assert not unplaceable(prose, SimpleNamespace(grounding=placed))


@pytest.mark.parametrize("strategy", ["react", "reactxen"])
def test_equipment_several_sites_have_with_no_site_named_gives_up_asking_which_without_a_model_call(tmp_path, strategy):
    from tests.test_grounding_linking import TWO_METERS

    h = harness(tmp_path, RoleScript(), strategy=strategy)  # nothing scripted: any model call fails the test
    h.rt.catalog = lambda: TWO_METERS
    out = solve("How many kWh went through the main meter yesterday?", h.rt)
    assert h.roles() == [] and out.status == "gave_up" and out.reason == "ambiguous" and out.answer is None
    assert "main_meter at Patan Archive" in out.detail and "Sub 4 Main Meter at Warren Works" in out.detail
    assert solve("Turn off the main meter", h.rt).status == "refused"  # a refusal needs no choice


def test_the_same_broken_step_written_again_ends_the_trial_as_a_loop(tmp_path):
    broken = 'Thought: I list them.\nAction: Finish\nAction Input: {"answer": "The 12 assets at ship creek are ahu'
    h = harness(tmp_path, RoleScript(react=[broken, broken, broken, broken]), strategy="react", max_steps=6)
    out = solve(Q, h.rt)
    trial = out.trials[0]
    assert trial.outcome == "loop" and [s.kind for s in trial.steps] == ["invalid", "invalid"]
    assert h.roles() == ["react", "react"] and out.status == "gave_up"  # two model calls, not six


def test_a_later_attempt_that_repeats_a_failed_call_ends_at_it(tmp_path):
    bad = step(  # a tool this run does not have: refused before it runs, every time
        "Rank them.",
        "rank",
        {
            "site_name": "POKMAIN",
            "sensor_name": "Tonnage",
            "by": "max",
            "order": "highest",
            "asset_names": ["Chiller 6"],
            "start": "2020-06-01T00:00:00",
            "final": "2020-06-08T00:00:00",
        },
    )
    h = harness(tmp_path, RoleScript(react=[bad] * 8), max_steps=6, max_trials=3, distill=False)
    out = solve(Q, h.rt)
    first, second = out.trials
    assert first.outcome == "loop" and not first.steps[0].ok
    assert second.outcome == "loop" and len(second.steps) == 1 and not second.steps[0].ok
    assert second.steps[0].observation == first.steps[0].observation  # the same error again
    assert h.roles() == ["react"] * (len(first.steps) + 1)  # one model call in the second attempt, no third
    assert out.status == "gave_up"


def test_a_later_attempt_may_repeat_a_call_that_worked(tmp_path):
    h = harness(
        tmp_path,
        RoleScript(
            react=[HIST6, finish("first"), HIST6, finish("Data of Chiller 6 is in the file.")],
            review=[review_json("Not Accomplished"), review_json("Accomplished")],
            reflect=[reflect_json()],
        ),
        distill=False,
    )
    out = solve(Q, h.rt)
    assert len(out.trials) == 2 and out.trials[1].steps[0].kind == "tool" and out.trials[1].steps[0].ok
