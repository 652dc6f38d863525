"""The wire format: lobby request and response bodies, WebSocket messages, errors.

Bodies and client messages are pydantic models: FastAPI validates lobby requests with them
and publishes them in its OpenAPI schema, and the same library validates every WebSocket
message (its own JSON parser, a discriminated union on ``type``), so a malformed message
gets an error naming the field and what was expected, e.g. ``act.move: Field required``.
Models are strict (``"12"`` is not a move number, ``true`` is not a seat) and forbid
unknown fields, so a typo is an error rather than silently ignored.

:func:`state_message` is the one function that turns a game into what a seat receives.
It reads only ``view(seat)``, ``legal_actions(seat)``, ``events_since(n, seat)`` and the
public facts of the table (whose turn has a deadline and when it ends), which is what the
wire leak test relies on: it calls this same function on a state in which everything the
seat cannot see was redrawn, and must get the identical message.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from ..core import Action

OptionValue = bool | int | float | str | None

MAX_NAME = 40
MAX_ACTION = 200
MAX_REF = 64
MAX_CHAT = 500  # characters of one chat message (web/chat.py refuses longer ones)
MAX_POSITION = 12000  # characters of a position's TOML or JSON text (within the body limit)

# ---------------------------------------------------------------------------- errors


class ProtocolError(Exception):
    """A request refused with a code, a message and an HTTP status for the lobby."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_message(self, move: int | None = None) -> dict[str, Any]:
        """The WebSocket error message."""
        d: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if move is not None:
            d["move"] = move
        return d


def explain(e: ValidationError, prefix: str = "") -> str:
    """A pydantic error as one line: each bad field and what was expected."""
    parts = []
    for err in e.errors(include_url=False):
        loc = ".".join(str(x) for x in err["loc"] if x not in ("body",))
        where = f"{prefix}{loc}" if loc else prefix.rstrip(".") or "message"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


# ---------------------------------------------------------------------------- lobby bodies


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatRequest(_Strict):
    """One seat of a new table: a player you will invite, a bot, or open to anyone."""

    type: Literal["human", "bot", "open"] = Field(
        description="human: a seat with a link handed to the creator; bot: played by the "
        "server; open: anyone may join it from the lobby"
    )
    name: str | None = Field(None, max_length=MAX_NAME, description="shown to everyone")
    level: str | None = Field(None, description="a bot's level: random, heuristic or ismcts")
    budget: dict[str, int | float] = Field(
        default_factory=dict, description="a bot's budget, e.g. {'iterations': 200}"
    )


class TableRequest(_Strict):
    """A new table."""

    game: str = Field(description="a game id from GET /api/games")
    players: int | None = Field(None, description="default: 4 where the game allows")
    options: dict[str, OptionValue] = Field(default_factory=dict)
    seats: list[SeatRequest] | None = Field(
        None, description="one per player; default: seat 0 for you, the others open"
    )
    seed: int | None = Field(
        None,
        ge=0,
        lt=2**63,
        description="only at a table whose every seat is yours or a bot's (practice, puzzles, "
        "bug reports); default: the server draws one and publishes a commitment to it",
    )
    deadline: float | None = Field(
        None, gt=0, le=3600, description="seconds to answer an offer or a reaction window"
    )
    away: float | None = Field(
        None,
        ge=0,
        le=86400,
        description="each player's time bank: the seconds in all a player may be away while "
        "the game is played before the takeover bot plays for them (default: the server's)",
    )
    takeover: str | None = Field(
        None,
        description="the away policy: the bot level that plays for a player whose time bank "
        "ran out; null: nobody plays for them, the table waits for them; not given: the "
        "heuristic bot where the game has one, else null (a random bot only when asked for)",
    )
    pace: float | None = Field(
        None,
        ge=3600,
        le=14 * 86400,
        description="a turn-based table: the seconds each move may take (1 hour to 14 days), "
        "after which the takeover bot plays that move for the seat asked (with takeover "
        "null: the table waits); not given: a real-time table",
    )
    listed: bool = Field(True, description="shown in GET /api/tables while seats are open")
    rated: bool = Field(
        False,
        description='a rated game (docs/server.md "Ratings"): you must be signed in, have '
        "one seat, the others open or bots; every person who joins must be signed in; no "
        "position, puzzle, seed, hints or undo",
    )
    wait_for_arrival: bool = Field(
        True,
        description="a person's seat is not played by the takeover bot, and its offers and "
        "windows have no deadline, until its person first opens their link; false: from "
        "the start, as for a player who left",
    )
    position: str | None = Field(
        None,
        max_length=MAX_POSITION,
        description="start from this position (its TOML or JSON text, see the games' rules "
        "pages): only at a table whose every seat is yours or a bot's",
    )
    puzzle: str | None = Field(
        None,
        max_length=200,
        description="start from this shipped puzzle (a name from GET /api/puzzles): only at a "
        "table whose every seat is yours or a bot's",
    )
    hints: bool | None = Field(
        None,
        description="hints allowed: a seat may ask the bots what they think of its choices; "
        "default: on at a table of one person and bots, off where there are other people",
    )
    undo: bool | None = Field(
        None,
        description="undo allowed: a person's decision is held for a confirmation window "
        "and may be taken back within it (nothing of it reaches anyone else before it is "
        "confirmed); default: on at a table of one person and bots; never at a table with "
        "open seats",
    )
    confirm: float | None = Field(
        None,
        gt=0,
        le=30,
        description="the confirmation window of a table with undo, in seconds from a "
        "person's last held decision (default 5); the Confirm button ends it sooner",
    )
    confirm_turn: bool = Field(
        False,
        description="an explicit Confirm at the end of a turn, instead of a confirmation "
        "window: a person's decisions stay held, and may be taken back, until they confirm "
        "them (a table with undo; not with confirm)",
    )
    chat_apart: bool = Field(
        False,
        description="spectators chat apart: their messages reach spectators only (the seats' "
        "messages reach everyone)",
    )
    tutorial: bool = Field(
        False,
        description="the game's tutorial (GET /api/games lists the games that have one): "
        "your seat, its bots and its fixed deal, each step's text sent with the state, and "
        "only the choices a step teaches accepted; give nothing else but the game",
    )


