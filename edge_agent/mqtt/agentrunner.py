"""The production `Runner`: the real ReActXen agent (`EdgeAgent.ask`: local model, tools, SkySpark).

Its own module so that a daemon with the script runner (`edge-agent serve --runner script`: tests, drills) never
imports the agent, the model runtime and the grounding tables (~1 s of CPU at start-up, issue 42): only
`edge-agent serve --runner agent` imports this module (`commands.daemon.make_runner`).
"""

from __future__ import annotations

import threading
from typing import Any

from edge_agent.agent.trajectory import RunResult
from edge_agent.app import EdgeAgent
from edge_agent.config import Settings
from edge_agent.mqtt.protocol import RequestOptions
from edge_agent.mqtt.runner import AskRequester, OnEvent, ping_skyspark
from edge_agent.runlog import RunLog


class AgentRunner:
    """Answers with the real ReActXen agent (`EdgeAgent.ask`)."""

    name = "agent"

    def __init__(self, agent: EdgeAgent):
        self.agent = agent
        self._thread = threading.get_ident()

    def _adopt_thread(self) -> None:
        """The agent is built in the main thread (READY=1 after the model loads) but runs in the worker;
        its run log's SQLite connection is bound to the thread that opened it, so reopen it here once."""
        if self._thread != threading.get_ident():
            self.agent.runlog = RunLog(self.agent.settings.db_path)
            self._thread = threading.get_ident()

    @classmethod
    def from_settings(cls, settings: Settings) -> AgentRunner:
        return cls(EdgeAgent(settings))

    def warm(self, interrupt: threading.Event | None = None) -> dict[str, Any]:
        """The agent's react prefix into the KV cache (`EdgeAgent.warm`), before the first job; stops (raising
        `Interrupted`) once `interrupt` is set."""
        self._adopt_thread()
        return self.agent.warm(interrupt=interrupt)

    def ping(self) -> None:
        ping_skyspark(self.agent.settings, self.agent.observer)

    def run(
        self,
        question: str,
        options: RequestOptions,
        *,
        run_id: str,
        on_event: OnEvent,
        cancel: threading.Event,
        ask_requester: AskRequester | None,
    ) -> RunResult:
        self._adopt_thread()
        return self.agent.ask(
            question,
            now=options.now,
            strategy=options.strategy,
            max_steps=options.max_steps,
            max_trials=options.max_trials,
            distill=options.distill,
            on_event=on_event,
            cancel=cancel,
            ask_requester=ask_requester if options.ask else None,
            run_id=run_id,
            file_format=options.format,
        )
