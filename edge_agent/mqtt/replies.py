"""What the worker says about a job: the `progress` reply of an agent event (`progress_reply`), the final reply of a
run with the chunks of its files (`final_reply`: `result`, `error` or `cancelled`), and the chunks of a finished
job's files cut as its stored manifest says (`stored_chunks`: a resent request gets its files again, intake.py).

A chunk's topic is `<files topic>/<seq>` and it carries no Correlation Data (its topic names the request and the file:
issue 42); its size is the largest whose whole packet fits the broker's limit (`chunk_bytes`), at most
`mqtt.file_chunk_bytes`. The worker thread (worker.py) stores the chunks before the result, in one transaction.
"""

from __future__ import annotations

import json
import logging
import math
import uuid
from pathlib import Path

from edge_agent.agent.trajectory import AgentEvent, RunResult
from edge_agent.config import Settings
from edge_agent.failures import WAIT_OUT
from edge_agent.filestore import read_plain
from edge_agent.mqtt.packets import publish_packet_size
from edge_agent.mqtt.protocol import (
    CancelledReply,
    ErrorReply,
    FileEntry,
    ProgressReply,
    Reply,
    RequestOptions,
    ResultReply,
)
from edge_agent.mqtt.records import Job
from edge_agent.mqtt.topics import Topics
from edge_agent.plots import add_plot

log = logging.getLogger("edge_agent.mqtt.service")  # one logger for the daemon (its journal lines stay the same)

OBSERVATION_CHARS = 300
CHUNK_SEQ_DIGITS = 10  # a chunk's topic ends in /<seq>: sized as if seq had this many digits


def progress_reply(job: Job, event: AgentEvent) -> ProgressReply:
    """The `progress` reply of one agent event (a step, a review, ...), its long texts cut."""
    step = event.step
    obs = step.observation if step else ""
    text = event.text if len(event.text) <= 600 else event.text[:597] + "..."
    action_input = step.action_input if step else None
    if action_input is not None and len(json.dumps(action_input, default=str)) > 500:
        action_input = json.dumps(action_input, default=str)[:500]
    return ProgressReply(
        request_id=job.request_id,
        correlation=job.body_correlation,
        event=event.kind,
        attempt=job.attempts,
        trial=event.trial,
        step=step.index if step else 0,
        thought=step.shown_thought if step else "",
        action=step.action if step else "",
        action_input=action_input,
        ok=step.ok if step else True,
        by=step.by if step else "model",
        observation=obs if len(obs) <= OBSERVATION_CHARS else obs[: OBSERVATION_CHARS - 3] + "...",
        text=text,
        reply_id=uuid.uuid4().hex,
    )


def chunk_bytes(topic: str, file_chunk_bytes: int, max_packet: int) -> int:
    """The largest chunk whose whole packet (its topic `<topic>/<seq>` and the payload: a chunk carries no
    Correlation Data) fits the packet limit, at most `mqtt.file_chunk_bytes`; 0 if not even one byte fits."""
    # + 8: the remaining-length field grows with the payload
    overhead = publish_packet_size(f"{topic}/{'9' * CHUNK_SEQ_DIGITS}", b"") + 8
    return max(0, min(file_chunk_bytes, max_packet - overhead))


def add_plot_file(files_dir: Path, job: Job, result: RunResult) -> None:
    """`options.plots`: an SVG of every series the answer read joins the result's files (`edge_agent.plots`)."""
    try:
        info = add_plot(files_dir / job.job_id, result.files, [result.answer or ""], job.question)
    except Exception:  # a plot is a convenience: the answer goes out without it
        log.exception("job %s: could not draw its plot", job.job_id)
        return
    if info is not None:
        result.files.append(info)


def final_reply(
    job: Job,
    options: RequestOptions,
    result: RunResult | None,
    failure: str | None,
    *,
    cancelled_by: str | None,
    settings: Settings,
    topics: Topics,
    max_packet: int,
) -> tuple[Reply, list[tuple[str, bytes]]]:
    """A job's final reply — `cancelled` (by `cancelled_by`, when not None), `error` (the agent failed: `failure`, or
    something outside the gateway: the result's reason), or `result` with its files' manifest — and the chunks of
    its files, each under the packet limit (`options.files`: chunks, the manifest only, or none)."""
    final_id = f"{job.job_id}.final"
    chunks: list[tuple[str, bytes]] = []
    if cancelled_by is not None:
        reply: Reply = CancelledReply(
            request_id=job.request_id,
            correlation=job.body_correlation,
            reply_id=final_id,
            message=f"cancelled by {cancelled_by}",
        )
    elif result is None or result.status == "error":
        reply = ErrorReply(
            code="agent_error",
            request_id=job.request_id,
            correlation=job.body_correlation,
            message=f"the agent failed: {failure or (result.error if result else '')}",
            reply_id=final_id,
        )
    elif result.status == "failed":  # something outside the gateway: its reason is the code
        waited = (
            f" (waited {settings.skyspark.outage_wait_s:.0f} s for it to come back)"
            if result.reason in WAIT_OUT and settings.skyspark.outage_wait_s
            else ""
        )
        reply = ErrorReply(
            code=result.reason or "agent_error",
            request_id=job.request_id,
            correlation=job.body_correlation,
            message=f"{result.error}{waited}",
            reply_id=final_id,
        )
    elif result.status == "cancelled":
        reply = CancelledReply(
            request_id=job.request_id,
            correlation=job.body_correlation,
            message="the agent stopped the run",
            reply_id=final_id,
        )
    else:
        if options.plots and result.status == "answered":
            add_plot_file(settings.files_dir, job, result)
        entries = []
        if options.files != "none":
            for i, info in enumerate(result.files):
                entry = FileEntry(file_id=str(i), name=info.name, size=info.size, sha256=info.sha256)
                if options.files == "chunks":
                    data = read_plain(settings.files_dir / job.job_id, info.name)
                    topic = topics.files(job.client_id, job.request_id, entry.file_id)
                    size = chunk_bytes(topic, settings.mqtt.file_chunk_bytes, max_packet)
                    if size < 512:  # the packet limit leaves no room: the manifest only (stated in the entry)
                        size = 0
                    entry.chunks, entry.chunk_bytes, entry.topic = (
                        (math.ceil(len(data) / size), size, topic) if size else (0, 0, "")
                    )
                    chunks += [(f"{topic}/{n}", data[n * size : (n + 1) * size]) for n in range(entry.chunks)]
                entries.append(entry)
        reply = ResultReply(
            request_id=job.request_id,
            correlation=job.body_correlation,
            status=result.status,
            answer=result.answer,
            error=result.error,
            reason=result.reason,
            metrics=result.metrics,
            files=entries,
            run_id=result.run_id,
            reply_id=final_id,
            provenance=result.provenance,
            reading=result.reading,
        )
    return reply, chunks


def stored_chunks(job: Job, files_dir: Path) -> list[tuple[str, bytes]]:
    """The chunks of a finished job's files, cut as its stored manifest says (files still on disk)."""
    if job.final_kind != "result" or not job.final_payload:
        return []
    out = []
    for entry in ResultReply.model_validate_json(job.final_payload).files:
        path = files_dir / job.job_id / entry.name
        if not entry.chunks or not entry.chunk_bytes or not path.is_file():
            continue
        data, size = read_plain(path.parent, entry.name), entry.chunk_bytes
        out += [(f"{entry.topic}/{n}", data[n * size : (n + 1) * size]) for n in range(entry.chunks)]
    return out
