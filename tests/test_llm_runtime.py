"""LlamaRuntime on the real SmolLM2 GGUF: token accounting, KV prefix reuse, role prefix states
(saved, restored, persisted and restored by a NEW runtime), and constrained output that validates."""

from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from edge_agent.agent.steps import parse_step, step_constraint
from edge_agent.failures import Interrupted
from edge_agent.llm.base import Prompt
from edge_agent.llm.constraints import json_constraint
from edge_agent.llm.llama import LlamaRuntime
from edge_agent.toolkit import ToolRegistry

pytestmark = pytest.mark.model

TOOLS = ToolRegistry.from_dir(Path(__file__).resolve().parent.parent / "plugins")
REACT_SYSTEM = (
    "You operate an industrial site's data. Answer by taking steps. Each step is three lines:\n"
    "Thought: what you will do next\nAction: one tool name\nAction Input: the tool's JSON arguments\n"
    "Tools:\n" + TOOLS.describe() + "\nWhen you know the answer, use Finish."
)
REVIEW_SYSTEM = "You check an agent's finished work and reply with one JSON object."


def react(question: str, scratchpad: str = "") -> Prompt:
    return Prompt(system=REACT_SYSTEM, user=f"Question: {question}", assistant_prefix=scratchpad)


class Verdict(BaseModel):
    status: str = Field(..., max_length=40)
    reasoning: str = Field(..., max_length=160)


def test_second_call_with_same_prefix_evaluates_far_fewer_tokens(real_llm):
    real_llm.reset_context()
    first = real_llm.complete(react("Which sites are there?"), role="react", max_tokens=8)
    assert first.usage.evaluated_tokens == first.usage.prompt_tokens > 100
    second = real_llm.complete(react("What time is it?"), role="react", max_tokens=8)
    assert second.usage.prompt_tokens > 100
    assert second.usage.evaluated_tokens < second.usage.prompt_tokens // 5
    assert second.usage.generated_tokens <= 8 and second.usage.ms > 0
    # a longer scratchpad after the same question reuses everything before it
    third = real_llm.complete(react("What time is it?", "Thought: I check the clock.\n"), role="react", max_tokens=4)
    assert third.usage.evaluated_tokens < 20


def test_role_prefix_is_restored_after_another_role(real_llm):
    real_llm.complete(react("List the sites."), role="react", max_tokens=4)
    review = real_llm.complete(
        Prompt(system=REVIEW_SYSTEM, user="The agent listed two sites."), role="review", max_tokens=4
    )
    assert review.usage.evaluated_tokens > 0
    back = real_llm.complete(react("List the assets of POKMAIN."), role="react", max_tokens=4)
    # the react prefix (hundreds of tokens) came back from its saved state, not from evaluation
    assert back.usage.prompt_tokens > 100 and back.usage.evaluated_tokens < 40
    assert "react" in real_llm.prefix_cache.roles() and "review" in real_llm.prefix_cache.roles()


def test_the_part_every_question_shares_is_restored_for_a_new_question(real_llm):
    """Examples picked per question follow the shared part (`Prompt.shared`): a question whose examples
    differ restores the shared part's state and evaluates only its own examples and question."""
    shared = "Shared examples test. " + REACT_SYSTEM + "\nExample: Thought: list the sites. Action: sites"

    def ask(examples: str, question: str):
        system = f"{shared}\n{examples}"
        return real_llm.complete(
            Prompt(system=system, user=f"Question: {question}", shared=len(shared)), role="shared-test", max_tokens=2
        ).usage

    ask("Example: Thought: read the clock. Action: currentdatetime", "What time is it?")
    real_llm.complete(Prompt(system=REVIEW_SYSTEM, user="Shared test."), role="review", max_tokens=2)
    other = ask("Example: Thought: list POKMAIN's assets. Action: assets", "Which chillers are at POKMAIN?")
    tail = real_llm.count_tokens("\nExample: Thought: list POKMAIN's assets. Action: assets") + 40
    assert other.prompt_tokens > 300 and other.evaluated_tokens < tail, other


