"""Answers with provenance (`edge_agent.grounding.provenance`): the answer regex and the claim trace.

Properties (hypothesis) over random evidence — Observations holding figures, dates, codes and file names:
- an answer made only of free words and tokens of the evidence has a source for every claim, and the
  source is an Observation that holds the claim (the latest one that does);
- an answer stating a figure no evidence holds is reported ungrounded;
- every string the answer regex accepts (fullmatch: the regex is the JSON string's `pattern`, which the
  step constraint puts between the quotes of Finish's `answer`) traces back to the evidence completely;
- free text (a thought) with its unsourced claims masked states nothing unsourced, and keeps every sourced one.
"""

from __future__ import annotations

import re
from datetime import date

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from edge_agent.grounding.provenance import (
    UNVERIFIED,
    Source,
    answer_pattern,
    claims_of,
    codes,
    digit_tokens,
    evidence_tokens,
    mask,
    trace,
    ungrounded,
)

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = [
    "the",
    "max",
    "was",
    "of",
    "at",
    "on",
    "and",
    "value",
    "peak",
    "average",
    "tons",
    "kWh",
    "between",
    "chiller",
    "reading",
    "total",
    "Yesterday",
    "It",
    "OK",
]

_int = st.integers(0, 99999).map(str)
_decimal = st.builds(lambda a, b: f"{a}.{b}", st.integers(0, 9999), st.integers(0, 999))
_negative = _decimal.map(lambda d: f"-{d}")
_date = st.dates(min_value=date(2000, 1, 1), max_value=date(2035, 12, 31)).map(lambda d: d.isoformat())
_datetime = st.builds(lambda d, h, m: f"{d}T{h:02d}:{m:02d}", _date, st.integers(0, 23), st.integers(0, 59))
_code = st.from_regex(r"[A-Z]{3,8}", fullmatch=True)
_point = st.builds(
    lambda c, n, s: f"{c}{n}_{s}", st.sampled_from("BCP"), st.integers(1, 999), st.sampled_from(["Total", "kW", "Flow"])
)
_file = st.builds(
    lambda stem, h: f"{stem}_{h}.json",
    st.sampled_from(["history", "sensors", "merged"]),
    st.text("0123456789abcdef", min_size=4, max_size=8).filter(lambda h: any(c.isdigit() for c in h)),
)
TOKEN = st.one_of(_int, _decimal, _negative, _date, _datetime, _code, _point, _file)


@st.composite
def observations(draw, min_size=1, max_size=5) -> list[str]:
    """Observation texts: words and tokens, joined by blanks and punctuation."""
    texts = []
    for _ in range(draw(st.integers(min_size, max_size))):
        parts = draw(st.lists(st.one_of(st.sampled_from(WORDS), TOKEN), min_size=1, max_size=10))
        seps = draw(
            st.lists(st.sampled_from([" ", ", ", "; ", " (", ") ", " = "]), min_size=len(parts), max_size=len(parts))
        )
        texts.append("".join(p + s for p, s in zip(parts, seps)).strip())
    return texts


def _sources(texts: list[str]) -> list[Source]:
    return [Source(kind="observation", text=t, trial=1, step=i, tool=f"tool{i}") for i, t in enumerate(texts)]


def _holds(text: str, claim: str) -> bool:
    return claim in evidence_tokens([text])


# --- examples -------------------------------------------------------------------------------------------


def test_evidence_tokens_keep_figures_their_pieces_codes_and_files():
    toks = evidence_tokens(
        [
            "Chiller 6 Tonnage at POKMAIN: max 283.2 at 2021-03-01T22:00, B705_Total -3.5; "
            "wrote history_ab12.json and merged.json"
        ]
    )
    assert {
        "6",
        "283.2",
        "2021-03-01T22:00",
        "2021-03-01",
        "22:00",
        "B705_Total",
        "B705",
        "3.5",
        "POKMAIN",
        "history_ab12.json",
        "merged.json",
    } <= toks
    assert "283" not in toks and "2" not in toks and "Tonnage" not in toks


