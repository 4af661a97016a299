"""Settings: `config/edge-agent.yaml`, then `--config FILE`, then `EDGE_AGENT_<SECTION>__<KEY>` variables.

Everything is validated by pydantic models (unknown keys are errors); a bad value raises
`ConfigError` whose message names the key, and the CLI turns that into exit code 2.
Secrets never need to be in the YAML: `resolve_secret` reads an environment variable, a file,
or a systemd credential (`LoadCredential=` → `$CREDENTIALS_DIRECTORY/<name>`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from edge_agent import PROJECT_ROOT

M = TypeVar("M", bound=BaseModel)

DEFAULT_CONFIG = PROJECT_ROOT / "config" / "edge-agent.yaml"
ENV_PREFIX = "EDGE_AGENT_"
#: the plugin folder's name, and the name it had before issue 43 (`tools`, with the key `paths.tools_dir`): a gateway's
#: config copied from an older checkout names them, and is read as if it named the new ones (`_renamed_keys`)
PLUGINS_DIR, OLD_PLUGINS_DIR = "plugins", "tools"

Strategy = Literal["react", "react-review", "reactxen"]
#: the strategies, in order (the CLI's choices)
STRATEGIES: tuple[Strategy, ...] = get_args(Strategy)


class ConfigError(ValueError):
    """A setting is missing or invalid; the message names the key."""


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelSettings(Section):
    name: str = "smollm2-135m"
    catalog: Path = Path("models/models.yaml")
    threads: int | None = Field(None, ge=1, description="CPU threads; None = all cores")
    n_ctx: int = Field(8192, ge=512)
    n_batch: int = Field(512, ge=8)
    n_ubatch: int | None = Field(256, ge=8, description="tokens per compute step; None = n_batch")
    #: off: on this CPU llama.cpp's flash attention made every short evaluation after a long prefix slow
    #: (36 question tokens after a 3k prefix: 1.5 s on, 0.7 s off; generation 1.4x slower), which is what an
    #: agent step is; on: long prefills ~1.3x faster and a smaller compute buffer (bench/reports/
    #: 2026-11-23-example-groups/restart-*.txt). Turn it on for GPU builds.
    flash_attn: bool = Field(False, description="llama.cpp flash attention")
    seed: int = 0
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    persist_prefix_cache: bool = True
    #: saved prefix states kept per role, on disk (each is the KV cache of a prompt prefix: SmolLM2 with a
    #: 3k-token prefix 73 MB, an 8B Q4 about 400 MB). The react role needs one for the part every question
    #: shares and one per example group (5 shipped). Without persistence at most 2 are kept, in memory.
    prefix_states_per_role: int = Field(8, ge=1, le=64)
    #: a request's cancel and the daemon's stop are looked at after every this many prompt tokens evaluated
    #: (and every generated token): an 8B on an N100 evaluates 64 tokens in ~10 s. Smaller stops sooner;
    #: the evaluation cost of the chunks is measured by bench/interrupt_chunks.py
    interrupt_tokens: int = Field(64, ge=8, le=4096)


class AgentSettings(Section):
    strategy: Strategy = "reactxen"
    max_steps: int = Field(8, ge=1, le=100)
    max_trials: int = Field(3, ge=1, le=20)
    trial_token_budget: int = Field(60000, ge=1000, description="prompt+generated tokens per trial")
    step_max_tokens: int = Field(320, ge=16)  # long names in other scripts (Kühlturm, ü = 2 tokens) take more
    thought_max_chars: int = Field(120, ge=20)
    answer_max_chars: int = Field(600, ge=20)
    observation_max_chars: int = Field(500, ge=80)
    examples_token_budget: int = Field(2500, ge=0)
    #: core: measured as good as grouped on pokmain and rchmain with SmolLM2 (closed answers, constrained
    #: steps) at half the prompt; grouped: for larger models and for the examples `tts generate` makes
    examples: Literal["core", "grouped"] = Field(
        "core", description="core: the core examples only; grouped: then the group of the question's kind"
    )
    distill: bool = True
    loop_repeats: int = Field(2, ge=1, description="repeats that trigger loop feedback; one more ends the trial")
    timezone: str | None = Field(None, description="site timezone for --now and dates; None = system local")


class SkySparkSettings(Section):
    url: str = "http://127.0.0.1:8911"
    project: str = "demo"
    username: str = "operator"
    password: SecretStr | None = None
    password_file: Path | None = None
    timeout_s: float = Field(10.0, gt=0)
    retries: int = Field(3, ge=0)
    max_history_days: int = Field(400, ge=1)
    encoding: Literal["json", "zinc"] = Field("json", description="Haystack wire format of requests/responses")
    api_path: str = Field("api/{project}", description="endpoint path under url; {project} is replaced")
    auth: Literal["scram", "none"] = Field("scram", description="none only for servers without login")
    point_lookback_days: int = Field(3, ge=1, description="how far back a point query looks for a value")
    #: the daemon waits out a SkySpark that cannot be reached (or answers too slowly) this long, counted from
    #: the outage's start: its jobs stay queued, in order, and run again once it answers; past it, each gets
    #: one error. 0: fail at once, as `edge-agent ask` does
    outage_wait_s: float = Field(900.0, ge=0)
    #: while waiting, the SkySpark is asked again after 5 s, then twice as long each time, at most this long
    outage_retry_s: float = Field(60.0, gt=0)


class TLSSettings(Section):
    enabled: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None


class MQTTSettings(Section):
    host: str = "127.0.0.1"
    port: int = Field(1883, ge=1, le=65535)
    gateway_id: str = Field("gw1", pattern=r"^[A-Za-z0-9_.-]+$")
    #: None: the user name where there is one (the shipped broker config makes every client id its user name:
    #: `use_username_as_clientid`), else edge-agent-<gateway_id>
    client_id: str | None = None
    username: str | None = None
    #: the reply connection's user (None: <username>-replies); it logs in with the same password. Under
    #: `use_username_as_clientid` two connections of one user would take each other's client id
    reply_username: str | None = None
    password: SecretStr | None = None
    password_file: Path | None = None
    tls: TLSSettings = TLSSettings()
    keepalive_s: int = Field(30, ge=5)
    session_expiry_s: int = Field(86400, ge=0)
    max_question_chars: int = Field(4000, ge=1)
    max_payload_bytes: int = Field(65536, ge=1024)
    file_chunk_bytes: int = Field(65536, ge=1024)
    ask_timeout_s: float = Field(120.0, gt=0)
    shared_group: str | None = Field(
        None, pattern=r"^[A-Za-z0-9_.-]+$", description="MQTT v5 shared subscription group for scale-out"
    )
    worker_stall_s: float = Field(900.0, gt=0, description="no worker progress this long = unhealthy (watchdog)")
    group_commit: bool = Field(True, description="store requests that arrive together in one transaction")
    group_commit_max: int = Field(256, ge=1, description="at most this many messages per transaction")
    max_inflight: int = Field(
        100,
        ge=1,
        le=65535,
        description="QoS 1 replies sent before their PUBACKs (lowered to the broker's Receive Maximum from CONNACK)",
    )
    #: broker users (= client ids) whose requests may name the person they ask for (`on_behalf_of`): the console
    trusted_consoles: list[str] = Field(default_factory=list)
    reply_connection: bool = Field(
        True,
        description="replies go out on a second connection (client id + "
        "'-replies'), not behind the PUBACKs of the session connection",
    )
    max_queued_per_client: int = Field(
        100,
        ge=0,
        description="jobs one requester may have queued or running; more are refused with quota_exceeded (0: no limit)",
    )
    max_packet_bytes: int = Field(
        262144,
        ge=1024,
        description="the largest MQTT packet the daemon sends: the "
        "broker's Maximum Packet Size from CONNACK when smaller",
    )
    reply_attempts: int = Field(
        3,
        ge=1,
        description="a reply the broker refuses (or closes the connection on) "
        "this often is moved to dead_letters, its requester told (not_delivered)",
    )
    broker_queue_limit: int = Field(
        100000,
        ge=0,
        description="the broker's max_queued_messages: a session "
        "backlog near it is shown in the status and the metrics (0: not watched)",
    )


class ConsoleSettings(Section):
    """`edge-agent console`: the operator web page (docs/console.md); its own process, an MQTT client of the daemon."""

    host: str = Field("127.0.0.1", description="address to listen on")
    port: int = Field(8080, ge=0, le=65535)
    #: the console's users (argon2 hashes, roles); relative: under the state directory. `edge-agent users add`
    users_file: Path = Path("console-users.yaml")
    tls_cert_file: Path | None = Field(None, description="HTTPS certificate (PEM); with tls_key_file")
    tls_key_file: Path | None = None
    #: plain HTTP is served on a loopback address only, unless this is set (behind a TLS-terminating proxy)
    allow_plain_http: bool = False
    #: the console's own broker user (= client id under the shipped broker config); its password: mqtt_password,
    #: mqtt_password_file, or the systemd credential `mqtt-password` of the console's unit
    mqtt_username: str | None = "edge-agent-console"
    mqtt_password: SecretStr | None = None
    mqtt_password_file: Path | None = None
    session_ttl_s: float = Field(8 * 3600, gt=0, description="a login lasts this long")
    login_failures: int = Field(
        5,
        ge=1,
        description="failed logins for one user from one address in login_window_s before each further attempt "
        "of that user from there waits (HTTP 429 with Retry-After); colleagues at the same address are not delayed",
    )
    login_address_failures: int = Field(
        50,
        ge=1,
        description="failed logins from one address, whatever the user names, in login_window_s before every "
        "attempt from there waits (one machine trying many names)",
    )
    login_window_s: float = Field(300.0, gt=0)
    #: a failed login past a limit costs the next attempt with that key (the user at that address; the address)
    #: this much more wait, doubling each time up to login_max_delay_s; no user is ever locked out from elsewhere
    login_delay_s: float = Field(1.0, ge=0)
    login_max_delay_s: float = Field(30.0, ge=0)
    #: reverse proxies in front of the console (addresses or networks): only from these is X-Forwarded-For read
    #: for the client's address (docs/console.md, behind a reverse proxy)
    trusted_proxies: list[str] = Field(default_factory=list)
    #: a finished request stays in the console's memory this long after its final reply, then is served from the
    #: run log (memory stays flat however many requests are asked)
    answer_timeout_s: float = Field(60.0, ge=0)
    #: at most this many finished requests are kept in memory meanwhile (the oldest leave first): a burst of asks
    #: cannot grow the console's memory past this
    keep_finished: int = Field(100, ge=0)
    history_page_size: int = Field(50, ge=1, le=500)

    @field_validator("trusted_proxies")
    @classmethod
    def _addresses(cls, value: list[str]) -> list[str]:
        import ipaddress

        for entry in value:
            try:
                ipaddress.ip_network(entry.strip(), strict=False)
            except ValueError:
                raise ValueError(f"{entry!r} is not an IP address or network") from None
        return value


class PathSettings(Section):
    state_dir: Path = Path("var")
    #: the agent's tools, loaded by path, one module per family (`toolkit.ToolRegistry.from_dir`); the built-in
    #: tools (Finish, Self-Ask, agentask) are not files: the runtime's own, in `edge_agent/toolkit.py`
    plugins_dir: Path = Path(PLUGINS_DIR)
    tts_dir: Path = Path("tts")

    @field_validator("plugins_dir")
    @classmethod
    def _renamed_folder(cls, value: Path) -> Path:
        """`tools`, the folder's name before issue 43 (in a config copied from an older checkout), is `plugins`."""
        return Path(PLUGINS_DIR) if value == Path(OLD_PLUGINS_DIR) else value


