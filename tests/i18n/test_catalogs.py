"""The catalogs: every message has its German translation, the committed template is what
extraction finds in the sources today (so a new string without a translation fails here),
the compiled catalog is the compiled .po, and the machinery picks languages and plural
forms as it should."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import dragonlair
from dragonlair.core import DragonlairError
from dragonlair.core.events import event_text
from dragonlair.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    _,
    from_environment,
    language,
    negotiate,
    ngettext,
    parse_language,
    set_language,
    using,
    words,
)

ROOT = Path(__file__).resolve().parents[2]
POT = LOCALE_DIR / "dragonlair.pot"
FIELD = re.compile(r"\{([a-z_]*)[^}]*\}")


def po(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "dragonlair.po"


def key(m: Any) -> str | tuple[str, ...]:
    """A message's id: its text, or its singular and plural."""
    return m.id if isinstance(m.id, str) else tuple(m.id)


def texts(value: Any) -> tuple[str, ...]:
    """A message's id or translation as a tuple of its forms."""
    return (value,) if isinstance(value, str) else tuple(value or ())


def ids(catalog: Any) -> set[str | tuple[str, ...]]:
    return {key(m) for m in catalog if m.id}


def test_the_template_is_what_extraction_finds_today(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.pot"
    CommandLineInterface().run(  # type: ignore[no-untyped-call]
        [
            "pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"),
            "-k", "plural:1,2", "-k", "t", "-k", "tn:1,2",
            "--no-location", "--sort-output", "--omit-header", "-o", str(fresh), str(ROOT),
        ]
    )  # fmt: skip
    found = ids(read_po(fresh.open("rb")))
    committed = ids(read_po(POT.open("rb")))
    assert not found - committed, (
        f"new strings: run `make catalogs`: {sorted(map(str, found - committed))}"
    )
    assert not committed - found, (
        f"strings gone: run `make catalogs`: {sorted(map(str, committed - found))}"
    )


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    template = ids(read_po(POT.open("rb")))
    catalog = read_po(po(lang).open("rb"))
    assert catalog.plural_forms == "nplurals=2; plural=(n != 1);"  # what the browser assumes
    untranslated, fuzzy = [], []
    for m in catalog:
        if not m.id:
            continue
        if not all(texts(m.string)) or not texts(m.string):
            untranslated.append(m.id)
        if m.fuzzy:
            fuzzy.append(m.id)
    assert not untranslated, f"untranslated in {lang}: {untranslated}"
    assert not fuzzy, f"fuzzy in {lang}: {fuzzy}"
    assert template <= ids(catalog), (
        f"missing in {lang}: {sorted(map(str, template - ids(catalog)))}"
    )


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_keep_every_placeholder(lang: str) -> None:
    for m in read_po(po(lang).open("rb")):
        if not m.id:
            continue
        wanted = set().union(*(FIELD.findall(s) for s in texts(m.id))) - {"n"}
        for text in texts(m.string):
            assert set(FIELD.findall(text)) - {"n"} == wanted, (m.id, text)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_compiled_catalog_is_the_po_compiled(lang: str) -> None:
    source = {key(m): texts(m.string) for m in read_po(po(lang).open("rb")) if m.id}
    mo = po(lang).with_suffix(".mo")
    compiled = {key(m): texts(m.string) for m in read_mo(mo.open("rb")) if m.id}
    assert compiled == source, "run `make catalogs` (pybabel compile)"


def test_plural_forms_follow_the_count() -> None:
    with using("de"):
        assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 Karte"
        assert ngettext("{n} card", "{n} cards", 2).format(n=2) == "2 Karten"
        assert ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 Karten"
    assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 card"


def test_event_texts_are_rendered_in_the_language_of_the_context() -> None:
    game = dragonlair.make("dragon-race", players=2)
    event = {"seq": 3, "type": "drew", "seat": 1, "count": 1, "redacted": True}
    names = ["Ada", "Bo"]
    assert event_text(game.event_specs, event, names) == "Bo draws 1 card"
    with using("de"):
        assert event_text(game.event_specs, event, names) == "Bo zieht 1 Karte"
        assert event_text(game.event_specs, {**event, "count": 3}, names) == "Bo zieht 3 Karten"
    assert language() == "en"


def test_the_engine_s_words_in_values_are_translated() -> None:
    with using("de"):
        assert words("face up") == "offen"
        assert words("dragon 19 (12 pts; mood 1, crime 1)") == (
            "Drache 19 (12 Pkt.; Stimmung 1, Korruption 1)"
        )
        assert words("Dora") == "Dora"
    assert words("face up") == "face up"


def test_the_terminal_language_follows_the_locale() -> None:
    assert from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert from_environment({"LANG": "de_DE.UTF-8", "LC_ALL": "en_GB.UTF-8"}) == "en"
    assert from_environment({"LC_MESSAGES": "de_AT", "LANG": "en_US"}) == "de"
    assert from_environment({"LANGUAGE": "fr:de", "LANG": "C"}) == "de"
    assert from_environment({"LANG": "C"}) == "en"
    assert from_environment({"LANG": "fr_FR.UTF-8"}) == "en"
    assert from_environment({}) == "en"
    assert parse_language("de-CH") == "de"
    assert parse_language("xx_YY") is None


def test_the_browser_language_follows_accept_language() -> None:
    assert negotiate("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert negotiate("en-US,en;q=0.9,de;q=0.8") == "en"
    assert negotiate("fr-FR,fr;q=0.9,de;q=0.5") == "de"
    assert negotiate("de;q=0") == "en"
    assert negotiate("fr") == "en"
    assert negotiate(None) == "en"
    assert negotiate("garbage;;q=x,") == "en"


def test_an_unknown_language_is_refused_and_changes_nothing() -> None:
    with pytest.raises(DragonlairError, match="unknown language 'fr'"):
        set_language("fr")
    assert language() == "en"
    assert _("Quit") == "Quit"


@pytest.mark.parametrize(
    "game_id", ["space-dragons", "space-race", "dragon-stripes", "dragon-race"]
)
def test_every_game_ships_its_player_rules_in_german(game_id: str) -> None:
    from dragonlair.core import manifest
    from tests.i18n.english import english_words

    rules = manifest(game_id).player_rules("de")
    assert rules != manifest(game_id).player_rules("en")
    assert english_words(rules) == []
    assert manifest(game_id).player_rules("fr") == manifest(game_id).player_rules()
