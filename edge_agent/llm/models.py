"""The model catalog (`models/models.yaml`): where each GGUF is, its pinned sha256, and loading it.

An entry names a `file` (under models/ or absolute) or a `package` (an installed PyPI package whose
directory holds the GGUF; found with `importlib.util.find_spec`, never imported), or `parts`
(packages whose chunk files concatenate into the GGUF, assembled once under the state dir).
The checksum is verified once per file version and remembered in `<state>/model-checksums.json`
keyed by path, size and mtime; a mismatch is refused with a clear error.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from edge_agent.config import Settings, read_yaml_model
from edge_agent.llm.llama import LlamaRuntime

HEADER = """\
# The model catalog: `edge-agent models list|verify|add`. See models/README.md.
# Each entry: name, one of file (under models/ or absolute) / package (installed PyPI package holding
# the GGUF) / parts (packages whose chunks concatenate into it), sha256 (pinned; verified once per
# file version), n_ctx (context to use, capped at the model's own), source, description, and an
# optional chat_template (a jinja template, or "plain" for models without one).
"""


class ModelError(Exception):
    """A model cannot be used (unknown name, file missing, checksum mismatch); the message says why."""


class ModelEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    file: str | None = None
    package: str | None = None
    parts: list[str] = []
    sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")
    n_ctx: int = Field(8192, ge=512)
    source: str = ""
    description: str = ""
    chat_template: str | None = None

    @model_validator(mode="after")
    def _one_location(self) -> ModelEntry:
        if not (self.file or self.package or self.parts):
            raise ValueError(f"model {self.name}: give file, package or parts")
        if self.file and (self.package or self.parts):
            raise ValueError(f"model {self.name}: give either file or package/parts, not both")
        return self


class ModelCatalog(BaseModel):
    """`models/models.yaml`: every model the gateway may load."""

    model_config = ConfigDict(extra="forbid")
    models: list[ModelEntry]

    def get(self, name: str) -> ModelEntry:
        for entry in self.models:
            if entry.name == name:
                return entry
        raise ModelError(f"no model named {name!r} in the catalog; known: {', '.join(self.names)}")

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.models]


def catalog_path(settings: Settings) -> Path:
    return settings.resolve(settings.model.catalog)


def models_dir(settings: Settings) -> Path:
    return catalog_path(settings).parent


def load_catalog(path: Path) -> ModelCatalog:
    return read_yaml_model(
        path, ModelCatalog, ModelError, "model catalog", "a mapping with a `models` list", prefix="invalid entry at "
    )


def save_catalog(path: Path, catalog: ModelCatalog) -> None:
    data = {"models": [m.model_dump(exclude_defaults=True) | {"name": m.name} for m in catalog.models]}
    ordered = {"models": [{k: d[k] for k in ModelEntry.model_fields if k in d} for d in data["models"]]}
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(HEADER + yaml.safe_dump(ordered, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    os.replace(tmp, path)


# -- locating files -------------------------------------------------------------------------------
def package_dir(package: str) -> Path:
    """The installed directory of `package`, without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"package {package!r} is not installed (pip install {package.replace('_', '-')})")
    return Path(list(spec.submodule_search_locations)[0])


def _part_files(entry: ModelEntry) -> list[Path]:
    files = []
    for pkg in entry.parts:
        found = sorted(package_dir(pkg).rglob("*.gguf.part*"))
        if not found:
            raise ModelError(f"model {entry.name}: package {pkg} holds no *.gguf.part* file")
        files.extend(found)
    return files


def model_path(settings: Settings, entry: ModelEntry) -> Path:
    """Where the entry's GGUF is (assembling `parts` on first use). Raises ModelError if absent."""
    if entry.file:
        path = Path(entry.file)
        path = path if path.is_absolute() else models_dir(settings) / path
        if not path.is_file():
            raise ModelError(
                f"model {entry.name}: file {path} is missing; place the GGUF there "
                f"(see models/README.md) or run `edge-agent models add {entry.name} FILE`"
            )
        return path
    if entry.parts:
        parts = _part_files(entry)
        name = re.sub(r"\.part\d+$", "", parts[0].name)
        target = settings.state_dir / "models" / name
        if not target.is_file():
            _assemble(parts, target)
        return target
    if entry.package is None:  # ModelEntry's validator refuses such an entry
        raise ModelError(f"model {entry.name}: gives no file, package or parts")
    found = sorted(package_dir(entry.package).rglob("*.gguf"))
    if not found:
        raise ModelError(f"model {entry.name}: package {entry.package} holds no .gguf file")
    return found[0]


