"""JSON file tools: `jsonreader` shows a result file, `jsonmerge` joins two arrays of one row type into one file."""

import json

from pydantic import Field

from edge_agent.tabular import saved_as, series_stem
from edge_agent.toolkit import FILE_REF, Said, ToolArgs, ToolContext, ToolError, tool

PREVIEW_CHARS = 400


class ReadArgs(ToolArgs):
    file_name: str = Field(..., description="a file name returned by an earlier tool", json_schema_extra=FILE_REF)


class MergeArgs(ToolArgs):
    file_name_1: str = Field(..., description="the first JSON array file", json_schema_extra=FILE_REF)
    file_name_2: str = Field(..., description="the second JSON array file", json_schema_extra=FILE_REF)


@tool("jsonreader", "Read a JSON result file and show its size and first rows.", needs=("file",))
def jsonreader(args: ReadArgs, ctx: ToolContext) -> str:
    data = ctx.files.read_json(args.file_name)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    kind = f"a JSON array of {len(data)} rows" if isinstance(data, list) else f"a JSON {type(data).__name__}"
    if len(text) <= PREVIEW_CHARS:
        return f"{args.file_name} holds {kind}: {text}"
    return f"{args.file_name} holds {kind}; first {PREVIEW_CHARS} characters: {text[:PREVIEW_CHARS]}..."


def _row_keys(rows: list, name: str) -> frozenset:
    if not rows:
        return frozenset()
    if not all(isinstance(r, dict) for r in rows):
        raise ToolError(f"{name} is not an array of JSON objects")
    return frozenset().union(*(r.keys() for r in rows))


@tool(
    "jsonmerge", "Merge two JSON array files of the same row type into one new file.", needs=("one_file",), answers=True
)
def jsonmerge(args: MergeArgs, ctx: ToolContext) -> Said:
    if args.file_name_1 == args.file_name_2:
        raise ToolError("both arguments name the same file; merge two different files")
    first = ctx.files.read_json(args.file_name_1)
    second = ctx.files.read_json(args.file_name_2)
    for name, data in ((args.file_name_1, first), (args.file_name_2, second)):
        if not isinstance(data, list):
            raise ToolError(f"{name} is not a JSON array, so it cannot be merged")
    keys1, keys2 = _row_keys(first, args.file_name_1), _row_keys(second, args.file_name_2)
    if keys1 and keys2 and keys1 != keys2:
        raise ToolError(
            f"the rows differ: {args.file_name_1} has {sorted(keys1)}, {args.file_name_2} has {sorted(keys2)}"
        )
    merged = first + second
    history = all(isinstance(r, dict) and {"timestamp", "asset_name", "sensor_name"} <= set(r) for r in merged)
    name = saved_as(ctx, merged, series_stem("merged", merged)) if history else ctx.files.write_json(merged, "merged")
    return Said(
        f"merged {len(first)} + {len(second)} rows into {name} ({len(merged)} rows)",
        answer=f"the {len(merged)} rows of {args.file_name_1} and {args.file_name_2} are saved in one file, {name}",
    )
