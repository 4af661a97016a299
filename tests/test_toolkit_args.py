"""`toolkit.tool` takes a tool's argument model from its first parameter's annotation, and refuses one it cannot
use when the tool's module is imported, naming the tool: never a tool silently offered with no arguments."""

import textwrap

import pytest
from pydantic import BaseModel

from edge_agent.toolkit import NoArgs, ToolArgs, ToolLoadError, load_tools_from_file, tool


class SiteArgs(ToolArgs):
    site_name: str


class NotToolArgs(BaseModel):
    site_name: str


def test_the_annotation_is_the_argument_model_and_no_annotation_means_no_arguments():
    @tool("annotated", "Read one site.")
    def annotated(args: SiteArgs, ctx) -> str:
        return args.site_name

    @tool("bare", "List the sites.")
    def bare(args, ctx) -> str:
        return "none"

    assert annotated.args_model is SiteArgs
    assert annotated.parse_args({"site_name": "POKMAIN"}).site_name == "POKMAIN"
    assert bare.args_model is NoArgs


@pytest.mark.parametrize("annotation", [dict, NotToolArgs, int, "list[str]"])
def test_an_annotation_that_is_not_a_tool_args_model_raises_naming_the_tool(annotation):
    def fn(args, ctx) -> str:
        return ""

    fn.__annotations__["args"] = annotation
    with pytest.raises(ToolLoadError, match=r"tool 'lister'.*parameter 'args'.*not a ToolArgs model"):
        tool("lister", "List things.")(fn)


def test_an_explicit_args_that_is_not_a_tool_args_model_raises():
    with pytest.raises(ToolLoadError, match=r"tool 'reader': args=.*NotToolArgs.* is not a ToolArgs model"):
        tool("reader", "Read a thing.", args=NotToolArgs)(lambda args, ctx: "")  # deliberately not a ToolArgs


def test_a_tool_without_parameters_raises():
    with pytest.raises(ToolLoadError, match=r"tool 'nothing'.*takes no parameters"):
        tool("nothing", "Do nothing.")(lambda: "")


def _plugin(tmp_path, body: str):
    path = tmp_path / "plugin.py"
    path.write_text(textwrap.dedent(body))
    return path


def test_a_plugin_whose_annotation_does_not_resolve_fails_to_load_naming_file_and_tool(tmp_path):
    path = _plugin(
        tmp_path,
        """
        from __future__ import annotations
        from edge_agent.toolkit import tool

        @tool("histories", "Read a sensor's history.")
        def histories(args: HistArgs, ctx) -> str:  # HistArgs is defined nowhere
            return ""
    """,
    )
    with pytest.raises(ToolLoadError) as err:
        load_tools_from_file(path)
    message = str(err.value)
    assert str(path) in message and "tool 'histories'" in message
    assert "'HistArgs'" in message and "does not resolve" in message and "NameError" in message


def test_a_plugin_with_future_annotations_resolves_its_model(tmp_path):
    path = _plugin(
        tmp_path,
        """
        from __future__ import annotations
        from edge_agent.toolkit import ToolArgs, tool

        class AssetArgs(ToolArgs):
            site_name: str
            asset_name: str

        @tool("sensors", "List the sensors of one asset.")
        def sensors(args: AssetArgs, ctx) -> str:
            return args.asset_name
    """,
    )
    (loaded,) = load_tools_from_file(path)
    assert loaded.name == "sensors" and loaded.args_model.__name__ == "AssetArgs"
    assert sorted(loaded.args_model.model_fields) == ["asset_name", "site_name"]
