"""The console's users: a YAML file of name → argon2id hash and role (viewer, operator, admin).

Hashes come from argon2-cffi's `PasswordHasher` (salted, memory-hard; its parameters are in each hash, so they can
be raised later and old hashes still verify and are re-hashed at the next login). The file is written atomically
with mode 0600. `edge-agent users add/remove/passwd/list` edits it.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Literal

import yaml
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from pydantic import BaseModel, Field

Role = Literal["viewer", "operator", "admin"]
ROLES: tuple[Role, ...] = ("viewer", "operator", "admin")
USER_RE = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")  # also what Request.on_behalf_of accepts
MIN_PASSWORD = 8

_hasher = PasswordHasher()
_DUMMY = _hasher.hash("not a password of anyone")  # unknown users cost a verification too (no timing oracle)


class UserError(ValueError):
    """A bad user name, role or password, or a user that does not (or already) exist."""


class User(BaseModel):
    hash: str
    role: Role = "viewer"


class UsersFile(BaseModel):
    users: dict[str, User] = Field(default_factory=dict)


def at_least(role: str, wanted: str) -> bool:
    return ROLES.index(role) >= ROLES.index(wanted)


class UserStore:
    def __init__(self, path: Path):
        self.path = Path(path)

    def load(self) -> UsersFile:
        if not self.path.is_file():
            return UsersFile()
        return UsersFile.model_validate(yaml.safe_load(self.path.read_text(encoding="utf-8")) or {})

    def save(self, data: UsersFile) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".users-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yaml.safe_dump(data.model_dump(), fh, sort_keys=True)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

    @staticmethod
    def _check(name: str, password: str | None = None, role: str | None = None) -> None:
        if not USER_RE.fullmatch(name):
            raise UserError("a user name is 1-64 letters, digits, '_', '.', '@' or '-'")
        if password is not None and len(password) < MIN_PASSWORD:
            raise UserError(f"a password has at least {MIN_PASSWORD} characters")
        if role is not None and role not in ROLES:
            raise UserError(f"a role is one of {', '.join(ROLES)}")

    def add(self, name: str, password: str, role: str = "viewer") -> None:
        self._check(name, password, role)
        data = self.load()
        if name in data.users:
            raise UserError(f"user {name!r} exists; use passwd or remove")
        data.users[name] = User(hash=_hasher.hash(password), role=role)
        self.save(data)

    def remove(self, name: str) -> None:
        data = self.load()
        if data.users.pop(name, None) is None:
            raise UserError(f"no user {name!r}")
        self.save(data)

    def passwd(self, name: str, password: str, role: str | None = None) -> None:
        self._check(name, password, role)
        data = self.load()
        if name not in data.users:
            raise UserError(f"no user {name!r}")
        data.users[name].hash = _hasher.hash(password)
        if role:
            data.users[name].role = ROLES[ROLES.index(role)]  # the Role that `_check` found
        self.save(data)

    def verify(self, name: str, password: str) -> Role | None:
        """The user's role if the password is right, else None (same work for an unknown user)."""
        user = self.load().users.get(name)
        try:
            _hasher.verify(user.hash if user else _DUMMY, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return None
        if user is None:
            return None
        if _hasher.check_needs_rehash(user.hash):
            try:
                self.passwd(name, password)
            except (UserError, OSError):
                pass
        return user.role
