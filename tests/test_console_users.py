"""`edge-agent users add/passwd/remove/list` and the users file: argon2id hashes, roles, mode 0600."""

from __future__ import annotations

import stat

import yaml
from click.testing import CliRunner

from edge_agent.cli import main
from edge_agent.console.users import UserStore


def test_users_commands_edit_the_users_file(tmp_path, monkeypatch):
    monkeypatch.setenv("EDGE_AGENT_PATHS__STATE_DIR", str(tmp_path))
    run = CliRunner().invoke
    r = run(main, ["users", "add", "maria", "--role", "operator"], input="s3cret-pass\n")
    assert r.exit_code == 0, r.output
    path = tmp_path / "console-users.yaml"
    data = yaml.safe_load(path.read_text())
    assert data["users"]["maria"]["role"] == "operator"
    assert data["users"]["maria"]["hash"].startswith("$argon2id$") and "s3cret" not in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    store = UserStore(path)
    assert store.verify("maria", "s3cret-pass") == "operator" and store.verify("maria", "wrong") is None
    assert run(main, ["users", "add", "maria"], input="another-pass\n").exit_code == 2  # exists
    assert run(main, ["users", "add", "bob"], input="short\n").exit_code == 2  # too short
    assert run(main, ["users", "add", "../x"], input="long-enough\n").exit_code == 2
    assert run(main, ["users", "passwd", "maria", "--role", "admin", "--password", "new-pass-1"]).exit_code == 0
    assert store.verify("maria", "new-pass-1") == "admin" and store.verify("maria", "s3cret-pass") is None
    assert "maria\tadmin" in run(main, ["users", "list"]).output
    assert run(main, ["users", "remove", "maria"]).exit_code == 0
    assert store.verify("maria", "new-pass-1") is None
    assert run(main, ["users", "remove", "maria"]).exit_code == 2
