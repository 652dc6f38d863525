"""E-mail for turn-based tables (dragonlair.web.mail), against a local SMTP server
(aiosmtpd): an address is verified by its link before anything else is sent to it; a
consenting player gets "your turn" and one reminder per deadline, in their language, with a
link to their seat and a one-click unsubscribe; nothing goes to an unverified or
unconsenting address; a "your turn" survives a restart; two processes send one reminder;
bad settings are refused with a clear error."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from dragonlair.cli import app as cli_app
from dragonlair.web import create_app
from dragonlair.web.config import MailSettings
from dragonlair.web.mail import Composer, Mailer, MailError, Outbox, Tokens, check_address
from dragonlair.web.store import normalize_url
from dragonlair.web.table.deadlines import ManualClock
from tests.web.conftest import fresh_database
from tests.web.mailkit import SmtpServer, link, text_of
from tests.web.serverkit import config

DAY = 86400.0
ORIGIN = {"origin": "http://testserver"}
PASSWORD = "a long enough secret"
PUBLIC = "http://testserver"


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as s:
        yield s


def app(db: str, clock: ManualClock, smtp: SmtpServer | None, **kw: Any) -> TestClient:
    settings: dict[str, Any] = {
        "clock": clock,
        "deadline_sweep": 0.05,
        "mail": smtp.settings() if smtp is not None else None,
        "mail_every": 0.05,
        "public_url": PUBLIC,
    }
    return TestClient(create_app(config(db, **{**settings, **kw})))


def until(check: Callable[[], bool], what: str, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def post(c: TestClient, path: str, body: dict[str, Any] | None = None) -> Any:
    return c.post(path, json=body or {}, headers=ORIGIN)


def browser(web: TestClient) -> TestClient:
    """A browser of its own (its own cookies) on the running server, on its event loop (a
    client not entered would run each request on a loop of its own, and the tasks a
    request starts, a table's first deadline among them, would end with it)."""
    c = TestClient(web.app)
    c.portal = web.portal
    return c


def player(web: TestClient, name: str) -> TestClient:
    """A browser signed up as ``name``."""
    c = browser(web)
    r = post(c, "/api/account/signup", {"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def outbox(db: str) -> list[tuple[str, str, int | None]]:
    """(kind, status, seat) of every outbox row, in order, read straight from the database."""
    engine = create_engine(normalize_url(db))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT kind, status, seat FROM dl_outbox ORDER BY id")).all()
        return [(r[0], r[1], r[2]) for r in rows]
    finally:
        engine.dispose()


def verified(web: TestClient, smtp: SmtpServer, c: TestClient, address: str, lang: str) -> None:
    """``c``'s account gives ``address``, turns turn e-mail on and opens the link sent."""
    before = len(smtp.inbox.to(address))
    r = post(c, "/api/account/email", {"address": address, "turns": True, "lang": lang})
    assert r.status_code == 200, r.text
    assert r.json()["verification_sent"] is True and r.json()["verified"] is False
    got = smtp.inbox.wait_for(address, before + 1)[-1]
    assert "List-Unsubscribe" not in got  # not a turn e-mail: nothing to leave
    page = browser(web).get(link(got, "/mail/verify"))  # no sign-in needed
    assert page.status_code == 200 and 'id="mail-result"' in page.text
    assert c.get("/api/account/email").json()["verified"] is True


def turn_based_table(ann: TestClient, bob: TestClient) -> str:
    r = post(
        ann,
        "/api/tables",
        {
            "game": "dragon-race",
            "players": 2,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "open"}],
            "pace": DAY,
        },
    )
    assert r.status_code == 201, r.text
    tid: str = r.json()["table"]["id"]
    assert post(bob, f"/api/tables/{tid}/join", {"name": "Bob"}).status_code == 200
    return tid


def turns(db: str) -> list[tuple[int, float, str]]:
    """(seat, deadline, status) of each "your turn" row (not the quiet ones), in order."""
    engine = create_engine(normalize_url(db))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT seat, due, status FROM dl_outbox WHERE kind = 'turn' "
                    "AND status != 'quiet' ORDER BY id"
                )
            ).all()
        return [(r[0], r[1], r[2]) for r in rows]
    finally:
        engine.dispose()


