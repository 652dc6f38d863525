"""``dragonlair serve``: the online multiplayer server (lobby, seats, bots, spectators)."""

from __future__ import annotations

import copy
import ipaddress
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # the server's modules are imported when it runs, not for --help
    from ..web import ServerConfig
    from ..web.config import MailSettings


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str,
        typer.Option(help="Storage: sqlite:///path/file.sqlite3 or postgresql://user@host/dbname."),
    ] = "sqlite:///dragonlair.sqlite3",
    deadline: Annotated[
        float, typer.Option(min=0.01, help="Default seconds to answer an offer or HALT! window.")
    ] = 15.0,
    confirm: Annotated[
        float,
        typer.Option(
            min=0.1,
            max=30,
            help="Default seconds a decision at a table with undo is held for confirmation.",
        ),
    ] = 5.0,
    away: Annotated[
        float,
        typer.Option(
            min=0,
            help="Default time bank: seconds in all a player may be away during a game "
            "before the table's takeover bot plays for them.",
        ),
    ] = 60.0,
    sqlite_sync: Annotated[
        str, typer.Option(help="SQLite: FULL (survives power loss) or NORMAL (survives crashes).")
    ] = "FULL",
    bot_pool: Annotated[
        str, typer.Option(help="Where bots think: 'process' (default) or 'thread' pool.")
    ] = "process",
    bot_workers: Annotated[int, typer.Option(min=1, help="Bot pool size.")] = 2,
    ws_rate: Annotated[
        str, typer.Option(help="Messages allowed per WebSocket connection, e.g. 20/second.")
    ] = "20/second",
    http_rate: Annotated[
        str,
        typer.Option(
            envvar="DRAGONLAIR_HTTP_RATE",
            help="Lobby requests and connections allowed per client address.",
        ),
    ] = "120/minute",
    public_url: Annotated[
        str, typer.Option(help="Base of the links handed to players, e.g. https://host.")
    ] = "",
    seal_key: Annotated[
        str | None,
        typer.Option(
            envvar="DRAGONLAIR_SEAL_KEY",
            help="File of the key sealing unfinished games' seeds (made at first start); "
            "default: next to an SQLite file, else ./dragonlair-seal.key.",
        ),
    ] = None,
    admin_token: Annotated[
        str | None,
        typer.Option(
            envvar="DRAGONLAIR_ADMIN_TOKEN",
            help="The operator's token for the admin page (/admin: reported chat "
            "messages), at least 16 characters; better given in the environment variable. "
            "Without it the admin page is off.",
        ),
    ] = None,
    db_lock_timeout: Annotated[
        float,
        typer.Option(min=0.1, help="Seconds a write waits for a database locked elsewhere."),
    ] = 5.0,
    bot_max_seconds: Annotated[
        float, typer.Option(min=0.01, help="Most seconds a bot may think per decision.")
    ] = 5.0,
    bot_max_iterations: Annotated[
        int, typer.Option(min=1, help="Most search iterations a table may give a bot.")
    ] = 5000,
    waiting_ttl: Annotated[
        float,
        typer.Option(min=1, help="Seconds a table may wait for players before it expires."),
    ] = 86400.0,
    max_waiting_per_address: Annotated[
        int,
        typer.Option(
            min=1, help="Most tables waiting for players that one address may have created."
        ),
    ] = 20,
    max_waiting: Annotated[
        int,
        typer.Option(min=1, help="Most tables waiting for players, every process together."),
    ] = 10000,
    abandon_after: Annotated[
        float,
        typer.Option(
            min=1,
            help="Seconds a table in play may stay paused, every player gone, before it "
            "ends as abandoned (without a result).",
        ),
    ] = 7 * 86400.0,
    deadline_sweep: Annotated[
        float,
        typer.Option(
            min=0.05,
            help="Seconds between looks in storage for turn-based tables whose move "
            "deadline has passed.",
        ),
    ] = 30.0,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            min=1,
            envvar="DRAGONLAIR_MAX_CONNECTIONS_PER_ADDRESS",
            help="Open connections allowed per client address (HTTP, and WebSocket).",
        ),
    ] = 64,
    max_websockets: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Open WebSocket connections per process, all addresses together; below "
            "--limit-concurrency (default: three quarters of it).",
        ),
    ] = None,
    ws_idle_timeout: Annotated[
        float,
        typer.Option(
            min=1, help="Seconds a WebSocket may send nothing (browsers ping after 2 s of quiet)."
        ),
    ] = 120.0,
    ws_ping_interval: Annotated[
        float,
        typer.Option(
            min=1,
            help="Seconds between the server's pings on each WebSocket (a proxy's read "
            "time-out on WebSockets must be longer).",
        ),
    ] = 1.0,
    max_connections_per_seat: Annotated[
        int, typer.Option(min=1, help="Open connections per seat of a table (tabs, devices).")
    ] = 8,
    max_spectators: Annotated[
        int, typer.Option(min=0, help="Open spectator connections per table.")
    ] = 200,
    header_timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds for a request's headers to arrive.")
    ] = 10.0,
    body_timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds for a request's body to arrive.")
    ] = 10.0,
    idle_timeout: Annotated[
        float, typer.Option(min=1, help="Seconds an idle keep-alive connection is kept.")
    ] = 5.0,
    limit_concurrency: Annotated[
        int,
        typer.Option(
            min=1, help="Connections served at once (more get 503); kept below the file limit."
        ),
    ] = 1000,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="Reverse proxies whose X-Forwarded-For is believed, comma-separated "
            "(addresses or networks); default: none."
        ),
    ] = "",
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
    log_format: Annotated[
        str, typer.Option(help="text, or json: one JSON object a line, with table ids.")
    ] = "text",
    shard: Annotated[
        str | None,
        typer.Option(
            help="Run as process K of N over one PostgreSQL database (K/N, e.g. 2/3); each "
            "table is owned by one process, and a dead process's tables move to the others."
        ),
    ] = None,
    adopt_interval: Annotated[
        float,
        typer.Option(min=0.1, help="With --shard: seconds between looks for orphaned tables."),
    ] = 1.0,
    keep_finished: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            help="Days to keep finished tables (records and all) after their creation; "
            "by default they are kept forever.",
        ),
    ] = None,
    lease: Annotated[
        float,
        typer.Option(
            min=1.0,
            help="PostgreSQL: seconds without a heartbeat after which a process's tables "
            "move to the others (and it can no longer write about them).",
        ),
    ] = 5.0,
    smtp_host: Annotated[
        str | None,
        typer.Option(
            envvar="DRAGONLAIR_SMTP_HOST",
            help="E-mail to turn-based tables' players: the SMTP server (without it, no "
            "e-mail is sent). Needs --mail-from and --public-url.",
        ),
    ] = None,
    smtp_port: Annotated[
        int, typer.Option(envvar="DRAGONLAIR_SMTP_PORT", help="The SMTP server's port.")
    ] = 587,
    smtp_security: Annotated[
        str,
        typer.Option(
            envvar="DRAGONLAIR_SMTP_SECURITY",
            help="starttls (usually port 587), tls (usually 465) or none (a relay on this "
            "machine only).",
        ),
    ] = "starttls",
    smtp_user: Annotated[
        str | None,
        typer.Option(
            envvar="DRAGONLAIR_SMTP_USER",
            help="The SMTP account to log in with (default: no login).",
        ),
    ] = None,
    smtp_password: Annotated[
        str | None,
        typer.Option(
            envvar="DRAGONLAIR_SMTP_PASSWORD",
            help="The SMTP account's password; better given in the environment variable.",
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option(
            envvar="DRAGONLAIR_MAIL_FROM",
            help="The address e-mail comes from, e.g. games@example.org.",
        ),
    ] = None,
) -> None:
    """Run the server: lobby at /api, play over /ws/tables/{id}, its schema at /openapi.json."""
    try:
        import uvicorn

        from ..web import ServerConfig, create_app
        from ..web.serving import uvicorn_config
    except ImportError as e:
        raise typer.BadParameter(
            f"the server needs the web extra (pip install 'dragonlair[web]'): {e}"
        ) from None
    if log_level not in ("debug", "info", "warning", "error"):
        raise typer.BadParameter("--log-level must be debug, info, warning or error")
    if log_format not in ("text", "json"):
        raise typer.BadParameter(f"--log-format must be text or json, not {log_format!r}")
    mail = mail_settings(
        smtp_host, smtp_port, smtp_security, smtp_user, smtp_password, mail_from, public_url
    )
    config = ServerConfig(
        db=db,
        sqlite_sync=sqlite_sync.upper(),
        deadline=deadline,
        confirm=confirm,
        away=away,
        ws_rate=ws_rate,
        http_rate=http_rate,
        bot_pool=bot_pool,
        bot_workers=bot_workers,
        public_url=public_url.rstrip("/"),
        seal_key=seal_key,
        admin_token=admin_token.strip() if admin_token is not None else None,
        db_lock_timeout=db_lock_timeout,
        bot_max_seconds=bot_max_seconds,
        bot_max_iterations=bot_max_iterations,
        waiting_ttl=waiting_ttl,
        max_waiting_per_address=max_waiting_per_address,
        max_waiting=max_waiting,
        abandon_after=abandon_after,
        deadline_sweep=deadline_sweep,
        max_connections_per_address=max_connections_per_address,
        max_websockets=max_websockets,
        ws_idle_timeout=ws_idle_timeout,
        ws_ping_interval=ws_ping_interval,
        max_connections_per_seat=max_connections_per_seat,
        max_spectators=max_spectators,
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        idle_timeout=idle_timeout,
        limit_concurrency=limit_concurrency,
        shard=shard,
        adopt_interval=adopt_interval,
        lease=lease,
        keep_finished_days=keep_finished,
        mail=mail,
        forwarded_allow_ips=",".join(
            p.strip() for p in forwarded_allow_ips.split(",") if p.strip()
        ),
    )
    check_config(config)
    warn_unless_loopback(host)
    check_seal_key(config)
    log_config = logging_config(uvicorn.config.LOGGING_CONFIG, log_level, log_format, shard)
    uvicorn.Server(
        uvicorn_config(
            create_app(config), config, host, port, log_config=log_config, log_level=log_level
        )
    ).run()


