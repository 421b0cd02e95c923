"""Every outcome kind (``pairing.outcomes``) survives both round trips: web -> TRF -> web, and
TRF -> web -> TRF, for a round of games and a round of Double-Swiss matches."""

from __future__ import annotations

import random

import pytest

from pairing.outcomes import GameResult
from tournaments import services
from tournaments.models import ByeRequest, Result, Tournament

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

GAMES = [
    Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_WINS_FORFEIT,
    Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT, Result.NOT_PLAYED,
]
REQUESTS = [ByeRequest.Kind.HALF, ByeRequest.Kind.FULL, ByeRequest.Kind.ZERO,
            ByeRequest.Kind.ABSENT]


def rows(t: Tournament) -> dict[int, set[tuple]]:
    """Each round's rows: (White's TPN, Black's TPN or None, result, game 2's result); a
    player with no row in a round counts as absent (the engine reads them alike)."""
    found: dict[int, set[tuple]] = {}
    tpns = set(t.players.values_list("tpn", flat=True))
    for rnd in t.round_set.order_by("number"):
        games = list(rnd.games.select_related("white", "black"))
        here = {
            (g.white.tpn, g.black.tpn if g.black else None, g.result, g.second_result)
            for g in games
        }
        seated = {g.white.tpn for g in games} | {g.black.tpn for g in games if g.black}
        here |= {(tpn, None, Result.ABSENT, "") for tpn in tpns - seated}
        found[rnd.number] = here
    return found


def requests(t: Tournament) -> set[tuple[int, int, str]]:
    """The requests waiting for the next round (those of paired rounds are its rows)."""
    waiting = ByeRequest.objects.filter(player__tournament=t, round_number=t.next_round_number())
    return {(r.player.tpn, r.round_number, r.kind) for r in waiting.select_related("player")}


def every_kind(arbiter) -> Tournament:
    """Round 1 holds each game result (0/0 included), the PAB and each requested bye, a
    withdrawn player; round 2 has each kind of request waiting."""
    t = make_tournament(arbiter, players=15, rounds=3, allow_full_point_bye=True)
    for i in range(5):
        services.add_player(t, arbiter, name=f"Extra {i}", rating=1500 - i)
    players = list(t.players.order_by("tpn"))
    for player, kind in zip(players[15:19], REQUESTS):
        services.request_bye(player, arbiter, round_number=1, kind=kind)
    services.withdraw_player(players[19], arbiter, from_round=1)
    services.draw_initial_color(t, arbiter, rng=random.Random(3))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards = list(rnd.games.filter(black__isnull=False).order_by("board"))
    assert len(boards) == len(GAMES) and rnd.games.filter(result=Result.PAIRING_BYE).exists()
    services.set_results(rnd, arbiter, {g.pk: r for g, r in zip(boards, GAMES)})
    services.finish_round(rnd, arbiter)
    for player, kind in zip(players[:4], REQUESTS):
        services.request_bye(player, arbiter, round_number=2, kind=kind)
    return t


def test_every_kind_goes_from_the_web_to_trf_and_back(arbiter):
    t = every_kind(arbiter)
    kinds = {row[2] for row in rows(t)[1]}
    assert kinds == {*GAMES, Result.PAIRING_BYE, *REQUESTS}, kinds
    copy = services.import_trf(services.export_trf(t), arbiter)
    assert rows(copy) == rows(t)
    assert requests(t) == {(tpn, 2, kind) for tpn, kind in zip(range(1, 5), REQUESTS)}
    # The withdrawal comes back from its ### line: no request of an absence for it
    assert requests(copy) == requests(t)
    assert copy.players.get(tpn=20).withdrawn_from_round == 1


def test_every_kind_goes_from_trf_to_the_web_and_back(arbiter):
    text = services.export_trf(every_kind(arbiter))
    again = services.export_trf(services.import_trf(text, arbiter))

    def records(trf: str) -> list[str]:
        return [line for line in trf.splitlines() if line.startswith(("001", "###"))]

    assert records(again) == records(text)
    assert "0000 - Z" in text and "0000 - -" in text and "not played (annulled)" in text


def test_every_game_of_a_match_goes_from_the_web_to_trf_and_back(arbiter):
    t = make_tournament(arbiter, players=7, rounds=2, pairing_system="dswiss")
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    services.request_bye(t.players.get(tpn=7), arbiter, round_number=1, kind=ByeRequest.Kind.ZERO)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    match_games = [Result(g.value) for g in GameResult if g is not GameResult.NOT_PLAYED]
    boards = list(rnd.games.filter(black__isnull=False).order_by("board"))
    values = [f"{match_games[i].value}|{match_games[-1 - i].value}" for i in range(len(boards))]
    services.set_results(rnd, arbiter, {g.pk: v for g, v in zip(boards, values)})
    services.finish_round(rnd, arbiter)
    services.request_bye(t.players.get(tpn=1), arbiter, round_number=2, kind=ByeRequest.Kind.HALF)
    text = services.export_trf(t)
    copy = services.import_trf(text, arbiter)
    assert copy.system.matches and rows(copy) == rows(t)
    assert requests(copy) == requests(t)
    assert [line for line in services.export_trf(copy).splitlines() if line.startswith("001")] == [
        line for line in text.splitlines() if line.startswith("001")
    ]