def next_turn(db: str, had: int) -> tuple[int, float]:
    """The seat and deadline of the next "your turn" after the first ``had`` (a seat asked
    with a real choice: forced answers are given for it and tell nobody)."""
    until(lambda: len(turns(db)) > had, "a seat to be asked")
    seat, due, _ = turns(db)[had]
    return seat, due


@pytest.mark.timeout(120)
def test_turn_mail_reminder_and_unsubscribe_end_to_end(sqlite_url: str, smtp: SmtpServer) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock, smtp) as web:
        ann, bob = player(web, "Ann"), player(web, "Bob")
        address = {0: "ann@example.org", 1: "bob@example.org"}
        verified(web, smtp, ann, address[0], "en")
        verified(web, smtp, bob, address[1], "de")
        tid = turn_based_table(ann, bob)
        seat, _ = next_turn(sqlite_url, 0)
        first = smtp.inbox.wait_for(address[seat], 2)[-1]
        body = text_of(first)
        # names the table, the game and the deadline; links to the player's own seat
        assert tid in str(first["Subject"]) and "The Great Dragon Race" in str(first["Subject"])
        assert tid in body and "The Great Dragon Race" in body and "Ann, Bob" in body
        assert "2027" in body and "UTC" in body  # the deadline, a day after 15 Jan 2027
        assert link(first, "/play/") == f"/play/{tid}#seat={seat}"
        unsubscribe = link(first, "/mail/unsubscribe")
        assert first["List-Unsubscribe"] == f"<{PUBLIC}{unsubscribe}>"
        assert first["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        if seat == 0:  # Ann reads English, Bob German
            assert "Your turn" in str(first["Subject"])
        # the reminder: once a quarter of the day is left, once per deadline
        clock.advance(0.75 * DAY + 1)
        smtp.inbox.wait_for(address[seat], 3)
        clock.advance(60)
        mailer = web.app.state.mail.mailer  # type: ignore[attr-defined]
        assert web.portal is not None
        web.portal.call(mailer.once)  # a look after the reminder: nothing new
        reminders = [m for m in smtp.inbox.to(address[seat]) if "eminder" in str(m["Subject"])]
        reminders += [m for m in smtp.inbox.to(address[seat]) if "Erinnerung" in str(m["Subject"])]
        assert len(reminders) == 1
        assert f"/play/{tid}#seat={seat}" in text_of(reminders[0])
        # the player unsubscribes in one click, without signing in
        page = browser(web).get(unsubscribe)
        assert page.status_code == 200 and 'id="mail-result"' in page.text
        assert post(browser(web), unsubscribe).status_code == 200  # RFC 8058's POST
        assert ((seat == 0 and ann) or bob).get("/api/account/email").json()["turns"] is False
        # the deadline passes: the bot plays the move; the next player hears, and when the
        # unsubscribed player is asked again, nothing goes to them
        had = len(smtp.inbox.to(address[seat]))
        other, seen, other_told, again = 1 - seat, 1, 0, False
        for _ in range(10):
            clock.advance(DAY + 1)
            seat_next, _ = next_turn(sqlite_url, seen)
            seen += 1
            web.portal.call(mailer.once)
            if seat_next == other:
                other_told += 1
                smtp.inbox.wait_for(address[other], 1 + other_told)
            elif other_told:
                again = True
                break
        assert other_told and again, "the players were not asked in turn"
        told = smtp.inbox.to(address[other])[1:]
        assert all(f"/play/{tid}#seat={other}" in text_of(m) for m in told)
        german = smtp.inbox.to(address[1])[1:]
        assert german and all(
            "Du bist am Zug" in str(m["Subject"]) or "Erinnerung" in str(m["Subject"])
            for m in german
        )
        # nothing more to the player who unsubscribed: their rows are dropped
        # (the sender's own look may hold the row a moment: wait for its outcome)
        until(lambda: ("turn", "dropped", seat) in outbox(sqlite_url), "the row dropped")
        assert len(smtp.inbox.to(address[seat])) == had


@pytest.mark.timeout(60)
def test_a_player_at_the_table_gets_no_your_turn_but_the_reminder(
    sqlite_url: str, smtp: SmtpServer
) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock, smtp) as web:
        ann, bob = player(web, "Ann"), player(web, "Bob")
        verified(web, smtp, ann, "ann@example.org", "en")
        r = post(
            ann,
            "/api/tables",
            {
                "game": "dragon-race",
                "players": 2,
                "seats": [{"type": "human", "name": "Ann"}, {"type": "open"}],
                "pace": DAY,
            },
        )
        tid = r.json()["table"]["id"]
        with ann.websocket_connect(f"/ws/tables/{tid}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "seat": 0})
            assert ws.receive_json()["type"] == "welcome"
            assert post(bob, f"/api/tables/{tid}/join", {"name": "Bob"}).status_code == 200
            until(lambda: ("turn", "quiet", 0) in outbox(sqlite_url), "Ann's turn, quiet")
            mailer = web.app.state.mail.mailer  # type: ignore[attr-defined]
            assert web.portal is not None
            web.portal.call(mailer.once)
            assert len(smtp.inbox.to("ann@example.org")) == 1  # the confirmation only
            clock.advance(0.75 * DAY + 1)
            got = smtp.inbox.wait_for("ann@example.org", 2)
        assert "Reminder" in str(got[-1]["Subject"])
        assert sum("Your turn" in str(m["Subject"]) for m in got) == 0


@pytest.mark.timeout(60)
def test_nothing_goes_to_an_unverified_or_unconsenting_address(
    sqlite_url: str, smtp: SmtpServer
) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock, smtp) as web:
        carol, dan = player(web, "Carol"), player(web, "Dan")
        # Carol gives an address and wants turn e-mail, but never opens the link
        r = post(carol, "/api/account/email", {"address": "carol@example.org", "turns": True})
        assert r.status_code == 200 and r.json()["verified"] is False
        smtp.inbox.wait_for("carol@example.org", 1)
        # Dan verifies his address but leaves turn e-mail off (the default)
        r = post(dan, "/api/account/email", {"address": "dan@example.org"})
        assert r.json()["turns"] is False
        page = browser(web).get(link(smtp.inbox.wait_for("dan@example.org")[0], "/mail/"))
        assert page.status_code == 200
        turn_based_table(carol, dan)
        mailer = web.app.state.mail.mailer  # type: ignore[attr-defined]
        assert web.portal is not None
        for n in range(3):  # three moves, each asking someone (the last one waits)
            next_turn(sqlite_url, n)
            web.portal.call(mailer.once)
            if n < 2:
                clock.advance(DAY + 1)
        until(
            lambda: all(status != "pending" for _, _, status in turns(sqlite_url)),
            "every turn's outcome",
        )
        told = [status for _, _, status in turns(sqlite_url)]
        assert told == ["dropped"] * 3
        assert len(smtp.inbox.to("carol@example.org")) == 1  # its verification only
        assert len(smtp.inbox.to("dan@example.org")) == 1
        # a forged or foreign token changes nothing
        assert browser(web).get("/mail/verify?t=forged.token").status_code == 400
        assert browser(web).get("/mail/unsubscribe?t=x").status_code == 400
        assert carol.get("/api/account/email").json()["verified"] is False


