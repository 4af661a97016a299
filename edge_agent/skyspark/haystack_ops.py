"""The Haystack ops the simulator answers, over its dataset: `about`, `ops`, `formats`, `close`, `read` (a filter or
ids), `hisRead` (one point, or several merged on their instants) and `eval` (the Axon subset of `axon`).

Each op takes the server (`Host`: its dataset, clock and logins), the request grid and the caller's auth token, and
returns the response grid; a bad request raises `OpError`, which the server answers as an error grid
(`error_grid`: HTTP 200, the `err` marker, `dis`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from phable.kinds import Grid, GridCol, Marker, Number, Ref

from edge_agent import __version__
from edge_agent.skyspark import filters
from edge_agent.skyspark.axon import OpError, axon_range, parse_axon, parse_range
from edge_agent.skyspark.dataset import Dataset
from edge_agent.skyspark.encoding import make_grid, zone
from edge_agent.skyspark.scram_login import Logins

OPS = ("about", "close", "eval", "formats", "hisRead", "ops", "read")


class Host(Protocol):
    """What an op reads of the server that answers it."""

    dataset: Dataset
    boot: datetime
    logins: Logins
    server_address: Any

    def now(self) -> datetime: ...


def error_grid(msg: str, trace: str = "") -> Grid:
    return Grid(meta={"ver": "3.0", "err": Marker(), "dis": msg, "errTrace": trace or msg}, cols=[], rows=[])


def about(host: Host, req: Grid, token: str) -> Grid:
    return make_grid(
        [
            {
                "haystackVersion": "4.0",
                "serverName": host.server_address[0],
                "serverTime": host.now(),
                "serverBootTime": host.boot,
                "productName": "SkySpark",
                "productUri": "https://skyfoundry.com/",
                "productVersion": "3.1.10",
                "vendorName": "edge-agent simulator",
                "vendorUri": "https://example.invalid/",
                "moduleName": "edge_agent.skyspark.simulator",
                "moduleVersion": __version__,
                "tz": "UTC",
                "whoami": host.logins.user_for(token) or "",
            }
        ]
    )


def ops(host: Host, req: Grid, token: str) -> Grid:
    return make_grid([{"name": op, "summary": op} for op in OPS])


def formats(host: Host, req: Grid, token: str) -> Grid:
    return make_grid(
        [
            {"mime": "text/zinc", "receive": Marker(), "send": Marker()},
            {"mime": "application/json", "receive": Marker(), "send": Marker()},
        ]
    )


def close(host: Host, req: Grid, token: str) -> Grid:
    host.logins.drop_token(token)
    return make_grid([])


def read(host: Host, req: Grid, token: str) -> Grid:
    if not req.rows:
        raise OpError("read needs a filter or ids", "ArgErr")
    row0 = req.rows[0]
    if "filter" in row0:
        limit = row0.get("limit")
        return read_filter(host.dataset, row0["filter"], int(limit.val) if isinstance(limit, Number) else None)
    if "id" in row0:
        recs = []
        for row in req.rows:
            ref = row.get("id")
            rec = host.dataset.rec(ref.val) if isinstance(ref, Ref) else None
            recs.append(rec or {})
        return make_grid(recs)
    raise OpError("read needs a filter or ids", "ArgErr")


def read_filter(ds: Dataset, text: Any, limit: int | None) -> Grid:
    """The records a Haystack filter matches, at most `limit` of them."""
    if not isinstance(text, str):
        raise OpError("filter must be a string", "ArgErr")
    node = filters.parse(text)
    out = []
    for rec in ds.records:
        if filters.matches(node, rec, ds.rec):
            out.append(rec)
            if limit is not None and len(out) >= limit:
                break
    return make_grid(out)


def his_read(host: Host, req: Grid, token: str) -> Grid:
    if not req.rows:
        raise OpError("hisRead needs an id and a range", "ArgErr")
    ids = [row.get("id") for row in req.rows]
    rng = req.rows[0].get("range", req.meta.get("range"))
    if not isinstance(rng, str):
        raise OpError("hisRead needs a range string", "ArgErr")
    for ref in ids:
        if not isinstance(ref, Ref):
            raise OpError("hisRead needs id refs", "ArgErr")
    refs = [ref.val for ref in ids if isinstance(ref, Ref)]  # all of them (checked above)
    return histories(host.dataset, refs, lambda tz: parse_range(rng, tz, host.now()))


def histories(ds: Dataset, ids: list[str], span: Callable[[Any], tuple[datetime, datetime]]) -> Grid:
    """The history grid of points `ids` over `span` (worked out in the first point's time zone): `ts`/`val` for
    one point, one `v{i}` column a point merged on their instants for several."""
    recs = []
    for pid in ids:
        rec = ds.rec(pid)
        if rec is None:
            raise OpError(f"@{pid}", "UnknownRecErr")
        if "his" not in rec:
            raise OpError(f"@{pid} is not a historized point", "HisErr")
        recs.append(rec)
    tz = zone(recs[0].get("tz", "UTC"))
    start, end = span(tz)
    if len(recs) == 1:
        rec = recs[0]
        unit = rec.get("unit")
        rows = [{"ts": ts, "val": _his_val(v, unit)} for ts, v in ds.his(ids[0], start, end)]
        return Grid(
            meta={"ver": "3.0", "id": rec["id"], "hisStart": start, "hisEnd": end},
            cols=[GridCol("ts"), GridCol("val")],
            rows=rows,
        )
    merged: dict[float, dict] = {}  # keyed by instant (DST: one ZoneInfo compares by wall clock)
    for i, (pid, rec) in enumerate(zip(ids, recs)):
        for ts, v in ds.his(pid, start, end):
            merged.setdefault(ts.timestamp(), {"ts": ts})[f"v{i}"] = _his_val(v, rec.get("unit"))
    cols = [GridCol("ts")] + [GridCol(f"v{i}", {"id": rec["id"]}) for i, rec in enumerate(recs)]
    return Grid(
        meta={"ver": "3.0", "hisStart": start, "hisEnd": end}, cols=cols, rows=[merged[k] for k in sorted(merged)]
    )


def eval_axon(host: Host, req: Grid, token: str) -> Grid:
    if not req.rows or not isinstance(req.rows[0].get("expr"), str):
        raise OpError("eval needs an expr string", "ArgErr")
    call = parse_axon(req.rows[0]["expr"])
    if call.his_range is None:
        grid = read_filter(host.dataset, call.filter, 1 if call.func == "read" else None)
        if call.func == "read" and not grid.rows:
            raise OpError(call.filter, "UnknownRecErr")
        return grid
    recs = read_filter(host.dataset, call.filter, 1 if call.func == "read" else None).rows
    if not recs:
        raise OpError(call.filter, "UnknownRecErr")
    now = host.now()
    his_range = call.his_range
    return histories(host.dataset, [r["id"].val for r in recs], lambda tz: axon_range(his_range, tz, now))


def _his_val(v: Any, unit: str | None) -> Any:
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    return Number(float(v), unit)


#: op name → its answer
ANSWERS: dict[str, Callable[[Host, Grid, str], Grid]] = {
    "about": about,
    "close": close,
    "eval": eval_axon,
    "formats": formats,
    "hisRead": his_read,
    "ops": ops,
    "read": read,
}
