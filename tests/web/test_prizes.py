"""Categories and prizes (issue 27, section 1): who belongs, each category's ranking list, who
receives which prize (one prize a player, equal sharing, the Hort system), the arbiters' page,
the public pages, the API and paper."""

from __future__ import annotations

import doctest
import random
from decimal import Decimal

import pytest
from django.urls import reverse

from tournaments import prize_forms, prize_lists, prizes, services
from tournaments.models import AuditEntry, Category, PrizeSharing
from tournaments.prizes import Award, Criteria, Entrant, PrizeList, Ranked, distribute
from tournaments.services import prizes as prize_services

from .conftest import make_tournament
from .test_services import play

D = Decimal


def test_the_doctests_hold():
    assert doctest.testmod(prizes).failed == 0
    assert doctest.testmod(prize_forms).failed == 0


# ---------------------------------------------------------------------------------------------
# Who belongs


@pytest.mark.parametrize("birth_year, under_12, seniors_50", [
    (2014, True, False),  # 12 during 2026: not 12 before 1 January (D.04.07 Art. 6)
    (2013, False, False),
    (2020, True, False),
    (1976, False, True),  # 50 in 2026 (D.04.03 Art. 2.1)
    (1977, False, False),
    (None, False, False),
])
def test_age_groups_count_from_the_birth_year_in_the_events_year(birth_year, under_12,
                                                                  seniors_50):
    player = Entrant(birth_year=birth_year)
    assert Criteria(age_under=12).admits(player, 2026) is under_12
    assert Criteria(age_from=50).admits(player, 2026) is seniors_50


def test_rating_bands_and_the_unrated():
    rated_1799, rated_1800, unrated = Entrant(rating=1799), Entrant(rating=1800), Entrant()
    with_unrated = Criteria(rating_below=1800)
    assert [with_unrated.admits(p, 2026) for p in (rated_1799, rated_1800, unrated)] == [
        True, False, True]
    band = Criteria(rating_from=1600, rating_below=1800, unrated="without")
    assert [band.admits(p, 2026) for p in (Entrant(rating=1600), rated_1799, unrated)] == [
        True, True, False]
    only = Criteria(unrated="only")
    assert [only.admits(p, 2026) for p in (rated_1799, unrated, Entrant(rating=0))] == [
        False, True, True]


# ---------------------------------------------------------------------------------------------
# Who receives which prize


def rows(*points: int) -> list[Ranked]:
    """Players 'a', 'b', ... in this order with these points (tenths), ranks by order."""
    return [Ranked(chr(97 + i), i + 1, p) for i, p in enumerate(points)]


def amounts(*values) -> tuple[Decimal, ...]:
    return tuple(D(v) for v in values)


def given(awards: list[Award]) -> dict:
    return {a.player: (a.list, str(a.amount)) for a in awards}


def test_one_prize_a_player_the_most_valuable():
    standings = rows(60, 55, 50, 45, 40)
    everyone = frozenset("abcde")
    general = PrizeList(None, everyone, amounts(500, 300, 100))
    # b is first under 1800 (200) but second overall (300): b takes 300, d the U1800 prize.
    u1800 = PrizeList("U1800", frozenset("bd"), amounts(200))
    # e is first woman (150), which is worth more than nothing overall.
    women = PrizeList("W", frozenset("ce"), amounts(150))
    assert given(distribute(standings, [general, u1800, women])) == {
        "a": (None, "500.00"), "b": (None, "300.00"), "c": ("W", "150.00"),
        "d": ("U1800", "200.00"), "e": (None, "100.00"),
    }


def test_equal_values_go_by_the_events_order_of_lists():
    standings = rows(60, 50, 40)
    general = PrizeList(None, frozenset("abc"), amounts(300, 100))
    first, second = (PrizeList(k, frozenset("b"), amounts(100)) for k in ("first", "second"))
    assert given(distribute(standings, [general, first, second]))["b"] == (None, "100.00")
    assert given(distribute(standings, [first, general, second]))["b"] == ("first", "100.00")


