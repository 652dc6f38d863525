"""Players' words: what the terminal shows and accepts, as printed on the table.

The engine speaks in its record format: seats from 0 and cards by their id in the game's
data (``play 11``, ``blow 52 2``). Players speak of Player 1 and of the cards by what is
printed on them (``play 2``, ``blow tornado 3``). This module is the one place where the
terminal turns one into the other; the record format is unchanged, so saves, records and
replays are the same files as before.

A game's terminal parts (:class:`dragonlair.tui.parts.TerminalParts`, which its manifest's
``terminal`` names) may declare ``forms`` (the ways a player may type an action), ``label``
(the choice as a line of the menu), ``event_fields`` and ``event_text`` (events with
printed cards), ``big_events`` (the kinds a player must not miss) and ``number_kinds``
(the kinds a bare number stands for); each one left out has the generic behaviour.

Sentences about the player named "You" are put in the second person ("You are dealt",
"your turn"), and counts agree with their nouns ("1 shield", "1 card"): that is English
grammar, applied to English only. Every other word shown is in the current language
(:mod:`dragonlair.i18n`); what a player types is the same in every language.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from ..core import Action, DragonlairError, Game
from ..core.events import event_text
from ..i18n import _, language
from .parts import terminal_parts

_SEAT_PARAMS = ("seat", "target", "victim")
_PUNCTUATION = re.compile(r"[()!,:;·]")


def normalize(text: str) -> str:
    """Typed text as compared: lower case, punctuation and extra spaces dropped."""
    return " ".join(_PUNCTUATION.sub(" ", text.lower()).split())


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("Player {n}").format(n=seat + 1)


class Words:
    """Players' words for one game at one table."""

    def __init__(self, game: Game, names: Sequence[str], me: int | None = None) -> None:
        self.game = game
        self.names = list(names)
        self.me = me
        self.parts = terminal_parts(game)
        self._forms: dict[Action, list[str]] = {}

    # ------------------------------------------------------------------ actions

    def forms(self, action: Action) -> list[str]:
        """Every way to type ``action``, normalized; the first is the one to show."""
        found = self._forms.get(action)
        if found is None:
            hook = self.parts.forms
            raw = hook(self.game, action) if hook else [self._default_form(action)]
            found = [normalize(f) for f in raw]
            self._forms[action] = found
        return found

    def typed(self, action: Action, among: Sequence[Action] = ()) -> str:
        """The short form a player types for ``action`` (``play 2``, ``steal 3``): among
        the choices ``among``, the shortest form that picks it out."""
        forms = self.forms(action)
        if not among:
            return forms[0]
        mine = self.label(action)
        ordered = sorted(forms, key=len)
        unique = [f for f in ordered if all(f not in self.forms(a) for a in among if a != action)]
        same = [
            f for f in ordered if all(self.label(a) == mine for a in among if f in self.forms(a))
        ]
        for form in [*unique, *same, forms[0]]:
            if self._glued(form):
                kind, number, letter = form.split()
                return f"{kind} {number}{letter}"
            return form
        return forms[0]

    def _glued(self, form: str) -> bool:
        """``play 4 a`` shows as ``play 4a`` (both are accepted)."""
        parts = form.split()
        return len(parts) == 3 and parts[1].isdigit() and len(parts[2]) == 1 and parts[2].isalpha()

    def _default_form(self, action: Action) -> str:
        kind = next((k for k in self.game.table.kinds if k.kind == action.kind), None)
        params = kind.params if kind else ()
        args = [
            str(a + 1)
            if isinstance(a, int) and i < len(params) and params[i] in _SEAT_PARAMS
            else str(a)
            for i, a in enumerate(action.args)
        ]
        return " ".join([action.kind, *args])

    def label(self, action: Action) -> str:
        """What the choice does, in a line."""
        hook = self.parts.label
        if hook:
            text: str = hook(self.game, action, self.names, self.me)
            return self.grammar(text)
        return self.grammar(self.game.describe_action(action))

    def cards_of(self, action: Action) -> frozenset[int]:
        """The cards of the hand that ``action`` plays (the parts' ``cards_of``)."""
        hook = self.parts.cards_of
        return frozenset(hook(self.game, action)) if hook else frozenset()

    @property
    def number_kinds(self) -> tuple[str, ...]:
        return tuple(self.parts.number_kinds)

    def parse(self, text: str, legal: Sequence[Action]) -> Action:
        """The legal action the player typed: a form of one, a card's printed number (in
        games whose cards carry numbers) or else a choice's number in the menu."""
        norm = normalize(text)
        if not norm:
            raise DragonlairError(_("type an action, or pick one from the list"))
        if norm.isdigit():
            if self.number_kinds:
                tries = [f"{kind} {norm}" for kind in self.number_kinds]
                found = [a for a in legal if any(t in self.forms(a) for t in tries)]
                if found:
                    return self._one(found, norm)
                raise DragonlairError(_("you cannot play a {number} now").format(number=norm))
            n = int(norm)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            raise DragonlairError(
                _("there is no choice {n}: pick 1 to {last}").format(n=n, last=len(legal))
            )
        found = [a for a in legal if norm in self.forms(a)]
        if found:
            return self._one(found, norm)
        kinds = {a.kind for a in legal}
        word = norm.split()[0]
        if word in {k.kind for k in self.game.table.kinds} and word not in kinds:
            raise DragonlairError(_("you cannot {word} now").format(word=word))
        shown = ", ".join(dict.fromkeys(self.typed(a, legal) for a in legal))
        raise DragonlairError(
            _("{typed!r} is not one of your choices: {shown}").format(
                typed=text.strip(), shown=shown
            )
        )

    def _one(self, found: list[Action], norm: str) -> Action:
        # The card whose own name is what was typed: ``play 4`` is the plain 4, not the
        # HALT! 4 played as a number (``play halt 4``) nor the 4 (B) (``play 4b``).
        named = [a for a in found if self.forms(a)[0] == norm]
        if named:
            return named[0]
        labels = {self.label(a) for a in found}
        if len(labels) == 1:
            return found[0]
        which = _(" or ").join(dict.fromkeys(self.typed(a, found) for a in found))
        raise DragonlairError(
            _("{typed!r} could be {which}: say which").format(typed=norm, which=which)
        )

    # ------------------------------------------------------------------ events

    def event(self, event: dict[str, Any]) -> str:
        """One log line in players' words."""
        hook = self.parts.event_fields
        shown = dict(hook(self.game, event, self.names)) if hook else dict(event)
        template = self.parts.event_text.get(shown["type"])
        if template is not None and not shown.get("redacted"):
            specs = dict(self.game.event_specs)
            spec = specs[shown["type"]]
            specs[shown["type"]] = dataclasses.replace(spec, text=template)
            line = event_text(specs, shown, self.names)
        else:
            line = event_text(self.game.event_specs, shown, self.names)
        return self.grammar(line)

    def big(self, event: dict[str, Any]) -> bool:
        """Whether a player must not miss the event (a turn cancelled, a Danger, a dragon
        won): the kinds in the parts' ``big_events``."""
        return event.get("type") in self.parts.big_events

    # ------------------------------------------------------------------ grammar

    def grammar(self, text: str) -> str:
        return grammar(text) if language() == "en" else text


