"""Clock tool: `currentdatetime` tells the agent what "now" is (fixed by `--now` for reproducible runs)."""

from edge_agent.toolkit import NoArgs, ToolContext, tool


@tool("currentdatetime", "Return the current date and time as ISO 8601 and in words.", provides=("clock",))
def currentdatetime(args: NoArgs, ctx: ToolContext) -> str:
    now = ctx.clock.now()
    words = now.strftime("%A %d %B %Y, %H:%M:%S")
    return f"current datetime is {now.isoformat()} ({words}, UTC offset {now.strftime('%z')})"
