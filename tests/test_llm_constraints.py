"""Step and JSON constraints from pydantic models: render → constraint → parse round trips (hypothesis).

(a) any tool-argument object that validates, rendered as the scratchpad writes it (`render_step`),
    matches the step constraint, and `parse_step` gives back equal arguments;
(b) any string the step constraint's regex accepts parses into a registered tool with valid args,
    and the byte automaton the decoder runs on accepts it too (Rust and Python regex agree).
Uses the tools in plugins/ (whatever is there), plus the built-ins.
"""

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from edge_agent.agent.steps import parse_step, render_step, step_constraint
from edge_agent.grounding.allowed import GroundedAnswer, StepGrounding
from edge_agent.llm.constraints import json_constraint, schema_regex
from edge_agent.llm.decoding import automaton_for
from edge_agent.toolkit import ToolRegistry

TOOLS = ToolRegistry.from_dir(Path(__file__).resolve().parent.parent / "plugins")
THOUGHT_MAX, ANSWER_MAX = 240, 600
STEP = step_constraint(TOOLS, THOUGHT_MAX, ANSWER_MAX)
AUTO = automaton_for(STEP)


def accepted_by_automaton(auto, text: str) -> bool:
    state = auto.walk(auto.initial, text.encode("utf-8"))
    return state != auto.dead and bool(auto.final[state])


def value_strategy(schema: dict, defs: dict):
    if "$ref" in schema:
        return value_strategy(defs[schema["$ref"].split("/")[-1]], defs)
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    if "anyOf" in schema:
        return st.one_of([value_strategy(s, defs) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 30), 30))
    if kind == "integer":
        return st.integers(-(10**9), 10**9)
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(
            value_strategy(schema.get("items", {}), defs),
            min_size=schema.get("minItems", 0),
            max_size=min(schema.get("maxItems", 4), 4),
        )
    if kind == "object":
        return object_strategy(schema, defs)
    raise NotImplementedError(f"no strategy for {schema}")


def object_strategy(schema: dict, defs: dict):
    props = schema.get("properties", {})
    required = set(schema.get("required", []))

    @st.composite
    def build(draw):
        out = {}
        for name, sub in props.items():  # schema order, as the constraint requires
            if name in required or draw(st.booleans()):
                out[name] = draw(value_strategy(sub, defs))
        return out

    return build()


@st.composite
def tool_call(draw):
    tool = draw(st.sampled_from(list(TOOLS)))
    schema = tool.schema()
    args = draw(object_strategy(schema, schema.get("$defs", {})))
    return tool, args


THOUGHTS = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=80).filter(
    lambda s: s.split()
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=tool_call(), thought=THOUGHTS)
def test_valid_args_survive_render_constrain_parse(call, thought):
    tool, raw = call
    try:
        args = tool.parse_args(raw)
    except Exception:
        assume(False)
    text = render_step(thought, tool.name, raw).rstrip("\n")
    STEP.check(text)  # regex (Python) + parse_step
    assert accepted_by_automaton(AUTO, text), text  # the automaton the decoder runs on
    step = parse_step(text, TOOLS)
    assert step.action == tool.name
    assert step.args == args
    assert step.thought == " ".join(thought.split())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(text=st.from_regex(STEP.regex, fullmatch=True))
def test_every_accepted_string_parses_into_a_registered_tool(text):
    step = parse_step(text, TOOLS)
    assert step.action in TOOLS.names
    assert TOOLS.get(step.action).parse_args(step.action_input) == step.args
    assert accepted_by_automaton(AUTO, text)


