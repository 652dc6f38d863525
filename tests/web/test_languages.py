"""The browser in German and English: the page is served in the language the switch
remembered, else the one Accept-Language asks for; its words, a table's catalog and a
game's rules come in the language asked for, so two people at one table can read two
languages; without ``lang`` the API answers in English, and what is played is the same."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import dragonlair
from dragonlair.web import create_app
from tests.web.serverkit import config


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(sqlite_url))) as c:
        yield c


def html_lang(web: TestClient, path: str = "/", **kw: object) -> str:
    page = web.get(path, **kw)
    assert page.status_code == 200
    return str(page.text.split('<html lang="', 1)[1].split('"', 1)[0])


def test_the_page_follows_accept_language_and_the_remembered_switch(web: TestClient) -> None:
    assert html_lang(web) == "en"
    assert html_lang(web, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}) == "de"
    assert html_lang(web, "/play/abc", headers={"Accept-Language": "de"}) == "de"
    web.cookies.set("lang", "en")
    assert html_lang(web, headers={"Accept-Language": "de"}) == "en"
    web.cookies.set("lang", "de")
    assert html_lang(web, "/watch/abc") == "de"
    web.cookies.set("lang", "<script>")  # not a language of ours: ignored
    assert html_lang(web, headers={"Accept-Language": "en"}) == "en"


def test_a_mistyped_address_gets_its_page_in_the_reader_s_language(web: TestClient) -> None:
    de = web.get("/no/such/page", headers={"Accept-Language": "de"})
    assert de.status_code == 404
    assert '<html lang="de">' in de.text and "Hier ist nichts" in de.text
    assert "Zurück zur Lobby" in de.text
    en = web.get("/no/such/page", headers={"Accept-Language": "en"})
    assert "There is nothing here" in en.text and '<html lang="en">' in en.text


def test_the_page_s_words_come_in_its_language(web: TestClient) -> None:
    de = web.get("/api/strings", params={"lang": "de"}).json()
    assert de["lang"] == "de" and de["languages"] == {"en": "English", "de": "Deutsch"}
    assert de["messages"]["Create table"] == "Tisch eröffnen"
    assert de["plurals"]["{n} card"] == ["{n} Karte", "{n} Karten"]
    en = web.get("/api/strings", params={"lang": "en"}).json()
    assert en["messages"] == {} and en["lang"] == "en"  # the message ids are the English
    bad = web.get("/api/strings", params={"lang": "fr"})
    assert bad.status_code == 422 and "lang" in bad.json()["error"]["message"]


def test_two_readers_of_one_table_get_its_catalog_in_two_languages(web: TestClient) -> None:
    created = web.post("/api/tables", json={"game": "dragon-race", "players": 2}).json()
    tid = created["table"]["id"]
    en = web.get(f"/api/tables/{tid}/catalog").json()
    de = web.get(f"/api/tables/{tid}/catalog", params={"lang": "de"}).json()
    game = dragonlair.make("dragon-race", players=2)
    assert en["events"]["won"]["text"] == "{seat} reaches the Finish and wins the race!"
    assert de["events"]["won"]["text"] == "{seat} erreicht das Ziel und gewinnt das Rennen!"
    assert de["events"]["drew"]["plurals"]["public_text"] == {
        "field": "count",
        "forms": ["{seat} zieht {count} Karte", "{seat} zieht {count} Karten"],
    }
    # the same action texts (what a seat sends), labelled in each reader's language
    assert set(de["actions"]) == set(en["actions"]) == {str(a) for a in game.actions}
    assert de["actions"]["stop"] == "Zug beenden" and en["actions"]["stop"] == "end your turn"
    assert en["phase_names"]["halt-play"] == "Halt play"
    assert de["phase_names"]["halt-play"] == "HALT! auf den Zug"
    assert web.get(f"/api/tables/{tid}/catalog", params={"lang": "xx"}).status_code == 422


def test_a_game_s_rules_in_german(web: TestClient) -> None:
    en = web.get("/api/games/dragon-stripes/rules").json()
    de = web.get("/api/games/dragon-stripes/rules", params={"lang": "de"}).json()
    assert en["summary"].startswith("Push your luck")
    assert de["summary"].startswith("Fordere dein Glück")
    assert {a["form"] for a in de["actions"]} == {a["form"] for a in en["actions"]}
    assert de["actions"][0]["help"] == "die oberste Karte aufdecken"


def test_every_refusal_the_server_can_send_has_a_text_on_a_translated_page() -> None:
    """The page says a refusal in its language by code (``errorText`` in ``i18n.js``): every
    code the server's sources raise has a text there, so none reaches a German page in
    English."""
    web = Path(dragonlair.__file__).parent / "web"
    raised = set()
    for path in web.glob("*.py"):
        for m in re.finditer(
            r'(?:ProtocolError|error_response)\(\s*(?:\d+,\s*)?"([a-z_]+)"', path.read_text()
        ):
            raised.add(m.group(1))
    page = (web / "static" / "js" / "i18n.js").read_text()
    table = page[page.index("const ERRORS = {") : page.index("};", page.index("const ERRORS = {"))]
    known = set(re.findall(r"^\s+([a-z_]+): N_\(", table, re.M))
    assert len(raised) > 20
    assert raised - known - {"stale_move"} == set()  # the page never shows stale_move
