"""Accounts: optional, so that playing stays a name and a link. An account keeps a
player's seats (and so their games) across devices.

- :mod:`.schema`: the accounts', sessions', passkeys' and sign-in limits' tables;
- :mod:`.passkeys`: passkeys (WebAuthn) added, listed, removed and signed in with;
- :mod:`.service`: sign-up, sign-in, sessions, sign-out everywhere, deletion (Argon2id);
- :mod:`.limits`: sign-in lock-outs per address and name, attempt budgets per address,
  counted in the database (every process shares them);
- :mod:`.csrf`: the same-origin check on every state-changing request;
- :mod:`.cookies`: the session cookie.

The routes are in :mod:`dragonlair.web.routes.accounts`; docs/server.md, "Accounts",
describes the behaviour.
"""

from __future__ import annotations

from .limits import SignInGuard
from .service import Account, Accounts, Session

__all__ = ["Account", "Accounts", "Session", "SignInGuard"]
