"""How many replies the outbox may have handed to paho at once (`Pace`): what the broker acknowledges in
`TARGET_S` at the pace it has kept over the last `OVER_S`, at least `LEAST`, at most the outbox's window.

Why (issue 42, measured): a row handed to paho is out of the outbox's reach — paho sends its messages in the order
they were handed on, and Mosquitto reads one packet per connection per turn of its loop. After a restart with a
10,000-request flood queued, the broker's turns are slow (with `autosave_on_changes` it saves its database, then
10,000 messages, after each one): ~60 replies a second. The flooder's first `accepted` replies had filled the
200-row window, and the victims' replies, handed on right after their requests were stored, waited behind ~190 of
them for 3.2 s. With the window paced, what is ahead of a new reply is at most ~`TARGET_S` of the broker's time
plus `LEAST` rows; everything else waits in the outbox table, where answers go first and requesters take turns
(`JobQueue.outbox_schedule`), so the victims' replies are next.

A broker that keeps up gets the whole window: the pace is acknowledgements per second, so a fast broker (or a far
one, whose acknowledgements come late but many at a time) lets the window grow to its most within a few round
trips, and a slow one shrinks it to what it takes in `TARGET_S`. PUBACKs are counted as paho reports them
(`acked`, on paho's thread); `window` is read by whoever hands rows on (under the outbox's lock).
"""

from __future__ import annotations

import time
from collections import deque

LEAST = 8  # rows in flight whatever the pace: a reply is never held for want of a measurement
TARGET_S = 0.1  # the broker's time the rows in flight may take at its recent pace: a new answer's wait behind them
OVER_S = 1.0  # the pace is the PUBACKs of this last stretch


class Pace:
    """The outbox's window as the broker's recent pace allows (see the module's docstring)."""

    def __init__(self, most: int, *, least: int = LEAST, target_s: float = TARGET_S, over_s: float = OVER_S):
        self.most = most
        self.least = min(least, most)
        self.target_s = target_s
        self.over_s = over_s
        self._acked: deque[float] = deque()  # when each PUBACK of the last `over_s` came

    def acked(self, now: float | None = None) -> None:
        """A PUBACK came (paho's thread): one more for the pace."""
        self._acked.append(time.monotonic() if now is None else now)

    def window(self, now: float | None = None) -> int:
        """The rows that may be in flight now."""
        now = time.monotonic() if now is None else now
        acked = self._acked
        while acked and acked[0] < now - self.over_s:
            acked.popleft()
        return max(self.least, min(self.most, self.least + int(len(acked) * self.target_s / self.over_s)))