def test_trace_names_the_latest_observation_then_facts_then_question():
    sources = [
        Source(kind="question", text="What was the Tonnage of Chiller 6 at POKMAIN on 2023-01-13?"),
        Source(kind="facts", text="site_name POKMAIN; asset_names Chiller 6; start 2023-01-13"),
        Source(kind="observation", text="max 283.2 on 2023-01-13", trial=1, step=1, tool="histories"),
        Source(kind="observation", text="max 283.2 (again)", trial=1, step=2, tool="histories"),
    ]
    claims = {
        c.text: c
        for c in trace(
            "The Tonnage of Chiller 6 at POKMAIN peaked at 283.2 on 2023-01-13.",
            sources,
            names={"Tonnage", "Chiller 6", "POKMAIN"},
        )
    }
    assert (claims["283.2"].source, claims["283.2"].step, claims["283.2"].tool) == ("observation", 2, "histories")
    assert (claims["2023-01-13"].source, claims["2023-01-13"].step) == ("observation", 1)
    assert claims["POKMAIN"].source == "facts" and claims["POKMAIN"].what == "code"
    assert claims["Chiller 6"].source == "facts" and claims["Chiller 6"].what == "name"
    assert claims["Tonnage"].source == "question"
    assert ungrounded(list(claims.values())) == []


def test_a_made_up_figure_code_and_file_are_ungrounded():
    sources = [Source(kind="observation", text="max 283.2 at POKMAIN, wrote history_ab12.json", step=1)]
    claims = trace("Max 283.2 and 290.1 at POKMAIN and RCHMAIN, see history_ff99.json.", sources)
    assert ungrounded(claims) == ["290.1", "history_ff99.json", "RCHMAIN"]
    assert {c.text: c.what for c in claims}["history_ff99.json"] == "file"


def test_mask_hides_only_what_no_source_held():
    sources = [
        Source(
            kind="observation",
            text="Chiller 6 Tonnage: max 283.2 at 2024-07-15T15:45; saved to history-1a2b.json",
            trial=1,
            step=1,
        )
    ]
    text = "Max 283.2 at 2024-07-15T15:45, so the answer was 6.5 tons at HQ1ARM3 in history-9f9f.json; 6 is done."
    made_up = ungrounded(trace(text, sources))
    assert made_up == ["6.5", "HQ1ARM3", "history-9f9f.json"]
    assert mask(text, made_up) == (
        f"Max 283.2 at 2024-07-15T15:45, so the answer was {UNVERIFIED} tons at "
        f"{UNVERIFIED} in {UNVERIFIED}; 6 is done."
    )
    assert mask(text, []) == text


def test_a_fragment_of_a_figure_is_not_its_source():
    claims = trace("The tonnage was 2 tons.", [Source(kind="observation", text="max 283.2", step=1)])
    assert re.fullmatch(answer_pattern(evidence_tokens(["max 283.2"])), "The tonnage was 2 tons.") is None
    assert ungrounded(claims) == ["2"]


def test_answer_pattern_allows_only_evidence_figures():
    pattern = answer_pattern(evidence_tokens(["max 283.2 at POKMAIN on 2021-03-01T22:00"]))
    assert re.fullmatch(pattern, "The max was 283.2 at POKMAIN on 2021-03-01 at 22:00.")
    assert re.fullmatch(pattern, "The max was 283 at POKMAIN.") is None  # not a figure of the evidence
    assert re.fullmatch(pattern, "The max was 283.2.2 at POKMAIN.") is None  # nor assembled from pieces
    assert re.fullmatch(pattern, "The max was 283.2 at RCHMAIN.") is None  # a code nobody read
    assert re.fullmatch(pattern, "The max was 283.2 at POKMAIN. Next sentence") is None  # one sentence
    assert re.fullmatch(pattern, 'The max was "283.2"') is None  # no quote: it ends the JSON string


def test_answer_pattern_with_prefix_starts_with_it():
    prefix = "There is no asset Chiller 7 at POKMAIN (there are Chiller 3, Chiller 6)"
    pattern = answer_pattern({"6"}, prefix)
    assert re.fullmatch(pattern, prefix + ".")
    assert re.fullmatch(pattern, prefix + ", and the data of Chiller 6 is in hand.")
    assert re.fullmatch(pattern, "The data of Chiller 6 is in hand.") is None
    assert re.fullmatch(pattern, prefix + ", and Chiller 9 is off.") is None


