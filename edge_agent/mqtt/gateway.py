"""What the intake and the worker need of the daemon, as narrow interfaces (`typing.Protocol`s): `GatewayService`
meets both and hands itself to `Intake` and `Worker`, which so import this module and never service.py (no
circle of imports: docs/architecture.md).

`IntakeGateway`: the settings, topics and limits, the queue, the fleet hooks, the worker's three entry points
(`Handoff`), the committer (where `on_message` puts a message), the session connection (a shared group's answers
are passed on there), and the reply helpers: `replying` (one transaction whose replies are published right after
the commit), `add` inside it, `publish_now` when the database fails.

`WorkerGateway`: the settings, the runner, the queue, the topics, the outage wait, the fleet hooks, the committer
(whose backlog is stored before the next job), the broker's packet limit, the stop event, and the reply helpers:
`replying`, `add`, `send` (one reply), `notify` (a progress reply, best effort) and `set_status` (the retained
status).
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import AbstractContextManager
from typing import Protocol

import paho.mqtt.client as mqtt

from edge_agent.config import MQTTSettings, Settings
from edge_agent.fleet.hooks import FleetHooks
from edge_agent.mqtt.committer import GroupCommitter
from edge_agent.mqtt.incoming import Limits
from edge_agent.mqtt.outage import Outage
from edge_agent.mqtt.protocol import Reply
from edge_agent.mqtt.queue import JobQueue
from edge_agent.mqtt.records import Job
from edge_agent.mqtt.runner import Runner
from edge_agent.mqtt.topics import Topics


class Handoff(Protocol):
    """The worker's entry points the intake calls (`Worker` is the one): new jobs were stored; the requester's
    answer to the current job's question (False: no job waits for it); a cancel of a running job."""

    def wake(self) -> None: ...

    def deliver_answer(self, client_id: str, request_id: str, answer: str) -> bool: ...

    def cancel(self, job_id: str, by: str) -> None: ...


class Replying(Protocol):
    """The reply helpers both threads use: one transaction whose replies this thread publishes right after the
    commit, and a reply into the outbox inside it."""

    def replying(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def add(
        self, conn: sqlite3.Connection, topic: str, reply: Reply, correlation: bytes | None, *, refusal: bool = False
    ) -> None: ...


class IntakeGateway(Replying, Protocol):
    settings: Settings
    m: MQTTSettings
    topics: Topics
    limits: Limits
    jobs: JobQueue
    fleet: FleetHooks
    committer: GroupCommitter[mqtt.MQTTMessage] | None
    client: mqtt.Client

    @property
    def worker(self) -> Handoff: ...

    def publish_now(self, topic: str, reply: Reply, correlation: bytes | None) -> None: ...


class WorkerGateway(Replying, Protocol):
    settings: Settings
    m: MQTTSettings
    runner: Runner
    jobs: JobQueue
    topics: Topics
    outage: Outage
    fleet: FleetHooks
    committer: GroupCommitter[mqtt.MQTTMessage] | None
    max_packet: int
    stopping: threading.Event

    def send(self, topic: str, reply: Reply, correlation: bytes | None) -> None: ...

    def notify(self, job: Job, reply: Reply) -> None: ...

    def set_status(self, status: str) -> None: ...
