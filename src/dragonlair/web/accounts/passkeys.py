"""Passkeys (WebAuthn): a signed-in player registers one on the account page, then signs in
with it alone (no name, no password), and lists and removes theirs.

The ceremonies are checked by ``webauthn`` (py_webauthn, Duo Labs' library: it parses the
authenticator's CBOR, checks the challenge, origin, RP id, flags, signature and signature
count, and knows every attestation format), never by code written here. What is ours:

- **Challenges live on the server**, in ``dl_passkey_challenges`` under a random ticket
  that the page sends back with the browser's answer: taking one deletes it (so an answer,
  replayed, finds no challenge), it expires after ``CHALLENGE_SECONDS``, and any process of
  the server can take it (the table is shared, like the sessions).
- **The relying party** is the server's public URL (``--public-url``) when it has one,
  else the host the page was loaded from; the browser refuses an RP id that is not the
  page's own host or a parent of it, so a passkey made here signs in nowhere else.
- **A passkey is one account's**: registering one another account holds is refused, and
  at sign-in the account the authenticator names (its user handle) must be the one the
  passkey was registered to.
- **Signature counts** only go up: an answer whose count does not (a cloned
  authenticator) is refused by the library; authenticators that always say 0 pass.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import (
    InvalidAuthenticationResponse,
    InvalidJSONStructure,
    InvalidRegistrationResponse,
)
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..protocol import ProtocolError
from .schema import accounts_t, passkey_challenges_t, passkeys_t
from .service import Account, Accounts

CHALLENGE_SECONDS = 300.0
TIMEOUT_MS = 120_000  # what the browser is told to give its player
MAX_PASSKEYS = 20
LABEL_MAX = 64
MAX_CREDENTIAL_ID = 1023  # bytes, WebAuthn's bound
RP_NAME = "dragonlair"


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: the RP id (a host name) and the pages' origin."""

    id: str
    origin: str


@dataclass
class Passkey:
    """A passkey as its player sees it in their list."""

    id: str
    label: str
    created: float
    used: float | None

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "created": self.created, "used": self.used}


def _refused(why: str) -> ProtocolError:
    return ProtocolError("passkey_refused", f"the passkey's answer was refused: {why}", 400)


def _credential_id(credential: dict[str, Any]) -> str:
    cid = credential.get("id") if isinstance(credential, dict) else None
    if not isinstance(cid, str) or not cid:
        raise _refused("it has no credential id")
    try:
        raw = base64url_to_bytes(cid)
    except ValueError:
        raise _refused("its credential id is not base64url") from None
    if not raw or len(raw) > MAX_CREDENTIAL_ID:
        raise _refused(f"its credential id has {len(raw)} bytes")
    return bytes_to_base64url(raw)


