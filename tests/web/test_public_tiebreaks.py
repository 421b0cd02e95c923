"""The public "how was this tie-break computed" page of one player (issue 5)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from tournaments import queries, services
from tournaments.models import Result

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(name, args=args)


def text_of(response) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def line_rows(section_html: str) -> list[list[str]]:
    body = re.search(r"<tbody>(.*?)</tbody>", section_html, re.DOTALL).group(1)
    rows = []
    for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.DOTALL):
        cells = re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.DOTALL)
        rows.append([re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
    return rows


def section_html(response, code: str) -> str:
    html = response.content.decode()
    for body in re.findall(r'<section class="tiebreak"[^>]*>(.*?)</section>', html, re.DOTALL):
        if re.search(rf"<h3>{re.escape(code)} ", body):
            return body
    raise AssertionError(f"no section {code}")


@pytest.fixture
def five(arbiter):
    """Five players A..E, White first: round 1 is A-C, D-B and E has the pairing-allocated bye.

    Results: C beats A, D-B drawn. Tie-breaks BH/C1 then BH.
    """
    t = make_tournament(arbiter, players=5, rounds=3, tiebreaks="BH/C1\nBH")
    services.draw_initial_color(t, arbiter, random.Random(0))
    t.initial_color = "w"
    t.save(update_fields=["initial_color"])
    r1 = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards = list(r1.games.filter(board__isnull=False).order_by("board"))
    assert [(g.white.name, g.black.name) for g in boards] == [
        ("Player A", "Player C"), ("Player D", "Player B"),
    ]
    services.set_results(
        r1, arbiter, {boards[0].pk: Result.BLACK_WINS, boards[1].pk: Result.DRAW}
    )
    services.finish_round(r1, arbiter)
    return t


def test_values_and_the_cut_round(client, five):
    alice = five.players.get(tpn=1)
    response = client.get(url("public-player-tiebreaks", five.pk, alice.pk))
    assert response.status_code == 200
    text = text_of(response)
    assert "after round 1" in text
    # BH: C's score (1). BH/C1 leaves out the lowest (the only) round: 0.
    assert re.search(r"<h3>BH <small>[^<]*</small>: <span class=\"points\">1</span>",
                     response.content.decode())
    assert re.search(r"<h3>BH/C1 <small>[^<]*</small>: <span class=\"points\">0</span>",
                     response.content.decode())
    cut = line_rows(section_html(response, "BH/C1"))
    assert cut == [["1", "Player C", "1", "cut"]]
    full = line_rows(section_html(response, "BH"))
    assert full == [["1", "Player C", "1", "yes"]]
    assert 'class="cut"' in section_html(response, "BH/C1")
    assert 'class="cut"' not in section_html(response, "BH")


def test_a_dummy_opponent_is_labelled_with_its_article(client, five):
    eve = five.players.get(tpn=5)  # the pairing-allocated bye of round 1
    response = client.get(url("public-player-tiebreaks", five.pk, eve.pk))
    rows = line_rows(section_html(response, "BH"))
    assert len(rows) == 1
    rnd, source, value, counted = rows[0]
    # Art. 16.4.2: the dummy scores min(own 1, one draw ½) = ½.
    assert (rnd, value, counted) == ("1", "0.5", "yes")
    assert "Dummy opponent (Art. 16.4)" in source and "16.4.2" in source


def test_the_page_matches_the_standings_and_is_linked_from_them(client, five):
    standings = client.get(url("public-standings", five.pk)).content.decode()
    for player in five.players.all():
        link = url("public-player-tiebreaks", five.pk, player.pk)
        assert link in standings
        info = queries.player_tiebreaks(five, player)
        row = next(r for r in queries.public_standings(five).rows if r.player == player)
        assert tuple(s.value for s in info.sections) == row.tiebreaks
    card = client.get(url("public-player", five.pk, five.players.get(tpn=2).pk))
    assert url("public-player-tiebreaks", five.pk, five.players.get(tpn=2).pk) in (
        card.content.decode()
    )


def test_draft_and_incomplete_rounds_are_not_counted(client, arbiter, five):
    alice = five.players.get(tpn=1)
    r2 = services.pair_next_round(five, arbiter)  # a draft: arbiters only
    draft = client.get(url("public-player-tiebreaks", five.pk, alice.pk))
    assert "after round 1" in text_of(draft)
    assert all(r[0] == "1" for r in line_rows(section_html(draft, "BH")))
    # Published but results pending: still only round 1.
    services.publish_round(r2, arbiter)
    boards = list(r2.games.filter(board__isnull=False))
    services.set_results(r2, arbiter, {boards[0].pk: Result.DRAW})
    pending = client.get(url("public-player-tiebreaks", five.pk, alice.pk))
    assert all(r[0] == "1" for r in line_rows(section_html(pending, "BH")))
    assert "after round 1" in text_of(pending)


def test_after_an_earlier_round(client, arbiter, five):
    alice = five.players.get(tpn=1)
    response = client.get(url("public-player-tiebreaks", five.pk, alice.pk) + "?after=0")
    assert response.status_code == 200
    assert "no round complete yet" in text_of(response)
    assert "<tbody>" not in section_html(response, "BH")
    bad = client.get(url("public-player-tiebreaks", five.pk, alice.pk) + "?after=x")
    assert bad.status_code == 404


def test_a_player_of_another_tournament_is_not_found(client, arbiter, five):
    other = make_tournament(arbiter, players=3)
    stranger = other.players.get(tpn=1)
    assert client.get(url("public-player-tiebreaks", five.pk, stranger.pk)).status_code == 404
    assert client.get(url("public-player-tiebreaks", other.pk, stranger.pk)).status_code == 200
    assert client.get(url("public-player-tiebreaks", 999999, stranger.pk)).status_code == 404


def test_a_bad_tiebreak_list_is_reported(client, five):
    five.tiebreaks = "NOPE"
    five.save(update_fields=["tiebreaks"])
    alice = five.players.get(tpn=1)
    response = client.get(url("public-player-tiebreaks", five.pk, alice.pk))
    assert response.status_code == 503 and "NOPE" in text_of(response)


def _played(arbiter, players: int):
    t = make_tournament(arbiter, players=players, rounds=3, tiebreaks="BH/C1\nSB\nBH")
    services.draw_initial_color(t, arbiter, random.Random(0))
    for _ in range(2):
        rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
        boards = rnd.games.filter(board__isnull=False)
        services.set_results(rnd, arbiter, {g.pk: Result.DRAW for g in boards})
        services.finish_round(rnd, arbiter)
    return t


def test_query_count_does_not_depend_on_the_field(client, arbiter):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cost(t) -> int:
        path = url("public-player-tiebreaks", t.pk, t.players.get(tpn=2).pk)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path).status_code == 200
        return len(ctx.captured_queries)

    small, large = cost(_played(arbiter, 5)), cost(_played(arbiter, 14))
    assert small == large
    assert large <= 10, large  # 8 measured with two rounds


def test_every_tiebreak_gets_a_section_and_unused_ones_say_why(client, arbiter):
    t = make_tournament(arbiter, players=6, rounds=3, tiebreaks="DE,SB,PS,ARO,BH/M1")
    services.add_player(t, arbiter, name="Player U")  # unrated: ARO is dropped (C.07 Art. 10)
    services.draw_initial_color(t, arbiter, random.Random(0))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards = list(rnd.games.filter(board__isnull=False).order_by("board"))
    services.set_results(rnd, arbiter, {g.pk: Result.WHITE_WINS for g in boards})
    services.finish_round(rnd, arbiter)
    winner = boards[0].white
    response = client.get(url("public-player-tiebreaks", t.pk, winner.pk))
    assert response.status_code == 200
    html = response.content.decode()
    assert re.findall(r"<h3>(\S+) <small>", html) == ["DE", "SB", "PS", "BH/M1"]
    assert "ARO not used: unrated players take part" in text_of(response)
    # SB: the opponent's score (0) times the points scored against them (1).
    sb = line_rows(section_html(response, "SB"))
    assert sb == [["1", f"{boards[0].black.name} score 0", "0", "yes"]]