def mail_settings(
    host: str | None,
    port: int,
    security: str,
    user: str | None,
    password: str | None,
    sender: str | None,
    public_url: str,
) -> MailSettings | None:
    """The SMTP server e-mail is sent through, from the ``--smtp-*`` and ``--mail-from``
    options (None: no e-mail); typer.BadParameter when one is given without the other,
    or the settings cannot send (``MailSettings.check``)."""
    if host is None and sender is None:
        return None
    from ..web.config import MailSettings

    if host is None:
        raise typer.BadParameter("--mail-from needs --smtp-host: the SMTP server to send through")
    if sender is None:
        raise typer.BadParameter("--smtp-host needs --mail-from: the address e-mail comes from")
    mail = MailSettings(
        host=host, port=port, security=security, user=user, password=password, sender=sender
    )
    try:
        mail.check(public_url.rstrip("/"))
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    return mail


def check_config(config: ServerConfig) -> None:
    """Refuse, naming the option, what the options hold that the server cannot run with."""
    from ..web.security import parse_rate
    from ..web.store import StoreError, normalize_url

    if config.sqlite_sync not in ("FULL", "NORMAL", "EXTRA"):
        raise typer.BadParameter(
            f"--sqlite-sync must be FULL, NORMAL or EXTRA, not {config.sqlite_sync!r}"
        )
    if config.bot_pool not in ("thread", "process"):
        raise typer.BadParameter(
            f"--bot-pool must be 'thread' or 'process', not {config.bot_pool!r}"
        )
    if config.shard is not None:
        from ..web.ownership import parse_shard

        try:
            parse_shard(config.shard)
        except ValueError as e:
            raise typer.BadParameter(f"--shard: {e}") from None
        if not config.db.startswith("postgresql"):
            raise typer.BadParameter(
                "--shard: several processes share one PostgreSQL database "
                "(--db postgresql://...), not SQLite"
            )
    if config.max_websockets is not None and config.max_websockets >= config.limit_concurrency:
        raise typer.BadParameter(
            f"--max-websockets ({config.max_websockets}) must be below --limit-concurrency "
            f"({config.limit_concurrency}), so that lobby requests always find room"
        )
    for name, rate in (("--ws-rate", config.ws_rate), ("--http-rate", config.http_rate)):
        try:
            parse_rate(rate)
        except ValueError as e:
            raise typer.BadParameter(f"{name}: {e}") from None
    if config.admin_token is not None and len(config.admin_token) < 16:
        raise typer.BadParameter("--admin-token: at least 16 characters (a long random one)")
    try:
        normalize_url(config.db)
    except StoreError as e:
        raise typer.BadParameter(f"--db: {e}") from None
    for item in filter(None, config.forwarded_allow_ips.split(",")):
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise typer.BadParameter(
                f"--forwarded-allow-ips: {item!r} is not an address or network"
            ) from None