def test_every_tool_is_an_alternative_and_nothing_else():
    for tool in TOOLS:
        assert re.search(re.escape(tool.name) + r"\\n", STEP.regex.replace("\\x2D", "-")), tool.name
    bad = "Thought: x\nAction: nosuchtool\nAction Input: {}"
    assert not accepted_by_automaton(AUTO, bad)
    with pytest.raises(ValueError):
        STEP.check(bad)
    extra = 'Thought: x\nAction: Finish\nAction Input: {"answer": "a", "extra": 1}'
    assert not accepted_by_automaton(AUTO, extra)
    spaced = 'Thought: x\nAction: Finish\nAction Input: {"answer" :  "a"}'
    assert not accepted_by_automaton(AUTO, spaced)  # whitespace is fixed: no room to ramble
    multi = 'Thought: x\ny\nAction: Finish\nAction Input: {"answer": "a"}'
    assert not accepted_by_automaton(AUTO, multi)


def test_seeded_continuation_constraint():
    rest = step_constraint(TOOLS, THOUGHT_MAX, ANSWER_MAX, after_thought_prefix="I need to")
    text = ' check the time\nAction: Finish\nAction Input: {"answer": "now"}'
    step = rest.check(text)
    assert step.thought == "I need to check the time" and step.action == "Finish"
    assert dict(rest.limits)["a"] == THOUGHT_MAX - len("I need to") - 1


def test_budgets_point_at_the_thought_and_the_answer_loops():
    limits = {p: n for p, n in STEP.limits}
    assert limits["Thought: a"] == THOUGHT_MAX - 1
    thought_loop = AUTO.walk(AUTO.initial, b"Thought: a")
    assert AUTO.limit[thought_loop] == THOUGHT_MAX - 1
    answer_loop = AUTO.walk(AUTO.initial, b'Thought: a\nAction: Finish\nAction Input: {"answer": "a')
    assert AUTO.limit[answer_loop] == ANSWER_MAX - 1


class Review(BaseModel):
    status: str = Field(..., pattern=None)
    reasoning: str = Field(..., max_length=120)
    score: int
    tags: list[str] = []
    note: str | None = None


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_json_constraint_round_trip(data):
    c = json_constraint(Review)
    schema = Review.model_json_schema()
    raw = data.draw(object_strategy(schema, {}))
    try:
        obj = Review.model_validate(raw)
    except Exception:
        assume(False)
    text = json.dumps(raw, ensure_ascii=False)
    assert c.check(text) == obj
    assert accepted_by_automaton(automaton_for(c), text)


def test_json_constraint_bounds_strings_by_tightest_max_length():
    c = json_constraint(Review)
    assert c.default_limit == 119
    assert json_constraint(Review, string_limit=50).default_limit == 49


def test_schema_regex_uses_json_dumps_spacing():
    regex = schema_regex(Review.model_json_schema())
    pattern = re.compile(regex)
    assert pattern.fullmatch(json.dumps({"status": "ok", "reasoning": "r", "score": 3, "tags": ["a", "b"]}))
    assert not pattern.fullmatch('{"status":"ok","reasoning":"r","score":3}')


def _step(tool: str, args: dict) -> str:
    return render_step("I go on.", tool, args, None).rstrip("\n")


