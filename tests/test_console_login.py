"""The console's failed-login delay as colleagues meet it (issue 41, 6): one person's typos delay that person at
that address, not colleagues at the same address (a control room's shared PC, a proxy); an address trying many
names is delayed as a whole past a much higher limit; behind a reverse proxy the client's address is read from
X-Forwarded-For only when the connection comes from a proxy listed in `console.trusted_proxies`."""

from __future__ import annotations

import http.client
import re
import time
import urllib.parse

import pytest

from edge_agent.console.client_address import client_address, networks
from edge_agent.console.security import LoginLimiter
from tests.plugins.console import PASSWORD


def _login(url: str, user: str, password: str, source: str = "127.0.0.1", forwarded: str | None = None) -> int:
    """A login posted from a loopback source address (127.0.0.x), optionally with X-Forwarded-For."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(source, 0))
    extra = {"X-Forwarded-For": forwarded} if forwarded else {}
    try:
        conn.request("GET", "/login", headers=extra)
        r = conn.getresponse()
        body = r.read().decode()
        cookie = r.getheader("Set-Cookie").split(";")[0]
        token = re.search(r'name="csrf" value="([^"]+)"', body).group(1)
        conn.request(
            "POST",
            "/login",
            urllib.parse.urlencode({"username": user, "password": password, "csrf": token}),
            {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, **extra},
        )
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def test_a_colleagues_typos_do_not_delay_others_at_the_same_address(console_env):
    env = console_env(login_failures=3, login_address_failures=7, login_delay_s=5.0, login_max_delay_s=10.0)
    codes = [_login(env.url, "otto", "wrong password", "127.0.0.2") for _ in range(4)]
    assert codes == [401, 401, 401, 429]  # otto waits at his address ...
    assert _login(env.url, "otto", PASSWORD, "127.0.0.2") == 429  # ... even with the right password
    assert _login(env.url, "ada", PASSWORD, "127.0.0.2") == 303  # the admin at the same address does not
    assert _login(env.url, "vera", PASSWORD, "127.0.0.2") == 303
    # many names tried from one address: past login_address_failures everyone there waits
    for name in ("a1", "a2", "a3", "a4"):
        _login(env.url, name, "wrong password", "127.0.0.2")
    assert _login(env.url, "vera", PASSWORD, "127.0.0.2") == 429
    assert _login(env.url, "vera", PASSWORD, "127.0.0.1") == 303  # never a lock from elsewhere


def test_x_forwarded_for_counts_only_from_a_trusted_proxy(console_env):
    env = console_env(login_failures=2, login_delay_s=5.0, login_max_delay_s=10.0, trusted_proxies=["127.0.0.3"])
    # through the proxy (127.0.0.3): each client behind it is counted by its own address
    codes = [_login(env.url, "otto", "wrong password", "127.0.0.3", "10.1.1.1") for _ in range(3)]
    assert codes == [401, 401, 429]
    assert _login(env.url, "otto", PASSWORD, "127.0.0.3", "10.1.1.2") == 303  # otto from another PC
    assert _login(env.url, "otto", PASSWORD, "127.0.0.3", "10.1.1.1, 127.0.0.3") == 429  # a chain of proxies
    # a header from anyone else is ignored: a client cannot pick the address it is counted under
    codes = [_login(env.url, "vera", "wrong password", "127.0.0.2", f"10.9.9.{i}") for i in range(3)]
    assert codes == [401, 401, 429]


def test_client_address_reads_the_header_right_to_left():
    proxies = networks(["10.0.0.0/24", "::1"])
    assert client_address("10.0.0.5", "203.0.113.7", proxies) == "203.0.113.7"
    assert client_address("10.0.0.5", "198.51.100.1, 203.0.113.7, 10.0.0.9", proxies) == "203.0.113.7"
    assert client_address("192.0.2.1", "203.0.113.7", proxies) == "192.0.2.1"  # not a trusted proxy
    assert client_address("10.0.0.5", None, proxies) == "10.0.0.5"
    assert client_address("10.0.0.5", "unknown", proxies) == "10.0.0.5"  # a hop that is no address
    assert client_address("::1", "2001:db8::7", proxies) == "2001:db8::7"
    with pytest.raises(ValueError, match="not an address"):
        networks(["proxy.local"])


def test_the_limiter_counts_a_user_at_an_address_and_the_address_apart():
    lim = LoginLimiter(limit=2, window_s=60, delay_s=1.0, max_delay_s=4.0, address_limit=5)
    otto, ada = lim.keys("otto", "10.0.0.9"), lim.keys("ada", "10.0.0.9")
    lim.failed(*otto)
    lim.failed(*otto)
    assert lim.retry_after(*otto) == pytest.approx(1.0, abs=0.1) and lim.retry_after(*ada) == 0
    for name in ("b", "c", "d"):
        lim.failed(*lim.keys(name, "10.0.0.9"))
    assert lim.retry_after(*ada) > 0  # five failures from the address
    assert lim.retry_after(*lim.keys("ada", "10.0.0.1")) == 0


def test_the_limiter_forgets_old_failures():
    lim = LoginLimiter(limit=1, window_s=0.2, delay_s=1.0)
    for _ in range(3):
        lim.failed(*lim.keys("otto", "10.0.0.9"))
    assert lim.retry_after(*lim.keys("otto", "10.0.0.9")) > 0
    time.sleep(0.3)
    assert lim.retry_after(*lim.keys("otto", "10.0.0.9")) == 0 and len(lim) == 0
