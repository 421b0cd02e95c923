"""The public pages in English and French (issue 20): the browser's language by default, a
switch on every page, numbers and dates as each language writes them, no English left in
French, and a complete French catalogue compiled into the committed .mo file."""

from __future__ import annotations

import asyncio
import datetime as dt
import gettext
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tournaments import services
from tournaments.models import Result

pytestmark = pytest.mark.django_db

FR = {"HTTP_ACCEPT_LANGUAGE": "fr-CH,fr;q=0.9,en;q=0.5"}
PO = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"

NAMES = ["Dupont, Marie", "Keller, Urs", "Rossi, Lia", "Meier, Jan", "Baumann, Eva",
         "Favre, Luc", "Steiner, Ida"]


@pytest.fixture
def event(arbiter):
    """Round 1 finished (a draw, a forfeit, a pairing-allocated bye), round 2 published."""
    t = services.create_tournament(
        arbiter, name="Open de Genève", place="Genève", rounds=5, tiebreaks="BH/C1,BH,SB",
        start_date=dt.date(2026, 12, 1), end_date=dt.date(2026, 12, 3),
    )
    for i, name in enumerate(NAMES):
        services.add_player(t, arbiter, name=name, rating=2300 - 50 * i, federation="SUI")
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards = list(rnd.games.filter(board__isnull=False).order_by("board"))
    services.set_results(rnd, arbiter, {boards[0].pk: Result.DRAW,
                                        boards[1].pk: Result.WHITE_WINS_FORFEIT,
                                        boards[2].pk: Result.BLACK_WINS})
    services.finish_round(rnd, arbiter)
    services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return t


def public_pages(t) -> list[str]:
    """Every public page of the URL map, for this tournament."""
    player = t.players.order_by("tpn").first()
    args = {"pk": t.pk, "number": 1, "player_pk": player.pk}
    pages = []
    for route, entry in _routes(get_resolver()):
        if route.startswith(("api/", "admin/", "arbiter/", "accounts/", "language/", "i18n/")):
            continue
        if route in ("healthz", "readyz", "metrics"):
            continue  # for machines (a probe, Prometheus), not readers: plain English text
        if asyncio.iscoroutinefunction(entry.callback):
            continue  # the live-update stream, not a page
        path = "/" + route
        for name, value in args.items():
            path = path.replace(f"<int:{name}>", str(value))
        if "<" not in path:
            pages.append(path)
    return pages