def _assemble(parts: list[Path], target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".partial")
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as fh:
                while block := fh.read(1 << 20):
                    out.write(block)
    os.replace(tmp, target)


# -- checksums -----------------------------------------------------------------------------------
def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class ChecksumCache:
    """sha256 per (path, size, mtime), so a file is hashed once per version."""

    def __init__(self, path: Path):
        self.path = path
        try:
            self.data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.data = {}

    def sha256(self, file: Path) -> tuple[str, bool]:
        """(digest, whether it came from the cache)."""
        st = file.stat()
        key = str(file.resolve())
        hit = self.data.get(key)
        if hit and hit.get("size") == st.st_size and hit.get("mtime_ns") == st.st_mtime_ns:
            return hit["sha256"], True
        digest = sha256_file(file)
        self.data[key] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.data, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass
        return digest, False


def checksum_cache(settings: Settings) -> ChecksumCache:
    return ChecksumCache(settings.state_dir / "model-checksums.json")


def verify(settings: Settings, entry: ModelEntry) -> Path:
    """The entry's file, after checking it against the pinned sha256 (once per file version)."""
    path = model_path(settings, entry)
    if not entry.sha256:
        raise ModelError(
            f"model {entry.name}: no sha256 pinned in the catalog; run "
            f"`edge-agent models add {entry.name} {path}` to pin it"
        )
    digest, _ = checksum_cache(settings).sha256(path)
    if digest != entry.sha256:
        raise ModelError(
            f"model {entry.name}: checksum mismatch for {path}: expected {entry.sha256}, "
            f"file has {digest}. Refusing to load it (replace the file, or pin the new one "
            f"with `edge-agent models add {entry.name} {path}`)"
        )
    return path


def load_model(settings: Settings, name: str | None = None) -> LlamaRuntime:
    """A ready `LlamaRuntime` for catalog entry `name` (default: settings.model.name)."""
    entry = load_catalog(catalog_path(settings)).get(name or settings.model.name)
    path = verify(settings, entry)
    m = settings.model
    return LlamaRuntime(
        path,
        model_name=entry.name,
        sha256=entry.sha256 or "",
        n_ctx=min(m.n_ctx, entry.n_ctx),
        n_batch=m.n_batch,
        n_ubatch=m.n_ubatch,
        flash_attn=m.flash_attn,
        threads=m.threads,
        seed=m.seed,
        temperature=m.temperature,
        chat_template=entry.chat_template,
        kv_cache_dir=settings.kv_cache_dir,
        persist_prefix_cache=m.persist_prefix_cache,
        prefix_states_per_role=m.prefix_states_per_role,
        interrupt_tokens=m.interrupt_tokens,
    )


def add_model(
    settings: Settings,
    name: str,
    file: Path,
    *,
    n_ctx: int | None = None,
    source: str = "",
    description: str = "",
    chat_template: str | None = None,
) -> ModelEntry:
    """Hash `file` and write (or replace) the catalog entry `name` pinning it."""
    file = Path(file).resolve()
    if not file.is_file():
        raise ModelError(f"{file} is not a file")
    with file.open("rb") as fh:
        if fh.read(4) != b"GGUF":
            raise ModelError(f"{file} is not a GGUF file")
    digest, _ = checksum_cache(settings).sha256(file)
    base = models_dir(settings).resolve()
    stored = str(file.relative_to(base)) if file.is_relative_to(base) else str(file)
    path = catalog_path(settings)
    catalog = load_catalog(path) if path.exists() else ModelCatalog(models=[])
    old = next((m for m in catalog.models if m.name == name), None)
    entry = ModelEntry(
        name=name,
        file=stored,
        sha256=digest,
        n_ctx=n_ctx or (old.n_ctx if old else 8192),
        source=source or (old.source if old else ""),
        description=description or (old.description if old else ""),
        chat_template=chat_template if chat_template is not None else (old.chat_template if old else None),
    )
    catalog.models = [entry if m.name == name else m for m in catalog.models] if old else catalog.models + [entry]
    save_catalog(path, catalog)
    return entry
