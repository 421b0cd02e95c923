"""A newcomer's bugs (issue 27, section 5), each pinned by a test that failed before its fix.
The layout bugs measured in a browser are in ``test_newcomer_browser.py``."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from pairing.dutch import engine
from pairing.dutch.explanation import BracketReport, Choice, RoundExplanation
from tournaments import explain, services
from tournaments.models import ByeRequest, Game, Result, Tournament
from tournaments.services import corrections

from .conftest import make_tournament
from .test_i18n import (
    PO,
    _Text,
    event as public_event,  # noqa: F401 (fixture)
    public_pages,
    visible_text,
)
from .test_i18n_arbiter import dashboard_pages, events  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

FR = {"HTTP_ACCEPT_LANGUAGE": "fr-CH,fr;q=0.9,en;q=0.5"}

NEW = {
    "name": "Open de Sion", "rounds": "7", "pairing_system": "2026", "points_win": "1",
    "points_draw": "0.5", "points_loss": "0", "points_forfeit_win": "1", "points_forfeit_loss": "0",
    "points_pairing_bye": "1", "points_half_bye": "0.5", "points_full_bye": "1",
    "points_zero_bye": "0", "tiebreaks": "",
}


def input_tag(page: str, name: str) -> str:
    match = re.search(rf'<input [^>]*name="{name}"[^>]*>', page)
    assert match, name
    return match.group(0)


def test_the_rounds_field_asks_what_the_server_accepts(client, staff):
    client.force_login(staff)
    page = client.get(reverse("arbiter-tournament-create")).content.decode()
    field = input_tag(page, "rounds")
    assert 'min="1"' in field and 'max="99"' in field, field
    for rounds in ("0", "100"):
        response = client.post(reverse("arbiter-tournament-create"), {**NEW, "rounds": rounds})
        assert response.status_code == 200 and not Tournament.objects.exists()


def test_the_type_of_tournament_is_shown_in_french_and_stored_as_fide_writes_it(client, staff):
    client.force_login(staff)
    page = client.get(reverse("arbiter-tournament-create"), **FR).content.decode()
    field = input_tag(page, "event_type")
    assert 'value="Individuel : système suisse"' in field.replace("\u202f", " "), field
    value = re.search(r'value="([^"]*)"', field).group(1)
    client.post(reverse("arbiter-tournament-create"), {**NEW, "event_type": value}, **FR)
    assert Tournament.objects.get().event_type == "Individual: Swiss-System"
    english = client.get(reverse("arbiter-tournament-edit", args=[Tournament.objects.get().pk]))
    assert 'value="Individual: Swiss-System"' in english.content.decode()
    # Any other text is the arbiter's own, kept as typed.
    client.post(reverse("arbiter-tournament-create"),
                {**NEW, "name": "Coupe", "event_type": "Open A, individuel"}, **FR)
    assert Tournament.objects.get(name="Coupe").event_type == "Open A, individuel"


def test_the_language_switch_names_each_language_in_itself(client, tournament):
    for headers in ({}, FR):
        page = client.get(reverse("public-tournament", args=[tournament.pk]), **headers)
        switch = re.search(r'<nav class="languages".*?</nav>', page.content.decode(), re.S)
        assert re.findall(r"<a [^>]*>([^<]*)</a>", switch.group(0)) == ["English", "Français"]


@pytest.fixture
def double(arbiter):
    """A Double-Swiss event, match 1 published: board 1 has both games in, board 2 game 1."""
    t = make_tournament(arbiter, players=6, rounds=3, pairing_system="dswiss")
    services.draw_initial_color(t, arbiter, random.Random(1))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    one, two = rnd.games.filter(board__in=(1, 2)).order_by("board")
    services.set_results(rnd, arbiter, {
        one.pk: f"{Result.WHITE_WINS.value}|{Result.DRAW.value}",
        two.pk: f"{Result.BLACK_WINS.value}|",
    })
    return t


def test_the_printed_double_swiss_pairings_show_both_games(client, arbiter, double):
    client.force_login(arbiter)
    page = client.get(reverse("print-pairings", args=[double.pk, 1])).content.decode()
    assert "White (game 1)" in page and "game 1 · game 2" in page
    rows = re.findall(r'<td class="c result">(.*?)</td>', page)
    assert rows == ["1-0 · ½-½", "0-1 · –", "– · –"], rows


def test_the_double_swiss_result_slips_have_both_games(client, arbiter, double):
    client.force_login(arbiter)
    page = client.get(reverse("print-slips", args=[double.pk, 1])).content.decode()
    slips = re.findall(r'<section class="slip">(.*?)</section>', page, re.S)
    assert len(slips) == 3
    board = double.round_set.get(number=1).games.get(board=1)
    white = f"{board.white.tpn}. {board.white.name}"
    black = f"{board.black.tpn}. {board.black.name}"
    text = visible_text(slips[0])
    # Game 1 with the pairing's colours, game 2 with the colours reversed, a box for each.
    assert text.index("Game 1") < text.index(f"White {white}") < text.index(f"Black {black}") \
        < text.index("Game 2") < text.index(f"White {black}") < text.index(f"Black {white}"), text
    assert slips[0].count("1 &nbsp; ½ &nbsp; 0") == 4


@pytest.fixture
def corrected(arbiter):
    """Round 1 finished with a draw on board 1, board 2's result corrected (Art. 4.3.1)."""
    t = make_tournament(arbiter, players=5, rounds=3)
    services.draw_initial_color(t, arbiter, random.Random(1))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    one, two = rnd.games.filter(board__in=(1, 2)).order_by("board")
    services.set_results(rnd, arbiter, {one.pk: Result.DRAW, two.pk: Result.BLACK_WINS})
    services.finish_round(rnd, arbiter)
    corrections.correct_result(two, arbiter, result=Result.WHITE_WINS, reason="scoresheet")
    return t