class Passkeys:
    """An account's passkeys and the challenges in flight, in the server's database
    (blocking calls: the routes run them in a worker thread)."""

    def __init__(self, accounts: Accounts, challenge_seconds: float = CHALLENGE_SECONDS) -> None:
        self.accounts = accounts
        self.engine: Engine = accounts.engine
        self.challenge_seconds = challenge_seconds

    # ------------------------------------------------------------------ challenges

    def _give(self, purpose: str, challenge: bytes, account_id: str | None) -> str:
        """Store a challenge; its ticket. Expired ones are swept on the way."""
        ticket = secrets.token_urlsafe(24)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(passkey_challenges_t).where(passkey_challenges_t.c.expires <= now))
            conn.execute(
                insert(passkey_challenges_t).values(
                    ticket=ticket,
                    purpose=purpose,
                    account_id=account_id,
                    challenge=bytes_to_base64url(challenge),
                    expires=now + self.challenge_seconds,
                )
            )
        return ticket

    def _take(self, ticket: str, purpose: str, account_id: str | None) -> bytes:
        """The challenge under ``ticket``, deleted as it is taken (only one taker, across
        processes); ProtocolError ``passkey_expired`` if there is none (never given, used
        already, expired, or another account's)."""
        gone = ProtocolError(
            "passkey_expired",
            "this passkey request was used already or has expired: start again",
            400,
        )
        if not isinstance(ticket, str) or not 0 < len(ticket) <= 64:
            raise gone
        with self.engine.begin() as conn:
            row = conn.execute(
                select(passkey_challenges_t).where(passkey_challenges_t.c.ticket == ticket)
            ).first()
            if row is None:
                raise gone
            taken = conn.execute(
                delete(passkey_challenges_t).where(passkey_challenges_t.c.ticket == ticket)
            ).rowcount
        if (
            taken != 1
            or row.purpose != purpose
            or row.account_id != account_id
            or row.expires <= time.time()
        ):
            raise gone
        return base64url_to_bytes(row.challenge)

    # ------------------------------------------------------------------ registration

    def registration_options(
        self, account_id: str, name: str, rp: RelyingParty
    ) -> tuple[str, dict[str, Any]]:
        """A ticket and the options for ``navigator.credentials.create`` (as JSON): a
        discoverable credential (so that signing in needs no name), none of the account's
        passkeys again."""
        mine = self.list(account_id)
        if len(mine) >= MAX_PASSKEYS:
            raise ProtocolError(
                "too_many_passkeys",
                f"an account has at most {MAX_PASSKEYS} passkeys: remove one first",
                409,
            )
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_name=name,
            user_id=account_id.encode(),
            user_display_name=name,
            timeout=TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.id)) for p in mine
            ],
        )
        ticket = self._give("register", options.challenge, account_id)
        return ticket, json.loads(options_to_json(options))

    def register(
        self,
        account_id: str,
        ticket: str,
        credential: dict[str, Any],
        label: str,
        rp: RelyingParty,
    ) -> Passkey:
        """Check the browser's answer to the registration options and keep the passkey;
        ProtocolError ``passkey_expired``, ``passkey_refused`` or ``passkey_taken``."""
        clean = " ".join(label.split())[:LABEL_MAX] or "passkey"
        challenge = self._take(ticket, "register", account_id)
        cid = _credential_id(credential)
        try:
            got = verify_registration_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
            )
        except (InvalidRegistrationResponse, InvalidJSONStructure) as e:
            raise _refused(str(e)) from None
        except (ValueError, TypeError, KeyError) as e:
            raise _refused(f"it is malformed ({type(e).__name__})") from None
        if bytes_to_base64url(got.credential_id) != cid:
            raise _refused("its credential id is not the one its attestation names")
        key = Passkey(id=cid, label=clean, created=time.time(), used=None)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(passkeys_t).values(
                        id=cid,
                        account_id=account_id,
                        public_key=got.credential_public_key,
                        sign_count=got.sign_count,
                        label=clean,
                        created=key.created,
                    )
                )
        except IntegrityError:
            raise ProtocolError(
                "passkey_taken", "this passkey is registered already (here or elsewhere)", 409
            ) from None
        return key

    # ------------------------------------------------------------------ sign-in

    def sign_in_options(self, rp: RelyingParty) -> tuple[str, dict[str, Any]]:
        """A ticket and the options for ``navigator.credentials.get``: any passkey of this
        site (the browser offers its player theirs)."""
        options = generate_authentication_options(
            rp_id=rp.id,
            timeout=TIMEOUT_MS,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        ticket = self._give("signin", options.challenge, None)
        return ticket, json.loads(options_to_json(options))

    def sign_in(
        self, ticket: str, credential: dict[str, Any], rp: RelyingParty
    ) -> tuple[Account, str]:
        """Check the browser's answer to the sign-in options: the passkey's account and a
        new session for it (its cookie's value). ProtocolError ``passkey_expired``,
        ``passkey_refused`` or ``unknown_passkey`` (401)."""
        challenge = self._take(ticket, "signin", None)
        cid = _credential_id(credential)
        with self.engine.connect() as conn:
            row = conn.execute(
                select(passkeys_t, accounts_t.c.name, accounts_t.c.created.label("since"))
                .join(accounts_t, accounts_t.c.id == passkeys_t.c.account_id)
                .where(passkeys_t.c.id == cid, accounts_t.c.deleted.is_(None))
            ).first()
        if row is None:
            raise ProtocolError(
                "unknown_passkey",
                "this passkey belongs to no account here (it may have been removed)",
                401,
            )
        response = credential.get("response")
        handle = response.get("userHandle") if isinstance(response, dict) else None
        if handle:
            try:
                named = base64url_to_bytes(str(handle))
            except ValueError:
                raise _refused("its user handle is not base64url") from None
            if named != row.account_id.encode():
                raise _refused("the passkey names another account than the one it belongs to")
        try:
            got = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=row.public_key,
                credential_current_sign_count=row.sign_count,
            )
        except (InvalidAuthenticationResponse, InvalidJSONStructure) as e:
            raise _refused(str(e)) from None
        except (ValueError, TypeError, KeyError) as e:
            raise _refused(f"it is malformed ({type(e).__name__})") from None
        with self.engine.begin() as conn:
            conn.execute(
                update(passkeys_t)
                .where(passkeys_t.c.id == cid)
                .values(sign_count=got.new_sign_count, used=time.time())
            )
        account = Account(id=row.account_id, name=row.name, created=row.since)
        return account, self.accounts.open_session(account)

    # ------------------------------------------------------------------ the list

    def list(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(passkeys_t.c.id, passkeys_t.c.label, passkeys_t.c.created, passkeys_t.c.used)
                .where(passkeys_t.c.account_id == account_id)
                .order_by(passkeys_t.c.created)
            ).all()
        return [Passkey(id=r.id, label=r.label, created=r.created, used=r.used) for r in rows]

    def remove(self, account_id: str, passkey_id: str) -> None:
        """Remove one of the account's passkeys; ProtocolError ``not_found`` (404) if the
        account has none by that id (another account's is not found either)."""
        with self.engine.begin() as conn:
            n = conn.execute(
                delete(passkeys_t).where(
                    passkeys_t.c.id == passkey_id, passkeys_t.c.account_id == account_id
                )
            ).rowcount
        if not n:
            raise ProtocolError("not_found", "this account has no such passkey", 404)