class JoinRequest(_Strict):
    """Take an open seat."""

    seat: int | None = Field(None, description="default: the first open seat")
    name: str | None = Field(None, max_length=MAX_NAME)


class SeatInfo(BaseModel):
    """Who sits in a seat, as everyone may know it."""

    seat: int
    kind: Literal["human", "bot", "open"]
    name: str
    level: str | None = None
    connected: bool = False
    connections: int = Field(0, description="how many connections this seat has now")
    bot_playing: bool = Field(False, description="a bot plays this seat now (away player)")
    arrived: bool = Field(
        default=False,
        description="a person's seat: its person has opened their link at least once",
    )
    bank: float | None = Field(
        default=None,
        description="a person's seat at a table with a takeover bot: the seconds left of "
        "their time bank (how much longer they may be away before the bot plays for them)",
    )
    conceded: int | None = Field(
        default=None,
        description="the move this seat's player conceded at (a bot plays it from then on)",
    )
    profile: str | None = Field(
        default=None,
        description="the name of the account whose seat this is: its profile is "
        "/players/{profile}; None for a guest's, a bot's or an open seat",
    )


class TableSettings(BaseModel):
    """A table's deadline, away time, takeover bot level, listing, and whether a person's
    seat waits for its person's first arrival."""

    deadline: float
    away: float | None
    takeover: str | None
    listed: bool
    wait_for_arrival: bool = True
    hints: bool = Field(False, description="hints allowed (asking the bots about a choice)")
    undo: bool = Field(
        False, description="undo allowed (taking back a decision within its confirmation window)"
    )
    confirm: float = Field(
        default=0.0,
        description="the confirmation window in seconds (0: decisions are final at once)",
    )
    confirm_turn: bool = Field(
        default=False,
        description="decisions are held until their person confirms them (no window)",
    )
    rated: bool = Field(
        default=False,
        description="a rated game: only signed-in players may join; the end rates them",
    )
    chat_apart: bool = Field(default=False, description="spectators' chat reaches spectators only")
    position: str | None = Field(
        None, description="the title of the position or puzzle the game started from, if any"
    )
    pace: float | None = Field(
        default=None,
        description="a turn-based table: seconds each move may take (None: real time)",
    )
    puzzle: str | None = Field(
        default=None,
        description="the shipped puzzle the game started from (its name in GET /api/puzzles), "
        "if any: no deadline answers for anyone at its table",
    )
    tutorial: bool = Field(
        default=False,
        description="the game's tutorial: no deadlines and no answers given for the learner",
    )


