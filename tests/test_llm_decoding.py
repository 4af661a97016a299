"""The constrained decoder against adversarial logits (no model): whatever the scores say, the output
is in the constraint's language, budgets hold, forced text is batched, and `max_tokens` is respected.

A fake target returns random logits over a small vocabulary (bytes, multi-byte pieces, a split UTF-8
character, and structural words), so every kind of token boundary is exercised. If the constraint
were not applied (the silent failure measured with outlines' llama.cpp processor), these fail.
"""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.agent.steps import parse_step, step_constraint
from edge_agent.grounding.allowed import GroundedAnswer, StepGrounding
from edge_agent.llm.constraints import json_constraint
from edge_agent.llm.decoding import TokenTable, automaton_for, generate_constrained, generate_free
from edge_agent.toolkit import ToolRegistry
from tests.test_llm_constraints import Review

TOOLS = ToolRegistry.from_dir(Path(__file__).resolve().parent.parent / "plugins")

WORDS = [
    b"Thought",
    b": ",
    b"Action",
    b" Input",
    b'{"',
    b'"}',
    b'", "',
    b"answer",
    b"Finish",
    b"json",
    b"\\n",
    b"\\",
    b"\\u00",
    b"\xc3",
    b"\xa9",
    "é".encode(),
    "€".encode(),
    b"  ",
    b"the ",
    b"\n\n",
    b'"]',
    b'["',
]
PIECES = [None] + [bytes([b]) for b in range(32, 127)] + [b"\n", b"\t"] + WORDS  # id 0: end of text (control)
EOS = 0


def table() -> TokenTable:
    return TokenTable(PIECES, [EOS], len(PIECES))


class RandomTarget:
    def __init__(self, seed: int, eos_bias: float = 0.0):
        self.rng = np.random.default_rng(seed)
        self.fed: list[list[int]] = []
        self.eos_bias = eos_bias

    def feed(self, tokens):
        self.fed.append(list(tokens))

    def logits(self):
        out = self.rng.normal(size=len(PIECES)).astype(np.float32)
        out[EOS] += self.eos_bias
        return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), temperature=st.sampled_from([0.0, 1.0]))
def test_random_logits_always_give_a_valid_step(seed, temperature):
    c = step_constraint(TOOLS, thought_max_chars=60, answer_max_chars=40)
    target = RandomTarget(seed)
    out = generate_constrained(target, table(), automaton_for(c), max_tokens=2000, temperature=temperature, seed=seed)
    assert out.finish_reason == "stop", out
    step = c.check(out.text)  # regex + parse_step
    assert step.action in TOOLS.names
    assert len(step.thought) <= 60
    if step.action == "Finish":
        assert len(step.args.answer) <= 40
    fed = [t for batch in target.fed for t in batch]
    assert fed == out.tokens[: len(fed)] and len(out.tokens) - len(fed) <= 40  # only the tail is unevaluated
    assert out.tail == len(out.tokens) - len(fed) and 0 <= out.tail_forced <= min(out.tail, out.forced)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_logits_always_give_valid_json(seed):
    c = json_constraint(Review, string_limit=30)
    out = generate_constrained(RandomTarget(seed), table(), automaton_for(c), max_tokens=3000, seed=seed)
    assert out.finish_reason == "stop", out
    review = c.check(out.text)
    assert isinstance(review, Review) and len(review.reasoning) <= 30


def test_forced_text_is_fed_in_one_batch():
    c = step_constraint(TOOLS, 60, 40)
    target = RandomTarget(1)
    out = generate_constrained(target, table(), automaton_for(c), max_tokens=2000)
    assert out.text.startswith("Thought: ")
    assert len(target.fed[0]) >= 2  # "Thought" + ": " before anything was sampled
    assert any(len(batch) > 2 for batch in target.fed[1:])  # e.g. "\nAction: " after the thought
    assert 2 <= out.forced < len(out.tokens)  # counted apart: they cost a batched evaluation, not sampling
    fed = sum(len(batch) for batch in target.fed)
    assert out.tail == len(out.tokens) - fed  # chosen, never evaluated here: the next prompt's, or nobody's


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_closed_answer_is_never_evaluated(seed):
    """Once the thought ends, a Finish whose answer code wrote whole has nothing left to choose: the action
    and the answer are the reply's tail, chosen without a look at the model (no feed, no logits)."""
    prefix = "Found 2 sites: POKMAIN, RCHMAIN"
    c = step_constraint(
        TOOLS,
        60,
        200,
        grounded=StepGrounding(
            answer=GroundedAnswer(tokens=frozenset({"2", "POKMAIN", "RCHMAIN"}), prefix=prefix, closed=True)
        ),
        only=["Finish"],
    )
    target = RandomTarget(seed)
    out = generate_constrained(target, table(), automaton_for(c), max_tokens=2000, seed=seed)
    assert out.finish_reason == "stop" and c.check(out.text).args.answer == prefix
    fed = b"".join(PIECES[t] or b"" for batch in target.fed for t in batch).decode("utf-8", "replace")
    assert out.text.startswith(fed) and len(fed) <= out.text.rindex("\nAction: Finish")  # the thought only
    assert out.text.endswith(f'{prefix}"}}') and out.tail == out.tail_forced + 1  # + the thought's last token
    assert out.tail >= len(table().tokens_for(f'\nAction: Finish\nAction Input: {{"answer": "{prefix}"}}'.encode()))


def test_max_tokens_mid_structure_is_length():
    c = step_constraint(TOOLS, 60, 40)
    out = generate_constrained(RandomTarget(3), table(), automaton_for(c), max_tokens=5)
    assert out.finish_reason == "length" and len(out.tokens) == 5
    with pytest.raises(ValueError):
        c.check(out.text)


