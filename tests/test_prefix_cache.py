"""Saved prefix states on disk (`edge_agent.llm.prefix_cache`), without a model."""

from __future__ import annotations

from edge_agent.llm.prefix_cache import PrefixCache


def test_prefix_states_of_another_kv_layout_are_not_offered(tmp_path):
    """States saved by a context with flash attention (V not transposed) are kept apart from those of one
    without: the keys differ, and a key that merely starts like another is not read as it."""
    with_fa = PrefixCache(tmp_path, model_key="abc")
    with_fa.put("react", [1, 2, 3], b"state-fa")
    without = PrefixCache(tmp_path, model_key="abc-vt")
    without.put("react", [1, 2, 3], b"state-vt")
    assert PrefixCache(tmp_path, model_key="abc").find("react", [1, 2, 3, 4]).load() == bytearray(b"state-fa")
    assert PrefixCache(tmp_path, model_key="abc-vt").find("react", [1, 2, 3, 4]).load() == bytearray(b"state-vt")
    assert PrefixCache(tmp_path, model_key="abc").roles() == {"react": 1}


def test_at_most_per_role_states_are_kept_oldest_use_dropped(tmp_path):
    cache = PrefixCache(tmp_path, model_key="m", per_role=2)
    for n in range(4):
        cache.put("react", list(range(n + 1)), bytes([n]))
    assert cache.roles() == {"react": 2} and len(list(tmp_path.glob("m-react-*.kv"))) == 2
    assert PrefixCache(tmp_path, model_key="m").find("react", [0, 1, 2, 3, 9]).load() == bytearray([3])