def audit_rows(client, t, **headers) -> list[str]:
    page = client.get(reverse("arbiter-audit", args=[t.pk]), **headers).content.decode()
    return [visible_text(row) for row in re.findall(r"<tr>(.*?)</tr>", page, re.S)[1:]]


def test_the_audit_row_of_a_correction_names_the_board_and_players(client, arbiter, corrected):
    client.force_login(arbiter)
    board = corrected.round_set.get(number=1).games.get(board=2)
    rows = audit_rows(client, corrected)
    row = next(r for r in rows if r.split(" arbiter ")[1].startswith("correct result"))
    assert f"Board 2: {board.white.name} – {board.black.name}" in row, row
    french = next(r for r in audit_rows(client, corrected, **FR) if "correction d’un" in r)
    assert f"Échiquier 2 : {board.white.name} – {board.black.name}" in french, french


def test_the_audit_trail_writes_results_as_the_pages_do(client, arbiter, corrected):
    client.force_login(arbiter)
    for headers in ({}, FR):
        text = " ".join(audit_rows(client, corrected, **headers))
        assert "1/2-1/2" not in text and "½-½" in text, text
    # French puts a space before a colon, also after a player's name (a bye's row).
    french = " ".join(audit_rows(client, corrected, **FR))
    bye = corrected.round_set.get(number=1).games.get(board__isnull=True).white.name
    assert f"{bye} : Exemption attribuée par l’appariement" in french, french


def test_the_crosstable_writes_colours_in_the_readers_language(client, arbiter, corrected):
    client.force_login(arbiter)
    for name in ("public-crosstable", "print-crosstable"):
        english = client.get(reverse(name, args=[corrected.pk])).content.decode()
        french = client.get(reverse(name, args=[corrected.pk]), **FR).content.decode()
        cells = re.compile(r'<td class="c cell">(\d+)([a-z])')
        assert {m[1] for m in cells.findall(english)} == {"w", "b"}, name
        assert {m[1] for m in cells.findall(french)} == {"b", "n"}, name
        legend = visible_text(french)
        assert "w/b" not in legend and "w Blancs" not in legend, name
        assert "b Blancs, n Noirs" in legend or "(b/n)" in legend, name