class MetricsSettings(Section):
    """Prometheus `/metrics` (docs/metrics.md): off by default, on loopback by default."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = Field(9464, ge=0, le=65535, description="0: a free port (tests), logged at start")


class AuditSettings(Section):
    """The append-only audit trail (docs/audit.md) in the queue database, written with each job's own commit."""

    enabled: bool = True
    retention_days: float = Field(365.0, ge=0, description="rows older than this are deleted; 0 = kept forever")


class HomeAssistantSettings(Section):
    """Home Assistant MQTT discovery (docs/homeassistant.md): off by default."""

    enabled: bool = False
    discovery_prefix: str = Field("homeassistant", pattern=r"^[A-Za-z0-9_/-]+$")
    #: the HA connection's broker user (None: <mqtt.username>-ha, else <client id>-ha); same password
    username: str | None = None
    state_interval_s: float = Field(30.0, gt=0, description="queue depth and counts are published this often")
    #: the last question and answer on the state topic (a "Last answer" sensor). Off: every requester's last
    #: question and answer would be readable by everyone who may read `B/ha/state` (Home Assistant's user)
    share_answers: bool = False


class Settings(Section):
    model: ModelSettings = ModelSettings()
    agent: AgentSettings = AgentSettings()
    skyspark: SkySparkSettings = SkySparkSettings()
    mqtt: MQTTSettings = MQTTSettings()
    console: ConsoleSettings = ConsoleSettings()
    paths: PathSettings = PathSettings()
    metrics: MetricsSettings = MetricsSettings()
    audit: AuditSettings = AuditSettings()
    homeassistant: HomeAssistantSettings = HomeAssistantSettings()

    # Derived locations ----------------------------------------------------------------
    def resolve(self, path: Path) -> Path:
        """Relative paths in the config are relative to the project root."""
        return path if path.is_absolute() else PROJECT_ROOT / path

    @property
    def state_dir(self) -> Path:
        return self.resolve(self.paths.state_dir)

    @property
    def plugins_dir(self) -> Path:
        """The folder the agent's tools are loaded from (`paths.plugins_dir`, resolved)."""
        return self.resolve(self.paths.plugins_dir)

    @property
    def db_path(self) -> Path:
        return self.state_dir / "edge-agent.db"

    @property
    def files_dir(self) -> Path:
        return self.state_dir / "files"

    @property
    def kv_cache_dir(self) -> Path:
        return self.state_dir / "kv"