def test_answer_pattern_refuses_non_ascii_digits():
    pattern = answer_pattern({"283.2"})
    assert re.fullmatch(pattern, "The value was ３４５ tons") is None
    assert re.fullmatch(pattern, "The value was ٣٤٥ tons") is None


def test_trace_refuses_non_ascii_digits():
    claims = trace("The value was ３４５ tons", [Source(kind="observation", text="max 283.2", step=1)])
    assert ungrounded(claims) and all(c.what == "number" for c in claims)


# --- properties -------------------------------------------------------------------------------------------


@SETTINGS
@given(data=st.data())
def test_answer_from_the_evidence_is_grounded_in_it(data):
    texts = data.draw(observations(), label="observations")
    pool = sorted(evidence_tokens(texts))
    assume(pool)
    parts = data.draw(
        st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(pool)), min_size=1, max_size=12),
        label="answer parts",
    )
    answer = " ".join(parts) + "."
    claims = trace(answer, _sources(texts))
    assert ungrounded(claims) == []
    # every figure, code and file of the answer is a claim
    assert {c.text for c in claims} >= set(digit_tokens(answer)) | set(codes(answer))
    for claim in claims:
        assert claim.source == "observation" and claim.trial == 1 and claim.tool == f"tool{claim.step}"
        assert _holds(texts[claim.step], claim.text) or claim.text in texts[claim.step]
        later = [i for i in range(claim.step + 1, len(texts)) if _holds(texts[i], claim.text)]
        assert later == [], f"{claim.text!r} is in a later Observation than step {claim.step}"


@SETTINGS
@given(
    texts=observations(),
    number=st.one_of(_int, _decimal, _date),
    before=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
    after=st.lists(st.sampled_from(WORDS), max_size=4),
)
def test_a_figure_in_no_evidence_is_ungrounded(texts, number, before, after):
    assume(not any(number in t for t in texts))
    answer = " ".join(before + [number] + after)
    claims = trace(answer, _sources(texts) + [Source(kind="question", text="What was the max yesterday?")])
    assert number in ungrounded(claims)
    assert [c.text for c in claims_of(answer) if c.what == "number"] == [number]


@st.composite
def _pattern_case(draw):
    texts = draw(observations(max_size=3))
    tokens = evidence_tokens(texts)
    pattern = answer_pattern(tokens)
    answer = draw(st.from_regex(pattern, fullmatch=True, alphabet=st.characters(codec="ascii")))
    return texts, pattern, answer


@SETTINGS
@given(case=_pattern_case())
def test_whatever_the_answer_pattern_accepts_traces_to_the_evidence(case):
    texts, pattern, answer = case
    assert re.fullmatch(pattern, answer) is not None
    claims = trace(answer, _sources(texts))
    assert ungrounded(claims) == [], answer
    assert all(t in evidence_tokens(texts) for t in digit_tokens(answer) + codes(answer))


@SETTINGS
@given(texts=observations(max_size=3), extra=st.one_of(_int, _decimal, _code))
def test_answer_pattern_refuses_a_token_outside_the_evidence(texts, extra):
    tokens = evidence_tokens(texts)
    assume(extra not in tokens and not any(extra in t for t in texts))
    assert re.fullmatch(answer_pattern(tokens), f"the value was {extra} today") is None
    assert re.fullmatch(answer_pattern(tokens | {extra}), f"the value was {extra} today") is not None


@SETTINGS
@given(data=st.data())
def test_masked_text_states_nothing_unsourced_and_keeps_what_is_sourced(data):
    texts = data.draw(observations(max_size=3), label="observations")
    sources = _sources(texts)
    seen = sorted(t for t in evidence_tokens(texts) if any(c.isdigit() for c in t))
    pick = st.one_of(st.sampled_from(WORDS), TOKEN, *([st.sampled_from(seen)] if seen else []))
    parts = data.draw(st.lists(pick, min_size=1, max_size=10), label="parts")
    seps = data.draw(
        st.lists(st.sampled_from([" ", ", ", "; ", " (", ") "]), min_size=len(parts), max_size=len(parts)), label="seps"
    )
    text = "".join(p + s for p, s in zip(parts, seps)).strip() + "."
    claims = trace(text, sources)
    shown = mask(text, ungrounded(claims))
    assert ungrounded(trace(shown, sources)) == []
    for c in claims:
        if c.grounded:
            assert c.text in shown
