"""Accounts over HTTP: sign up (claiming the guest seats the browser holds), sign in, sign
out (here or everywhere), claim a seat, delete the account. The session rides in an
``HttpOnly`` cookie; every POST here passes the same-origin check
(:mod:`dragonlair.web.accounts.csrf`)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from ...core import DragonlairError, spec
from ..accounts import Account, Accounts, Session, SignInGuard
from ..accounts.cookies import COOKIE, clear_session_cookie, set_session_cookie
from ..accounts.passkeys import Passkeys, RelyingParty
from ..accounts.service import name_key
from ..deps import ConfigDep, HubDep
from ..lobby import Hub
from ..protocol import ProtocolError

router = APIRouter(tags=["accounts"])


def get_accounts(conn: HTTPConnection) -> Accounts:
    """The server's accounts."""
    accounts: Accounts = conn.app.state.accounts
    return accounts


def get_guard(conn: HTTPConnection) -> SignInGuard:
    """The server's sign-in limits."""
    guard: SignInGuard = conn.app.state.sign_in_guard
    return guard


def get_passkeys(conn: HTTPConnection) -> Passkeys:
    """The server's passkeys."""
    passkeys: Passkeys = conn.app.state.passkeys
    return passkeys


AccountsDep = Annotated[Accounts, Depends(get_accounts)]
PasskeysDep = Annotated[Passkeys, Depends(get_passkeys)]
GuardDep = Annotated[SignInGuard, Depends(get_guard)]


async def current_session(conn: HTTPConnection) -> Session | None:
    """The live session of the request's cookie, or None (a guest)."""
    token = conn.cookies.get(COOKIE)
    if not token:
        return None
    accounts = get_accounts(conn)
    found = await asyncio.to_thread(accounts.session, token)
    accounts.close_ended()  # one found ended: its connections close now
    return found


SessionDep = Annotated[Session | None, Depends(current_session)]


def signed_in(session: SessionDep) -> Session:
    """The request's session; 401 ``not_signed_in`` without one."""
    if session is None:
        raise ProtocolError("not_signed_in", "sign in first: this needs an account", 401)
    return session


SignedInDep = Annotated[Session, Depends(signed_in)]


class SeatClaim(BaseModel):
    """A guest seat the browser holds: its table and token."""

    model_config = {"extra": "forbid"}
    table: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=200)


class SignUp(BaseModel):
    """A new account."""

    model_config = {"extra": "forbid"}
    name: str = Field(max_length=100, description="3-24 letters, digits, spaces, _ or -")
    password: str = Field(max_length=1000, description="10 to 200 characters")
    seats: list[SeatClaim] = Field(
        default_factory=list,
        max_length=30,
        description="guest seats to make this account's (their tables and tokens)",
    )


class SignIn(BaseModel):
    """Name and password."""

    model_config = {"extra": "forbid"}
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class Confirm(BaseModel):
    """The account's password, to confirm its deletion."""

    model_config = {"extra": "forbid"}
    password: str = Field(max_length=1000)


class PasskeyNew(BaseModel):
    """The browser's answer to the registration options, with the ticket they came with."""

    model_config = {"extra": "forbid"}
    ticket: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any] = Field(description="navigator.credentials.create's answer, as JSON")
    label: str = Field("", max_length=200, description="what the player calls this passkey")


class PasskeyAnswer(BaseModel):
    """The browser's answer to the sign-in options, with the ticket they came with."""

    model_config = {"extra": "forbid"}
    ticket: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any] = Field(description="navigator.credentials.get's answer, as JSON")


class PasskeyId(BaseModel):
    """One of the account's passkeys."""

    model_config = {"extra": "forbid"}
    id: str = Field(min_length=1, max_length=1400)


def relying_party(request: Request, public_url: str) -> RelyingParty:
    """Whom passkeys are made for and answered to: the server's public URL if it has one,
    else the host and scheme the page was loaded from."""
    if public_url:
        url = urlsplit(public_url)
        scheme, netloc = url.scheme, url.netloc
    else:
        scheme, netloc = request.url.scheme, request.headers.get("host", "")
    host = urlsplit(f"//{netloc}").hostname or ""
    if not host:
        raise ProtocolError("passkey_unavailable", "passkeys need the server's host name", 400)
    return RelyingParty(id=host, origin=f"{scheme}://{netloc}")


def _secure(request: Request, public_url: str) -> bool:
    return request.url.scheme == "https" or public_url.startswith("https://")


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _me(account_id: str, name: str) -> dict[str, Any]:
    return {"id": account_id, "name": name}