def test_usage_splits_call_time_into_prompt_eval_generation_and_state(real_llm):
    def parts(u):
        assert u.eval_ms >= 0 and u.gen_ms > 0 and u.state_ms >= 0
        assert u.eval_ms + u.gen_ms + u.state_ms <= u.ms + 0.01  # the rest: tokenizing, bookkeeping
        return u

    prompt = Prompt(system="Split test. " + REACT_SYSTEM, user="Question: Which sites are there?")  # a new prefix
    first = parts(real_llm.complete(prompt, role="split-test", max_tokens=6).usage)
    assert first.eval_ms > 0 and first.state_ms > 0  # the new prefix was evaluated, then saved
    real_llm.complete(Prompt(system=REVIEW_SYSTEM, user="Split test."), role="review", max_tokens=2)
    back = parts(real_llm.complete(prompt, role="split-test", max_tokens=6).usage)
    assert back.state_ms > 0 and back.evaluated_tokens < first.evaluated_tokens // 5  # restored, not evaluated


class SetAfter:
    """An interrupt event that reads as set from its `n`+1-th look on: deterministic, no timing."""

    def __init__(self, n: int):
        self.n, self.looks = n, 0

    def is_set(self) -> bool:
        self.looks += 1
        return self.looks > self.n


def test_an_interrupted_prompt_stops_at_a_chunk_and_the_next_call_goes_on_from_there(real_llm):
    """A cancel reaches a long prompt evaluation between two chunks; what was evaluated stays in the KV cache,
    and the same call again evaluates only the rest and writes what an uninterrupted call writes."""
    prompt = Prompt(system="Interrupt test. " + REACT_SYSTEM, user="Question: Which sites are there?")
    n, chunk = len(real_llm.tokenize_prompt(prompt)[0]), real_llm.interrupt_tokens
    assert n > 3 * chunk
    real_llm.reset_context()
    with pytest.raises(Interrupted) as stopped:
        real_llm.complete(prompt, role="interrupt-test", max_tokens=8, interrupt=SetAfter(2))
    assert stopped.value.usage.evaluated_tokens == 2 * chunk and stopped.value.usage.prompt_tokens == n
    again = real_llm.complete(prompt, role="interrupt-test", max_tokens=8, interrupt=SetAfter(10**6))
    assert again.usage.evaluated_tokens == n - 2 * chunk
    real_llm.reset_context()
    fresh = real_llm.complete(prompt, role="interrupt-fresh", max_tokens=8)
    assert fresh.usage.evaluated_tokens == n and again.text == fresh.text


def test_an_interrupt_during_generation_stops_it_after_a_token(real_llm):
    prompt = Prompt(system="Interrupt test 2. " + REACT_SYSTEM, user="Question: Which sites are there?")

    def call(interrupt):
        real_llm.reset_context()  # each call restores the role's prefix state (saved by the first) alike
        return real_llm.complete(prompt, role="interrupt-gen", max_tokens=12, interrupt=interrupt)

    call(None)
    counting = SetAfter(10**6)
    whole = call(counting)
    assert whole.usage.generated_tokens >= 4
    with pytest.raises(Interrupted) as stopped:  # the last two looks come before the last two generated tokens
        call(SetAfter(counting.looks - 2))
    usage = stopped.value.usage
    assert usage.evaluated_tokens == whole.usage.evaluated_tokens
    assert 0 < usage.generated_tokens < whole.usage.generated_tokens


def test_prefix_state_is_restored_from_disk_by_a_new_runtime(real_llm, llm_settings):
    real_llm.complete(react("Which sensors does Chiller 6 have?"), role="react", max_tokens=2)
    files = list(llm_settings.kv_cache_dir.glob("*-react-*.kv"))
    assert files, "the react prefix state was not written"
    m = llm_settings.model
    fresh = LlamaRuntime(
        real_llm.path,
        model_name="smollm2-135m",
        sha256=real_llm.sha256,
        n_ctx=m.n_ctx,
        threads=2,
        kv_cache_dir=llm_settings.kv_cache_dir,
        persist_prefix_cache=True,
    )
    try:
        # the vocabulary was read back from the state dir, not asked of llama.cpp again, and is the same
        assert list(llm_settings.kv_cache_dir.glob("*-vocab.npz"))
        assert fresh.table.pieces == real_llm.table.pieces and (fresh.table.mat == real_llm.table.mat).all()
        assert fresh.table.eog_ids.tolist() == real_llm.table.eog_ids.tolist()
        out = fresh.complete(react("How many chillers are at POKMAIN?"), role="react", max_tokens=2)
        assert out.usage.prompt_tokens > 100 and out.usage.evaluated_tokens < 40
        same = real_llm.complete(react("How many chillers are at POKMAIN?"), role="react", max_tokens=2)
        assert out.text == same.text  # the restored state gives the same continuation
    finally:
        fresh.close()
    assert len(list(llm_settings.kv_cache_dir.glob("*-react-*.kv"))) <= fresh.prefix_cache.per_role


