"""A daemon thread fed through a queue under one condition: the shape the PUBACK pacer (acks.py) and the group
committer (committer.py) share. `_push` appends an item and wakes the thread; `stop` sets `_stop`, wakes it and
joins it; what a stop leaves undone is each subclass's to say (its `_run` reads `_stop`)."""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class QueueThread(Generic[T]):
    def __init__(self, name: str):
        self._items: deque[T] = deque()
        self._cond = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def pending(self) -> int:
        with self._cond:
            return len(self._items)

    def _push(self, item: T) -> None:
        with self._cond:
            self._items.append(item)
            self._cond.notify()

    def _run(self) -> None:
        raise NotImplementedError
