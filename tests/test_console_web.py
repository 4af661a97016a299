"""The console against bad input and the wrong people (issue 23, item 4), with a real Mosquitto and the daemon's
script runner: no session → login page / 401; a viewer cannot ask; a POST without the CSRF token → 403; wrong
passwords → rate limited; a question holding HTML is shown as text; a download path out of the file store → 404;
a very long question → the daemon's own question_too_long error. And the happy path over HTTP: ask, follow the
events, see the answer, its plot and its files."""

from __future__ import annotations

import hashlib
import json
import os
import time

import pytest

from edge_agent.config import load_settings
from edge_agent.console.users import UserStore
from tests.plugins.console import PASSWORD, Browser, ConsoleThread, console_overrides, login

pytestmark = pytest.mark.broker


def _wait_final(b: Browser, rid: str, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = b.get(f"/api/requests/{rid}").json()
        if state["final"]:
            return state
        time.sleep(0.1)
    raise AssertionError(f"no final reply for {rid}")


def _ask(b: Browser, question: str, **options) -> dict:
    r = b.post("/ask", json_body={"question": question, **options}, headers={"X-CSRF-Token": b.csrf})
    assert r.status_code == 200, r.text
    return r.json()


def test_no_session_gets_the_login_page_or_401(console_stack):
    b = Browser(console_stack.url)
    r = b.get("/", follow=False)
    assert r.status_code == 303 and r.headers["Location"] == "/login"
    assert 'id="login-form"' in b.get("/").text
    for path in ("/api/requests/abc", "/api/requests/abc/events", "/files/abc/x.json"):
        assert b.get(path).status_code == 401, path
    assert b.post("/ask", json_body={"question": "x"}).status_code in (401, 403)


def test_the_session_cookie_is_httponly_and_samesite_strict(console_stack):
    _, r = login(console_stack.url, "otto")
    assert r.status_code == 303
    cookie = r.headers["Set-Cookie"]
    assert "ea_session=" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_a_viewer_cannot_ask_or_cancel_and_only_an_admin_sees_users(console_stack):
    viewer, _ = login(console_stack.url, "vera")
    assert viewer.csrf and 'id="ask-form"' not in viewer.get("/").text
    r = viewer.post("/ask", json_body={"question": "how many chillers?"}, headers={"X-CSRF-Token": viewer.csrf})
    assert r.status_code == 403 and "operator" in r.text
    assert viewer.get("/users").status_code == 403
    operator, _ = login(console_stack.url, "otto")
    assert operator.get("/users").status_code == 403
    admin, _ = login(console_stack.url, "ada")
    assert "vera" in admin.get("/users").text


def test_a_post_without_the_csrf_token_is_refused(console_stack):
    b, _ = login(console_stack.url, "otto")
    assert b.post("/ask", json_body={"question": "how many chillers?"}).status_code == 403
    assert b.post("/ask", data={"question": "how many chillers?"}).status_code == 403
    r = b.post("/ask", data={"question": "how many chillers?", "csrf": "forged"})
    assert r.status_code == 403 and "CSRF" in r.text
    assert b.post("/logout", data={}).status_code == 403
    # the login form has its own token too
    fresh = Browser(console_stack.url)
    fresh.get("/login")
    assert fresh.post("/login", data={"username": "otto", "password": PASSWORD}).status_code == 403


def test_ten_wrong_passwords_are_rate_limited(console_stack):
    codes = [login(console_stack.url, "otto", "wrong password")[1].status_code for _ in range(10)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}
    b, r = login(console_stack.url, "otto")  # even the right password, while the delay lasts
    assert r.status_code == 429 and "Too many failed logins" in r.text and b.csrf is None
    assert r.headers["Retry-After"]
    # counted per user at an address: a colleague at the same address is not delayed (tests/test_console_login.py)
    assert login(console_stack.url, "vera")[1].status_code == 303


def test_a_question_holding_html_is_shown_as_text(console_stack):
    b, _ = login(console_stack.url, "otto")
    evil = "<script>alert(1)</script><img src=x onerror=alert(2)> chillers [steps=1 delay=0]"
    rid = _ask(b, evil)["request_id"]
    page = b.get(f"/requests/{rid}").text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=x" not in page
    state = _wait_final(b, rid)
    run_id = state["final"]["run_id"]
    home = b.get("/").text
    assert "<script>alert(1)" not in home
    assert "script-src 'self'" in b.get("/").headers["Content-Security-Policy"]
    assert run_id


def test_download_paths_out_of_the_file_store_are_404(console_stack, tmp_path):
    b, _ = login(console_stack.url, "vera")
    files = console_stack.settings.files_dir
    (files / "run1").mkdir(parents=True)
    (files / "run1" / "ok.json").write_text("[]")
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    os.symlink(secret, files / "run1" / "link.json")
    os.link(secret, files / "run1" / "hard.json")
    os.symlink(tmp_path, files / "linkdir")
    assert b.get("/files/run1/ok.json").content == b"[]"
    for path in (
        "/files/run1/../../secret.txt",
        "/files/run1/..%2F..%2Fsecret.txt",
        "/files/..%2F..%2F/secret.txt",
        "/files/run1/%2Fetc%2Fpasswd",
        "//etc/passwd",
        "/files/run1//etc/passwd",
        "/files/run1/link.json",
        "/files/run1/hard.json",
        "/files/linkdir/secret.txt",
        "/files/run1/.hidden",
        "/files/run1/missing.json",
    ):
        r = b.get(path)
        assert r.status_code == 404, (path, r.status_code)
        assert b"top secret" not in r.content


def test_a_very_long_question_gets_the_same_error_as_over_mqtt(console_stack):
    b, _ = login(console_stack.url, "otto")
    limit = console_stack.settings.mqtt.max_question_chars
    out = _ask(b, "x" * (limit + 1))
    first = out["first"]
    assert first["kind"] == "error" and first["code"] == "question_too_long"
    assert first["message"] == f"the question has {limit + 1} characters; the limit is {limit}"
    assert _wait_final(b, out["request_id"])["final"]["code"] == "question_too_long"
    # it reaches the history under the person who asked (the console's own record: the daemon queued nothing)
    home = b.get("/").text
    assert 'id="refused"' in home and f'href="/requests/{out["request_id"]}"' in home
    assert '<td data-label="Who">otto</td>' in home and "question_too_long" in home
    # its page, once it has left the console's memory: the refusal above the question, the question folded
    console_stack.bridge.sweep(now=time.time() + 100_000)  # ended now ...
    console_stack.bridge.sweep(now=time.time() + 200_000)  # ... and long ago
    assert out["request_id"] not in console_stack.bridge.asked
    page = b.get(f"/requests/{out['request_id']}").text
    assert 0 < page.index('id="refusal"') < page.index('id="ended-question-fold"')
    assert f"the question has {limit + 1} characters" in page and f"({limit + 1} characters: show all)" in page
    assert "asked by otto" in page


def test_a_refused_question_is_the_persons_in_the_daemons_audit(console_stack):
    """Issue 41 d: the daemon's audit row of a request it refuses before queuing names the console's person
    (`console:alice`, as its accepted requests do), not the console's broker user."""
    import sqlite3

    from edge_agent.fleet import audit

    UserStore(console_stack.settings.state_dir / console_stack.settings.console.users_file).add(
        "alice", PASSWORD, "operator"
    )
    b, _ = login(console_stack.url, "alice")
    limit = console_stack.settings.mqtt.max_question_chars
    out = _ask(b, "y" * (limit + 7))
    assert out["first"]["code"] == "question_too_long"
    conn = sqlite3.connect(console_stack.settings.state_dir / "queue.db")
    try:
        rows = list(audit.query(conn, who="alice"))
    finally:
        conn.close()
    assert [(r["event"], r["who"], r["on_behalf_of"], r["outcome"]) for r in rows] == [
        ("request", "console:alice", "alice", "refused: question_too_long")
    ]
    assert rows[0]["request_id"] == out["request_id"]
    assert rows[0]["detail"] == f"via edge-agent-console: the question has {limit + 7} characters; the limit is {limit}"
    # the history keeps it under her too
    assert '<td data-label="Who">alice</td>' in b.get("/").text


def test_an_unknown_strategy_is_refused_naming_the_known_ones(console_stack):
    b, _ = login(console_stack.url, "otto")
    before = console_stack.daemon.jobs.counts()
    r = b.post("/ask", json_body={"question": "how many chillers", "strategy": "tot"}, headers={"X-CSRF-Token": b.csrf})
    assert r.status_code == 400
    assert r.text == "strategy must be one of react, react-review, reactxen, not 'tot'"
    assert console_stack.daemon.jobs.counts() == before  # nothing was sent to the daemon


def test_ask_follow_events_answer_plot_and_files_over_http(console_stack):
    b, _ = login(console_stack.url, "otto")
    out = _ask(b, "supply temp of chiller 3 [steps=2 delay=0.05 history=48]", strategy="react", max_steps="3")
    rid = out["request_id"]
    events = b.get(f"/api/requests/{rid}/events").text  # the stream ends after the final reply
    kinds = [json.loads(line[6:])["kind"] for line in events.splitlines() if line.startswith('data: {"')]
    assert kinds[0] == "accepted" and kinds.count("progress") >= 2 and kinds[-1] == "result"
    final = _wait_final(b, rid)["final"]
    assert final["status"] == "answered"
    job = console_stack.daemon.jobs.get("edge-agent-console", rid)
    assert job.on_behalf_of == "otto" and job.options["strategy"] == "react" and job.options["max_steps"] == 3
    for f in final["files"]:
        data = b.get(f"/files/{final['run_id']}/{f['name']}").content
        assert hashlib.sha256(data).hexdigest() == f["sha256"]
    svg = next(f for f in final["files"] if f["name"].endswith(".svg"))
    r = b.get(f"/files/{final['run_id']}/{svg['name']}?inline=1")
    assert r.headers["Content-Type"].startswith("image/svg+xml") and "sandbox" in r.headers["Content-Security-Policy"]


def test_users_commands_and_admin_page(console_stack, tmp_path):
    admin, _ = login(console_stack.url, "ada")
    r = admin.post(
        "/users",
        data={"action": "add", "username": "neo", "password": "12345678x", "role": "operator", "csrf": admin.csrf},
    )
    assert "neo" in r.text
    assert login(console_stack.url, "neo", "12345678x")[1].status_code == 303
    admin.post("/users", data={"action": "remove", "username": "neo", "csrf": admin.csrf})
    assert login(console_stack.url, "neo", "12345678x")[1].status_code == 401


def test_an_operator_answers_the_agents_question_and_cancels_a_run(console_stack):
    b, _ = login(console_stack.url, "otto")
    rid = _ask(b, "count chillers [steps=2 delay=0 ask=1]", ask="1")["request_id"]
    deadline = time.monotonic() + 15
    while not any(r["kind"] == "question" for r in b.get(f"/api/requests/{rid}").json()["replies"]):
        assert time.monotonic() < deadline, "the agent's question did not arrive"
        time.sleep(0.1)
    assert b.post(f"/api/requests/{rid}/answer", json_body={"answer": "POKMAIN"}).status_code == 403  # no token
    r = b.post(f"/api/requests/{rid}/answer", json_body={"answer": "POKMAIN"}, headers={"X-CSRF-Token": b.csrf})
    assert r.status_code == 200
    assert "(requester said: POKMAIN)" in _wait_final(b, rid)["final"]["answer"]
    rid = _ask(b, "a long one [steps=50 delay=0.2]")["request_id"]
    viewer, _ = login(console_stack.url, "vera")
    assert (
        viewer.post(f"/api/requests/{rid}/cancel", json_body={}, headers={"X-CSRF-Token": viewer.csrf}).status_code
        == 403
    )
    assert b.post(f"/api/requests/{rid}/cancel", json_body={}, headers={"X-CSRF-Token": b.csrf}).status_code == 200
    assert _wait_final(b, rid)["final"]["kind"] == "cancelled"


def test_a_message_the_broker_refuses_is_a_clear_error_not_a_request_to_follow(secured_broker, tmp_path):
    """The console's broker user may not publish requests (here Home Assistant's, which the shipped ACL denies
    them): the refusing PUBACK (`RequestError`) is a 502 naming it, and the console follows nothing."""
    broker = secured_broker(["homeassistant"])
    settings = load_settings(
        overrides=console_overrides(
            tmp_path / "state", broker, mqtt_username="homeassistant", mqtt_password="homeassistant-pw"
        ),
        environ={},
    )
    UserStore(settings.state_dir / settings.console.users_file).add("otto", PASSWORD, "operator")
    console = ConsoleThread(settings).start()
    try:
        b, _ = login(console.url, "otto")
        r = b.post("/ask", json_body={"question": "how many chillers?"}, headers={"X-CSRF-Token": b.csrf})
        assert r.status_code == 502 and "refused" in r.text and "Not authorized" in r.text, (r.status_code, r.text)
        assert console.bridge.asked == {}
    finally:
        console.stop()
