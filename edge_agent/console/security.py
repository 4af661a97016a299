"""Sessions, CSRF tokens and the failed-login limit of the console (in memory: a restart logs everyone out).

A session is a random 256-bit token in a cookie (HttpOnly, SameSite=Strict, Secure over HTTPS) mapped to the user,
role, its CSRF token and its expiry. Every POST must carry the session's CSRF token (form field `csrf` or header
`X-CSRF-Token`); the login form, before any session, uses a double-submit token (cookie = field). Failed logins
are counted per user name at a client address and per address in a sliding window: a person's own typos delay
only that person there (`limit`), an address delays everyone at it only past the much higher `address_limit`
(one machine trying many names); past a limit each attempt waits a growing delay (429 with Retry-After), never
a lock that another address could cause. Which address a request comes from: `client_address.client_address`.
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
        now = time.time()
        session = Session(user=user, role=role, expires=now + self.ttl_s)
        with self._lock:
            # bounded: sessions that ended unseen (a browser closed, a script's logins) leave at the next login
            for old in [t for t, s in self._by_token.items() if s.expires < now]:
                del self._by_token[old]
            self._by_token[token] = session
        return token, session

    def __len__(self) -> int:
        return len(self._by_token)

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
    if not a or not b:
        return False
    return hmac.compare_digest(a.encode(), b.encode())


class LoginLimiter:
    """Failed logins per key in a sliding window of `window_s`: per user name at an address (`limit`: the person's
    own typos) and per address (`address_limit`: many names tried from one place). Up to its limit a key's failures
    cost nothing; each one past it makes the next attempt with that key wait `delay_s`, doubled per further
    failure, at most `max_delay_s` (a delay, never a lock: no key covers a user from everywhere, so nobody can lock
    the admin out from another address, and a colleague's typos at a shared address delay only the colleague)."""

    def __init__(
        self,
        limit: int,
        window_s: float,
        delay_s: float = 1.0,
        max_delay_s: float = 30.0,
        address_limit: int | None = None,
    ):
        self.limit, self.window_s = limit, window_s
        self.address_limit = address_limit if address_limit is not None else limit * 10
        self.delay_s, self.max_delay_s = delay_s, max_delay_s
        self._fails: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    @staticmethod
    def keys(user: str, address: str) -> tuple[str, str]:
        return f"addr:{address}", f"user:{user}@{address}"

    def _limit(self, key: str) -> int:
        return self.address_limit if key.startswith("addr:") else self.limit

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._fails.get(key)
        while q and q[0] < now - self.window_s:
            q.popleft()
        if not q:
            self._fails.pop(key, None)  # bounded: keys without recent failures are not kept
            return deque()
        return q

    def _wait(self, key: str, q: deque[float], now: float) -> float:
        over = len(q) - self._limit(key)
        if over < 0:
            return 0.0
        delay = min(self.max_delay_s, self.delay_s * (2 ** min(over, 30)))
        return max(0.0, q[-1] + delay - now)

    def retry_after(self, *keys: str) -> float:
        """Seconds until a login may be tried again with these keys (0: now)."""
        now = time.time()
        with self._lock:
            return max((self._wait(k, self._recent(k, now), now) for k in keys), default=0.0)

    def failed(self, *keys: str) -> None:
        now = time.time()
        with self._lock:
            for k in keys:
                self._recent(k, now)
                self._fails[k].append(now)

    def succeeded(self, *keys: str) -> None:
        """A right password: that user's count at that address starts again (the address's stays)."""
        with self._lock:
            for k in keys:
                if k.startswith("user:"):
                    self._fails.pop(k, None)

    def __len__(self) -> int:
        return len(self._fails)