def warn_unless_loopback(host: str) -> None:
    """Warn that seat tokens cross the network in clear when ``host`` is not loopback."""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        typer.echo(
            f"warning: listening on {host} without TLS; seat tokens cross the network in clear. "
            "Put the server behind a TLS reverse proxy for play beyond this machine.",
            err=True,
        )


def check_seal_key(config: ServerConfig) -> None:
    """The key that seals unfinished games' seeds: made now if missing, refused if it
    cannot be used."""
    from ..web.security import Sealer, SealError

    try:
        Sealer.from_file(config.seal_key_path())
    except SealError as e:
        raise typer.BadParameter(f"--seal-key: {e}") from None


def logging_config(
    base: dict[str, Any], log_level: str, log_format: str, shard: str | None
) -> dict[str, Any]:
    """uvicorn's logging (``base``), with our own log lines (tables resumed, storage
    trouble) where uvicorn's go, at ``log_level``, as JSON lines for ``log_format="json"``."""
    from ..web.logs import json_logging, routing_at_debug

    log_config = copy.deepcopy(base)
    log_config["loggers"]["dragonlair"] = {
        "handlers": ["default"],
        "level": log_level.upper(),
        "propagate": False,
    }
    log_config = routing_at_debug(log_config)
    if log_format == "json":
        log_config = json_logging(log_config, shard)
    return log_config


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the command."""
    app.command()(serve)
