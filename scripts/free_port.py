"""The port ``make play`` serves on: the one asked for if it can be bound now, else any free
one. Prints the port, or says why there is none and exits with 1 (never an empty port).

The check binds with ``SO_REUSEADDR``, as the server itself does, so a port whose last
server was stopped a moment ago (its connections still in TIME_WAIT) counts as free: a
restart right after Ctrl+C gets the same address.
"""

from __future__ import annotations

import socket
import sys


def bindable(port: int) -> int | None:
    """The port bound (``port``, or a free one for 0) on 127.0.0.1, or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return None
        return int(s.getsockname()[1])


def main(argv: list[str]) -> int:
    try:
        want = int(argv[1]) if len(argv) > 1 else 8000
        if not 0 <= want <= 65535:
            raise ValueError
    except ValueError:
        print(f"PORT must be a number from 0 to 65535, not {argv[1]!r}", file=sys.stderr)
        return 1
    port = bindable(want) or bindable(0)
    if port is None:
        print("no free port on 127.0.0.1 to serve on", file=sys.stderr)
        return 1
    if port != want and want:
        print(f"port {want} is busy; using {port}", file=sys.stderr)
    print(port)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
