"""Public pages: no login, published rounds only, standings, crosstable and player cards."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from tournaments import sentences, services
from tournaments.models import Result, Round

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(name, args=args)


def text_of(response) -> str:
    """The page's visible text with tags removed and blanks squeezed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def table_rows(response, css_class: str) -> list[list[str]]:
    """The body rows of the table with that class, as lists of cell texts."""
    html = response.content.decode()
    table = re.search(rf'<table class="[^"]*\b{css_class}\b[^"]*">(.*?)</table>', html, re.S)
    assert table, f"no table .{css_class}"
    body = re.search(r"<tbody>(.*?)</tbody>", table.group(1), re.S).group(1)
    rows = []
    for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)
        rows.append([re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
    return rows


@pytest.fixture
def five(arbiter):
    """Five players (A strongest ... E), initial colour White: round 1 is A-C, D-B, E has the
    PAB."""
    t = make_tournament(arbiter, players=5, rounds=3, tiebreaks="")  # ties stay shared
    services.draw_initial_color(t, arbiter, random.Random(0))
    t.initial_color = "w"
    t.save(update_fields=["initial_color"])
    return t


def pair_and_publish(t, arbiter) -> Round:
    rnd = services.pair_next_round(t, arbiter)
    return services.publish_round(rnd, arbiter)


def enter(rnd, arbiter, *results: str) -> None:
    boards = [g for g in rnd.games.order_by("board") if g.board is not None]
    assert len(boards) == len(results)
    services.set_results(rnd, arbiter, {g.pk: r for g, r in zip(boards, results, strict=True)})


def test_root_lists_tournaments_for_anonymous_visitors(client, arbiter):
    make_tournament(arbiter, players=3)
    services.create_tournament(arbiter, name="Winter Cup", rounds=7, place="Basel")

    response = client.get("/")

    assert response.status_code == 200
    text = text_of(response)
    assert "Test Open" in text and "Winter Cup" in text
    assert "3 players" in text and "Basel" in text
    assert url("login") in response.content.decode()


def test_format_points():
    assert [sentences.format_points(v) for v in (0, 5, 10, 15, 25, None, 3)] == [
        "0", "½", "1", "1½", "2½", "*", "0.3",
    ]


def test_a_draft_round_is_never_shown(client, arbiter, five):
    rnd = services.pair_next_round(five, arbiter)
    assert rnd.state == Round.State.DRAFT
    alice = five.players.get(tpn=1)

    assert client.get(url("public-round", five.pk, 1)).status_code == 404
    home = text_of(client.get(url("public-tournament", five.pk)))
    assert "No round has been published yet." in home and "Round 1" not in home
    card = client.get(url("public-player", five.pk, alice.pk))
    assert "No round has been published yet." in text_of(card)
    crosstable = client.get(url("public-crosstable", five.pk))
    assert "R1" not in text_of(crosstable)


def test_published_pairings_in_board_order_with_scores_and_byes(client, arbiter, five):
    r1 = pair_and_publish(five, arbiter)
    enter(r1, arbiter, Result.WHITE_WINS, Result.DRAW)
    services.finish_round(r1, arbiter)
    pair_and_publish(five, arbiter)

    response = client.get(url("public-round", five.pk, 1))
    assert response.status_code == 200
    assert table_rows(response, "pairings") == [
        ["1", "Player A (0)", "1-0", "Player C (0)"],
        ["2", "Player D (0)", "½-½", "Player B (0)"],
    ]
    assert "Player E (0): Pairing-allocated bye" in text_of(response)

    # Round 2 boards come in the stored order (C.04.2 Art. 3.6), scores before the round.
    r2 = table_rows(client.get(url("public-round", five.pk, 2)), "pairings")
    stored = list(five.round_set.get(number=2).games.filter(board__isnull=False).order_by("board"))
    assert [row[0] for row in r2] == [str(g.board) for g in stored]
    assert [row[1].split(" (")[0] for row in r2] == [g.white.name for g in stored]
    assert r2[0][2] == "–"  # no result yet
    assert "(1)" in r2[0][1] or "(1)" in r2[0][3]  # the top board has a leader on 1 point


def test_standings_show_shared_ranks_and_follow_results(client, arbiter, five):
    r1 = pair_and_publish(five, arbiter)
    before = table_rows(client.get(url("public-standings", five.pk)), "standings")
    # Standings count complete rounds only: while boards are pending, everybody shares rank 1.
    assert [(r[0], r[1], r[3]) for r in before] == [
        ("1-5", f"Player {c}", "0") for c in "ABCDE"
    ]

    enter(r1, arbiter, Result.WHITE_WINS, Result.DRAW)

    after = table_rows(client.get(url("public-standings", five.pk)), "standings")
    assert [(r[0], r[1], r[3]) for r in after] == [
        ("1-2", "Player A", "1"), ("1-2", "Player E", "1"), ("3-4", "Player B", "½"),
        ("3-4", "Player D", "½"), ("5", "Player C", "0"),
    ]


def test_standings_after_an_earlier_round_and_bad_round_numbers(client, arbiter, five):
    r1 = pair_and_publish(five, arbiter)
    enter(r1, arbiter, Result.BLACK_WINS, Result.BLACK_WINS)
    services.finish_round(r1, arbiter)
    r2 = pair_and_publish(five, arbiter)
    enter(r2, arbiter, *[Result.DRAW] * 2)

    latest = client.get(url("public-standings", five.pk))
    assert "after round 2" in text_of(latest)
    early = client.get(url("public-standings", five.pk) + "?after=1")
    assert "after round 1" in text_of(early)
    assert [(r[1], r[3]) for r in table_rows(early, "standings")][:3] == [
        ("Player B", "1"), ("Player C", "1"), ("Player E", "1"),
    ]
    assert client.get(url("public-standings", five.pk) + "?after=x").status_code == 404
    assert client.get(url("public-standings", five.pk) + "?after=-1").status_code == 404


def test_crosstable_cells_name_opponent_row_colour_and_result(client, arbiter, five):
    r1 = pair_and_publish(five, arbiter)
    enter(r1, arbiter, Result.WHITE_WINS, Result.BLACK_WINS_FORFEIT)

    rows = table_rows(client.get(url("public-crosstable", five.pk)), "crosstable")

    # Row numbers follow the standings: A 1, B 1 (forfeit win), E 1 (bye), C 0, D 0.
    assert rows == [
        ["1", "Player A", "4w1", "1", "1-3"],
        ["2", "Player B", "5b+", "1", "1-3"],
        ["3", "Player E", "bye", "1", "1-3"],
        ["4", "Player C", "1b0", "0", "4-5"],
        ["5", "Player D", "2w−", "0", "4-5"],
    ]


def test_player_card_lists_games_colours_and_running_score(client, arbiter, five):
    r1 = pair_and_publish(five, arbiter)
    enter(r1, arbiter, Result.WHITE_WINS, Result.DRAW)
    services.finish_round(r1, arbiter)
    r2 = pair_and_publish(five, arbiter)
    daniel = five.players.get(name="Player D")

    response = client.get(url("public-player", five.pk, daniel.pk))

    rows = table_rows(response, "card")
    assert rows[0] == ["1", "White", "Player B (2379)", "½", "½", "½"]
    game = r2.games.get(white=daniel) if r2.games.filter(white=daniel).exists() else None
    if game is None:
        game = r2.games.get(black=daniel)
    if game.black_id is None:
        assert rows[1][2] == game.get_result_display()
    else:
        opponent = game.black if game.white_id == daniel.pk else game.white
        colour = "White" if game.white_id == daniel.pk else "Black"
        assert rows[1][:4] == [
            "2", colour, f"{opponent.name} ({opponent.rating})", "*",
        ]
        assert rows[1][5] == "½"  # the pending game adds nothing yet
    assert "Score ½" in text_of(response)


def test_player_of_another_tournament_is_not_found(client, arbiter):
    a = make_tournament(arbiter, players=2)
    b = make_tournament(arbiter, players=2)
    stranger = b.players.first()
    assert client.get(url("public-player", a.pk, stranger.pk)).status_code == 404
    assert client.get(url("public-tournament", 99999)).status_code == 404
    assert client.get(url("public-round", a.pk, 1)).status_code == 404


def test_players_page_lists_the_starting_order(client, arbiter):
    t = make_tournament(arbiter, players=4)
    rows = table_rows(client.get(url("public-players", t.pk)), "players")
    assert [r[:3] for r in rows] == [
        ["1", "Player A", "2412"], ["2", "Player B", "2379"],
        ["3", "Player C", "2349"], ["4", "Player D", "2327"],
    ]


def test_standings_show_the_tournaments_tiebreaks_as_columns(client, arbiter, five):
    five.tiebreaks = "BH\nTPN"
    five.save(update_fields=["tiebreaks"])
    r1 = pair_and_publish(five, arbiter)
    enter(r1, arbiter, Result.WHITE_WINS, Result.DRAW)

    response = client.get(url("public-standings", five.pk))

    head = re.search(r"<thead>(.*?)</thead>", response.content.decode(), re.S).group(1)
    # the tie-breaks after the points, then the FIDE rating change (Rtg+/-)
    assert re.findall(r"<th[^>]*>(.*?)</th>", head)[-3:-1] == ["BH", "TPN"]
    rows = table_rows(response, "standings")
    # TPN (C.07 Art. 7.8) breaks every tie left by points and Buchholz: no shared rank remains.
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5"]
    tpn = dict(five.players.values_list("name", "tpn"))
    assert all(r[-2] == str(tpn[r[1]]) for r in rows)
    api = client.get(url("api-standings", five.pk), HTTP_ACCEPT="application/json").json()
    assert api["tiebreak_names"] == ["BH", "TPN"]
    assert [row["tiebreaks"][-1] for row in api["rows"]] == [float(r[-2]) for r in rows]


def test_a_bad_tiebreak_list_is_reported_not_crashed(client, arbiter, five):
    pair_and_publish(five, arbiter)
    five.tiebreaks = "NOPE"  # stored behind the services' back (they refuse it)
    five.save(update_fields=["tiebreaks"])

    for name in ("public-standings", "public-crosstable"):
        response = client.get(url(name, five.pk))
        assert response.status_code == 503
        assert "NOPE" in text_of(response)
    api = client.get(url("api-standings", five.pk), HTTP_ACCEPT="application/json")
    assert api.status_code == 503 and "NOPE" in api.json()["detail"]
    # The pages that do not rank players still work.
    assert client.get(url("public-round", five.pk, 1)).status_code == 200


def _played(arbiter, players: int):
    t = make_tournament(arbiter, players=players, rounds=3, tiebreaks="")
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = pair_and_publish(t, arbiter)
    boards = rnd.games.filter(board__isnull=False)
    services.set_results(rnd, arbiter, {g.pk: Result.DRAW for g in boards})
    services.finish_round(rnd, arbiter)
    pair_and_publish(t, arbiter)
    return t


def test_public_pages_cost_the_same_queries_whatever_the_field(client, arbiter):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cost(t) -> dict[str, int]:
        pages = {
            "list": url("home"), "home": url("public-tournament", t.pk),
            "round": url("public-round", t.pk, 1), "standings": url("public-standings", t.pk),
            "crosstable": url("public-crosstable", t.pk), "players": url("public-players", t.pk),
            "card": url("public-player", t.pk, t.players.get(tpn=2).pk),
        }
        counts = {}
        for name, path in pages.items():
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(path).status_code == 200, path
            counts[name] = len(ctx.captured_queries)
        return counts

    small = cost(_played(arbiter, 5))
    large = cost(_played(arbiter, 14))
    assert small == large
    assert max(large.values()) <= 8, large


def test_visitors_get_304_until_the_tournament_changes(client, arbiter, five,
                                                       django_assert_num_queries):
    r1 = pair_and_publish(five, arbiter)
    path = url("public-standings", five.pk)
    first = client.get(path)
    etag = first["ETag"]
    assert first.status_code == 200 and "Cookie" in first["Vary"]

    with django_assert_num_queries(1):
        again = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    etag = client.get(url("home"))["ETag"]
    assert client.get(url("home"), HTTP_IF_NONE_MATCH=etag).status_code == 304

    enter(r1, arbiter, Result.WHITE_WINS, Result.DRAW)
    changed = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "after round 1" in text_of(changed)


def test_logged_in_users_always_get_a_fresh_page(client, arbiter):
    t = make_tournament(arbiter, players=2)
    client.force_login(arbiter)
    response = client.get(url("public-tournament", t.pk))
    assert response.status_code == 200 and "ETag" not in response
    assert "Log out arbiter" in text_of(response)
