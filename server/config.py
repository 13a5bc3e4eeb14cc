"""Server settings: one definition per setting, read from the command line or the environment.

Every setting has a default, an environment variable (``DVORAK_...``) and, for
``dvorak-mush serve``, a command-line flag; the flag wins over the variable, and the
variable over the default. ``dvorak-mush serve --help`` lists them all.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.metadata
import os
import socket
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


def _setting(default: Any, env: str, help: str, secret: bool = False) -> Any:
    """A setting: its default, its environment variable, its help. A ``secret`` one is
    read from the environment only (a command line is seen by every user of the host)
    and never shown."""
    return dataclasses.field(default=default, repr=not secret, metadata={"env": env, "help": help, "flag": not secret})


def on_off(text: str) -> bool:
    """A flag setting's value: on/off, yes/no, true/false, 1/0."""
    word = text.strip().lower()
    if word in ("1", "on", "yes", "true"):
        return True
    if word in ("0", "off", "no", "false", ""):
        return False
    raise ValueError(text)


def _parser(kind: type) -> Callable[[str], Any]:
    return on_off if kind is bool else kind


class _Refused(argparse.Action):
    """A flag for a secret setting, which is not taken on the command line."""

    def __init__(self, *args: Any, env: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.env = env

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option: str | None = None) -> None:
        parser.error(
            f"{option} is not taken on the command line, where every user of the host can read it: "
            f"set {self.env}_FILE (a file holding it) or {self.env}"
        )