def test_the_printed_standings_name_each_tie_break(client, arbiter, corrected):
    client.force_login(arbiter)
    corrected.tiebreaks = "BH/C1,SB,WIN"
    corrected.save()
    for headers, names in (({}, ["Buchholz Cut-1", "Sonneborn-Berger", "Number of wins"]),
                           (FR, ["Buchholz moins 1", "Sonneborn-Berger", "Nombre de victoires"])):
        page = client.get(reverse("print-standings", args=[corrected.pk]), **headers)
        legend = re.search(r'<dl class="legend">(.*?)</dl>', page.content.decode(), re.S)
        assert legend, headers
        pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", legend.group(1))
        assert pairs == list(zip(["BH/C1", "SB", "WIN"], names, strict=True)), pairs


@pytest.mark.parametrize("system", ["clock", "dswiss"])
def test_the_clock_and_double_swiss_explanations_leave_no_english_in_french(
    client, arbiter, system
):
    t = make_tournament(arbiter, players=7, rounds=3, pairing_system=system)
    services.draw_initial_color(t, arbiter, random.Random(1))
    services.pair_next_round(t, arbiter)
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-round", args=[t.pk, 1]), **FR).content.decode()
    text = visible_text(re.search(r'<pre class="explanation".*?</pre>', page, re.S).group(0))
    assert text, page
    for english in ("HRP", "PN-", "(#", "match ", "picker", "bye"):
        assert english not in text, (english, text)
    assert "position" in text if system == "clock" else "ronde 1" in text, text