def test_players_tied_on_points_share_equally():
    standings = rows(60, 50, 50, 50, 40)
    general = PrizeList(None, frozenset("abcde"), amounts(400, 300, 200, 100))
    awarded = given(distribute(standings, [general], "equal"))
    assert awarded == {"a": (None, "400.00"), "b": (None, "200.00"), "c": (None, "200.00"),
                       "d": (None, "200.00")}  # e, on 4 points, is fifth: no prize


def test_a_tie_beyond_the_last_prize_shares_what_there_is():
    standings = rows(60, 50, 50, 50)
    general = PrizeList(None, frozenset("abcd"), amounts(300, 90))
    assert [a.amount for a in distribute(standings, [general], "equal")] == [
        D("300.00"), D("30.00"), D("30.00"), D("30.00")]
    assert [a.places for a in distribute(standings, [general], "equal")][1:] == [(2, 4)] * 3


def test_hort_half_by_the_tie_breaks_half_shared():
    standings = rows(50, 50, 40)
    general = PrizeList(None, frozenset("abc"), amounts(1000, 500, 350))
    awards = distribute(standings, [general], "hort")
    # 500 + (500 + 250) / 2 and 250 + 375; c alone keeps all of its place's prize.
    assert [str(a.amount) for a in awards] == ["875.00", "625.00", "350.00"]
    assert [a.shared for a in awards] == [True, True, False]


def test_without_sharing_the_tie_breaks_decide_and_only_a_full_tie_shares():
    standings = [Ranked("a", 1, 50), Ranked("b", 2, 50), Ranked("c", 3, 40), Ranked("d", 3, 40)]
    general = PrizeList(None, frozenset("abcd"), amounts(400, 200, 100, 50))
    assert [str(a.amount) for a in distribute(standings, [general])] == [
        "400.00", "200.00", "75.00", "75.00"]


def test_a_tied_player_with_a_better_category_prize_leaves_the_share():
    # b and c tied for 2-3: the share would be (300 + 100) / 2 = 200; c is first under 1800
    # with 250: c takes it, b alone takes second place (300), d moves up to third (100).
    standings = rows(60, 50, 50, 40)
    general = PrizeList(None, frozenset("abcd"), amounts(500, 300, 100))
    u1800 = PrizeList("U1800", frozenset("cd"), amounts(250))
    assert given(distribute(standings, [general, u1800], "equal")) == {
        "a": (None, "500.00"), "b": (None, "300.00"), "c": ("U1800", "250.00"),
        "d": (None, "100.00"),
    }


def test_each_player_receives_at_most_one_prize():
    rng = random.Random(27)
    for _ in range(200):
        size = rng.randint(1, 12)
        standings = sorted(
            (Ranked(i, 0, rng.choice([10, 20, 30, 40])) for i in range(size)),
            key=lambda r: -r.points,
        )
        standings = [Ranked(r.player, i + 1, r.points) for i, r in enumerate(standings)]
        lists = [PrizeList(k, frozenset(i for i in range(size) if rng.random() < 0.6 or k == 0),
                           tuple(sorted((D(rng.randint(1, 9) * 10) for _ in range(3)),
                                        reverse=True)))
                 for k in range(3)]
        for sharing in prizes.SHARING:
            awards = distribute(standings, lists, sharing)
            players = [a.player for a in awards]
            assert len(players) == len(set(players))
            for award in awards:
                assert award.player in lists[award.list].players
            total = sum((a.amount for a in awards), D(0))
            assert total <= sum(sum(p.amounts) for p in lists) + D("0.05")


def test_sharing_must_be_known():
    with pytest.raises(ValueError, match="sharing"):
        distribute([], [], "split")


# ---------------------------------------------------------------------------------------------
# The services


@pytest.fixture
def finished(arbiter):
    """Eight players, three rounds played to the end, with births, sexes and a club."""
    t = make_tournament(arbiter, players=8, rounds=3, start_date="2026-07-01",
                        tiebreaks="BH\nTPN")  # no two players share a rank
    details = [("", 1990, "A"), ("w", 2013, "B"), ("", 2014, "A"), ("w", 1970, "A"),
               ("", 1960, ""), ("", 2015, "B"), ("w", 2016, ""), ("", None, "A")]
    for player, (sex, born, club) in zip(t.players.order_by("tpn"), details):
        services.update_player(player, arbiter, sex=sex, birth_year=born,
                               club=f"Club {club}" if club else "")
    services.draw_initial_color(t, arbiter, random.Random(1))
    rng = random.Random(5)
    for _ in range(3):
        play(services.pair_next_round(t, arbiter), arbiter, rng)
    return t


