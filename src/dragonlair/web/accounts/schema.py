"""The accounts' tables (in the server's one ``MetaData``, so migrations see them): an
account, its sessions, its passkeys and the passkey challenges in flight, the sign-in
limits' counts, and, in :mod:`dragonlair.web.store`, the account a seat belongs to.

What is kept of a person is their name, the Argon2id hash of their password and when the
account was made; a session is kept only as the SHA-256 digest of its cookie's value, so a
copied database opens no session. Deleting an account clears its name (``name_key`` NULL,
the name "deleted player"), its password and its sessions; the row stays, so the games it
played keep their seats.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
)

from ..store import metadata

accounts_t = Table(
    "dl_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    # the name as compared (NFKC, case-folded): unique; NULL once the account is deleted
    Column("name_key", String(64), nullable=True, unique=True),
    Column("password", String(200), nullable=True),  # Argon2id hash, PHC string format
    Column("created", Float, nullable=False),
    Column("deleted", Float, nullable=True),
)

sessions_t = Table(
    "dl_sessions",
    metadata,
    Column("digest", String(64), primary_key=True),  # SHA-256 hex of the cookie's value
    Column("account_id", String(32), ForeignKey("dl_accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)
sessions_account_index = Index("dl_sessions_account", sessions_t.c.account_id)

# An account's passkeys (WebAuthn credentials, migration 0007_passkeys): the credential's
# id (base64url, as the browser names it), its public key (COSE), the authenticator's last
# signature count, and the label its player gave it. A deleted account's are deleted.
passkeys_t = Table(
    "dl_passkeys",
    metadata,
    Column("id", String(1400), primary_key=True),
    Column("account_id", String(32), ForeignKey("dl_accounts.id"), nullable=False),
    Column("public_key", LargeBinary, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("label", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("used", Float, nullable=True),
)
passkeys_account_index = Index("dl_passkeys_account", passkeys_t.c.account_id)

# The challenges handed out for a passkey's registration or sign-in, each under a random
# ticket: used once (taking one deletes it) and only until it expires, by any process.
passkey_challenges_t = Table(
    "dl_passkey_challenges",
    metadata,
    Column("ticket", String(64), primary_key=True),
    Column("purpose", String(8), nullable=False),  # "register" or "signin"
    Column("account_id", String(32), nullable=True),  # who registers (None: a sign-in)
    Column("challenge", String(128), nullable=False),  # base64url
    Column("expires", Float, nullable=False),
)
passkey_challenges_expiry_index = Index(
    "dl_passkey_challenges_expires", passkey_challenges_t.c.expires
)

# The sign-in limits' counts (limits.py, migration 0008_sign_in_limits), shared by every
# process: one row per attempt, failure or sign-up, under the SHA-256 of the address (or of
# the address and the name's key), and the address-and-name pairs locked out until when.
sign_in_events_t = Table(
    "dl_sign_in_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(8), nullable=False),  # "attempt", "failure" or "signup"
    Column("key", String(64), nullable=False),
    Column("at", Float, nullable=False),
)
sign_in_events_key_index = Index(
    "dl_sign_in_events_key", sign_in_events_t.c.kind, sign_in_events_t.c.key, sign_in_events_t.c.at
)
sign_in_events_at_index = Index("dl_sign_in_events_at", sign_in_events_t.c.at)
sign_in_locks_t = Table(
    "dl_sign_in_locks",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("until", Float, nullable=False),
)

DELETED_NAME = "deleted player"