@pytest.mark.timeout(60)
def test_a_turn_mail_survives_a_restart(sqlite_url: str, tmp_path: Path) -> None:
    """The SMTP server is down when the turn comes: the row waits in the outbox; the
    server restarts, the SMTP server is back, the mail goes out once."""
    clock = ManualClock(1_800_000_000.0)
    key = str(tmp_path / "seal.key")
    with SmtpServer() as smtp:
        with app(sqlite_url, clock, smtp, seal_key=key) as web:
            ann, bob = player(web, "Ann"), player(web, "Bob")
            verified(web, smtp, ann, "ann@example.org", "en")
            verified(web, smtp, bob, "bob@example.org", "en")
        port = smtp.port
    down = SmtpServer()
    down.port = port  # nobody listens there now
    with app(sqlite_url, clock, down, seal_key=key) as web:
        ann, bob = player_again(web, "Ann"), player_again(web, "Bob")
        tid = turn_based_table(ann, bob)
        until(
            lambda: any(k == "turn" and s == "pending" for k, s, _ in outbox(sqlite_url)),
            "the turn's row",
        )
        mailer = web.app.state.mail.mailer  # type: ignore[attr-defined]
        until(lambda: mailer.failures > 0, "a failed send")
    back = SmtpServer()
    back.port = port
    back.controller = type(back.controller)(back.inbox, hostname="127.0.0.1", port=port)
    with back, app(sqlite_url, clock, back, seal_key=key):
        seat, _ = next_turn(sqlite_url, 0)
        got = back.inbox.wait_for(["ann@example.org", "bob@example.org"][seat])
        assert len(got) == 1 and f"/play/{tid}#seat={seat}" in text_of(got[0])
        until(lambda: ("turn", "sent", seat) in outbox(sqlite_url), "the row marked sent")


