"""Several real server processes (``dragonlair serve --shard K/N``) over one PostgreSQL
database, behind a real nginx configured with the files the project ships
(``deploy/nginx/``): what the hosting tests start, and ``scripts/cluster.py`` for
measuring. Only loopback addresses; every process it starts it stops (``close``, also
registered with ``atexit``), and every wait is bounded in time."""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tests.web.serverkit import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "nginx"
SERVE = Path(__file__).resolve().parent / "serve_example.py"
NGINX = os.environ.get("DRAGONLAIR_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"

NGINX_MAIN = """\
{user}worker_processes 1;
worker_rlimit_nofile 65536;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
daemon off;
events {{ worker_connections 16384; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {deploy}/dragonlair-http.conf;
    upstream dragonlair {{
        hash $dragonlair_table consistent;
{servers}
        keepalive 32;
    }}
    upstream dragonlair_lobby {{
{lobby}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        include {deploy}/dragonlair-locations.conf;
    }}
}}
"""


def nginx_config(directory: Path, port: int, backends: list[int]) -> str:
    """The test's nginx.conf: the shipped routing files, this run's processes and port."""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in backends)
    lobby = "\n".join(
        f"        server 127.0.0.1:{p} max_fails=2 fail_timeout=10s;" for p in backends
    )
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    return NGINX_MAIN.format(
        user=user, dir=directory, deploy=DEPLOY, servers=servers, lobby=lobby, port=port
    )


def wait_healthy(url: str, proc: subprocess.Popen[bytes] | None, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    # one client for every ask (httpx.get makes a client and its TLS context each time)
    with httpx.Client(timeout=2) as client:
        while True:
            try:
                if client.get(f"{url}/api/health").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if (proc is not None and proc.poll() is not None) or time.monotonic() > end:
                raise RuntimeError(f"{url} did not become healthy")
            time.sleep(0.1)


class Cluster:
    """N server processes on one database, and nginx in front of them."""

    def __init__(self, db: str, processes: int, *, extra: list[str] | None = None) -> None:
        self.db = db
        self.dir = Path(tempfile.mkdtemp(prefix="dragonlair-cluster-"))
        os.chmod(self.dir, 0o755)
        self.key = self.dir / "seal.key"
        self.extra = extra or []
        self.n = processes
        self.ports = [free_port() for _ in range(processes)]
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.nginx: subprocess.Popen[bytes] | None = None
        self.closed = False
        atexit.register(self.close)
        try:
            for k in range(1, processes + 1):
                self.start(k)  # one at a time: the first makes the seal key
            self.port = free_port()
            conf = self.dir / "nginx.conf"
            conf.write_text(nginx_config(self.dir, self.port, self.ports))
            self.nginx = subprocess.Popen(
                [NGINX, "-p", str(self.dir), "-e", str(self.dir / "error.log"), "-c", str(conf)],
                stdout=subprocess.DEVNULL,
                stderr=open(self.dir / "nginx.stderr", "wb"),  # noqa: SIM115
                start_new_session=True,
            )
            self.url = f"http://127.0.0.1:{self.port}"
            self.ws = f"ws://127.0.0.1:{self.port}"
            wait_healthy(self.url, self.nginx)
        except BaseException:
            self.close()
            raise

    def backend(self, k: int) -> str:
        return f"http://127.0.0.1:{self.ports[k - 1]}"

    def start(self, k: int) -> None:
        """Start (or restart) process k of N."""
        cmd = [sys.executable, str(SERVE), "serve", "--port", str(self.ports[k - 1])]
        cmd += ["--db", self.db, "--shard", f"{k}/{self.n}", "--seal-key", str(self.key)]
        cmd += ["--adopt-interval", "0.5", "--forwarded-allow-ips", "127.0.0.1"]
        cmd += ["--http-rate", "1000000/minute", "--ws-rate", "100000/second"]
        cmd += ["--max-connections-per-address", "1000000", "--limit-concurrency", "100000"]
        cmd += ["--log-format", "json", *self.extra]
        log = open(self.dir / f"server-{k}.log", "ab")  # noqa: SIM115
        self.procs[k] = subprocess.Popen(
            cmd, stdout=log, stderr=log, start_new_session=True, cwd=self.dir
        )
        wait_healthy(self.backend(k), self.procs[k])

    def kill(self, k: int) -> None:
        """SIGKILL process k (no goodbye: its sockets and its database session just end)."""
        p = self.procs[k]
        p.send_signal(signal.SIGKILL)
        p.wait(30)

    def health(self, k: int) -> dict[str, Any] | None:
        """Process k's health (None if it does not answer)."""
        try:
            r = httpx.get(f"{self.backend(k)}/status", timeout=5)
        except httpx.HTTPError:
            return None
        return r.json() if r.status_code == 200 else None

    def alive(self) -> list[int]:
        return [k for k, p in self.procs.items() if p.poll() is None]

    def log(self, k: int) -> str:
        return (self.dir / f"server-{k}.log").read_text(errors="replace")

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for p in [self.nginx, *self.procs.values()]:
            if p is not None and p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    p.send_signal(signal.SIGTERM)
        for p in [self.nginx, *self.procs.values()]:
            if p is None:
                continue
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)