def _routes(resolver, prefix=""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry


class _Text(HTMLParser):
    """The text a reader meets: text nodes and the attributes read out (title, aria-label,
    placeholder, alt), outside scripts, styles and elements marked lang="en"."""

    SKIP = {"script", "style"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.parts, self.stack = [], []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        # A part marked English is said to be (the engine's sentences); a whole page is not.
        skip = tag in self.SKIP or (attrs.get("lang") == "en" and tag != "html")
        if not self._skipping() and not skip:
            self.parts += [attrs[a] for a in ("title", "aria-label", "placeholder", "alt")
                           if attrs.get(a)]
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not self._skipping():
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


# English words of the interface that French never uses (names and codes are taken out first).
ENGLISH = re.compile(
    r"\b(the|and|of|with|for|by|not|round|rounds|standings|player|players|pairing|pairings|"
    r"board|white|black|draw|win|won|lost|loss|bye|byes|after|before|from|yet|no|yes|all|"
    r"none|this|that|is|are|has|have|been|published|finished|rating|federation|name|rank|"
    r"result|results|opponent|tournament|tournaments|search|show|find|log|login|"
    r"dashboard|crosstable|tie-breaks?|joined|withdrawn|forfeit|requested|half|"
    r"zero|full|pairing-allocated|number|games?|colours?|counted|value|cut|dummy)\b",
    re.IGNORECASE,
)


def english_left(text: str, t) -> list[str]:
    for data in [*NAMES, t.name, t.place, "English", "FIDE", "TRF", "REST", "API", "Elo"]:
        if data:
            text = text.replace(data, " ")
    return sorted({m.group(0) for m in ENGLISH.finditer(text)})


def test_the_browser_language_decides_by_default(client, event):
    page = client.get(reverse("public-standings", args=[event.pk]), **FR).content.decode()
    assert '<html lang="fr">' in page and "Classement après la ronde 1" in page
    english = client.get(reverse("public-standings", args=[event.pk]),
                         HTTP_ACCEPT_LANGUAGE="en-GB").content.decode()
    assert '<html lang="en">' in english and "Standings after round 1" in english


def test_a_switch_on_every_page_keeps_the_visitor_on_it(client, event):
    home = reverse("public-tournament", args=[event.pk])
    page = client.get(home).content.decode()
    switch = reverse("language", args=["fr"])
    assert f'href="{switch}?next={home}"' in page
    response = client.get(switch, {"next": home})
    assert response.status_code == 302 and response["Location"] == home
    assert client.get(home).content.decode().count("Rondes") >= 1  # the cookie decides now
    assert client.get(home, HTTP_ACCEPT_LANGUAGE="en").content.decode().count("Rondes") >= 1
    assert client.get(reverse("language", args=["en"]), {"next": "https://evil.example/"})[
        "Location"] == "/"
    assert client.get(reverse("language", args=["xx"])).status_code == 404


def test_points_and_dates_as_each_language_writes_them(client, event):
    standings = reverse("public-standings", args=[event.pk])
    english = client.get(standings, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    french = client.get(standings, **FR).content.decode()
    assert ">½<" in english and ">0,5<" in french and "½" not in visible_text(french)
    assert "1 Dec 2026" in english and "1 décembre 2026" in french


def test_the_page_cache_keeps_each_language_apart(client, event):
    standings = reverse("public-standings", args=[event.pk])
    for _ in range(2):  # the second time from the cache of the tournament's version
        assert "Standings after round 1" in client.get(
            standings, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Classement après la ronde 1" in client.get(standings, **FR).content.decode()


def test_each_language_has_its_own_etag(client, event):
    standings = reverse("public-standings", args=[event.pk])
    english = client.get(standings, HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(standings, **FR)
    assert english["ETag"] != french["ETag"] and "Accept-Language" in french["Vary"]
    again = client.get(standings, HTTP_IF_NONE_MATCH=english["ETag"], **FR)
    assert again.status_code == 200


def test_no_english_is_left_on_the_french_public_pages(client, event):
    pages = public_pages(event)
    assert len(pages) >= 8, pages
    left = {}
    for path in pages:
        response = client.get(path, **FR)
        assert response.status_code == 200, path
        words = english_left(visible_text(response.content.decode()), event)
        if words:
            left[path] = words
    assert left == {}, left


def test_the_check_finds_english():
    assert english_left("Classement after round 1", type("T", (), {"name": "", "place": ""})) == [
        "after", "round"]


def test_the_french_catalogue_is_complete_and_compiled():
    po = polib.pofile(str(PO))
    assert po.percent_translated() == 100, [e.msgid for e in po.untranslated_entries()]
    assert not po.fuzzy_entries() and not po.obsolete_entries()
    with open(PO.with_suffix(".mo"), "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for entry in po.translated_entries():
        if entry.msgctxt:
            assert compiled.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr, entry.msgid
        elif entry.msgid_plural:
            assert compiled.ngettext(entry.msgid, entry.msgid_plural, 1) == entry.msgstr_plural[0]
        else:
            assert compiled.gettext(entry.msgid) == entry.msgstr, entry.msgid


def test_the_api_stays_in_english(client, event):
    player = event.players.order_by("tpn").first()
    url = reverse("api-player", args=[event.pk, player.pk])
    french = client.get(url, HTTP_ACCEPT="application/json", **FR).json()
    english = client.get(url, HTTP_ACCEPT="application/json").json()
    assert french == english
    missing = client.get(reverse("api-tournament", args=[999]), **FR).json()
    assert missing["detail"] == "No such tournament."
