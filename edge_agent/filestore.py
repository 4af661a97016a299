"""The file store: the one directory where tools write and read result files.

A model-supplied file name can never reach outside it: names are plain (no separators, no
leading dot, no NUL or control characters), are resolved and checked to stay inside the root,
and links are refused: symlinks, and files with more than one hard link (whose data lives outside too).
Every file written is remembered, so a run can report a manifest.

Checking a name and then opening it would leave a race to anyone who can write to the store (a link swapped in
between). So files are read and written through one `open` relative to the store's own directory descriptor,
with `O_NOFOLLOW` (a symlink fails to open), a new file with `O_EXCL` (nothing planted is overwritten or
followed), and the opened descriptor is checked (`fstat`: a regular file with one link): what is checked is
what is read (`read_plain`, `FileStore.read_bytes` / `write_bytes`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import uuid
from pathlib import Path
from typing import Any

from pydantic import BaseModel

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class FileStoreError(ValueError):
    """A file name was refused or a file is missing; the message is fit for the model to read."""


def _checked_fd(root: Path, name: str, flags: int, mode: int = 0o644) -> int:
    """Open `name` inside the directory `root` (not following a symlink at `root` or at `name`) and check the
    descriptor: a regular file with one link. Raises FileStoreError (a link) or OSError (missing, ...)."""
    dir_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        try:
            fd = os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno == getattr(os, "ELOOP", 40):
                raise FileStoreError(f"file name {name!r} is not allowed: it is a link") from None
            raise
    finally:
        os.close(dir_fd)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
        os.close(fd)
        raise FileStoreError(f"file name {name!r} is not allowed: it is a link or not a plain file")
    return fd


def read_plain(root: Path, name: str) -> bytes:
    """The bytes of the plain file `name` in the directory `root`, read from the descriptor that was checked."""
    if not NAME_RE.fullmatch(name) or ".." in name:
        raise FileStoreError(f"file name {name!r} is not allowed")
    fd = _checked_fd(Path(root), name, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


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
            raise FileStoreError(f"file name {name!r} is not allowed: use a plain name such as the one a tool returned")
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

    def read_bytes(self, name: str) -> bytes:
        """A file's bytes (FileStoreError: a bad name, a link, or no such file)."""
        self.path(name)  # the name's rules, and a friendly error for a link that is there already
        try:
            return read_plain(self.root, name)
        except FileNotFoundError:
            raise FileStoreError(f"no file named {name!r}; {self.hint()}") from None

    def write_bytes(self, name: str, data: bytes) -> None:
        """Write a NEW file (O_EXCL: whatever was planted at that name is neither followed nor overwritten)."""
        self.path(name)
        fd = _checked_fd(self.root, name, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)

    def new_name(self, stem: str, suffix: str = ".json") -> str:
        return f"{slug(stem)}-{uuid.uuid4().hex[:8]}{suffix}"

    def write_json(self, data: Any, stem: str) -> str:
        """Write `data` as JSON to a new file named after `stem`; returns the file name."""
        return self.write_new(json.dumps(data, ensure_ascii=False, default=str).encode("utf-8"), stem)

    def write_new(self, data: bytes, stem: str, suffix: str = ".json") -> str:
        """Write `data` to a new file named after `stem` with `suffix`; returns the file name."""
        name = self.new_name(stem, suffix)
        self.write_bytes(name, data)
        self.created.append(name)
        return name

    def read_json(self, name: str) -> Any:
        data = self.read_bytes(name)
        try:
            return json.loads(data.decode("utf-8"))
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
        return sorted(
            p.name for p in self.root.iterdir() if p.is_file() and not p.is_symlink() and p.lstat().st_nlink == 1
        )

    def hint(self) -> str:
        names = self.names()
        return f"files here: {', '.join(names[-5:])}" if names else "the file store is empty"

    def info(self, name: str) -> FileInfo:
        data = self.read_bytes(name)
        return FileInfo(name=name, size=len(data), sha256=hashlib.sha256(data).hexdigest())

    def manifest(self) -> list[FileInfo]:
        """The files this store wrote, in order."""
        return [self.info(n) for n in self.created if self.exists(n)]
