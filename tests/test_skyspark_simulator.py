"""The simulator on the wire: SCRAM headers as SkySpark sends them, ops, ranges, encodings, datasets, CLI."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import urllib.request
from datetime import UTC, datetime, timedelta
from urllib.error import HTTPError
from zoneinfo import ZoneInfo

import pytest
from phable import Ref
from phable.io.ph_json import ph_from_json
from phable.io.ph_zinc import ph_from_zinc

from edge_agent import PROJECT_ROOT
from edge_agent.skyspark.axon import OpError, axon_range, parse_axon, parse_range
from edge_agent.skyspark.client import SkySparkClient
from edge_agent.skyspark.dataset import find_point, plant
from edge_agent.skyspark.filedataset import FileDataset

NY = ZoneInfo("America/New_York")


def http(url, headers=None, data=None, method="GET"):
    req = urllib.request.Request(url, headers=headers or {}, data=data, method=method)
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, resp.headers, resp.read().decode()
    except HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


@pytest.fixture
def token(simulator):
    c = SkySparkClient(simulator.url, simulator.project, simulator.username, simulator.password)
    return c._login()


def api(sim, op):
    return f"{sim.url}/api/{sim.project}/{op}"


def test_scram_headers_are_skyspark_shaped(simulator):
    user = base64.b64encode(simulator.username.encode()).decode().rstrip("=")
    status, headers, _ = http(api(simulator, "about"), {"Authorization": f"HELLO username={user}"})
    assert status == 401
    www = headers["WWW-Authenticate"]
    assert re.fullmatch(r"SCRAM handshakeToken=[A-Za-z0-9+/=]+, hash=SHA-256", www)
    # Many logins: every base64 field uses the standard alphabet without '-' or '_' (phable relies on it).
    from phable.auth.scram import ScramScheme

    seen = []
    for _ in range(15):
        scheme = ScramScheme(api(simulator, "")[:-1], simulator.username, simulator.password, "text/zinc")
        scheme.get_auth_token()
        seen.append(scheme._salt)
    assert all("-" not in s and "_" not in s for s in seen)


def test_scram_final_header_and_bad_proof(simulator):
    from phable.auth.scram import AuthError, ScramScheme

    scheme = ScramScheme(
        f"{simulator.url}/api/{simulator.project}", simulator.username, simulator.password, "application/json"
    )
    token = scheme.get_auth_token()
    assert token.startswith("web-")
    bad = ScramScheme(f"{simulator.url}/api/{simulator.project}", simulator.username, "nope", "application/json")
    with pytest.raises(AuthError):
        bad.get_auth_token()


def test_requests_without_a_valid_token_get_401(simulator):
    status, headers, _ = http(api(simulator, "read") + "?filter=site")
    assert status == 401 and "SCRAM" in headers["WWW-Authenticate"]
    status, _, _ = http(api(simulator, "read") + "?filter=site", {"Authorization": "BEARER authToken=web-forged"})
    assert status == 401


def test_get_read_in_zinc_and_json(simulator, token):
    auth = {"Authorization": f"BEARER authToken={token}"}
    status, headers, body = http(api(simulator, "read") + "?filter=site&limit=2", {**auth, "Accept": "text/zinc"})
    assert status == 200 and headers["Content-Type"].startswith("text/zinc")
    grid = ph_from_zinc(body)
    assert len(grid.rows) == 2 and all("site" in r for r in grid.rows)
    status, headers, body = http(api(simulator, "read") + "?filter=site", {**auth, "Accept": "application/json"})
    obj = json.loads(body)
    assert obj["_kind"] == "grid" and obj["meta"]["ver"] == "3.0"
    assert {r["dis"] for r in obj["rows"]} >= {"POKMAIN", "RCHMAIN"}
    assert obj["rows"][0]["id"]["_kind"] == "ref"


def test_error_grids(simulator, token):
    auth = {"Authorization": f"BEARER authToken={token}", "Accept": "application/json"}
    status, _, body = http(api(simulator, "read") + "?filter=equip%20and%20(", auth)
    grid = ph_from_json(body)
    assert status == 200 and "err" in grid.meta and "bad filter" in grid.meta["dis"]
    status, _, body = http(api(simulator, "hisRead") + "?id=@nope&range=today", auth)
    assert "UnknownRecErr" in ph_from_json(body).meta["dis"]
    status, _, body = http(api(simulator, "hisRead") + "?id=@x&range=someday", auth)
    assert "err" in ph_from_json(body).meta
    status, _, _ = http(api(simulator, "nosuchop"), auth)
    assert status == 404


def test_read_by_ids_returns_empty_rows_for_unknown(simulator, token):
    from phable import UnknownRecError

    from edge_agent.skyspark.transport import HaystackSession

    s = HaystackSession(f"{simulator.url}/api/{simulator.project}", token, "zinc", 5, lambda: token)
    pid = find_point("POKMAIN", "Chiller 6", "Tonnage")
    assert s.read_by_id(Ref(pid))["dis"] == "Chiller 6 Tonnage"
    with pytest.raises(UnknownRecError):
        s.read_by_ids([Ref(pid), Ref("nope-nope")])


def test_batch_his_read(simulator, token):
    from phable import DateTimeRange

    from edge_agent.skyspark.transport import HaystackSession

    s = HaystackSession(f"{simulator.url}/api/{simulator.project}", token, "json", 5, lambda: token)
    ids = [Ref(find_point("POKMAIN", n, "Tonnage")) for n in ("Chiller 6", "Chiller 9")]
    grid = s.his_read_by_ids(
        ids, DateTimeRange(datetime(2024, 7, 15, 12, tzinfo=NY), datetime(2024, 7, 15, 13, tzinfo=NY))
    )
    assert [c.name for c in grid.cols] == ["ts", "v0", "v1"] and len(grid.rows) == 4
    assert grid.cols[1].meta["id"].val == ids[0].val
    p = plant()
    assert grid.rows[0]["v1"].val == p.value(ids[1].val, datetime(2024, 7, 15, 12, tzinfo=NY))


NOW = datetime(2024, 7, 15, 10, 30, tzinfo=NY)


@pytest.mark.parametrize(
    "text,start,end",
    [
        ("today", datetime(2024, 7, 15, tzinfo=NY), datetime(2024, 7, 16, tzinfo=NY)),
        ("yesterday", datetime(2024, 7, 14, tzinfo=NY), datetime(2024, 7, 15, tzinfo=NY)),
        ("2024-03-10", datetime(2024, 3, 10, tzinfo=NY), datetime(2024, 3, 11, tzinfo=NY)),
        ("2024-01-01,2024-01-07", datetime(2024, 1, 1, tzinfo=NY), datetime(2024, 1, 8, tzinfo=NY)),
        (
            "2024-07-01T08:00:00-04:00 New_York,2024-07-01T09:30:00-04:00 New_York",
            datetime(2024, 7, 1, 8, tzinfo=NY),
            datetime(2024, 7, 1, 9, 30, tzinfo=NY),
        ),
        (
            "2024-07-01T12:00:00Z UTC,2024-07-01T13:00:00Z",
            datetime(2024, 7, 1, 8, tzinfo=NY),
            datetime(2024, 7, 1, 9, tzinfo=NY),
        ),
    ],
)
def test_range_grammar(text, start, end):
    assert parse_range(text, NY, NOW) == (start, end)


def test_bad_ranges():
    for text in ("", "tomorrow", "2024-07-02,2024-07-01", "2024-13-01"):
        with pytest.raises(OpError):
            parse_range(text, NY, NOW)


def test_dst_days_have_92_and_100_slots(simulator):
    from phable import Grid

    c = SkySparkClient(simulator.url, simulator.project, simulator.username, simulator.password)
    pid = find_point("POKMAIN", "B020_Total", "Power")
    p = plant()
    for day, slots in (("2024-03-10", 92), ("2024-11-03", 100)):
        grid = c._run("hisRead", lambda s, day=day: s.call("hisRead", Grid.to_grid({"id": Ref(pid), "range": day})))
        start = datetime.fromisoformat(day).replace(tzinfo=NY)
        expected = p.his(pid, start, start + timedelta(days=1))  # wall-clock: the next local midnight
        assert [(r["ts"], r["val"].val) for r in grid.rows] == expected
        assert slots - 16 <= len(grid.rows) <= slots  # at most one 4-hour gap on a day


def test_eval_parsing():
    call = parse_axon('read(point and dis=="a(b)\\"c" and equipRef->siteRef->dis=="X").hisRead(2024-07-01..2024-07-02)')
    assert call.func == "read" and call.filter.endswith('dis=="X"') and call.his_range == "2024-07-01..2024-07-02"
    assert axon_range(call.his_range, NY, NOW) == (datetime(2024, 7, 1, tzinfo=NY), datetime(2024, 7, 3, tzinfo=NY))
    assert axon_range('"2024-07-01,2024-07-01"', NY, NOW)[1] == datetime(2024, 7, 2, tzinfo=NY)
    for bad in ("readAll(site).map(x=>x)", "commit(diff(null,{}))", "readAll(site"):
        with pytest.raises(OpError):
            parse_axon(bad)


def test_token_is_closed(simulator):
    c = SkySparkClient(simulator.url, simulator.project, simulator.username, simulator.password)
    c.sites()
    token = c._session._auth_token
    c.close()
    status, _, _ = http(api(simulator, "read") + "?filter=site", {"Authorization": f"BEARER authToken={token}"})
    assert status == 401


# ── an operator's own dataset ─────────────────────────────────────────────────

ZINC_RECORDS = """ver:"3.0"
id,dis,site,equip,point,his,siteRef,equipRef,navName,kind,unit,tz,chiller
@s-1 "Plant A",\"Plant A\",M,,,,,,,,,\"Chicago\",
@e-1,\"CH-1\",,M,,,@s-1,,,,,,M
@p-1,\"CH-1 Tonnage\",,,M,M,@s-1,@e-1,\"Tonnage\",\"Number\",\"tonref\",\"Chicago\",
@p-2,\"CH-1 Run\",,,M,M,@s-1,@e-1,\"Run\",\"Bool\",,\"Chicago\",
"""
CSV_HISTORY = """id,ts,val
@p-1,2024-05-01T00:00:00-05:00,100.5
@p-1,2024-05-01T00:15:00,101.25tonref
@p-1,2024-05-01T00:30:00-05:00,99
@p-2,2024-05-01T00:00:00-05:00,true
"""


def test_file_dataset_zinc_and_json(tmp_path, start_simulator):
    from edge_agent.skyspark.haystack_json import grid_to_json
    from edge_agent.skyspark.zinc_reader import zinc_to_grid

    zinc = tmp_path / "plant.zinc"
    zinc.write_text(ZINC_RECORDS)
    (tmp_path / "plant.csv").write_text(CSV_HISTORY)
    js = tmp_path / "plant.json"
    js.write_text(grid_to_json(zinc_to_grid(ZINC_RECORDS)))
    for records, csv in ((zinc, None), (js, tmp_path / "plant.csv")):
        ds = FileDataset.load(records, csv)
        sim = start_simulator(dataset=ds)
        c = SkySparkClient(sim.url, sim.project, sim.username, sim.password)
        assert [s.name for s in c.sites()] == ["Plant A"] and c.sites()[0].tz == "America/Chicago"
        rows = c.history(
            "Plant A",
            ["CH-1"],
            "Tonnage",
            datetime(2024, 5, 1, tzinfo=ZoneInfo("America/Chicago")),
            datetime(2024, 5, 2, tzinfo=ZoneInfo("America/Chicago")),
        )
        assert [(r.timestamp, r.value, r.unit) for r in rows] == [
            ("2024-05-01T00:00:00-05:00", 100.5, "tonref"),
            ("2024-05-01T00:15:00-05:00", 101.25, "tonref"),
            ("2024-05-01T00:30:00-05:00", 99.0, "tonref"),
        ]
        run = c.history("Plant A", ["CH-1"], "CH-1 Run", datetime(2024, 5, 1, 0, 5, tzinfo=ZoneInfo("America/Chicago")))
        assert run[0].value is True


def test_file_dataset_errors_name_the_line(tmp_path):
    from edge_agent.skyspark.encoding import EncodingError

    zinc = tmp_path / "p.zinc"
    zinc.write_text(ZINC_RECORDS)
    bad = tmp_path / "bad.csv"
    bad.write_text("id,ts,val\n@p-1,2024-05-01T00:00:00,1\n@p-9,2024-05-01T00:00:00,2\n")
    with pytest.raises(EncodingError, match=r"bad.csv:3: .*unknown point id @p-9"):
        FileDataset.load(zinc, bad)


def test_simulate_command_serves_until_stopped(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "EDGE_AGENT_SKYSPARK__PASSWORD": "cli-pass"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "edge_agent", "simulate", "--port", str(port), "--project", "p1"],
        cwd=PROJECT_ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        assert f"http://127.0.0.1:{port}/api/p1/" in line
        c = SkySparkClient(f"http://127.0.0.1:{port}", "p1", "operator", "cli-pass")
        assert "POKMAIN" in [s.name for s in c.sites()]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_simulate_command_refuses_without_password():
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")}
    out = subprocess.run(
        [sys.executable, "-m", "edge_agent", "simulate", "--port", "0"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "needs a password" in out.stderr


def test_the_hour_a_dst_change_repeats_is_served_and_computed_in_instant_order(tmp_path, start_simulator):
    """Chicago's clocks go back on 3 Nov 2024: 01:00–02:00 happens twice (-05:00, then -06:00). One ZoneInfo compares
    by wall clock, so a sort by datetime would interleave the two hours and break every integral over the day."""
    from edge_agent import analysis as an
    from edge_agent.evaluation.conclusions import clean

    chicago = ZoneInfo("America/Chicago")
    start = datetime(2024, 11, 3, tzinfo=chicago)
    lines = ["id,ts,val"]
    at, value = start, 0.0
    while at < datetime(2024, 11, 4, tzinfo=chicago):
        lines.append(f"@p-1,{at.isoformat()},{value}")
        at, value = (at.astimezone(UTC) + timedelta(minutes=15)).astimezone(chicago), value + 1.0
    (tmp_path / "plant.zinc").write_text(ZINC_RECORDS)
    (tmp_path / "plant.csv").write_text("\n".join(lines[:1] + lines[:0:-1]) + "\n")  # written backwards
    ds = FileDataset.load(tmp_path / "plant.zinc")
    sim = start_simulator(dataset=ds)
    c = SkySparkClient(sim.url, sim.project, sim.username, sim.password)
    rows = c.history("Plant A", ["CH-1"], "Tonnage", start, datetime(2024, 11, 4, tzinfo=chicago))
    assert len(rows) == 100  # a 25-hour day
    values = [r.value for r in rows]
    assert values == sorted(values)  # in instant order: the value rises by one every 15 minutes
    stamps = [datetime.fromisoformat(r.timestamp) for r in rows]
    points = an.series(stamps_and := list(zip(stamps, values)))
    assert [p.value for p in points] == values
    assert [v for _, v in clean(stamps_and)] == values
    # power rising 1 kW per 15 min for 25 h: the trapezoid over 99 intervals of 0.25 h
    assert an.energy_kwh(points, "kW").kwh == pytest.approx(sum((v + v + 1) / 2 * 0.25 for v in values[:-1]))