def stored_settings(st: dict[str, Any], deadline: float | None = None) -> TableSettings:
    """A table's settings as its creation stored them, read alike by the table and by the
    lobby's listing of a table held elsewhere. A table stored before a setting existed
    reads it as the setting's default; confirmation needs undo. ``deadline``: what a row
    stored without a deadline reads (None: such a row is refused with KeyError)."""
    return TableSettings(
        deadline=float(st["deadline"] if deadline is None else st.get("deadline", deadline)),
        away=None if st.get("away") is None else float(st["away"]),
        takeover=st.get("takeover"),
        listed=bool(st.get("listed", True)),
        wait_for_arrival=bool(st.get("wait_for_arrival", True)),
        hints=bool(st.get("hints", False)),
        undo=bool(st.get("undo", False)),
        confirm=float(st.get("confirm", 0.0)) if st.get("undo") else 0.0,
        confirm_turn=bool(st.get("undo")) and bool(st.get("confirm_turn", False)),
        rated=bool(st.get("rated", False)),
        chat_apart=bool(st.get("chat_apart", False)),
        position=st.get("title") if st.get("position") is not None else None,
        pace=None if st.get("pace") is None else float(st["pace"]),
        puzzle=st.get("puzzle") if isinstance(st.get("puzzle"), str) else None,
        tutorial=bool(st.get("tutorial", False)),
    )


class Revealed(BaseModel):
    """A finished game's seed, the salt of its commitment (None at a table stored without
    one), and what a chosen deal was made from."""

    seed: int
    salt: str | None
    source: str | None = Field(
        None,
        description="a chosen deal: what the committed text names after the salt, "
        '"chosen-seed" or "position:<SHA-256 of the position>" (the commitment is the '
        'SHA-256 of "<seed>:<salt>:<source>"); null for a drawn seed ("<seed>:<salt>")',
    )


class Fairness(BaseModel):
    """The commitment to a table's deal, published before the first card: the SHA-256 hex
    digest of ``"<seed>:<salt>"`` (``"<seed>:<salt>:<source>"`` for a deal the creator
    chose), revealed when the game ends so anyone can check it."""

    commitment: str | None = Field(description="null only at a table stored without one")
    revealed: Revealed | None = Field(description="the seed and salt, once the game is over")
    chosen_seed: bool = Field(
        description="the creator chose the seed (every seat theirs or a bot's)"
    )
    chosen: Literal["seed", "position"] | None = Field(
        None,
        description="what the table's creator chose of the deal, so may know every card: "
        "a seed or a position; null for a deal the server drew",
    )


class TableInfo(BaseModel):
    """A table's public description (never a token, never a hidden fact)."""

    id: str
    game: str
    name: str
    players: int
    options: dict[str, OptionValue]
    status: Literal["waiting", "playing", "over", "broken", "expired", "abandoned"]
    move: int
    to_act: list[int]
    seats: list[SeatInfo]
    settings: TableSettings
    created: float
    result: dict[str, Any] | None = None
    fairness: Fairness
    expires: float | None = Field(
        None, description="while waiting: when the table expires if its seats are not taken"
    )
    problem: str | None = Field(None, description="why a broken table cannot resume")
    paused: bool = Field(
        default=False,
        description="in play, but every person has left: nothing is played (no bot plays it "
        "out) until one of them comes back",
    )
    abandons: float | None = Field(
        default=None,
        description="while paused: when the table ends as abandoned (Unix time); at a "
        "turn-based table in play, when it does if no person moves first",
    )
    due: float | None = Field(
        default=None,
        description="a turn-based table in play: when the move asked now must have been made "
        "(Unix time), None when nothing is due",
    )
    vote: dict[str, Any] | None = Field(
        default=None,
        description="a turn-based table: its players' open vote to end it (by, voters, "
        "agreed, at), or how it ended abandoned (ended: vote or timeout)",
    )


class SeatPass(BaseModel):
    """The secret of one seat: keep it, or hand the link to the player of that seat."""

    seat: int
    token: str
    link: str


class WatchPass(BaseModel):
    """The spectators' token and link."""

    token: str
    link: str


class Created(BaseModel):
    """A new table, the tokens of its people's seats and the spectators' pass."""

    table: TableInfo
    seats: list[SeatPass]
    watch: WatchPass


class Joined(BaseModel):
    """The seat taken, with its token and link."""

    table: TableInfo
    seat: SeatPass


class GameInfo(BaseModel):
    """A game's spec and the bot levels available for it."""

    id: str
    name: str
    min_players: int
    max_players: int
    rules_version: int
    summary: str
    options: list[dict[str, Any]]
    bots: list[str] = Field(description="bot levels available for this game")
    styles: dict[str, str] = Field(
        default_factory=dict,
        description="the bot levels among ``bots`` that are the game's styles of play "
        "(archetypes: its heuristic with other weights), each with what it does, in English "
        "(the page translates it)",
    )
    tutorial: bool = Field(
        default=False, description="the game has a tutorial (a table request's tutorial)"
    )


