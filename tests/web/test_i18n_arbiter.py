"""The arbiter's dashboard in French (issue 20): every page of the URL map under ``arbiter/``
and ``accounts/`` (the printed pages too), its forms shown with their validation errors and the
messages of its actions, read by an arbiter whose browser asks for French, with no English word
of the interface left; numbers and dates as French writes them; the language links work there.
"""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import get_resolver, reverse

from pairing.tiebreaks.specs import Acronym
from tournaments import services
from tournaments.forms import TIME_ZONE_CHOICES
from tournaments.models import AuditEntry, FidePlayer, Result
from tournaments.services import corrections, pairing_changes

from .pages import form_data
from .test_e2e_browser import browser  # noqa: F401 (a fixture)
from .test_i18n import ENGLISH, NAMES, _routes, visible_text

pytestmark = pytest.mark.django_db

FR = {"HTTP_ACCEPT_LANGUAGE": "fr-CH,fr;q=0.9,en;q=0.5"}

LATE = "Girard, Paul"
FIDE_NAMES = ["Carlsen, Magnus", "Caruana, Fabiano"]
EVENTS = ["Open de Genève", "Coupe de Lausanne", "Tournoi de Sion", "Double de Bienne"]
PLACES = ["Genève", "Lausanne", "Sion", "Bienne"]

# Words of the dashboard that French never uses, beside the public pages' list (ENGLISH).
DASHBOARD = re.compile(
    r"\b(edit|save|saved|add|added|remove|removed|withdraw|withdraws|withdrawal|publish|"
    r"unpublish|unpair|unpaired|re-pair|corrected|print|draft|settings|trail|upload|swap|"
    r"check|reason|late|entry|entries|tick|ticked|arbiter|arbiters|which|when|who|what|your|"
    r"you|list|slips?|engine|hand|warnings?|cannot|notified|wrong|exchange|exchanged|first|"
    r"then|only|into|already|again|new|newer|older|changes|kind|event|time|control|born|"
    r"starting|admit|admitted|apply|cancel|cancelled|refresh|ratings|titles|federations|"
    r"against|game|played|shown|count|each|every|pick|city|deputy|chief|allow|whether|may|"
    r"can|must|empty|encoded|moves|seconds|lines?|one|it|in|to|was|will|here|more|than|how|"
    r"why|where|open|keep|keeps|stays?|text|files?|missing|entered|recorded|username|"
    r"password|field|required|enter|valid|please|user)\b",
    re.IGNORECASE,
)

# Codes, not words: FIDE tie-break codes (WIN, WON ...), IANA time zone names (a select's
# options: "Europe/Isle of Man"), the CSV columns a file names (in lang="en" already).
_CODES = "|".join(sorted((a.value for a in Acronym), key=len, reverse=True))
TIE_BREAK_CODE = re.compile(rf"\b(?:{_CODES})(?:/[A-Z0-9]+)*\b")
ZONES = sorted({label for _, label in TIME_ZONE_CHOICES}, key=len, reverse=True)


def english_left(html: str, *data: str) -> list[str]:
    """The English words of the interface on a page: names, places, users, codes left out.
    A textarea holds what the arbiter typed (a pairing in its syntax, a tie-break list)."""
    html = re.sub(r"(?s)(<textarea[^>]*>).*?(</textarea>)", r"\1\2", html)
    text = visible_text(html)
    names = [*NAMES, LATE, *FIDE_NAMES, *EVENTS, *PLACES, *ZONES, *data,
             "English", "FIDE", "TRF", "CSV", "UTF-8", "Elo", "IA Anne Martin"]
    for name in sorted(names, key=len, reverse=True):  # a path before the user name in it
        text = text.replace(name, " ")
    text = TIE_BREAK_CODE.sub(" ", text)
    return sorted({m.group(0).lower() for r in (ENGLISH, DASHBOARD) for m in r.finditer(text)})


def test_the_check_finds_dashboard_english():
    assert english_left("<p>Modifier</p><button>Save</button><textarea>1 bye</textarea>") == [
        "save"]
    assert english_left("<p>Départages : BH/C1, WIN, Europe/Isle of Man</p>") == []


def _play(rnd, arbiter, results):
    rnd = services.publish_round(rnd, arbiter)
    boards = list(rnd.games.filter(board__isnull=False).order_by("board"))
    services.set_results(rnd, arbiter, {g.pk: r for g, r in zip(boards, results, strict=False)})
    return rnd