def test_unconstrained_random_output_would_be_caught():
    """The same random scores without the constraint produce text the validator rejects."""
    c = step_constraint(TOOLS, 60, 40)
    out = generate_free(RandomTarget(5), table(), max_tokens=60)
    with pytest.raises(ValueError):
        c.check(out.text)
    with pytest.raises(ValueError):
        parse_step(out.text, TOOLS)


def test_free_generation_stops_at_stop_string_and_eos():
    class Scripted:
        def __init__(self, ids):
            self.ids = list(ids)

        def feed(self, tokens):
            pass

        def logits(self):
            out = np.zeros(len(PIECES), dtype=np.float32)
            out[self.ids.pop(0)] = 1.0
            return out

    ids = {p: i for i, p in enumerate(PIECES) if p}
    seq = [ids[b"a"], ids[b"\n"], ids[b"O"], ids[b"b"]]
    out = generate_free(Scripted(seq), table(), max_tokens=10, stop=["\nO"])
    assert out.text == "a" and out.finish_reason == "stop"
    out = generate_free(Scripted([ids[b"a"], EOS]), table(), max_tokens=10)
    assert out.text == "a" and out.finish_reason == "stop"
    out = generate_free(Scripted([ids[b"a"]] * 3), table(), max_tokens=3)
    assert out.finish_reason == "length"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), max_tokens=st.integers(60, 160))
def test_token_budget_still_completes_the_step(seed, max_tokens):
    """A model that would ramble (random scores, long budgets) still ends with a complete step in
    `max_tokens`: once tokens run short only continuations that can still be completed are allowed."""
    c = step_constraint(TOOLS, thought_max_chars=240, answer_max_chars=600)
    out = generate_constrained(RandomTarget(seed), table(), automaton_for(c), max_tokens=max_tokens, seed=seed)
    assert out.finish_reason == "stop", out
    assert len(out.tokens) <= max_tokens
    c.check(out.text)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_shared_budget_holds_across_the_loops_after_it(seed):
    """Words, figures and units are different loops of an answer's automaton; a shared probe's budget is
    spent by all of them, so alternating between them cannot run past it (one budget per loop could)."""
    from edge_agent.llm.constraints import StructuredConstraint

    regex = r'A: "([a-z ]+|[0-9]+|kW)*"'
    alone = StructuredConstraint(name="t", regex=regex, limits=(('A: "a', 12), ('A: "1', 12)), default_limit=12)
    together = StructuredConstraint(name="t", regex=regex, limits=(('A: "a', 12),), shared=('A: "a',), default_limit=12)
    out = generate_constrained(
        RandomTarget(seed, eos_bias=-50), table(), automaton_for(together), max_tokens=400, seed=seed
    )
    assert out.finish_reason == "stop" and together.check(out.text) is None
    assert len(out.text) - len('A: ""') <= 12 + 2  # the budget, and at most one "kW" literal past it
    loose = generate_constrained(
        RandomTarget(seed, eos_bias=-50), table(), automaton_for(alone), max_tokens=400, seed=seed
    )
    assert len(loose.text) >= len(out.text)


@settings(max_examples=100, deadline=None)
@given(
    pieces=st.lists(st.one_of(st.none(), st.binary(min_size=1, max_size=12)), min_size=1, max_size=60),
    eog=st.lists(st.integers(0, 59), max_size=3),
)
def test_a_kept_vocabulary_reads_back_the_same_and_builds_the_same_table(tmp_path_factory, pieces, eog):
    from edge_agent.llm.llama import load_vocab, save_vocab

    if not any(pieces):
        pieces = pieces + [b"a"]
    path = tmp_path_factory.mktemp("vocab") / "m-vocab.npz"
    save_vocab(path, pieces, eog)
    back, back_eog = load_vocab(path, len(pieces))
    assert back == pieces and back_eog == eog
    one, two = TokenTable(pieces, eog, len(pieces)), TokenTable(back, back_eog, len(pieces))
    assert (one.mat == two.mat).all() and one.ids.tolist() == two.ids.tolist()
    for row, tok in enumerate(one.ids.tolist()):  # each row spells its piece, left-aligned, zero-padded
        assert one.mat[row, : len(pieces[tok])].tobytes() == pieces[tok]
        assert not one.mat[row, len(pieces[tok]) :].any()
    assert load_vocab(path, len(pieces) + 1) == (None, None)  # another vocabulary's size: built again


def test_a_damaged_vocabulary_file_is_ignored(tmp_path):
    from edge_agent.llm.llama import load_vocab

    path = tmp_path / "m-vocab.npz"
    path.write_bytes(b"PK\x03\x04 not a zip at all")
    assert load_vocab(path, 10) == (None, None)
    assert load_vocab(tmp_path / "missing.npz", 10) == (None, None)


@settings(max_examples=100, deadline=None)
@given(data=st.lists(st.sampled_from([p for p in PIECES if p] + [b"A", b"the "]), max_size=20).map(b"".join))
def test_bytes_the_tokenizer_does_not_round_trip_are_spelled_by_the_longest_pieces(data):
    """The fallback spelling (built on first use): the pieces join to exactly the bytes asked for, and a
    piece the vocabulary holds twice is spelled by its first id."""
    dup = len(PIECES)
    t = TokenTable(PIECES + [b"the "], [EOS], dup + 1, tokenize=lambda b: [])  # a tokenizer that never helps
    ids = t.tokens_for(data)
    assert b"".join(t.pieces[i] for i in ids) == data
    assert dup not in ids and all(i != EOS for i in ids)
    if data.startswith(b"the "):
        assert ids[0] == PIECES.index(b"the ")