def test_a_category_is_added_changed_and_removed_with_an_audit_trail(arbiter, finished):
    u12 = prize_services.save_category(finished, arbiter, name="U12", age_under=12)
    assert u12.position == 1
    prize_services.save_category(finished, arbiter, u12, name="U12", age_under=12,
                                 federations="fra, bel")
    u12.refresh_from_db()
    assert u12.federations == "BEL FRA"
    prize_services.remove_category(finished, arbiter, u12)
    assert not Category.objects.filter(pk=u12.pk).exists()
    actions = list(AuditEntry.objects.filter(tournament=finished).values_list("action", flat=True))
    assert actions[-3:] == ["add category", "change category", "remove category"]


@pytest.mark.parametrize("fields, message", [
    ({"rating_from": 1800, "rating_below": 1600}, "rating band is empty"),
    ({"rating_below": 1600, "unrated": "only"}, "unrated players has no rating band"),
    ({"federations": "FRANCE"}, "three letters"),
    ({"age_under": 0}, "greater than or equal to 1"),
])
def test_a_category_that_cannot_be_is_refused(arbiter, finished, fields, message):
    with pytest.raises(services.ServiceError, match=message):
        prize_services.save_category(finished, arbiter, name="X", **fields)


def test_two_categories_cannot_share_a_name(arbiter, finished):
    prize_services.save_category(finished, arbiter, name="Women", women=True)
    with pytest.raises(services.ServiceError, match="already a category named"):
        prize_services.save_category(finished, arbiter, name="Women", age_from=50)


def test_a_prize_list_that_rises_is_refused(arbiter, finished):
    with pytest.raises(services.ServiceError, match="place 2 cannot have more than place 1"):
        prize_services.set_prizes(finished, arbiter, general=[D(100), D(200)], sharing="none",
                                  currency="€", categories={})


def test_category_standings_are_the_standings_filtered(arbiter, finished):
    women = prize_services.save_category(finished, arbiter, name="Women", women=True)
    table = prize_lists.category_standings(finished, women)
    overall = services.standings(finished)
    expected = [s.player.name for s in overall if s.player.sex == "w"]
    assert [r.row.player.name for r in table.rows] == expected
    assert [r.rank_label for r in table.rows][0] == "1"
    assert table.conditions == "women"


def test_the_prize_giving_follows_the_final_standings(arbiter, finished):
    women = prize_services.save_category(finished, arbiter, name="Women", women=True)
    prize_services.set_prizes(finished, arbiter, general=[D(300), D(200)], sharing="none",
                              currency="€", categories={women.pk: [D(100)]})
    giving = prize_lists.prize_giving(finished)
    assert giving.final and giving.after_round == 3
    order = [s.player for s in services.standings(finished)]
    general, women_section = giving.sections
    assert [line.player for line in general.lines] == order[:2]
    first_woman = next(p for p in order[2:] if p.sex == "w")
    assert [line.player for line in women_section.lines] == [first_woman]
    assert giving.given_total == D(600)


# ---------------------------------------------------------------------------------------------
# Pages, API, paper


def test_the_arbiter_defines_categories_and_prizes_without_javascript(client, arbiter, finished):
    client.force_login(arbiter)
    page = reverse("arbiter-prizes", args=[finished.pk])
    assert client.get(page).status_code == 200
    response = client.post(reverse("arbiter-category-add", args=[finished.pk]), {
        "name": "U1800", "position": 2, "rating_below": 1800, "unrated": "with",
    })
    assert response.status_code == 302
    u1800 = finished.categories.get()
    response = client.post(page, {
        "general": "300, 200 100", "sharing": "hort", "currency": "€",
        f"category_{u1800.pk}": "50",
    })
    assert response.status_code == 302, response.content.decode()
    finished.refresh_from_db()
    assert finished.prizes == ["300", "200", "100"] and finished.prize_sharing == "hort"
    assert finished.categories.get().prizes == ["50"]
    text = client.get(page).content.decode()
    assert 'value="300 200 100"' in text and "rated below 1800 (unrated players too)" in text