def _text_nodes(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.parts


# A colon right after a word, as English writes it; French puts a space before it. Times
# (13:05) and addresses are left out.
NO_SPACE_BEFORE_COLON = re.compile(r"[^\s\d\u00a0\u202f/]:(?=\s|$)")


def test_french_pages_put_a_space_before_a_colon(client, arbiter, events, public_event):  # noqa: F811
    client.force_login(arbiter)
    paths = dashboard_pages(events) + public_pages(public_event)
    found = {}
    for path in paths:
        response = client.get(path, follow=True, **FR)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        # the text as read: nodes joined where the markup splits a sentence (a link, a score)
        text = "".join(_text_nodes(response.content.decode()))
        text = re.sub(r"https?://\S+", " ", text)
        bad = [text[max(0, m.start() - 30):m.end()] for m in NO_SPACE_BEFORE_COLON.finditer(text)]
        if bad:
            found[path] = bad
    assert found == {}, found


def test_french_translations_write_a_small_letter_after_a_colon():
    import polib

    # A capital after " : " starts a name (Elo, FIDE) or a placeholder's value, never a word.
    names = ("Elo", "FIDE", "TRF", "PAB", "UTF", "CSV", "S1", "S2")
    found = []
    for entry in polib.pofile(str(PO)):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            for m in re.finditer(r" : +([A-ZÀÂÉÈÊÎÔÛÇ][a-zàâçéèêëîïôûù]\w*)", text):
                if not m.group(1).startswith(names):
                    found.append((entry.msgid, text))
    assert found == [], found


# ---------------------------------------------------------------------------------------------
# Why this pairing?

MDP_MEETS_RESIDENT = RoundExplanation(round=3, brackets=(BracketReport(
    score=10, residents=(3, 4, 5), mdps=((1, 20),), s1=(1,), s2=(3,),
    remainder_s1=(4,), remainder_s2=(5,), choices=(Choice(1, 3), Choice(4, 5)),
),), scores={1: 20, 3: 10, 4: 10, 5: 10})


def test_a_resident_who_meets_a_player_moved_down_is_not_said_to_have_moved():
    resident = " ".join(MDP_MEETS_RESIDENT.for_player(3))
    moved = " ".join(MDP_MEETS_RESIDENT.for_player(1))
    assert "you (1) met 1 (2), who had moved down from a higher group" in resident, resident
    assert "You (2) could not be paired in your own group and moved down to the 1-point group, " \
           "where you met 3 (1)" in moved, moved
    with translation.override("fr"):
        said = " ".join(MDP_MEETS_RESIDENT.for_player(3, explain.translator()))
    assert "qui avait flotté depuis un groupe supérieur" in said, said


def test_the_players_passed_over_are_kept_apart_though_names_hold_commas():
    why = RoundExplanation(round=3, brackets=(BracketReport(
        score=20, residents=(1, 2, 3, 4, 5, 6), s1=(1, 2, 3), s2=(4, 5, 6),
        choices=(Choice(1, 6, ((4, engine.MET_BEFORE), (5, engine.MET_BEFORE))), Choice(2, 4),
                 Choice(3, 5)),
    ),), scores=dict.fromkeys(range(1, 7), 20))
    names = {4: "Moreau, Pierre", 5: "Pelletier, Paul", 6: "Roy, Anne"}
    named = RoundExplanation.from_dict(
        explain.with_names(why.as_dict(), lambda tpn: names.get(tpn, f"P{tpn}")))
    said = " ".join(named.for_player(1))
    assert "met Roy, Anne (Art. 4.2). Passed over Moreau, Pierre; Pelletier, Paul: already met " \
           "([C1])." in said, said


def test_a_passed_over_candidate_says_which_absolute_criterion_applies(arbiter):
    from .test_explain import played

    t = played(arbiter, players=9, rounds=5, played_rounds=3)
    rnd = services.pair_next_round(t, arbiter)
    why = RoundExplanation.from_dict(rnd.explanation_data)
    by_tpn = {int(tpn): pk for tpn, pk in rnd.explanation_data["players"].items()}
    met = {frozenset((g.white_id, g.black_id)) for g in Game.objects.filter(
        round__tournament=t, black__isnull=False).exclude(round=rnd)}
    reasons = [(c.tpn, other, reason) for b in why.brackets for c in b.choices
               for other, reason in c.passed_over]
    assert reasons, why
    assert engine.INCOMPATIBLE not in {r for _, _, r in reasons}
    assert engine.MET_BEFORE in {r for _, _, r in reasons}, reasons
    for player, other, reason in reasons:
        pair = frozenset((by_tpn[player], by_tpn[other]))
        assert (reason == engine.MET_BEFORE) == (pair in met), (player, other, reason)


@pytest.fixture
def byes(arbiter):
    """Round 2 published: a player asked for a half-point bye, one withdrew after round 1."""
    t = make_tournament(arbiter, players=8, rounds=4)
    services.draw_initial_color(t, arbiter, random.Random(1))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    services.set_results(rnd, arbiter, {g.pk: Result.DRAW for g in rnd.games.exclude(black=None)})
    services.finish_round(rnd, arbiter)
    services.request_bye(t.players.get(tpn=3), arbiter, round_number=2, kind=ByeRequest.Kind.HALF)
    services.withdraw_player(t.players.get(tpn=5), arbiter, from_round=2)
    services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return t


def card(client, t, tpn, **headers) -> str:
    player = t.players.get(tpn=tpn)
    page = client.get(reverse("public-player", args=[t.pk, player.pk]), **headers)
    return visible_text(page.content.decode())


def test_a_requested_bye_has_its_line_under_why_this_pairing(client, byes):
    page = card(client, byes, 3)
    why = page.split("Why this pairing?")[1]
    assert "Round 2 You were not paired in this round: you had asked for a half-point bye " \
           "(C.04.2 Art. 3.3)." in why, why
    assert "vous aviez demandé une exemption d’un demi-point" in card(client, byes, 3, **FR)


def test_a_withdrawn_players_card_says_withdrawn(client, byes):
    rows = re.findall(r"<tr>(.*?)</tr>", client.get(reverse(
        "public-player", args=[byes.pk, byes.players.get(tpn=5).pk])).content.decode(), re.S)
    second = next(visible_text(r) for r in rows if re.search(r">2</a></td>", r))
    assert "withdrawn" in second and "not paired" not in second, second