@dataclasses.dataclass(frozen=True)
class Settings:
    """Everything that can be configured about one server process."""

    host: str = _setting("127.0.0.1", "DVORAK_HOST", "address to listen on")
    port: int = _setting(6250, "DVORAK_PORT", "telnet port (6250 was the original Dvorak MUSH's)")
    data_dir: str = _setting("./data", "DVORAK_DATA_DIR", "directory for the SQLite database")
    database_url: str = _setting(
        "",
        "DVORAK_DATABASE_URL",
        "SQLAlchemy URL, e.g. postgresql+asyncpg://user@host/db (default: SQLite in the data dir)",
    )
    database_timeout: float = _setting(
        10.0,
        "DVORAK_DATABASE_TIMEOUT",
        "seconds to wait for the database (its lock, its answer) before a command fails",
    )
    log_level: str = _setting("info", "DVORAK_LOG_LEVEL", "debug, info, warning or error")
    log_format: str = _setting(
        "text",
        "DVORAK_LOG_FORMAT",
        "text, or json: one JSON object a line (time, level, logger, message, exception), for log shippers",
    )
    event_loop: str = _setting("auto", "DVORAK_EVENT_LOOP", "asyncio, uvloop, or auto (uvloop where it is installed)")
    max_line_length: int = _setting(8192, "DVORAK_MAX_LINE_LENGTH", "longest input line accepted, in characters")
    login_failure_limit: int = _setting(
        5, "DVORAK_LOGIN_FAILURE_LIMIT", "failed logins allowed per address within the window"
    )
    login_failure_window: float = _setting(
        60.0, "DVORAK_LOGIN_FAILURE_WINDOW", "seconds over which failed logins are counted"
    )
    negotiation_wait: float = _setting(
        0.5,
        "DVORAK_NEGOTIATION_WAIT",
        "seconds to wait for telnet negotiation before greeting a client that does not negotiate",
    )
    shutdown_grace: float = _setting(5.0, "DVORAK_SHUTDOWN_GRACE", "seconds to let running commands finish on shutdown")
    shutdown_countdown: float = _setting(
        0.0,
        "DVORAK_SHUTDOWN_COUNTDOWN",
        "seconds to count down, telling the players, between SIGTERM (or SIGINT) and the shutdown; a second "
        "signal stops at once (0: stop at once)",
    )
    argon2_time_cost: int = _setting(
        2, "DVORAK_ARGON2_TIME_COST", "argon2id passes per password hash (OWASP minimum: 2)"
    )
    argon2_memory_kib: int = _setting(
        19456, "DVORAK_ARGON2_MEMORY_KIB", "argon2id memory per password hash, KiB (OWASP minimum: 19456)"
    )
    max_connections: int = _setting(5000, "DVORAK_MAX_CONNECTIONS", "most connections at once, in all")
    max_connections_per_address: int = _setting(
        20, "DVORAK_MAX_CONNECTIONS_PER_ADDRESS", "most connections at once from one address"
    )
    login_timeout: float = _setting(120.0, "DVORAK_LOGIN_TIMEOUT", "seconds a connection may stay without logging in")
    command_rate: float = _setting(20.0, "DVORAK_COMMAND_RATE", "commands per second a connection may send, on average")
    command_burst: int = _setting(
        100,
        "DVORAK_COMMAND_BURST",
        "commands a connection may send at once before being paced (every line counts, empty or not, "
        "and every command split out of a pasted line)",
    )
    flood_seconds: float = _setting(
        30.0,
        "DVORAK_FLOOD_SECONDS",
        "seconds a connection may stay over the command rate without a pause before it is cut off",
    )
    input_rate: float = _setting(
        8192.0,
        "DVORAK_INPUT_RATE",
        "bytes a second a connection may send on average, telnet commands included; "
        "past it, the server stops reading from it until the rate allows more",
    )
    input_burst: int = _setting(
        65536, "DVORAK_INPUT_BURST", "bytes a connection may send at once before the input rate applies"
    )
    output_limit: int = _setting(
        1_048_576,
        "DVORAK_OUTPUT_LIMIT",
        "bytes of output a client may leave unread before it is cut off (its seat is kept)",
    )
    speech_rate: float = _setting(
        4096.0,
        "DVORAK_SPEECH_RATE",
        "bytes a second one player's talk (say, pose, @emit, page) may send others on average, all their "
        "connections together, eight seconds' worth at once; past it, what they say is refused until it allows more",
    )
    speech_rate_per_address: float = _setting(
        16384.0,
        "DVORAK_SPEECH_RATE_PER_ADDRESS",
        "the same for everyone connected from one address together",
    )
    writes_per_hour: int = _setting(
        300,
        "DVORAK_WRITES_PER_HOUR",
        "cards and proposals (newcard, newrule, editcard, loadcard, loadrule) one player may write in an hour",
    )
    saved_bytes_per_hour: int = _setting(
        32 * 1024 * 1024,
        "DVORAK_SAVED_BYTES_PER_HOUR",
        "bytes of saved decks (savedeck, saving over one's own included) one player may write in an hour",
    )
    password_checks_per_minute: float = _setting(
        20.0,
        "DVORAK_PASSWORD_CHECKS_PER_MINUTE",
        "password hashes (logins, new players, room passwords, @password, @delete) one address may have the "
        "server compute in a minute, on average, as many at once; one logged-in player a third of that",
    )
    max_cards_per_room: int = _setting(
        2000,
        "DVORAK_MAX_CARDS_PER_ROOM",
        "cards and special rules a room may hold, pending and rejected ones included (removed ones are not counted)",
    )
    max_rooms_per_player: int = _setting(
        5,
        "DVORAK_MAX_ROOMS_PER_PLAYER",
        "rooms a player may host at once (a room the player made counts until someone else hosts it)",
    )
    max_saved_decks: int = _setting(20, "DVORAK_MAX_SAVED_DECKS", "saved decks a player may keep")
    max_saved_deck_bytes: int = _setting(
        8 * 1024 * 1024, "DVORAK_MAX_SAVED_DECK_BYTES", "bytes the saved decks of one player may take up in all"
    )
    accounts_per_address: int = _setting(
        10, "DVORAK_ACCOUNTS_PER_ADDRESS", "players that may be made from one address in an hour"
    )
    room_unload_seconds: float = _setting(
        60.0,
        "DVORAK_ROOM_UNLOAD_SECONDS",
        "seconds a room nobody on this node is in stays in memory (it is read from the database when next used)",
    )
    away_grace_seconds: float = _setting(
        300.0,
        "DVORAK_AWAY_GRACE_SECONDS",
        "seconds a seated player may be disconnected before votes are counted without them (until they are back)",
    )
    room_archive_seconds: float = _setting(
        30 * 24 * 3600.0,
        "DVORAK_ROOM_ARCHIVE_SECONDS",
        "seconds a room with nobody in it and no moves may stay before it is archived: no longer listed, its name "
        "free, its log kept (0: never)",
    )
    account_delete_days: float = _setting(
        7.0,
        "DVORAK_ACCOUNT_DELETE_DAYS",
        "days between a player asking for their account to be deleted (@delete me) and its deletion, "
        "during which @delete/cancel keeps it",
    )
    workers: int = _setting(
        0,
        "DVORAK_WORKERS",
        "worker processes serving the same ports, each a node of the cluster named <node name>-w<i> (several "
        "need PostgreSQL and an MQTT broker); 0: one per core with PostgreSQL and --mqtt-url, else one",
    )
    handoff: bool = _setting(
        True,
        "DVORAK_HANDOFF",
        "with several workers, hand a telnet player who sits down in (or watches) a room to the worker serving "
        "that room, so that a table is played on one worker (on, off: each stays where the kernel put it)",
    )
    tls_port: int = _setting(6251, "DVORAK_TLS_PORT", "port for telnet over TLS, when a certificate is given")
    tls_cert: str = _setting("", "DVORAK_TLS_CERT", "TLS certificate file (PEM); with a key, turns TLS on")
    tls_key: str = _setting("", "DVORAK_TLS_KEY", "TLS private key file (PEM)")
    web: bool = _setting(
        True, "DVORAK_WEB", "serve the browser client (the page and its WebSocket) on the web port (on, off)"
    )
    web_port: int = _setting(
        6280, "DVORAK_WEB_PORT", "port for the browser client (https/wss there when a TLS certificate is given)"
    )
    web_origins: str = _setting(
        "",
        "DVORAK_WEB_ORIGINS",
        "other origins (comma-separated, e.g. https://play.example.org) whose pages may open the WebSocket; "
        "the server's own is always allowed",
    )
    web_hosts: str = _setting(
        "",
        "DVORAK_WEB_HOSTS",
        "the names (comma-separated, e.g. play.example.org) browsers reach the web port by, besides an address "
        "and localhost; a WebSocket asked for by any other name (DNS rebinding) is refused. The names of "
        "--web-origins count too",
    )
    web_header_timeout: float = _setting(
        10.0,
        "DVORAK_WEB_HEADER_TIMEOUT",
        "seconds a connection to the web port has to send a request's headers before it is closed",
    )
    web_pending_per_address: int = _setting(
        64,
        "DVORAK_WEB_PENDING_PER_ADDRESS",
        "connections to the web port one address may hold that are not (yet) a game's WebSocket: page and file "
        "requests, and those still sending their headers",
    )
    metrics_port: int = _setting(
        0,
        "DVORAK_METRICS_PORT",
        "port serving only /metrics (Prometheus) and /healthz, on the same host address, for scrapers and health "
        "checks kept off the players' web port (0: none; the web port serves both anyway); with several workers, "
        "worker i's is this port + i - 1",
    )
    web_proxy_from: str = _setting(
        "",
        "DVORAK_WEB_PROXY_FROM",
        "addresses or networks (comma-separated) of reverse proxies in front of the web port whose "
        "X-Forwarded-For is believed (default: none)",
    )
    server_name: str = _setting("Dvorak MUSH", "DVORAK_SERVER_NAME", "the name MUD listings (MSSP) show")
    mqtt_url: str = _setting(
        "",
        "DVORAK_MQTT_URL",
        "MQTT broker linking this node to the others that share its database, e.g. mqtt://127.0.0.1:1883 "
        "(default: none; the node runs alone)",
    )
    node_name: str = _setting(
        "", "DVORAK_NODE_NAME", "this node's name among the nodes, unique to each (default: <hostname>-<port>)"
    )
    mqtt_prefix: str = _setting(
        "dvorak", "DVORAK_MQTT_PREFIX", "MQTT topic prefix, so that several worlds can share one broker"
    )
    proxy_protocol: bool = _setting(
        False,
        "DVORAK_PROXY_PROTOCOL",
        "expect every connection to start with a PROXY protocol (v1) header giving the player's address, "
        "as HAProxy's send-proxy sends; only behind such a balancer (on, off)",
    )
    proxy_from: str = _setting(
        "127.0.0.1,::1",
        "DVORAK_PROXY_FROM",
        "with the PROXY protocol on: addresses or networks (comma-separated) of the balancers whose PROXY "
        "headers are believed; anyone else connecting is served at their own address",
    )
    cluster_heartbeat: float = _setting(
        2.0,
        "DVORAK_CLUSTER_HEARTBEAT",
        "seconds between a node's presence announcements and its check of its rooms against the database; "
        "a node silent for three is taken to be gone",
    )
    cluster_secret_file: str = _setting(
        "",
        "DVORAK_CLUSTER_SECRET_FILE",
        "file holding the secret every node of the world signs its MQTT messages with (required with "
        "--mqtt-url; at least 32 random characters, e.g. from `openssl rand -hex 32`); or give the secret "
        "itself in DVORAK_CLUSTER_SECRET",
    )
    cluster_secret: str = _setting(
        "", "DVORAK_CLUSTER_SECRET", "the cluster's secret itself (environment only)", secret=True
    )

    @property
    def resolved_database_url(self) -> str:
        """The database URL to use: the given one, or a SQLite file in the data directory."""
        if self.database_url:
            return self.database_url
        path = Path(self.data_dir).expanduser().resolve() / "dvorak.sqlite3"
        return f"sqlite+aiosqlite:///{path}"

    @property
    def resolved_cluster_secret(self) -> str:
        """The secret the nodes sign their messages with: the file's contents (without the
        spaces and line ends around them), or the variable's; empty if neither is given.
        Raises OSError if the file cannot be read."""
        if self.cluster_secret_file:
            return Path(self.cluster_secret_file).expanduser().read_text(encoding="utf-8").strip()
        return self.cluster_secret

    @property
    def resolved_node_name(self) -> str:
        """This node's name: the given one, or the host's name and the telnet port."""
        return self.node_name or f"{socket.gethostname()}-{self.port}"

    @classmethod
    def from_sources(
        cls, arguments: argparse.Namespace | None = None, environ: Mapping[str, str] | None = None
    ) -> Settings:
        """Build settings from parsed command-line ``arguments`` and ``environ``."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            kind = type(field.default)
            given = getattr(arguments, field.name, None) if arguments is not None else None
            if given is not None:
                values[field.name] = given
            elif field.metadata["env"] in environ:
                raw = environ[field.metadata["env"]]
                try:
                    values[field.name] = _parser(kind)(raw)
                except ValueError:
                    raise SystemExit(f"{field.metadata['env']}={raw!r} is not a valid {kind.__name__}.") from None
        return cls(**values)

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser, only: tuple[str, ...] = ()) -> None:
        """Add a ``--flag`` for each setting (or those named in ``only``) to ``parser``."""
        for field in dataclasses.fields(cls):
            if only and field.name not in only:
                continue
            flag = "--" + field.name.replace("_", "-")
            if not field.metadata["flag"]:
                # Taken, only to be refused: else argparse would read it as the start of
                # another flag's name (--cluster-secret for --cluster-secret-file).
                parser.add_argument(flag, action=_Refused, env=field.metadata["env"], help=argparse.SUPPRESS)
                continue
            parser.add_argument(
                flag,
                type=_parser(type(field.default)),
                default=None,
                metavar=field.name.upper() if field.name != "database_url" else "URL",
                help=f"{field.metadata['help']} [env {field.metadata['env']}; default {field.default!r}]",
            )
            if field.default is True:
                parser.add_argument(
                    "--no-" + field.name.replace("_", "-"),
                    dest=field.name,
                    action="store_const",
                    const=False,
                    help=f"the same as {flag} off",
                )


def installed_version() -> str:
    """The version of the installed dvorak-mush package (pyproject.toml's)."""
    try:
        return importlib.metadata.version("dvorak-mush")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed: run it from an installed package to know its version)"