class RulesInfo(BaseModel):
    """A game's rules for players (Markdown) and what each kind of action does."""

    id: str
    name: str
    summary: str
    text: str
    actions: list[dict[str, str]]


class Catalog(BaseModel):
    """Everything public a page needs to draw a table: the printed components (by the
    ids views use), the phases a view's ``phase`` can take, a label for every action
    text, and each event kind's sentence (``public_text`` for the redacted version
    others see) and fields (``seat_fields``: those that name a seat)."""

    game: str
    players: int
    options: dict[str, OptionValue]
    components: dict[str, Any]
    phases: list[str]
    phase_names: dict[str, str] = Field(
        default_factory=dict,
        description="what a player reads for each phase, in the page's language (a phase "
        "not named here is shown as its id)",
    )
    board: str | None = Field(
        None, description="the game's board module under /static/, or null for the generic one"
    )
    actions: dict[str, str]
    events: dict[str, dict[str, Any]]


class PuzzleInfo(BaseModel):
    """A position a game ships, to start a practice table from."""

    name: str = Field(description="<game id>/<name>: the table request's puzzle")
    game: str
    title: str
    source: str
    notes: str
    seat: int | None = Field(description="the seat the puzzle asks about")
    question: str
    players: int


class ErrorDetail(BaseModel):
    """A stable error code and a sentence saying what was wrong."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every lobby error has this shape."""

    error: ErrorDetail


class Frame(BaseModel):
    """One step of a finished game as one seat saw it."""

    move: int
    view: dict[str, Any]
    events: list[dict[str, Any]]


class Replay(BaseModel):
    """A finished game, frame by frame, as one seat (or a spectator) saw it."""

    table: str
    seat: int | None
    frames: list[Frame]


# ---------------------------------------------------------------------------- client messages


class Hello(_Strict):
    """The first message on a connection: who you are (a seat's or the watch token,
    ``spectate`` for a listed table, or ``seat`` for a seat of your signed-in account),
    and the events you already have."""

    type: Literal["hello"]
    token: str | None = Field(None, min_length=1, max_length=200)
    spectate: bool = Field(
        False, description="watch a listed table without its watch token (no token then)"
    )
    seat: int | None = Field(
        None, ge=0, description="play this seat of your account, signed in (no token then)"
    )
    since: int = Field(0, ge=0, description="send events from this number on")

    @model_validator(mode="after")
    def _token_or_spectate(self) -> Hello:
        given = (self.token is not None) + self.spectate + (self.seat is not None)
        if given == 0:
            raise ValueError(
                "a hello needs a token (a seat's or the watch token), spectate: true to "
                "watch a listed table, or seat: N for a seat of your signed-in account"
            )
        if given > 1:
            raise ValueError("a hello has one of a token, spectate: true or a seat, not more")
        return self


class Act(_Strict):
    """An action for your seat at the move you saw."""

    type: Literal["act"]
    move: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=MAX_ACTION)
    seat: int | None = Field(None, description="optional; must be this connection's seat")
    ref: str | int | None = Field(None, description="echoed in the update that answers it")


class Ping(_Strict):
    """Ask for a pong (keeps idle connections open through proxies)."""

    type: Literal["ping"]


class Sync(_Strict):
    """Ask for the current state again (with every event from ``since``)."""

    type: Literal["sync"]
    since: int = Field(0, ge=0)


class SeatPrefs(_Strict):
    """A seat's preferences (each one left out stays as it is)."""

    autoplay: bool | None = Field(
        None,
        description="play this seat's move for it when it has only one legal action "
        "(default on; see docs/server.md, 'Answers a seat does not have to give')",
    )


class Prefs(_Strict):
    """Set your seat's preferences; answered with a ``prefs`` message."""

    type: Literal["prefs"]
    prefs: SeatPrefs


class Rename(_Strict):
    """Change the name your seat is shown with (an invited friend setting theirs)."""

    type: Literal["name"]
    name: str = Field(min_length=1, max_length=MAX_NAME)


class Rematch(_Strict):
    """At a finished table: a new game with the same seats and a new deal."""

    type: Literal["rematch"]


class Rotate(_Strict):
    """Replace this seat's token: a new token and link come back to this connection, the
    seat's other connections are closed and the old token is refused from then on."""

    type: Literal["rotate"]


class Hint(_Strict):
    """Ask the bots what they think of your choices now (where the table allows hints);
    answered with a ``hint`` message to this connection."""

    type: Literal["hint"]
    move: int = Field(ge=0, description="the move you are asking about")