async def claim(hub: Hub, table_id: str, token: str, account_id: str, name: str) -> int:
    """Make the guest seat whose token this is ``account_id``'s (named ``name``): from then
    on it is played only by that account's player, signed in. ProtocolError if the token
    opens no seat of the table, or the seat is another account's."""
    t = await hub.get(table_id)
    seat = t.identify(token)
    if seat is None:
        raise ProtocolError("bad_seat", "that is the table's watch token, not a seat's", 400)
    s = t.seats[seat]
    if s.account == account_id:
        return seat
    if s.account is not None:
        raise ProtocolError("seat_claimed", f"seat {seat} already belongs to an account", 409)

    def bound() -> None:
        s.account = account_id
        s.profile = name
        if t.connections():
            t.broadcast_seats()  # the seat's name now links to the account's profile

    await hub.write(lambda: hub.store.bind_seat(t.id, seat, account_id), bound)
    return seat


@router.get("/api/account")
async def me(session: SessionDep) -> dict[str, Any]:
    """Who the request's session signs in (``account`` null for a guest)."""
    return {"account": None if session is None else _me(session.account_id, session.name)}


@router.post("/api/account/signup", status_code=201)
async def sign_up(
    body: SignUp,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    guard: GuardDep,
    hub: HubDep,
    config: ConfigDep,
    session: SessionDep,
) -> dict[str, Any]:
    """Make an account and sign in with it (a new session: any earlier one of this
    browser ends); the guest seats given become its own. Names are public (they are
    shown at tables), so a taken one is said to be taken."""
    await asyncio.to_thread(guard.before_sign_up, _address(request))
    account, token = await asyncio.to_thread(accounts.sign_up, body.name, body.password)
    if session is not None:
        await asyncio.to_thread(accounts.sign_out, session)
        accounts.close_ended()
    claimed: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    for c in body.seats:
        try:
            seat = await claim(hub, c.table, c.token, account.id, account.name)
            claimed.append({"table": c.table, "seat": seat})
        except ProtocolError as e:
            refused.append({"table": c.table, "code": e.code, "message": e.message})
    set_session_cookie(
        response, token, accounts.session_seconds, _secure(request, config.public_url)
    )
    return {"account": _me(account.id, account.name), "claimed": claimed, "refused": refused}


@router.post("/api/account/signin")
async def sign_in(
    body: SignIn,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    guard: GuardDep,
    config: ConfigDep,
    session: SessionDep,
) -> dict[str, Any]:
    """Sign in: a new session in a new cookie (whatever cookie the browser had is not
    reused, so a session planted before sign-in signs nobody in)."""
    address, key = _address(request), name_key(body.name)
    await asyncio.to_thread(guard.before_sign_in, address, key)
    got: tuple[Account, str] | None = await asyncio.to_thread(
        accounts.sign_in, body.name, body.password
    )
    if got is None:
        await asyncio.to_thread(guard.failed, address, key)
        raise ProtocolError(
            "bad_credentials", "that name and password do not match an account", 401
        )
    await asyncio.to_thread(guard.succeeded, address, key)
    account, token = got
    if session is not None:
        await asyncio.to_thread(accounts.sign_out, session)
        accounts.close_ended()
    set_session_cookie(
        response, token, accounts.session_seconds, _secure(request, config.public_url)
    )
    return {"account": _me(account.id, account.name)}


@router.post("/api/account/signout")
async def sign_out(
    request: Request,
    response: Response,
    accounts: AccountsDep,
    config: ConfigDep,
    session: SessionDep,
) -> dict[str, Any]:
    """End this browser's session (its seats' connections are closed)."""
    if session is not None:
        await asyncio.to_thread(accounts.sign_out, session)
        accounts.close_ended()
    clear_session_cookie(response, _secure(request, config.public_url))
    return {"account": None}


@router.post("/api/account/signout-everywhere")
async def sign_out_everywhere(
    request: Request,
    response: Response,
    accounts: AccountsDep,
    config: ConfigDep,
    session: SignedInDep,
) -> dict[str, Any]:
    """End every session of the account, on every device."""
    n = await asyncio.to_thread(accounts.sign_out_everywhere, session.account_id)
    accounts.close_ended()
    clear_session_cookie(response, _secure(request, config.public_url))
    return {"account": None, "ended": n}


@router.post("/api/account/claim")
async def claim_seat(body: SeatClaim, hub: HubDep, session: SignedInDep) -> dict[str, Any]:
    """Make a guest seat this browser holds the signed-in account's."""
    seat = await claim(hub, body.table, body.token, session.account_id, session.name)
    return {"table": body.table, "seat": seat}


@router.get("/api/account/games")
async def my_games(
    accounts: AccountsDep,
    session: SignedInDep,
    limit: int = Query(20, ge=1, le=100, description="games per page"),
    offset: int = Query(0, ge=0, description="games to skip"),
) -> dict[str, Any]:
    """The account's seats at tables, newest first, on whatever device they were taken:
    each opens at ``/play/{table}#seat={seat}`` where the account is signed in."""
    page, total = await asyncio.to_thread(accounts.games, session.account_id, limit, offset)
    for g in page:
        g["title"] = _game_name(g["game"])
    return {"games": page, "total": total}


