"""FIDE rating changes, first ratings and title norms on the pages and in the API (issue 27,
section 2). The events are written round by round through the ORM, so that each player meets
exactly the opponents the figures below were worked out for by hand from the regulations'
tables (B.02 8.1.2, B.01 1.4.9)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from tournaments import ratings, services, versioning
from tournaments.models import FidePlayer, Game, Result, Round

from .test_i18n import visible_text

pytestmark = pytest.mark.django_db

FR = {"HTTP_ACCEPT_LANGUAGE": "fr-CH,fr;q=0.9,en;q=0.5"}
JSON = {"HTTP_ACCEPT": "application/json"}
GMS = [("Adams, Kai", "GER"), ("Bernard, Luc", "FRA"), ("Castro, Ana", "ESP"),
       ("Dini, Marco", "ITA"), ("Eekhof, Bas", "NED"), ("Fink, Max", "AUT"),
       ("Gorski, Jan", "POL"), ("Holub, Petr", "CZE")]


def play_rounds(t, target, opponents, target_scores):
    """Round k: ``target`` against ``opponents[k-1]`` (White in odd rounds) with the score
    given; the other opponents drawn with each other, in other pairs each round. Every round
    finished."""
    for k, (opponent, score) in enumerate(zip(opponents, target_scores, strict=True), start=1):
        rnd = Round.objects.create(tournament=t, number=k, state=Round.State.FINISHED)
        white, black = (target, opponent) if k % 2 else (opponent, target)
        mine = {1: Result.WHITE_WINS, 0: Result.BLACK_WINS, 0.5: Result.DRAW}[score]
        if white is not target:
            mine = {Result.WHITE_WINS: Result.BLACK_WINS, Result.BLACK_WINS: Result.WHITE_WINS,
                    Result.DRAW: Result.DRAW}[mine]
        Game.objects.create(round=rnd, board=1, white=white, black=black, result=mine)
        rest = [p for p in opponents if p != opponent]
        rest = rest[k % len(rest):] + rest[:k % len(rest)]  # other opponents each round
        for board, i in enumerate(range(len(rest) // 2), start=2):
            Game.objects.create(round=rnd, board=board, white=rest[i], black=rest[-1 - i],
                                result=Result.DRAW)


@pytest.fixture
def norm_event(arbiter):
    """Nine rounds: Moreau (SUI, 2450) meets eight GMs rated 2550 from eight federations, then
    Lind (SWE, WFM, 2200, born 2009); he scores 7 of 9 (losing to Holub and to Lind)."""
    t = services.create_tournament(arbiter, name="Open de Bienne", rounds=9, federation="SUI",
                                   start_date=dt.date(2026, 7, 1), tiebreaks="")
    target = services.add_player(t, arbiter, name="Moreau, Pierre", rating=2450,
                                 federation="SUI", sex="m", birth_year=1998)
    opponents = [services.add_player(t, arbiter, name=name, rating=2550, title="GM",
                                     federation=fed, sex="m", birth_year=1990)
                 for name, fed in GMS]
    opponents.append(services.add_player(t, arbiter, name="Lind, Eva", rating=2200,
                                         title="WFM", federation="SWE", sex="w",
                                         birth_year=2009, fide_id="1712345"))
    play_rounds(t, target, opponents, [1, 1, 1, 1, 1, 1, 1, 0, 0])
    return t


def card(client, t, name, **headers) -> str:
    player = t.players.get(name=name)
    return client.get(reverse("public-player", args=[t.pk, player.pk]), **headers
                      ).content.decode()


def section(page: str) -> str:
    return visible_text(re.search(r'<section class="rating".*?</section>', page, re.S).group(0))


def test_the_card_shows_the_change_of_each_game_and_the_total(client, norm_event):
    text = section(card(client, norm_event, "Moreau, Pierre"))
    # 2450 v 2550: D -100, PD .36: a win +6.4, a loss -3.6 (K 10: rated 2400 or more);
    # v Lind 2200: D +250, PD .81: the loss -8.1. 7 x 6.4 - 3.6 - 8.1 = +33.1: +33
    assert "Rating change: +33 from 2450, K 10" in text, text
    assert "K 10: rated 2400 or more (8.3.3)" in text
    assert "1 Adams, Kai 2550 1 −100 0.36 +6.4" in text, text
    assert "8 Holub, Petr 2550 0 −100 0.36 −3.6" in text
    assert "9 Lind, Eva 2200 0 +250 0.81 −8.1" in text
    # Ra (8 x 2550 + 2200) / 9 = 2511, 7/9 = 78 %: dp 220
    assert "performance 2731" in text


def test_a_norm_reached_and_one_missed_with_its_reason(client, norm_event):
    moreau = section(card(client, norm_event, "Moreau, Pierre"))
    assert "GM norm reached · performance 2731, opponents' average 2511" in moreau, moreau
    assert "IM norm reached" in moreau and "WGM" not in moreau  # women's titles for women
    lind = section(card(client, norm_event, "Lind, Eva"))
    # Lind: 5/9 (eight draws, the win) against Moreau and eight GMs: Ra 2539, 56 %: dp 43
    assert "GM norm not reached · performance 2582, opponents' average 2539" in lind, lind
    assert "Missing: 0.5 more points in these games" in lind
    assert "✗ not met: performance 2582, 2600 needed (1.4.8)" in lind
    assert "IM norm reached" in lind and "WGM norm reached" in lind and "WIM norm reached" in lind
    french = section(card(client, norm_event, "Lind, Eva", **FR))
    assert "0,5 point de plus dans ces parties" in french.replace("points", "point"), french


def test_k_comes_from_the_fide_list_else_from_age_and_rating(client, norm_event):
    lind = section(card(client, norm_event, "Lind, Eva"))
    assert "K 40: 18 or younger this year and rated under 2300 (8.3.3)" in lind, lind
    FidePlayer.objects.create(fide_id=1712345, name="Lind, Eva", standard_rating=2200,
                              standard_k=20)
    versioning.bump(norm_event.pk)  # the list is loaded before the event, not during it
    lind = section(card(client, norm_event, "Lind, Eva"))
    assert "K 20, as the FIDE rating list gives it (7.1.2)" in lind, lind


def test_the_standings_have_a_rating_change_column(client, norm_event):
    page = client.get(reverse("public-standings", args=[norm_event.pk])).content.decode()
    head = re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)
    assert "Rtg+/-" in head
    row = next(r for r in re.findall(r"<tr\b[^>]*>(.*?)</tr>", page, re.S) if "Moreau" in r)
    assert re.findall(r'<td class="c rating-change">(.*?)</td>', row) == ["+33"]


def test_the_api_gives_the_figures_as_numbers(client, norm_event):
    moreau = norm_event.players.get(name="Moreau, Pierre")
    body = client.get(reverse("api-player", args=[norm_event.pk, moreau.pk]), **JSON).json()
    rating = body["fide_rating"]
    assert (rating["k"], rating["change"], rating["change_rounded"], rating["performance"]) == (
        10, 33.1, 33, 2731)
    first = rating["games"][0]
    assert (first["round"], first["difference"], first["expected"], first["change"]) == (
        1, -100, 0.36, 6.4)
    gm = next(n for n in rating["norms"] if n["title"] == "GM")
    assert (gm["reached"], gm["average"], gm["performance"], gm["games"]) == (True, 2511, 2731, 9)
    standings = client.get(reverse("api-standings", args=[norm_event.pk]), **JSON).json()
    assert {r["player"]["name"]: r["rating_change"] for r in standings["rows"]}[
        "Moreau, Pierre"] == 33


def test_the_arbiter_sees_the_card_and_prints_the_norm_data(client, arbiter, norm_event):
    client.force_login(arbiter)
    lind = norm_event.players.get(name="Lind, Eva")
    page = client.get(reverse("arbiter-player", args=[norm_event.pk, lind.pk])).content.decode()
    assert "GM norm not reached" in section(page)
    printed = client.get(reverse("print-norms", args=[norm_event.pk, lind.pk])).content.decode()
    text = visible_text(printed)
    assert "Title norm data: Lind, Eva" in text and "1712345" in text
    assert "Adams, Kai GM GER" in text
    assert "9 games, 5 points; average rating of the opponents 2539; performance 2582." in text
    assert "missing: 0.5 more points in these games" in text


@pytest.fixture
def newcomer(arbiter):
    """An unrated player meets five rated opponents (1900, 1950, 2000, 1850, 1807) and scores
    1, ½, 0, 1, ½; the others draw among themselves."""
    t = services.create_tournament(arbiter, name="Rapide", rounds=5, tiebreaks="")
    target = services.add_player(t, arbiter, name="Neu, Jan")
    opponents = [services.add_player(t, arbiter, name=f"Rated {r}", rating=r)
                 for r in (1900, 1950, 2000, 1850, 1807)]
    play_rounds(t, target, opponents, [1, 0.5, 0, 1, 0.5])
    return t


def test_an_unrated_players_games_count_towards_a_first_rating(client, newcomer):
    text = section(card(client, newcomer, "Neu, Jan"))
    # Ra (9507 + 2 x 1800) / 7 = 1872.4; p (3 + 1) / 7 = 57 %: dp 50; Ru 1922 (B.02 8.2)
    assert "First rating from this event: 1922 (5 games against rated opponents; their " \
           "average with two draws against 1800: 1872; score 57%)" in text, text
    # the rated players' games against him are not rated (8.3.1)
    rated = section(card(client, newcomer, "Rated 1900"))
    assert "the opponent is unrated (8.3.1)" in rated


def test_the_rating_change_counts_a_correction_for_rating_only(norm_event):
    from tournaments import queries

    moreau = norm_event.players.get(name="Moreau, Pierre")
    game = Game.objects.get(round__tournament=norm_event, round__number=9, board=1)
    game.rating_result = Result.DRAW  # notified too late: for rating only (C.04.2 Art. 4.3)
    game.save()
    hist = queries.history(norm_event)
    # the loss to Lind (-8.1) is a draw for rating: 0.5 - .81 = -3.1
    assert ratings.changes(norm_event, hist)[moreau.pk] == 38