def player_again(web: TestClient, name: str) -> TestClient:
    c = browser(web)
    assert post(c, "/api/account/signin", {"name": name, "password": PASSWORD}).status_code == 200
    return c


def two_senders(db: str, clock: ManualClock, smtp: SmtpServer) -> list[Mailer]:
    """Two senders over one database, as two server processes have."""
    out = []
    for _ in range(2):
        engine = create_engine(normalize_url(db))
        composer = Composer(smtp.settings(), PUBLIC, Tokens(b"k" * 32))
        out.append(Mailer(smtp.settings(), Outbox(engine, clock), composer, 0.05))
    return out


@pytest.mark.timeout(60)
def test_two_processes_send_one_reminder_per_deadline(sqlite_url: str, smtp: SmtpServer) -> None:
    """Both senders look at the same reminder time, together, several times: the player
    gets one reminder, and each "your turn" once."""
    import asyncio

    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock, smtp, mail_every=3600.0) as web:
        ann, bob = player(web, "Ann"), player(web, "Bob")
        mailer = web.app.state.mail.mailer  # type: ignore[attr-defined]
        assert web.portal is not None
        for c, who in ((ann, "ann"), (bob, "bob")):
            post(c, "/api/account/email", {"address": f"{who}@example.org", "turns": True})
            web.portal.call(mailer.once)
            browser(web).get(link(smtp.inbox.wait_for(f"{who}@example.org")[0], "/mail/"))
        turn_based_table(ann, bob)
        next_turn(sqlite_url, 0)
    a, b = two_senders(sqlite_url, clock, smtp)

    async def together() -> None:
        for _ in range(3):
            await asyncio.gather(a.once(), b.once())

    asyncio.run(together())  # the "your turn"
    clock.advance(0.75 * DAY + 1)
    asyncio.run(together())  # the reminder, however many looks
    clock.advance(600)
    asyncio.run(together())
    rows = outbox(sqlite_url)
    turn_seats = [s for k, st, s in rows if k == "turn" and st == "sent"]
    assert len(turn_seats) == 1, rows
    seat = turn_seats[0]
    assert seat is not None
    assert [(k, st) for k, st, s in rows if k == "reminder"] == [("reminder", "sent")]
    to = ["ann@example.org", "bob@example.org"][seat]
    subjects = [str(m["Subject"]) for m in smtp.inbox.to(to)]
    assert sum("Reminder" in s for s in subjects) == 1
    assert sum("Your turn" in s for s in subjects) == 1


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_two_server_processes_on_postgresql_send_one_reminder(
    postgres: str, tmp_path: Path, smtp: SmtpServer
) -> None:
    db = fresh_database(postgres)
    clock = ManualClock(1_800_000_000.0)
    kw: dict[str, Any] = {"seal_key": str(tmp_path / "seal.key"), "lease": 300.0}
    with (
        app(db, clock, smtp, shard="1/2", **kw) as p1,
        app(db, clock, smtp, shard="2/2", **kw) as p2,
    ):
        # the players use process 1 (which serves their table); process 2 sends too
        ann, bob = player(p1, "Ann"), player(p1, "Bob")
        verified(p1, smtp, ann, "ann@example.org", "en")
        verified(p1, smtp, bob, "bob@example.org", "en")
        turn_based_table(ann, bob)
        seat, _ = next_turn(db, 0)
        to = ["ann@example.org", "bob@example.org"][seat]
        smtp.inbox.wait_for(to, 2)
        clock.advance(0.75 * DAY + 1)
        smtp.inbox.wait_for(to, 3)
        for c in (p1, p2):  # each process looks again, and again
            mailer = c.app.state.mail.mailer  # type: ignore[attr-defined]
            assert c.portal is not None
            c.portal.call(mailer.once)
            c.portal.call(mailer.once)
        subjects = [str(m["Subject"]) for m in smtp.inbox.to(to)]
        assert sum("Reminder" in s for s in subjects) == 1
        assert sum("Your turn" in s for s in subjects) == 1