@given(
    names=st.lists(
        st.from_regex(r"[a-z_]{1,12}-[0-9a-f]{8}\.json", fullmatch=True), min_size=1, max_size=4, unique=True
    ),
    other=st.from_regex(r"[a-z_]{1,12}-[0-9a-f]{8}\.json", fullmatch=True),
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_file_arguments_can_only_name_files_of_the_run(names, other):
    assume(other not in names)
    step = step_constraint(TOOLS, THOUGHT_MAX, ANSWER_MAX, files=names)
    pattern = re.compile(step.regex, re.S)
    for name in names:
        assert pattern.fullmatch(_step("jsonreader", {"file_name": name}))
    assert not pattern.fullmatch(_step("jsonreader", {"file_name": other}))
    assert not pattern.fullmatch(_step("jsonmerge", {"file_name_1": names[0], "file_name_2": other}))
    assert pattern.fullmatch(_step("sites", {}))  # tools without file arguments are untouched
    assert parse_step(_step("jsonreader", {"file_name": names[0]}), TOOLS).args.file_name == names[0]


def test_tools_that_need_a_file_are_left_out_while_there_is_none():
    step = step_constraint(TOOLS, THOUGHT_MAX, ANSWER_MAX, files=[])
    pattern = re.compile(step.regex, re.S)
    assert not pattern.fullmatch(_step("jsonreader", {"file_name": "sites-0123abcd.json"}))
    assert "jsonreader" not in step.regex and "jsonmerge" not in step.regex
    assert pattern.fullmatch(_step("sites", {})) and pattern.fullmatch(_step("Finish", {"answer": "done"}))
    unconstrained = re.compile(STEP.regex, re.S)  # files=None: any name (tests, tools without a store)
    assert unconstrained.fullmatch(_step("jsonreader", {"file_name": "sites-0123abcd.json"}))


def test_constraint_caches_stay_bounded_however_many_runs():
    from edge_agent.llm import automaton, constraints

    for n in range(100):
        step = step_constraint(TOOLS, THOUGHT_MAX, ANSWER_MAX, files=[f"sites-{n:08x}.json"])
        automaton_for(step)
    assert len(constraints._CACHE) <= constraints._CACHE.size
    assert len(automaton._AUTOMATA) <= automaton._AUTOMATA.size


def test_lru_evicts_the_least_recently_used():
    from edge_agent.llm.lru import LRU

    made = []
    cache = LRU(2)
    make = lambda v: lambda: made.append(v) or v  # noqa: E731
    assert cache.get_or_make("a", make(1)) == 1 and cache.get_or_make("b", make(2)) == 2
    assert cache.get_or_make("a", make(9)) == 1  # hit: a is now the most recent
    cache.get_or_make("c", make(3))  # evicts b
    assert "b" not in cache and "a" in cache and "c" in cache and made == [1, 2, 3]


def test_after_a_prefix_written_in_code_the_answer_gets_a_short_tail():
    from edge_agent.agent.steps import ANSWER_TAIL_CHARS

    prefix = "Found 3 chiller assets at POKMAIN: Chiller 3, Chiller 6, Chiller 9"
    step = step_constraint(
        TOOLS,
        THOUGHT_MAX,
        ANSWER_MAX,
        grounded=StepGrounding(answer=GroundedAnswer(tokens=frozenset({"3", "6", "9", "POKMAIN"}), prefix=prefix)),
        only=["Finish"],
    )
    auto = automaton_for(step)
    head = f'Thought: done\nAction: Finish\nAction Input: {{"answer": "{prefix}'
    tail = auto.walk(auto.initial, f"{head} a".encode())
    assert tail != auto.dead and auto.limit[auto.field[tail]] == ANSWER_TAIL_CHARS - 1
    assert auto.walk(auto.initial, f'{head}."}}'.encode()) != auto.dead  # the prefix alone is an answer
    assert auto.walk(auto.initial, b'Thought: done\nAction: Finish\nAction Input: {"answer": "Chiller') == auto.dead


def test_a_closed_answer_is_the_prefix_alone():
    prefix = "Found 3 chiller assets at POKMAIN: Chiller 3, Chiller 6, Chiller 9"
    step = step_constraint(
        TOOLS,
        THOUGHT_MAX,
        ANSWER_MAX,
        grounded=StepGrounding(
            answer=GroundedAnswer(tokens=frozenset({"3", "6", "9", "POKMAIN"}), prefix=prefix, closed=True)
        ),
        only=["Finish"],
    )
    auto = automaton_for(step)
    head = f'Thought: done\nAction: Finish\nAction Input: {{"answer": "{prefix}'
    assert auto.walk(auto.initial, f'{head}"}}'.encode()) != auto.dead
    assert auto.walk(auto.initial, f'{head}."}}'.encode()) == auto.dead  # no end mark to choose either
    assert auto.walk(auto.initial, f"{head} (1 more)".encode()) == auto.dead
    # after the thought, all that is left is fixed: "\nAction: Finish…" to the end, one forced run
    after_thought = auto.walk(auto.initial, b"Thought: done\n")
    assert auto.forced(after_thought).decode().endswith(f'{prefix}"}}')