@pytest.fixture
def events(arbiter):
    """Four events of one arbiter (a staff user): one in its third round (a correction, a
    requested bye, a withdrawal, a late entry, results pending), one with a draft round 1
    changed by hand, one still registering, one Double-Swiss with a round published; and two
    players in a loaded FIDE list."""
    arbiter.is_staff = True
    arbiter.save()
    t = services.create_tournament(
        arbiter, name=EVENTS[0], place=PLACES[0], rounds=5, tiebreaks="BH/C1,BH,SB,WIN",
        start_date=dt.date(2026, 12, 1), end_date=dt.date(2026, 12, 3), federation="SUI",
        chief_arbiter="IA Anne Martin", time_control="90 min + 30 s", allow_full_point_bye=True,
        time_zone="Europe/Zurich",
    )
    for i, name in enumerate(NAMES):
        services.add_player(t, arbiter, name=name, rating=2300 - 50 * i, federation="SUI")
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd1 = _play(services.pair_next_round(t, arbiter), arbiter,
                 [Result.DRAW, Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS])
    services.finish_round(rnd1, arbiter)
    corrections.correct_result(rnd1.games.get(board=3), arbiter, result=Result.WHITE_WINS,
                               reason="feuille de partie")
    rnd2 = _play(services.pair_next_round(t, arbiter), arbiter, [Result.WHITE_WINS])
    services.request_bye(t.players.get(tpn=2), arbiter, round_number=3, kind="H")
    services.withdraw_player(t.players.get(tpn=7), arbiter, from_round=3)
    services.admit_late_entry(t, arbiter, arrival_round=3, name=LATE, rating=1900)
    assert rnd2.state == "published"

    draft = services.create_tournament(arbiter, name=EVENTS[1], place=PLACES[1], rounds=3)
    for i, name in enumerate(NAMES[:5]):
        services.add_player(draft, arbiter, name=name, rating=2000 - 10 * i)
    services.draw_initial_color(draft, arbiter, random.Random(1))
    first = services.pair_next_round(draft, arbiter)
    pairing_changes.change_pairing(first, arbiter, boards=[(1, 2), (3, 4)], bye=5,
                               accept_warnings=True)  # no note: the page says it was by hand

    registering = services.create_tournament(
        arbiter, name=EVENTS[2], place=PLACES[2], rounds=7, start_date=dt.date(2027, 3, 6)
    )
    for name in NAMES[:3]:
        services.add_player(registering, arbiter, name=name)

    double = services.create_tournament(arbiter, name=EVENTS[3], place=PLACES[3], rounds=3,
                                        pairing_system="dswiss")
    for i, name in enumerate(NAMES[:4]):
        services.add_player(double, arbiter, name=name, rating=2100 - 20 * i)
    services.draw_initial_color(double, arbiter, random.Random(2))
    services.publish_round(services.pair_next_round(double, arbiter), arbiter)

    FidePlayer.objects.create(fide_id=1503014, name=FIDE_NAMES[0], federation="NOR", title="GM",
                              standard_rating=2830, birth_year=1990)
    FidePlayer.objects.create(fide_id=2020009, name=FIDE_NAMES[1], federation="USA", title="GM",
                              standard_rating=2795, birth_year=1992)
    return {"running": t, "draft": draft, "registering": registering, "double": double}


def dashboard_pages(events) -> list[str]:
    """Every page of the URL map under arbiter/ and accounts/ for each event (each round, a
    player, a board, a requested bye), and the pages a search or a filter gives."""
    urls = set()
    for route, _entry in _routes(get_resolver()):
        if not route.startswith(("arbiter/", "accounts/")):
            continue
        for t in events.values():
            rounds = list(t.round_set.order_by("number")) or [None]
            bye = next(iter(t.players.filter(bye_requests__isnull=False)), None)
            for rnd in rounds:
                game = rnd and rnd.games.filter(board__isnull=False).first()
                values = {
                    "pk": t.pk,
                    "player_pk": t.players.order_by("tpn").first().pk,
                    "number": rnd and rnd.number,
                    "game_pk": game and game.pk,
                    "bye_pk": bye and bye.bye_requests.first().pk,
                }
                path = "/" + route
                for name, value in values.items():
                    if value is not None:
                        path = path.replace(f"<int:{name}>", str(value))
                if "<" not in path:
                    urls.add(path)
    t = events["running"]
    player = t.players.get(tpn=2)
    urls |= {
        reverse("arbiter-fide-list", args=[events["registering"].pk]) + "?q=carlsen",
        reverse("arbiter-fide-list", args=[events["registering"].pk]) + "?q=zzz",
        reverse("arbiter-tournament", args=[t.pk]) + "?q=zzz",
        reverse("arbiter-audit", args=[t.pk]) + f"?player={player.pk}&round=1",
        # The board corrected: its page lists the earlier correction.
        reverse("arbiter-game-correct", args=[t.pk, 1, t.round_set.get(number=1).games.get(
            board=3).pk]),
    }
    return sorted(urls)