def test_prefix_states_are_bounded_per_role(real_llm, llm_settings):
    for i in range(4):
        real_llm.complete(
            Prompt(system=f"Distill variant {i}: name the entities.", user="Chiller 6 at POKMAIN"),
            role="distill",
            max_tokens=1,
        )
    assert len(list(llm_settings.kv_cache_dir.glob("*-distill-*.kv"))) <= real_llm.prefix_cache.per_role


QUESTIONS = [
    "What time is it now?",
    "List the sites.",
    "Show the assets at POKMAIN.",
    "What was the tonnage of Chiller 6 yesterday?",
    "Merge the files a.json and b.json.",
    "Write a Python function that sorts a list.",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_constrained_steps_always_parse(real_llm, question):
    c = step_constraint(TOOLS, thought_max_chars=240, answer_max_chars=600)
    out = real_llm.complete(react(question), role="react", constraint=c, max_tokens=200)
    assert out.finish_reason == "stop", out
    step = parse_step(out.text, TOOLS)  # independent of the decoder
    assert step.action in TOOLS.names and len(step.thought) <= 240


def test_seeded_continuation_parses(real_llm):
    c = step_constraint(TOOLS, 240, 600, after_thought_prefix="I need to")
    out = real_llm.complete(react("List the sites.", "Thought: I need to"), role="react", constraint=c, max_tokens=200)
    assert out.finish_reason == "stop"
    parse_step("Thought: I need to" + out.text, TOOLS)


def test_json_constraint_validates_where_free_text_does_not(real_llm):
    """Would catch a constraint that silently does not apply: free text here is not a Verdict."""
    prompt = Prompt(system=REVIEW_SYSTEM, user="Write a Python function that adds two numbers.")
    free = real_llm.complete(prompt, role="review", max_tokens=60)
    with pytest.raises(ValueError):
        Verdict.model_validate_json(free.text)
    out = real_llm.complete(prompt, role="review", constraint=json_constraint(Verdict), max_tokens=200)
    assert out.finish_reason == "stop", out
    verdict = Verdict.model_validate_json(out.text)
    assert len(verdict.reasoning) <= 160


def test_budget_end_mid_structure_is_length(real_llm):
    c = step_constraint(TOOLS, 240, 600)
    out = real_llm.complete(react("List the sites."), role="react", constraint=c, max_tokens=6)
    assert out.finish_reason == "length" and out.usage.generated_tokens == 6


def test_count_tokens(real_llm):
    assert real_llm.count_tokens("Thought: hello") >= 2
    assert real_llm.count_tokens("") == 0


def test_file_arguments_name_only_the_runs_files(real_llm):
    files = ["history_Chiller_6_Tonnage-2d61cb9f.json", "sites-0a1b2c3d.json"]
    c = step_constraint(TOOLS, 240, 600, files=files)
    out = real_llm.complete(
        react("Show what is in history_Chiller_5_Power-ec42eb28.json."), role="react", constraint=c, max_tokens=200
    )
    step = parse_step(out.text, TOOLS)
    for key in ("file_name", "file_name_1", "file_name_2"):
        value = getattr(step.args, key, None)
        assert value is None or value in files, out.text  # never the name the question made up


@pytest.fixture(scope="module")
def gemma(llm_settings):
    """Gemma 3 270M (base model, no chat template), assembled from its four PyPI part packages."""
    from edge_agent.llm.models import load_model

    runtime = load_model(llm_settings, "gemma3-270m")
    yield runtime
    runtime.close()


@pytest.mark.parametrize("question", ["List the sites.", "What was the tonnage of Chiller 6 yesterday?"])
def test_gemma_writes_valid_constrained_steps(gemma, question):
    out = gemma.complete(
        react(question), role="react", constraint=step_constraint(TOOLS, 240, 600, files=[]), max_tokens=200
    )
    assert out.finish_reason == "stop", out
    step = parse_step(out.text, TOOLS)
    assert step.action in TOOLS.names and step.action not in ("jsonreader", "jsonmerge")  # no file exists yet
    assert out.usage.prompt_tokens > 100 and out.usage.generated_tokens > 0