def test_a_wrong_amount_is_named_with_its_position(client, arbiter, finished):
    client.force_login(arbiter)
    page = reverse("arbiter-prizes", args=[finished.pk])
    response = client.post(page, {"general": "300 2OO", "sharing": "none"}, follow=True)
    assert "“2OO” (amount 2) is not an amount" in response.content.decode()
    finished.refresh_from_db()
    assert finished.prizes == []


def test_other_users_cannot_change_the_prizes(client, other_arbiter, finished):
    client.force_login(other_arbiter)
    page = reverse("arbiter-prizes", args=[finished.pk])
    assert client.post(page, {"general": "1", "sharing": "none"}).status_code == 403
    response = client.post(reverse("arbiter-category-add", args=[finished.pk]), {"name": "W"})
    assert response.status_code == 403


@pytest.fixture
def with_prizes(arbiter, finished):
    women = prize_services.save_category(finished, arbiter, name="Women", women=True)
    u12 = prize_services.save_category(finished, arbiter, name="U12", age_under=12)
    prize_services.set_prizes(finished, arbiter, general=[D(300), D("150.50")],
                              sharing=PrizeSharing.NONE, currency="€",
                              categories={women.pk: [D(100)], u12.pk: [D(80), D(40)]})
    return finished


def test_the_public_prize_list_after_the_last_round(client, with_prizes):
    text = client.get(reverse("public-prizes", args=[with_prizes.pk])).content.decode()
    leader = services.standings(with_prizes)[0].player
    assert "Final standings after round 3" in text
    assert leader.name in text and "300\u00a0€" in text and "150.50\u00a0€" in text
    u12 = with_prizes.categories.get(name="U12")
    assert reverse("public-category", args=[with_prizes.pk, u12.pk]) in text


def test_before_the_last_round_the_public_page_shows_the_prizes_announced(arbiter, client):
    t = make_tournament(arbiter, players=6, rounds=3)
    prize_services.set_prizes(t, arbiter, general=[D(100), D(50)], sharing="none",
                              currency="CHF", categories={})
    text = client.get(reverse("public-prizes", args=[t.pk])).content.decode()
    assert "they are given out here after the last round" in text
    assert "150\u00a0CHF" in text and "Player A" not in text


def test_the_public_category_page(client, with_prizes):
    u12 = with_prizes.categories.get(name="U12")
    text = client.get(reverse("public-category", args=[with_prizes.pk, u12.pk])).content.decode()
    young = [p.name for p in with_prizes.players.all() if p.birth_year and p.birth_year >= 2014]
    assert young and all(name in text for name in young)
    assert "born in 2014 or later" in text
    assert "Player H" not in text  # no birth year: in no age group


def test_the_prize_list_and_the_categories_print(client, arbiter, with_prizes):
    client.force_login(arbiter)
    text = client.get(reverse("print-prizes", args=[with_prizes.pk])).content.decode()
    assert "Prize list" in text and "provisional" not in text
    assert "Given out:" in text
    text = client.get(reverse("print-categories", args=[with_prizes.pk])).content.decode()
    assert "Women" in text and "U12" in text


def test_the_api_gives_categories_rankings_and_prizes(client, with_prizes):
    base = f"/api/tournaments/{with_prizes.pk}"
    categories = client.get(f"{base}/categories/").json()
    assert [c["name"] for c in categories] == ["Women", "U12"]
    assert categories[1]["conditions"]["age_under"] == 12
    ranking = client.get(f"{base}/categories/{categories[1]['id']}/standings/").json()
    assert all(r["player"]["name"] != "Player H" for r in ranking["rows"])
    prizes_body = client.get(f"{base}/prizes/").json()
    assert prizes_body["final"] is True and prizes_body["sharing"] == "none"
    general = prizes_body["lists"][0]
    assert general["category"] is None and general["announced"] == [300.0, 150.5]
    assert general["awards"][0]["amount"] == 300.0
    assert client.get(f"{base}/categories/999999/standings/").status_code == 404