def french_page(client, path, method="get", data=None, status=200) -> str:
    response = getattr(client, method)(path, data or {}, follow=method == "post", **FR)
    assert response.status_code == status, (path, response.status_code)
    page = response.content.decode()
    assert '<html lang="fr">' in page, path
    return page


def test_no_english_is_left_on_the_french_dashboard(client, arbiter, events):
    client.force_login(arbiter)
    pages, left = [], {}
    for path in dashboard_pages(events):
        response = client.get(path, follow=True, **FR)  # a finished round's pairing: its round
        if response.status_code == 405:
            continue  # an action (POST only): its messages are read in the test below
        assert response.status_code == 200, (path, response.status_code)
        if not response["Content-Type"].startswith("text/html"):
            # the TRF file, the audit as CSV, the event's archive
            assert path.endswith((".trf", ".csv", ".json")), path
            continue
        pages.append(path)
        words = english_left(response.content.decode(), arbiter.username)
        if words:
            left[path] = words
    # 4 events: home, new, each event's dashboard, settings, standings, audit, rounds,
    # corrections, pairing changes, players, FIDE list, five printed pages ...
    assert len(pages) >= 60, pages
    assert left == {}, left


def test_the_forms_errors_are_french(client, arbiter, events):
    """Each form of the dashboard sent wrong: the page again, its errors in French."""
    client.force_login(arbiter)
    t, draft = events["running"], events["draft"]
    player = t.players.get(tpn=1)
    game = t.round_set.get(number=1).games.get(board=1)
    sent = [
        (reverse("arbiter-tournament-create"), {"name": "", "rounds": "x", "points_win": "a"},
         "Ce champ est obligatoire."),
        (reverse("arbiter-tournament-edit", args=[t.pk]),
         {"name": EVENTS[0], "rounds": "0", "federation": "S1", "time_control_code": "abc",
          "deputy_arbiters": "FA (1) x (2)", "tiebreaks": "XYZ", "end_date": "2026-11-01",
          "start_date": "2026-12-01"}, "Pas une liste de départages du C.07 :"),
        (reverse("arbiter-player", args=[t.pk, player.pk]),
         {"name": "", "rating": "99999", "fide_id": "12a", "title": "G1", "birth_year": "1800"},
         "Chiffres 0-9 seulement."),
        (reverse("arbiter-game-correct", args=[t.pk, 1, game.pk]),
         {"action": "result", "result": "", "reason": ""}, "Motif : Ce champ est obligatoire."),
        (reverse("arbiter-game-correct", args=[t.pk, 1, game.pk]), {"action": "colours"},
         "Motif : Ce champ est obligatoire."),
        (reverse("arbiter-rating-correct", args=[t.pk, player.pk]), {"rating": "x"},
         "Saisissez un nombre entier."),
        (reverse("arbiter-pairing", args=[draft.pk, 1]),
         {"action": "preview", "text": "1 - 3\n2 - 4\n5 bye", "note": "essai"},
         "Ce que le moteur apparierait"),
        (reverse("arbiter-pairing", args=[t.pk, 2]), {"action": "preview", "text": ""},
         "Appariement : Ce champ est obligatoire."),
        (reverse("login"), {"username": arbiter.username, "password": "faux"},
         "Saisissez un nom d’utilisateur et un mot de passe valides."),
    ]
    left = {}
    for path, data, shown in sent:
        page = french_page(client, path, "post", data)
        assert shown in page, (path, shown)
        words = english_left(page, arbiter.username)
        if words:
            left[path] = words
    assert left == {}, left
    # What the engine says of a wrong tie-break list, in each language.
    path, data, _shown = sent[1]
    english = client.post(path, data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Not a tie-break list of C.07: unknown tie-break &#x27;XYZ&#x27; in" in english
    assert "Pas une liste de départages du C.07 : départage inconnu &#x27;XYZ&#x27; dans" \
        in french_page(client, path, "post", data)


def test_the_messages_of_the_dashboards_actions_are_french(client, arbiter, events):
    client.force_login(arbiter)
    User.objects.create_user("adjoint", password="adjoint-pass-123")
    t, reg, draft = events["running"], events["registering"], events["draft"]
    player = t.players.get(tpn=3)
    bye = t.players.get(tpn=2).bye_requests.get()
    rnd2 = t.round_set.get(number=2)
    results = form_data(french_page(client, reverse("arbiter-round", args=[t.pk, 2])))
    pending = next(k for k, v in results.items() if k.startswith("g") and not v)
    results[pending] = Result.DRAW
    actions = [
        (reverse("arbiter-player-add", args=[reg.pk]), {"name": ""}, "Ce champ est obligatoire"),
        (reverse("arbiter-player-add", args=[reg.pk]), {"name": LATE, "rating": "1800"},
         "ajouté avec le numéro d’appariement"),
        (reverse("arbiter-renumber", args=[reg.pk]), {}, "Numéros d’appariement réattribués"),
        (reverse("arbiter-draw-colour", args=[reg.pk]), {}, "Tirage au sort"),
        (reverse("arbiter-add-arbiter", args=[t.pk]), {"username": "personne"},
         "Aucun utilisateur nommé"),
        (reverse("arbiter-add-arbiter", args=[t.pk]), {"username": "adjoint"},
         "est désormais arbitre de ce tournoi"),
        (reverse("arbiter-bye", args=[t.pk]),
         {"player": player.pk, "round_number": 4, "kind": "Z"}, "Exemption enregistrée."),
        (reverse("arbiter-bye-cancel", args=[t.pk, bye.pk]), {}, "Exemption annulée."),
        (reverse("arbiter-players-bulk", args=[t.pk]),
         {"players": [t.players.get(tpn=4).pk], "action": "A", "round_number": 5},
         "Absent(s) à la ronde 5"),
        (reverse("arbiter-players-upload", args=[reg.pk]),
         {"file": SimpleUploadedFile("joueurs.csv", b"name\nA\0B\n")},
         "Ce n’est pas un fichier texte (un octet NUL à la ligne 2)"),
        (reverse("arbiter-fide-add", args=[reg.pk]), {"fide_ids": ["1503014"]},
         "1 joueur ajouté depuis la liste FIDE."),
        (reverse("arbiter-fide-refresh", args=[reg.pk]), {}, "mis à jour depuis la liste FIDE"),
        (reverse("arbiter-round", args=[t.pk, 2]), results, "1 résultat enregistré."),
        (reverse("arbiter-player-withdraw", args=[t.pk, player.pk]), {"from_round": 4},
         "retiré à partir de la ronde 4"),
        (reverse("arbiter-player-reinstate", args=[t.pk, player.pk]), {},
         "est de nouveau apparié"),
        (reverse("arbiter-round-publish", args=[draft.pk, 1]), {}, "Ronde 1 publiée."),
        (reverse("arbiter-round-unpublish", args=[draft.pk, 1]), {},
         "de nouveau un brouillon"),
        (reverse("arbiter-round-repair", args=[draft.pk, 1]), {},
         "appariée de nouveau par le moteur"),
        (reverse("arbiter-round-unpair", args=[draft.pk, 1]), {},
         "Appariement de la ronde 1 annulé."),
        (reverse("arbiter-tournament-edit", args=[reg.pk]),
         {**form_data(french_page(client, reverse("arbiter-tournament-edit", args=[reg.pk]))),
          "place": "Sion"}, "Paramètres enregistrés."),
    ]
    assert rnd2.games.filter(result="").exists()
    left = {}
    for path, data, expected in actions:
        page = french_page(client, path, "post", data)
        assert expected in page, (path, expected)
        words = english_left(page, arbiter.username, "adjoint")
        if words:
            left[path] = words
    assert left == {}, left
    # The audit trail of those actions, in French.
    audit = french_page(client, reverse("arbiter-audit", args=[reg.pk]))
    assert english_left(audit, arbiter.username, "adjoint") == []


def test_refusals_and_missing_pages_are_french(client, arbiter, other_arbiter, events):
    t = events["running"]
    client.force_login(other_arbiter)
    dashboard = reverse("arbiter-tournament", args=[t.pk])
    assert "You are not an arbiter of this tournament." in client.get(dashboard).content.decode()
    pages = [
        french_page(client, dashboard, status=403),
        french_page(client, reverse("arbiter-tournament-create"), status=403),
    ]
    assert "Vous n’êtes pas arbitre de ce tournoi." in pages[0]
    assert "Seuls les administrateurs peuvent créer des tournois." in pages[1]
    client.force_login(arbiter)
    missing = reverse("arbiter-round", args=[t.pk, 9])
    pages.append(french_page(client, missing, status=404))
    assert "Page introuvable" in pages[2] and missing in pages[2]
    assert [english_left(page, arbiter.username, other_arbiter.username, missing)
            for page in pages] == [[], [], []]


def test_the_audit_trail_names_a_players_pairing_number_in_french(client, arbiter, events):
    t = events["registering"]
    first, second = t.players.order_by("tpn")[:2]
    AuditEntry.objects.create(tournament=t, actor=arbiter, action="renumber players",
                              before={str(first.pk): 1, str(second.pk): 2},
                              after={str(first.pk): 2, str(second.pk): 1})
    client.force_login(arbiter)
    audit = reverse("arbiter-audit", args=[t.pk])
    assert f"{first.name} (TPN)" in client.get(audit, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    page = french_page(client, audit)
    assert f"{first.name} (n° d’appariement)" in page
    assert english_left(page, arbiter.username) == []


def test_the_fide_list_page_without_a_list_is_french(client, arbiter, events):
    FidePlayer.objects.all().delete()
    client.force_login(arbiter)
    page = french_page(client, reverse("arbiter-fide-list", args=[events["registering"].pk]))
    assert "Aucun joueur dans la liste chargée : chargez-en une avec" in page
    assert english_left(page, arbiter.username) == []


def test_points_dates_and_numbers_as_french_writes_them(client, arbiter, events):
    client.force_login(arbiter)
    t = events["running"]
    english = {"HTTP_ACCEPT_LANGUAGE": "en"}
    home = reverse("arbiter-home")
    assert "1 Dec 2026" in client.get(home, **english).content.decode()
    assert "1 décembre 2026" in french_page(client, home)
    printed = reverse("print-pairings", args=[t.pk, 2])
    assert "1 décembre 2026" in french_page(client, printed)
    assert '<td class="c">½</td>' in client.get(printed, **english).content.decode()
    assert '<td class="c">0,5</td>' in french_page(client, printed)
    standings = reverse("arbiter-standings", args=[t.pk])
    english_standings = client.get(standings, **english).content.decode()
    assert "<td>½</td>" in english_standings and "<td>0.25</td>" in english_standings
    page = french_page(client, standings)
    assert "<td>0,5</td>" in page and "<td>0,25</td>" in page and "½" not in page
    # A number input carries its value with a point whatever the language (HTML); the browser
    # shows it as its language writes numbers (test_a_french_browser_keeps_the_points below).
    settings = reverse("arbiter-tournament-edit", args=[t.pk])
    assert 'type="number" name="points_draw" value="0.5"' in french_page(client, settings)
    # Sent with a comma (a script, a form of old), a half point is read too.
    french_page(client, settings, "post", {**form_data(french_page(client, settings)),
                                           "points_half_bye": "0,5", "points_draw": "0,5"})
    t.refresh_from_db()
    assert (t.points_draw, t.points_half_bye) == (5, 5)
    assert 'data-print="Imprimer"' in french_page(client, printed)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_french_browser_keeps_the_points(browser, live_server, arbiter, events):  # noqa: F811
    """Chromium reading in French shows ½ point as 0,5 and saves the settings unchanged."""
    t = events["running"]
    client = Client()
    client.force_login(arbiter)
    context = browser.new_context(locale="fr-FR")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + reverse("arbiter-tournament-edit", args=[t.pk]))
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.input_value("#id_points_draw") == "0.5"  # shown 0,5: the browser's French
    page.get_by_role("button", name="Enregistrer", exact=True).click()
    page.wait_for_url(f"**{reverse('arbiter-tournament', args=[t.pk])}")
    assert "Paramètres enregistrés." in page.content()
    context.close()
    t.refresh_from_db()
    assert (t.points_win, t.points_draw, t.points_half_bye, t.points_loss) == (10, 5, 5, 0)


def test_the_language_links_work_on_the_dashboard_and_the_login_page(client, arbiter, events):
    login = reverse("login")
    page = client.get(login).content.decode()
    switch = reverse("language", args=["fr"])
    assert f'href="{switch}?next={login}"' in page
    response = client.get(switch, {"next": login})
    assert response.status_code == 302 and response["Location"] == login
    assert "Connexion des arbitres" in client.get(login).content.decode()  # the cookie decides
    client.force_login(arbiter)
    dashboard = reverse("arbiter-tournament", args=[events["running"].pk])
    page = client.get(dashboard).content.decode()
    assert '<html lang="fr">' in page and "Journal des modifications" in page
    back = reverse("language", args=["en"])
    assert f'href="{back}?next={dashboard}"' in page
    client.get(back, {"next": dashboard})
    assert "Audit trail" in client.get(dashboard, **FR).content.decode()


def test_the_lockout_page_is_french(client, arbiter):
    login = reverse("login")
    for _ in range(5):
        response = client.post(login, {"username": "arbiter", "password": "faux"}, **FR)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Trop de connexions échouées" in page
    assert english_left(page) == []
