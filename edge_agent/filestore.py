"""The file store: the one directory where tools write and read result files.

A model-supplied file name can never reach outside it: names are plain (no separators, no
leading dot, no NUL or control characters), are resolved and checked to stay inside the root,
and links are refused: symlinks, and files with more than one hard link (whose data lives outside too).
Every file written is remembered, so a run can report a manifest.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from pathlib import Path
from typing import Any

from pydantic import BaseModel

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class FileStoreError(ValueError):
    """A file name was refused or a file is missing; the message is fit for the model to read."""


class FileInfo(BaseModel):
    name: str
    size: int
    sha256: str


def slug(text: str, limit: int = 40) -> str:
    out = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:limit]
    return out or "file"


class FileStore:
    """Files of one run (or one request) under `root`."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._root_real = self.root.resolve()
        self.created: list[str] = []

    def path(self, name: str) -> Path:
        """The path for a plain file name, or FileStoreError if the name could escape the store."""
        if not isinstance(name, str) or not NAME_RE.fullmatch(name) or ".." in name:
            raise FileStoreError(
                f"file name {name!r} is not allowed: use a plain name such as the one a tool returned"
            )
        candidate = self.root / name
        if candidate.is_symlink():
            raise FileStoreError(f"file name {name!r} is not allowed: it is a link")
        try:
            links = candidate.lstat().st_nlink
        except FileNotFoundError:
            links = 1
        if links > 1:  # a hard link planted here shares its data with a file outside the store
            raise FileStoreError(f"file name {name!r} is not allowed: it is a link")
        if candidate.resolve().parent != self._root_real:
            raise FileStoreError(f"file name {name!r} is not allowed: it leaves the file store")
        return candidate

    def new_name(self, stem: str, suffix: str = ".json") -> str:
        return f"{slug(stem)}-{uuid.uuid4().hex[:8]}{suffix}"

    def write_json(self, data: Any, stem: str) -> str:
        """Write `data` as JSON to a new file named after `stem`; returns the file name."""
        name = self.new_name(stem)
        self.path(name).write_text(json.dumps(data, ensure_ascii=False, default=str), encoding="utf-8")
        self.created.append(name)
        return name

    def read_json(self, name: str) -> Any:
        path = self.path(name)
        if not path.is_file():
            raise FileStoreError(f"no file named {name!r}; {self.hint()}")
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise FileStoreError(f"file {name!r} is not valid JSON: {exc.msg} at line {exc.lineno}") from None

    def exists(self, name: str) -> bool:
        try:
            return self.path(name).is_file()
        except FileStoreError:
            return False

    def names(self) -> list[str]:
        """The plain files in the store, sorted (none if its folder was removed meanwhile)."""
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir()
                      if p.is_file() and not p.is_symlink() and p.lstat().st_nlink == 1)

    def hint(self) -> str:
        names = self.names()
        return f"files here: {', '.join(names[-5:])}" if names else "the file store is empty"

    def info(self, name: str) -> FileInfo:
        path = self.path(name)
        if not path.is_file():
            raise FileStoreError(f"no file named {name!r}; {self.hint()}")
        data = path.read_bytes()
        return FileInfo(name=name, size=len(data), sha256=hashlib.sha256(data).hexdigest())

    def manifest(self) -> list[FileInfo]:
        """The files this store wrote, in order."""
        return [self.info(n) for n in self.created if self.exists(n)]