class Undo(_Strict):
    """Take back your last decision while it is still held for confirmation (where the
    table allows undo)."""

    type: Literal["undo"]
    move: int = Field(ge=0, description="the move you saw")


class Confirm(_Strict):
    """Confirm your held decisions now, without waiting for the confirmation window's end."""

    type: Literal["confirm"]
    move: int = Field(ge=0, description="the move you saw")


class Concede(_Strict):
    """Give up this game: your seat ranks last (docs/server.md, "Conceding")."""

    type: Literal["concede"]
    seat: int | None = Field(None, description="if given, must be your connection's seat")


class EndVote(_Strict):
    """At a turn-based table: propose to end the game, agree to the open proposal
    (``agree`` true), or refuse it (false); docs/server.md, "Ending a turn-based table"."""

    type: Literal["end_vote"]
    agree: bool = True


class Say(_Strict):
    """A chat message to the table: text (shown as text only), or a quick phrase's id
    (shown in each reader's language); see docs/server.md, "Chat"."""

    type: Literal["chat"]
    text: str | None = Field(None, description=f"at most {MAX_CHAT} characters")
    phrase: str | None = Field(None, max_length=40, description="a quick phrase's id")

    @model_validator(mode="after")
    def _one(self) -> Say:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat message has either text or a phrase")
        return self


class Report(_Strict):
    """Report a chat message of this table to the server's operator."""

    type: Literal["report"]
    id: int = Field(ge=1, description="the chat message's id")


AnyClientMessage = (
    Hello
    | Act
    | Ping
    | Sync
    | Rotate
    | Prefs
    | Rename
    | Rematch
    | Hint
    | Undo
    | Confirm
    | Say
    | Report
    | Concede
    | EndVote
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
client_message: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def parse_client(text: str) -> AnyClientMessage:
    """A client message from its JSON text; ProtocolError says what was wrong."""
    try:
        msg = client_message.validate_json(text)
    except ValidationError as e:
        if any(err["type"] == "json_invalid" for err in e.errors()):
            raise ProtocolError(
                "bad_json", f"messages are JSON objects: {e.errors()[0]['msg']}"
            ) from None
        if any(
            err["type"] in ("union_tag_not_found", "model_attributes_type") for err in e.errors()
        ):
            raise ProtocolError(
                "bad_message",
                'a message is a JSON object with "type": one of hello, act, ping, sync, rotate, '
                "prefs, name, rematch, hint, undo, confirm, chat, report, concede, end_vote",
            ) from None
        raise ProtocolError("bad_message", explain(e)) from None
    if isinstance(msg, Act) and isinstance(msg.ref, str) and len(msg.ref) > MAX_REF:
        raise ProtocolError("bad_message", f"act.ref: at most {MAX_REF} characters")
    return msg


# ---------------------------------------------------------------------------- server messages


class GameLike(Protocol):
    """What :func:`state_message` reads of a game: the state's public surface."""

    @property
    def move(self) -> int: ...

    @property
    def to_act(self) -> tuple[int, ...]: ...

    @property
    def is_over(self) -> bool: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def legal_actions(self, seat: int) -> list[Action]: ...

    def events_since(self, n: int, seat: int | None) -> list[dict[str, Any]]: ...

    def default_action(self, seat: int) -> Action | None: ...


def deadline_info(
    game: GameLike, timed_seats: Collection[int], at_ms: int | None
) -> dict[str, Any] | None:
    """Who must answer by when, and what is applied if they do not (None: no deadline).
    ``timed_seats`` are the seats played by people; ``at_ms`` the deadline in Unix ms."""
    if at_ms is None:
        return None
    for s in game.to_act:
        if s in timed_seats:
            default = game.default_action(s)
            if default is not None:
                return {"seat": s, "at": at_ms, "default": str(default)}
    return None


def state_message(
    game: GameLike,
    seat: int | None,
    since: int,
    *,
    table: str,
    status: str,
    timed_seats: Collection[int],
    deadline_at: int | None,
) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) receives: its view, its legal actions, the events
    from number ``since`` as it may see them, and the table's public deadline."""
    playing = status == "playing"
    return {
        "type": "state",
        "table": table,
        "seat": seat,
        "status": status,
        "move": game.move,
        "view": game.view(seat),
        "legal": [str(a) for a in game.legal_actions(seat)] if playing and seat is not None else [],
        "events": game.events_since(since, seat),
        "deadline": deadline_info(game, timed_seats, deadline_at) if playing else None,
    }


def encode(msg: dict[str, Any]) -> str:
    """Compact JSON text for the wire."""
    return json.dumps(msg, separators=(",", ":"))
