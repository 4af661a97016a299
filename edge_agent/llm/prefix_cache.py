"""Saved KV states of each role's stable prompt prefix, in memory or on disk.

A state is the llama.cpp sequence state (KV cells only, no logits) taken right after the prefix
was evaluated, with the prefix's tokens. On disk: `<dir>/<model key>-<role>-<token hash>.kv` =
magic, header length, JSON header (model, role, tokens), state bytes. Files are read at start
(headers only; the data when restored), so a restart does not evaluate the prefixes again.
At most `per_role` states are kept per role (oldest use dropped first): the react role keeps one for the
part every question shares and one per example group (`TrajectoryStore.select`).

A state is tens of MB (SmolLM2, 3k tokens: 73 MB), so it is never copied in Python: `put` writes the
runtime's buffer to disk as it is, `load` reads the file into one writable buffer that llama.cpp reads
from directly (measured by `bench/restart_prefix.py`: each copy was a step in peak RSS).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

MAGIC = b"EAKVST01"


def token_hash(tokens: Sequence[int]) -> str:
    return hashlib.sha256(",".join(map(str, tokens)).encode()).hexdigest()[:16]


@dataclass
class SavedPrefix:
    role: str
    tokens: tuple[int, ...]
    path: Path | None = None
    data: bytearray | None = None
    used: float = field(default_factory=time.time)

    def load(self) -> bytearray | None:
        """The state bytes, in one writable buffer (for `ctypes ... .from_buffer`, no copy)."""
        if self.data is not None:
            return self.data
        if self.path is None:
            return None
        try:
            with self.path.open("rb") as fh:
                fh.seek(len(MAGIC))
                (n,) = struct.unpack("<I", fh.read(4))
                start = len(MAGIC) + 4 + n
                data = bytearray(os.fstat(fh.fileno()).st_size - start)
                fh.seek(start)
                if fh.readinto(data) != len(data):
                    raise OSError("truncated")
            return data
        except (OSError, struct.error) as exc:
            log.warning("prefix state %s unreadable: %s", self.path, exc)
            return None


class PrefixCache:
    def __init__(self, directory: Path | None, model_key: str, per_role: int = 8):
        self.directory = directory
        self.model_key = model_key
        self.per_role = per_role
        self._states: dict[str, list[SavedPrefix]] = {}
        if directory is not None:
            self._scan()

    def _scan(self) -> None:
        if self.directory is None:
            return
        try:
            files = sorted(self.directory.glob(f"{self.model_key}-*.kv"))
        except OSError:
            return
        for path in files:
            try:
                with path.open("rb") as fh:
                    if fh.read(len(MAGIC)) != MAGIC:
                        continue
                    (n,) = struct.unpack("<I", fh.read(4))
                    header = json.loads(fh.read(n))
                if header.get("model") != self.model_key:
                    continue  # another model key that starts like this one
                saved = SavedPrefix(
                    role=header["role"], tokens=tuple(header["tokens"]), path=path, used=path.stat().st_mtime
                )
            except (OSError, ValueError, KeyError, struct.error) as exc:
                log.warning("ignoring unreadable prefix state %s: %s", path, exc)
                continue
            self._states.setdefault(saved.role, []).append(saved)

    def roles(self) -> dict[str, int]:
        return {role: len(items) for role, items in self._states.items()}

    def has(self, role: str, prefix: Sequence[int]) -> bool:
        prefix = tuple(prefix)
        return any(s.tokens == prefix for s in self._states.get(role, []))

    def find(self, role: str, tokens: Sequence[int]) -> SavedPrefix | None:
        """The longest saved prefix of `role` that `tokens` start with."""
        best = None
        for saved in self._states.get(role, []):
            n = len(saved.tokens)
            if n <= len(tokens) and (best is None or n > len(best.tokens)) and tuple(tokens[:n]) == saved.tokens:
                best = saved
        if best is not None:
            best.used = time.time()
            if best.path is not None:
                try:
                    os.utime(best.path)
                except OSError:
                    pass
        return best

    def put(self, role: str, prefix: Sequence[int], data: bytes | bytearray | memoryview) -> SavedPrefix:
        """Keep a state (`data`: any bytes-like buffer; written as it is, copied only when kept in memory)."""
        saved = SavedPrefix(role=role, tokens=tuple(prefix))
        if self.directory is not None:
            path = self.directory / f"{self.model_key}-{_safe(role)}-{token_hash(prefix)}.kv"
            header = json.dumps({"model": self.model_key, "role": role, "tokens": list(prefix)}).encode()
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp")
                with tmp.open("wb") as fh:
                    fh.write(MAGIC + struct.pack("<I", len(header)) + header)
                    fh.write(data)
                os.replace(tmp, path)
                saved.path = path
            except OSError as exc:
                log.warning("could not write prefix state %s: %s; keeping it in memory", path, exc)
                saved.data = bytearray(data)
        else:
            saved.data = bytearray(data)
        items = [s for s in self._states.get(role, []) if s.tokens != saved.tokens]
        items.append(saved)
        items.sort(key=lambda s: s.used)
        while len(items) > self.per_role:
            self._remove_file(items.pop(0))
        self._states[role] = items
        return saved

    def drop(self, saved: SavedPrefix) -> None:
        items = self._states.get(saved.role, [])
        if saved in items:
            items.remove(saved)
        self._remove_file(saved)

    @staticmethod
    def _remove_file(saved: SavedPrefix) -> None:
        if saved.path is not None:
            try:
                saved.path.unlink()
            except OSError:
                pass


def _safe(role: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in role)