def _set_path(tree: dict, keys: list[str], value: Any) -> None:
    for key in keys[:-1]:
        tree = tree.setdefault(key, {})
        if not isinstance(tree, dict):
            raise ConfigError(f"{'.'.join(keys)}: cannot set a key inside a non-section value")
    tree[keys[-1]] = value


def env_overrides(environ: Mapping[str, str] | None = None) -> dict:
    """`EDGE_AGENT_AGENT__MAX_STEPS=5` → {"agent": {"max_steps": 5}} (values parsed as YAML scalars)."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    tree: dict = {}
    for name, raw in env.items():
        if not name.startswith(ENV_PREFIX) or "__" not in name or name == ENV_PREFIX + "CONFIG":
            continue
        keys = [k.lower() for k in name[len(ENV_PREFIX) :].split("__")]
        try:
            value = yaml.safe_load(raw) if raw.strip() else None
        except yaml.YAMLError:
            value = raw
        if isinstance(value, (dict, list)):
            value = raw
        _set_path(tree, keys, value)
    return tree


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def load_yaml(text: str):
    """`yaml.safe_load` through libyaml where PyYAML has it (the trajectory store's files: 10x faster)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_yaml_mapping(
    path: Path, error: type[Exception] | None = None, what: str = "config file", shape: str = "a mapping of sections"
) -> dict:
    """Read a YAML file whose top level must be a mapping; problems raise `error` naming the file."""
    error = error or ConfigError
    try:
        data = load_yaml(Path(path).read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise error(f"{what} not found: {path}") from None
    except yaml.YAMLError as exc:
        raise error(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise error(f"{path}: the top level must be {shape}")
    return data


def read_yaml_model(path: Path, model: type[M], error: type[Exception], what: str, shape: str, prefix: str = "") -> M:
    """Read a YAML mapping file into the pydantic `model`; a problem raises `error` naming the file and,
    for invalid content, the first key at fault."""
    data = read_yaml_mapping(path, error, what, shape)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise error(f"{path}: {prefix}{where}: {first['msg']}") from None


def _read_yaml(path: Path) -> dict:
    return read_yaml_mapping(path)


def _renamed_keys(layer: dict) -> dict:
    """One layer of settings (a file, the environment, overrides) with the old key `paths.tools_dir` read as
    `paths.plugins_dir`; within one layer the new key wins. Done per layer, before the layers are merged, so that an
    operator's file naming the old key still overrides the default file's new one."""
    paths = layer.get("paths")
    if not isinstance(paths, dict) or "tools_dir" not in paths:
        return layer
    paths = dict(paths)
    old = paths.pop("tools_dir")
    paths.setdefault("plugins_dir", old)
    return {**layer, "paths": paths}


def load_settings(
    path: Path | str | None = None,
    overrides: dict | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Load the default config, then `path`, then environment variables, then `overrides`."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    data: dict = _renamed_keys(_read_yaml(DEFAULT_CONFIG)) if DEFAULT_CONFIG.exists() else {}
    path = path or env.get(ENV_PREFIX + "CONFIG")
    if path:
        data = _merge(data, _renamed_keys(_read_yaml(Path(path))))
    data = _merge(data, _renamed_keys(env_overrides(env)))
    data = _merge(data, _renamed_keys(overrides or {}))
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(p) for p in first["loc"])
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ConfigError(f"invalid setting {key}: {first['msg']}{more}") from None


def resolve_secret(value: SecretStr | None, file: Path | None, credential: str) -> str | None:
    """A secret from the setting itself, a file, or the systemd credential named `credential`."""
    if value is not None:
        return value.get_secret_value()
    if file is not None:
        return Path(file).read_text(encoding="utf-8").strip()
    cred_dir = os.environ.get("CREDENTIALS_DIRECTORY")
    if cred_dir and (Path(cred_dir) / credential).is_file():
        return (Path(cred_dir) / credential).read_text(encoding="utf-8").strip()
    return None