def test_bad_addresses_are_refused_and_change_nothing(sqlite_url: str, smtp: SmtpServer) -> None:
    clock = ManualClock(1_800_000_000.0)
    with app(sqlite_url, clock, smtp) as web:
        ann = player(web, "Ann")
        for bad in ("not an address", "ann@", "a@b\r\nBcc: x@y.org", "x" * 300 + "@example.org"):
            r = post(ann, "/api/account/email", {"address": bad, "turns": True})
            assert r.status_code == 422, (bad, r.text)
            assert r.json()["error"]["code"] in ("bad_email", "invalid_request")
        r = post(ann, "/api/account/email", {"address": "ann@example.org", "lang": "xx"})
        assert r.status_code == 422 and "lang" in r.json()["error"]["message"]
        setting = ann.get("/api/account/email").json()
        assert setting["address"] is None and setting["turns"] is False
        assert outbox(sqlite_url) == []
        # a guest has no e-mail setting
        assert browser(web).get("/api/account/email").status_code == 401
        # three verification e-mails an hour, then a clear refusal
        for i in range(3):
            r = post(ann, "/api/account/email", {"address": f"ann{i}@example.org"})
            assert r.status_code == 200
        r = post(ann, "/api/account/email", {"address": "ann9@example.org"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_emails"
        assert ann.get("/api/account/email").json()["address"] == "ann2@example.org"


def test_a_server_without_smtp_offers_no_mail(sqlite_url: str) -> None:
    with app(sqlite_url, ManualClock(), None) as web:
        ann = player(web, "Ann")
        assert ann.get("/api/account/email").json()["available"] is False
        r = post(ann, "/api/account/email", {"address": "ann@example.org", "turns": True})
        assert r.status_code == 409 and r.json()["error"]["code"] == "mail_off"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"host": ""}, "--smtp-host"),
        ({"port": 0}, "--smtp-port"),
        ({"security": "ssl"}, "--smtp-security: one of starttls, tls, none"),
        ({"user": "games"}, "go together"),
        ({"sender": "games at example"}, "--mail-from"),
        ({"sender": "a@b.org\r\nBcc: c@d.org"}, "--mail-from"),
    ],
)
def test_bad_smtp_settings_are_refused_with_a_clear_error(
    change: dict[str, Any], says: str
) -> None:
    base: dict[str, Any] = {"host": "smtp.example.org", "sender": "games@example.org"}
    settings = MailSettings(**{**base, **change})
    with pytest.raises(ValueError, match=says.replace("(", r"\(")):
        settings.check(PUBLIC)
    with pytest.raises(ValueError, match="--public-url"):
        MailSettings(**base).check("")
    with pytest.raises(ValueError, match=says.replace("(", r"\(")):
        create_app(config("sqlite://", mail=settings, public_url=PUBLIC))


def test_the_serve_command_refuses_bad_smtp_settings(tmp_path: Path) -> None:
    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    cases = [
        (["--smtp-host", "smtp.example.org"], "--mail-from"),
        (["--smtp-host", "smtp.example.org", "--mail-from", "g@example.org"], "--public-url"),
        (
            [
                "--smtp-host",
                "h",
                "--mail-from",
                "g@example.org",
                "--public-url",
                PUBLIC,
                "--smtp-security",
                "ssl",
            ],
            "--smtp-security",
        ),
        (["--mail-from", "g@example.org"], "--smtp-host"),
    ]
    for args, says in cases:
        r = runner.invoke(cli_app, ["serve", "--db", db, *args], env={"COLUMNS": "200"})
        assert r.exit_code == 2, (args, r.output)
        assert says in r.output, (args, r.output)
    # the settings come from the environment too (the service's environment file)
    env = {"COLUMNS": "200", "DRAGONLAIR_SMTP_HOST": "smtp.example.org"}
    r = runner.invoke(cli_app, ["serve", "--db", db], env=env)
    assert r.exit_code == 2 and "--mail-from" in r.output, r.output
    env |= {"DRAGONLAIR_MAIL_FROM": "g@example.org", "DRAGONLAIR_SMTP_USER": "g"}
    r = runner.invoke(cli_app, ["serve", "--db", db, "--public-url", PUBLIC], env=env)
    assert r.exit_code == 2 and "go together" in r.output, r.output


def test_addresses_are_checked() -> None:
    assert check_address(" ann@example.org ") == "ann@example.org"
    for bad in ("", "ann", "ann@localhost", "<ann@example.org>", "ann@example.org, b@c.org"):
        with pytest.raises(MailError):
            check_address(bad)
