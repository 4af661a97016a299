"""An operator's logged-in session on the console over HTTP, with the standard library only (a cookie jar and the
session's CSRF token), making its requests as the console's own page does (docs/console.md): for the benchmarks that
load a console (bench/mqtt_latency.py's `--console`, bench/console_memory.py) and anything else that drives one."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request


class ConsoleClient:
    """Logs in as `user` at `url` (the login form's CSRF field, then the page's CSRF token for its JSON requests)."""

    def __init__(self, url: str, user: str, password: str):
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        form = re.search(r'name="csrf" value="([^"]+)"', self.get("/login"))
        if form is None:
            raise SystemExit(f"the console's login page at {url} has no CSRF field")
        login = urllib.parse.urlencode({"username": user, "password": password, "csrf": form.group(1)}).encode()
        try:
            self.open("/login", data=login).close()
        except urllib.error.HTTPError as exc:
            raise SystemExit(f"could not log in to the console at {url} as {user}: {exc.code}") from None
        token = re.search(r'name="csrf-token" content="([^"]+)"', self.get("/"))
        if token is None:
            raise SystemExit(f"could not log in to the console at {url} as {user}")
        self.csrf = token.group(1)

    def open(
        self, path: str, *, data: bytes | None = None, headers: dict[str, str] | None = None, timeout: float = 30
    ) -> http.client.HTTPResponse:
        """The response to GET `path` (POST with `data`); the caller reads and closes it (a stream of events too)."""
        request = urllib.request.Request(self.url + path, data=data, headers=headers or {})
        response: http.client.HTTPResponse = self._opener.open(request, timeout=timeout)
        return response

    def get(self, path: str) -> str:
        with self.open(path) as r:
            return r.read().decode("utf-8", "replace")

    def post_json(self, path: str, body: dict) -> tuple[int, str]:
        """POST a JSON body with the session's CSRF token: (status, response text), errors included."""
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        try:
            with self.open(path, data=json.dumps(body).encode(), headers=headers) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")

    def ask(self, question: str) -> str:
        """POST /ask as the page does; the request id."""
        status, text = self.post_json("/ask", {"question": question})
        if status != 200:
            raise SystemExit(f"ask: {status} {text[:200]}")
        request_id: str = json.loads(text)["request_id"]
        return request_id