def _game_name(game_id: str) -> str:
    try:
        return spec(game_id).name
    except DragonlairError:
        return game_id


@router.post("/api/account/delete")
async def delete_account(
    body: Confirm,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    guard: GuardDep,
    hub: HubDep,
    config: ConfigDep,
    session: SignedInDep,
) -> dict[str, Any]:
    """Delete the account (its password confirms it): its name, password and sessions are
    removed; its games stay, its seats in them named "deleted player"."""
    address, key = _address(request), f"delete:{session.account_id}"
    await asyncio.to_thread(guard.before_sign_in, address, key)
    if not await asyncio.to_thread(accounts.check_password_of, session.account_id, body.password):
        await asyncio.to_thread(guard.failed, address, key)
        raise ProtocolError("bad_credentials", "that is not this account's password", 401)
    await asyncio.to_thread(accounts.delete, session.account_id)
    accounts.close_ended()
    renamed_seats(hub, session.account_id)
    clear_session_cookie(response, _secure(request, config.public_url))
    return {"account": None, "deleted": True}


def renamed_seats(hub: Hub, account_id: str) -> None:
    """The tables in memory learn that a deleted account's seats are "deleted player"."""
    from ..accounts.schema import DELETED_NAME

    for t in [*hub.tables.values(), *hub.finished.values()]:
        changed = False
        for s in t.seats:
            if s.account == account_id:
                s.name, s.profile = DELETED_NAME, None  # no profile any more
                changed = True
        if changed and t.connections():
            t.broadcast_seats()


@router.get("/api/account/passkeys")
async def my_passkeys(passkeys: PasskeysDep, session: SignedInDep) -> dict[str, Any]:
    """The account's passkeys, oldest first."""
    keys = await asyncio.to_thread(passkeys.list, session.account_id)
    return {"passkeys": [k.public() for k in keys]}


@router.post("/api/account/passkeys/options")
async def passkey_options(
    request: Request, passkeys: PasskeysDep, config: ConfigDep, session: SignedInDep
) -> dict[str, Any]:
    """Start registering a passkey: the options for ``navigator.credentials.create`` and
    the ticket to send back with its answer (valid once, for a few minutes)."""
    rp = relying_party(request, config.public_url)
    ticket, options = await asyncio.to_thread(
        passkeys.registration_options, session.account_id, session.name, rp
    )
    return {"ticket": ticket, "options": options}


@router.post("/api/account/passkeys", status_code=201)
async def add_passkey(
    body: PasskeyNew,
    request: Request,
    passkeys: PasskeysDep,
    config: ConfigDep,
    session: SignedInDep,
) -> dict[str, Any]:
    """Keep the passkey the browser made from the options under ``ticket``."""
    rp = relying_party(request, config.public_url)
    key = await asyncio.to_thread(
        passkeys.register, session.account_id, body.ticket, body.credential, body.label, rp
    )
    return {"passkey": key.public()}


@router.post("/api/account/passkeys/remove")
async def remove_passkey(
    body: PasskeyId, passkeys: PasskeysDep, session: SignedInDep
) -> dict[str, Any]:
    """Remove one of the account's passkeys: it signs nobody in from then on."""
    await asyncio.to_thread(passkeys.remove, session.account_id, body.id)
    return {"removed": body.id}


@router.post("/api/account/passkeys/signin/options")
async def passkey_sign_in_options(
    request: Request, passkeys: PasskeysDep, guard: GuardDep, config: ConfigDep
) -> dict[str, Any]:
    """Start signing in with a passkey: the options for ``navigator.credentials.get`` and
    the ticket to send back with its answer. Counts as a sign-in attempt of the address."""
    rp = relying_party(request, config.public_url)
    await asyncio.to_thread(guard.before_sign_in, _address(request), "\x00passkey")
    ticket, options = await asyncio.to_thread(passkeys.sign_in_options, rp)
    return {"ticket": ticket, "options": options}


@router.post("/api/account/passkeys/signin")
async def passkey_sign_in(
    body: PasskeyAnswer,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    passkeys: PasskeysDep,
    config: ConfigDep,
    session: SessionDep,
) -> dict[str, Any]:
    """Sign in with the passkey the browser answered with: a new session in a new cookie."""
    rp = relying_party(request, config.public_url)
    account, token = await asyncio.to_thread(passkeys.sign_in, body.ticket, body.credential, rp)
    if session is not None:
        await asyncio.to_thread(accounts.sign_out, session)
        accounts.close_ended()
    set_session_cookie(
        response, token, accounts.session_seconds, _secure(request, config.public_url)
    )
    return {"account": _me(account.id, account.name)}
