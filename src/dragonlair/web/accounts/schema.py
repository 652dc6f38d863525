"""The accounts' tables (in the server's one ``MetaData``, so migrations see them): an
account, its sessions, and, in :mod:`dragonlair.web.store`, the account a seat belongs to.

What is kept of a person is their name, the Argon2id hash of their password, when the
account was made and, if they gave one, their e-mail address and its settings; a session
is kept only as the SHA-256 digest of its cookie's value, so a copied database opens no
session. Deleting an account clears its name (``name_key`` NULL,
the name "deleted player"), its password and its sessions; the row stays, so the games it
played keep their seats.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, String, Table, false

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
    # e-mail (dragonlair.web.mail): the address given (None: none), when it was verified by
    # its link (None: not yet), whether turn-based tables may write to it (off until the
    # player turns it on), and the language its messages are written in
    Column("email", String(254), nullable=True),
    Column("email_verified", Float, nullable=True),
    Column("email_turns", Boolean, nullable=False, server_default=false()),
    Column("email_lang", String(8), nullable=True),
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

DELETED_NAME = "deleted player"
