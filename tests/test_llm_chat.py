"""Chat rendering: the GGUF's template, a template that refuses a system role, and the plain fallback."""

import pytest

from edge_agent.llm.base import Prompt
from edge_agent.llm.chat import ChatFormat, TemplateError

CHATML = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
    "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)
# Mistral-style: only user/assistant, raises on anything else.
NO_SYSTEM = (
    "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'user' %}"
    "{{ '[INST] ' + message['content'] + ' [/INST]' }}{% elif message['role'] == 'assistant' %}"
    "{{ message['content'] + eos_token }}{% else %}{{ raise_exception('Only user and assistant roles "
    "are supported!') }}{% endif %}{% endfor %}"
)
# Drops the system message silently.
IGNORES_SYSTEM = (
    "{% for m in messages %}{% if m['role'] == 'user' %}USER: {{ m['content'] }}\n{% endif %}{% endfor %}ASSISTANT:"
)

P = Prompt(
    system="You are a plant agent.\nTools: sites, assets.",
    user="Question: list the sites",
    assistant_prefix="Thought: I need",
)


def test_template_renders_system_user_then_prefix_raw():
    chat = ChatFormat(CHATML)
    assert chat.kind == "template"
    text = chat.render(P)
    assert text == (
        "<|im_start|>system\nYou are a plant agent.\nTools: sites, assets.<|im_end|>\n"
        "<|im_start|>user\nQuestion: list the sites<|im_end|>\n<|im_start|>assistant\nThought: I need"
    )


def test_prefix_is_stable_across_questions_and_scratchpads():
    chat = ChatFormat(CHATML)
    head1, rest1 = chat.split(P)
    head2, rest2 = chat.split(Prompt(system=P.system, user="another question", assistant_prefix="x"))
    assert head1 == head2 and head1.endswith("<|im_start|>user\n")
    assert rest1.startswith("Question: list the sites") and rest2.endswith("x")


def test_template_refusing_system_role_gets_it_folded_into_the_user_turn():
    chat = ChatFormat(NO_SYSTEM, bos_token="<s>", eos_token="</s>")
    assert chat.fold_system
    text = chat.render(P)
    assert text == f"<s>[INST] {P.system}\n\n{P.user} [/INST]{P.assistant_prefix}"
    head, _ = chat.split(P)
    assert head == f"<s>[INST] {P.system}\n\n"


def test_template_dropping_the_system_message_is_folded_too():
    chat = ChatFormat(IGNORES_SYSTEM)
    assert chat.fold_system and P.system in chat.render(P)


@pytest.mark.parametrize("template", [None, "", "plain"])
def test_plain_fallback_without_template(template):
    chat = ChatFormat(template)
    assert chat.kind == "plain"
    text = chat.render(P)
    assert text.startswith(P.system) and P.user in text and text.endswith("### Response\nThought: I need")
    assert chat.split(P)[0] == P.system + "\n\n"


def test_broken_template_is_a_clear_error():
    with pytest.raises(TemplateError, match="does not compile"):
        ChatFormat("{% for m in messages %}")
