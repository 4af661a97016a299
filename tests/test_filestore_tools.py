"""The file store never lets a name escape; the toolkit turns bad arguments into observations; json tools."""

import json
import os

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.clock import Clock
from edge_agent.filestore import FileStore, FileStoreError
from edge_agent.toolkit import ToolContext, ToolLoadError, ToolRegistry, load_tools_from_file

TOOLS = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")

NASTY = st.one_of(
    st.text(min_size=0, max_size=60),
    st.sampled_from(
        [
            "..",
            "../x.json",
            "/etc/passwd",
            "a/../../b",
            "x\x00y",
            "./a",
            ".hidden",
            "a/b.json",
            "..\\x",
            "~/.ssh/id_rsa",
            "C:\\x",
            "a" * 300,
        ]
    ),
    st.builds(lambda a, b: f"{a}/{b}", st.text(max_size=10), st.text(max_size=10)),
)


@hsettings(max_examples=300, deadline=None)
@given(name=NASTY)
def test_no_name_ever_resolves_outside_the_store(tmp_path_factory, name):
    store = FileStore(tmp_path_factory.mktemp("files"))
    root = store.root.resolve()
    try:
        path = store.path(name)
    except FileStoreError as exc:
        assert "not allowed" in str(exc)
        return
    assert path.resolve().parent == root and "/" not in name and "\x00" not in name


def test_symlinks_are_refused(tmp_path):
    store = FileStore(tmp_path / "files")
    (tmp_path / "secret.json").write_text("[1]")
    os.symlink(tmp_path / "secret.json", store.root / "link.json")
    try:
        store.read_json("link.json")
    except FileStoreError as exc:
        assert "link" in str(exc)
    else:
        raise AssertionError("a symlink was followed")
    assert store.names() == []  # the link is not offered as a file either


def test_hard_links_are_refused(tmp_path):
    """A hard link planted in the store shares its data with a file outside: refused like a symlink, in every
    use (read, info, manifest, listing)."""
    import pytest

    store = FileStore(tmp_path / "files")
    (tmp_path / "secret.json").write_text('["secret"]')
    os.link(tmp_path / "secret.json", store.root / "planted.json")
    for use in (store.read_json, store.info, store.path):
        with pytest.raises(FileStoreError, match="link"):
            use("planted.json")
    store.created.append("planted.json")
    assert store.names() == [] and store.manifest() == [] and not store.exists("planted.json")
    mine = store.write_json([1], "mine")
    assert store.names() == [mine] and [f.name for f in store.manifest()] == [mine]


def test_info_of_a_missing_file_is_a_file_store_error(tmp_path):
    import pytest

    store = FileStore(tmp_path / "files")
    with pytest.raises(FileStoreError, match="no file named 'gone.json'"):
        store.info("gone.json")


def test_names_lists_plain_files_and_survives_a_removed_folder(tmp_path):
    import shutil

    store = FileStore(tmp_path / "files")
    second, first = store.write_json([2], "b"), store.write_json([1], "a")
    (store.root / "sub").mkdir()
    assert store.names() == [first, second]
    shutil.rmtree(store.root)
    assert store.names() == []


def ctx(tmp_path):
    return ToolContext(files=FileStore(tmp_path / "files"), clock=Clock("2020-06-08T09:00:00-04:00"))


def test_bad_arguments_become_observations_naming_the_expected_shape(tmp_path):
    reader = TOOLS.get("jsonreader")
    for raw in ({}, {"file_name": 3}, {"file_name": "x.json", "extra": 1}, ["x.json"]):
        result = reader.run(raw, ctx(tmp_path))
        assert not result.ok and result.observation.startswith("Error:") and "file_name" in result.observation


def test_jsonreader_and_jsonmerge(tmp_path):
    c = ctx(tmp_path)
    a = c.files.write_json([{"asset_name": "Chiller 6", "value": 1}], "a")
    b = c.files.write_json([{"asset_name": "Chiller 9", "value": 2}], "b")
    out = TOOLS.get("jsonmerge").run({"file_name_1": a, "file_name_2": b}, c)
    assert out.ok, out.observation
    merged = c.files.created[-1]
    assert json.loads((c.files.root / merged).read_text()) == [
        {"asset_name": "Chiller 6", "value": 1},
        {"asset_name": "Chiller 9", "value": 2},
    ]
    assert "2 rows" in TOOLS.get("jsonreader").run({"file_name": merged}, c).observation
    other = c.files.write_json([{"x": 1}], "other")
    bad = TOOLS.get("jsonmerge").run({"file_name_1": a, "file_name_2": other}, c)
    assert not bad.ok and "rows differ" in bad.observation
    missing = TOOLS.get("jsonreader").run({"file_name": "nope.json"}, c)
    assert not missing.ok and "no file named" in missing.observation
    assert [f.name for f in c.files.manifest()] == [a, b, merged, other]


def test_currentdatetime_uses_the_injected_clock(tmp_path):
    out = TOOLS.get("currentdatetime").run({}, ctx(tmp_path))
    assert out.ok and "2020-06-08T09:00:00-04:00" in out.observation and "Monday" in out.observation


def test_a_broken_plugin_is_a_load_error_naming_the_file(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("raise RuntimeError('boom')\n")
    try:
        load_tools_from_file(bad)
    except ToolLoadError as exc:
        assert "broken.py" in str(exc) and "boom" in str(exc)
    else:
        raise AssertionError("a broken plugin loaded")


def test_a_crashing_tool_is_an_observation_not_a_crash(tmp_path):
    plugin = tmp_path / "crashy.py"
    plugin.write_text(
        "from edge_agent.toolkit import NoArgs, tool\n"
        "@tool('crashy', 'Crash on purpose.')\n"
        "def crashy(args: NoArgs, ctx):\n"
        "    raise ZeroDivisionError('x')\n"
    )
    reg = ToolRegistry.from_dir(tmp_path)
    assert reg.names[0] == "crashy" and "Finish" in reg and "Self-Ask" in reg
    out = reg.get("crashy").run({}, ctx(tmp_path))
    assert not out.ok and "ZeroDivisionError" in out.observation


def test_a_link_swapped_in_after_the_name_check_is_still_refused(tmp_path, monkeypatch):
    """The race of issue 30: the name is checked, then a link is put in its place before the open. Reads and
    writes open the file themselves (O_NOFOLLOW, relative to the store's directory, O_EXCL for a new file) and
    check the opened descriptor, so what was checked is what is read."""
    outside = tmp_path / "secret.txt"
    outside.write_text('{"secret": 1}')
    store = FileStore(tmp_path / "store")
    name = store.write_json({"ok": 1}, "data")
    monkeypatch.setattr(FileStore, "path", lambda self, n: self.root / n)  # the check passed; then the swap:
    (store.root / name).unlink()
    os.symlink(outside, store.root / name)
    with pytest.raises(FileStoreError, match="link"):
        store.read_json(name)
    (store.root / name).unlink()
    os.link(outside, store.root / name)
    with pytest.raises(FileStoreError, match="link"):
        store.read_bytes(name)
    planted = store.new_name("next")
    os.symlink(outside, store.root / planted)
    with pytest.raises(OSError):  # a new file is never written through what was planted at its name
        store.write_bytes(planted, b"overwrite")
    assert outside.read_text() == '{"secret": 1}'
