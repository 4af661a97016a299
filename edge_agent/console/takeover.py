"""Whether a second client is taking the console's broker session (two consoles with one broker user knock each
other off every second or two), as a state that changes, not a stream of events.

The broker drops a connection it hands to another client with the same client id: reason 142 (session taken over)
when the client sees it, else an unspecified error soon after the connect. Two such drops in a minute, or one 142,
start a takeover (`dropped` returns True once: the caller logs it once); further drops only count. A connection
that then holds for `stable_s` ends it (`check` returns True once: the caller logs that once), so the page's warning
clears within `stable_s` of the second console stopping. A clean stop of the console itself is never a drop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SESSION_TAKEN_OVER = 142  # MQTT v5 DISCONNECT reason: another connection with the same client id


@dataclass
class TakeoverWatch:
    quick_drop_s: float = 10.0  # a drop this soon after the connect may be a takeover
    stable_s: float = 15.0  # a connection that holds this long ends a takeover
    window_s: float = 60.0  # quick drops counted over this long
    connected_at: float = 0.0
    since: float = 0.0  # when the takeover started (0: none)
    count: int = 0  # drops seen during this takeover
    drops: list[float] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.since > 0

    def connected(self, now: float) -> None:
        self.connected_at = now

    def dropped(self, now: float, reason: int | None) -> bool:
        """A connection dropped by the broker; True when this starts a takeover."""
        if now - self.connected_at < self.quick_drop_s:
            self.drops = [t for t in self.drops if now - t < self.window_s] + [now]
        taken = reason == SESSION_TAKEN_OVER or len(self.drops) >= 2
        if taken:
            self.count += 1
        if taken and not self.active:
            self.since = now
            return True
        return False

    def check(self, now: float, connected: bool) -> bool:
        """True when a takeover ends now: the connection has held for `stable_s`."""
        if self.active and connected and now - self.connected_at >= self.stable_s:
            self.since, self.count, self.drops = 0.0, 0, []
            return True
        return False