_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}
_YOU_VERB = re.compile(r"\bYou((?:, [^,]+,)?) ([a-z]+)\b")


def _second_person(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if re.search(r"(ss|sh|ch|x|z)es$", verb):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def grammar(text: str) -> str:
    """ "You is dealt" -> "You are dealt"; "You's turn" -> "your turn"; "1 cards" ->
    "1 card"; "1 time(s)" -> "1 time"."""
    text = re.sub(r"(^|[.:;!] )You's\b", lambda m: m.group(1) + "Your", text)
    text = re.sub(r"\bYou's\b", "your", text)
    text = _YOU_VERB.sub(lambda m: f"You{m.group(1)} {_second_person(m.group(2))}", text)
    # "You tuck a card under their ship", "You gets the card back from their...": in the
    # clause whose subject is You, "their" is yours
    text = re.sub(r"\b(You\b[^;:.]*?)\btheir\b", r"\1your", text)
    # "You win the round and claims": the second verb of the same clause too
    text = re.sub(
        r"(\bYou [^;:.]*? and )(" + "|".join(_AND_VERBS) + r")\b",
        lambda m: m.group(1) + _second_person(m.group(2)),
        text,
    )
    text = re.sub(r"(?<=[a-z,] )You\b", "you", text)
    text = re.sub(r"\b1 (\w+)\(s\)", r"1 \1", text)
    text = re.sub(r"\b(\d+) (\w+)\(s\)", r"\1 \2s", text)
    text = re.sub(r"(?<![\d.])\b1 ([A-Za-z]+)\b", _singular, text)
    return text


_NOT_PLURAL = {
    "is",
    "was",
    "has",
    "as",
    "its",
    "this",
    "us",
    "pass",
    "plus",
    "bonus",
    "less",
    "across",
}
# Verbs the events put after "and" ("wins the round and claims"), for the second person.
_AND_VERBS = ("claims", "discards", "draws", "moves", "pays", "plays", "takes", "loses", "gets")


def _singular(m: re.Match[str]) -> str:
    word = m.group(1)
    if not word.endswith("s") or word.lower() in _NOT_PLURAL or word.endswith("ss"):
        return m.group(0)
    if re.search(r"\b[A-Z]\w* $", m.string[: m.start()]):  # "Player 1 draws": a name
        return m.group(0)
    if word.endswith("ies"):
        return f"1 {word[:-3]}y"
    if re.search(r"(ch|sh|x|ss)es$", word):
        return f"1 {word[:-2]}"
    return f"1 {word[:-1]}"
