"""Sessions, CSRF tokens and the failed-login limit of the console (in memory: a restart logs everyone out).

A session is a random 256-bit token in a cookie (HttpOnly, SameSite=Strict, Secure over HTTPS) mapped to the user,
role, its CSRF token and its expiry. Every POST must carry the session's CSRF token (form field `csrf` or header
`X-CSRF-Token`); the login form, before any session, uses a double-submit token (cookie = field). Failed logins
are counted per user name and per client address in a sliding window; past the limit, logins are refused (429)
until the window has passed, whatever the password.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field


@dataclass
class Session:
    user: str
    role: str
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    expires: float = 0.0


class Sessions:
    def __init__(self, ttl_s: float):
        self.ttl_s = ttl_s
        self._by_token: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, user: str, role: str) -> tuple[str, Session]:
        token = secrets.token_urlsafe(32)
        session = Session(user=user, role=role, expires=time.time() + self.ttl_s)
        with self._lock:
            self._by_token[token] = session
        return token, session

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        with self._lock:
            session = self._by_token.get(token)
            if session is not None and session.expires < time.time():
                del self._by_token[token]
                return None
            return session

    def drop(self, token: str | None) -> None:
        with self._lock:
            self._by_token.pop(token or "", None)

    def drop_user(self, user: str) -> None:
        """Log a removed user (or one whose password changed) out everywhere."""
        with self._lock:
            for token in [t for t, s in self._by_token.items() if s.user == user]:
                del self._by_token[token]


def same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(a.encode(), b.encode())  # type: ignore[union-attr]


class LoginLimiter:
    """At most `limit` failures per key (user name, address) within `window_s`."""

    def __init__(self, limit: int, window_s: float):
        self.limit, self.window_s = limit, window_s
        self._fails: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._fails[key]
        while q and q[0] < now - self.window_s:
            q.popleft()
        return q

    def retry_after(self, *keys: str) -> float:
        """Seconds until a login may be tried again (0: now)."""
        now = time.time()
        with self._lock:
            waits = [q[0] + self.window_s - now for k in keys if len(q := self._recent(k, now)) >= self.limit]
        return max(waits, default=0.0)

    def failed(self, *keys: str) -> None:
        now = time.time()
        with self._lock:
            for k in keys:
                self._recent(k, now).append(now)
