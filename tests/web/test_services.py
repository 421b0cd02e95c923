"""Services, driven through a whole tournament with the real engine."""

from __future__ import annotations

import random

import pytest

from pairing.model import ResultCode
from pairing.trf import read_trf
from tournaments import services
from tournaments.models import AuditEntry, ByeRequest, Game, Result, Round, Tournament

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def play(rnd: Round, arbiter, rng: random.Random, overrides: dict[int, str] | None = None) -> None:
    """Publish a draft, enter a result on every board (some fixed by TPN of White), finish."""
    overrides = overrides or {}
    services.publish_round(rnd, arbiter)
    results = {}
    for game in rnd.games.select_related("white"):
        if game.is_bye:
            continue
        results[game.pk] = overrides.get(
            game.white.tpn,
            rng.choice([Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]),
        )
    services.set_results(rnd, arbiter, results)
    services.finish_round(rnd, arbiter)


def scores(t: Tournament) -> dict[str, int]:
    return {s.player.name: s.score for s in services.standings(t)}


def test_initial_colour_is_drawn_and_recorded(tournament, arbiter):
    colour = services.draw_initial_color(tournament, arbiter, rng=random.Random(3))
    tournament.refresh_from_db()
    assert colour in ("w", "b") and tournament.initial_color == colour
    assert tournament.initial_color_drawn_at is not None
    assert AuditEntry.objects.filter(tournament=tournament, action="draw initial colour").exists()


def test_round_one_pairs_top_half_against_bottom_half(tournament, arbiter):
    services.draw_initial_color(tournament, arbiter, rng=random.Random(1))
    rnd = services.pair_next_round(tournament, arbiter)
    boards = [
        (g.board, g.white.tpn, g.black.tpn) for g in rnd.games.select_related("white", "black")
    ]
    assert rnd.state == Round.State.DRAFT
    assert len(boards) == 5
    assert [sorted((w, b)) for _, w, b in boards] == [[1, 6], [2, 7], [3, 8], [4, 9], [5, 10]]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_round_states_and_refusals(tournament, arbiter):
    services.draw_initial_color(tournament, arbiter, rng=random.Random(1))
    rnd = services.pair_next_round(tournament, arbiter)
    with pytest.raises(services.ServiceError, match="draft"):
        services.pair_next_round(tournament, arbiter)
    with pytest.raises(services.ServiceError, match="not published"):
        services.set_result(rnd.games.first(), arbiter, Result.DRAW)
    services.unpair_round(rnd, arbiter)
    assert not Round.objects.filter(tournament=tournament).exists()
    rnd = services.pair_next_round(tournament, arbiter)
    services.publish_round(rnd, arbiter)
    with pytest.raises(services.ServiceError, match="cannot be unpaired"):
        services.unpair_round(rnd, arbiter)
    first = rnd.games.get(board=1)
    services.set_result(first, arbiter, Result.DRAW)
    with pytest.raises(services.ServiceError, match=r"missing results \(board 2, 3, 4, 5\)"):
        services.pair_next_round(tournament, arbiter)
    with pytest.raises(services.ServiceError, match="missing results"):
        services.finish_round(rnd, arbiter)
    with pytest.raises(services.ServiceError, match="not a game result"):
        services.set_result(first, arbiter, "2-0")


def test_boards_are_sorted_by_score_of_the_pair(tournament, arbiter):
    services.draw_initial_color(tournament, arbiter, rng=random.Random(1))
    play(services.pair_next_round(tournament, arbiter), arbiter, random.Random(5))
    rnd = services.pair_next_round(tournament, arbiter)
    score = {s.player.pk: s.score for s in services.standings(tournament)}
    keys = []
    for g in rnd.games.filter(board__isnull=False).select_related("white", "black"):
        higher = min((g.white, g.black), key=lambda p: (-score[p.pk], p.tpn))
        keys.append((-score[higher.pk], -(score[g.white.pk] + score[g.black.pk]), higher.tpn))
    assert keys == sorted(keys)
    assert [g.board for g in rnd.games.filter(board__isnull=False)] == [1, 2, 3, 4, 5]


def test_a_whole_seven_round_tournament(arbiter):
    rng = random.Random(2026)
    t = make_tournament(arbiter, players=11, rounds=7)
    services.draw_initial_color(t, arbiter, rng=rng)
    players = {p.name: p for p in t.players.all()}

    # Round 1: 11 players, one pairing-allocated bye; one requested half-point bye.
    services.request_bye(players["Player C"], arbiter, round_number=1, kind=ByeRequest.Kind.HALF)
    r1 = services.pair_next_round(t, arbiter)
    byes = {g.white.name: g.result for g in r1.games.filter(black__isnull=True)}
    assert byes["Player C"] == Result.HALF_BYE
    assert list(byes.values()).count(Result.PAIRING_BYE) == 0  # 10 players left: no PAB
    assert r1.games.filter(board__isnull=False).count() == 5
    play(r1, arbiter, rng)

    # Round 2: a forfeit on board 1, a zero-point bye requested in advance.
    services.request_bye(players["Player E"], arbiter, round_number=2, kind=ByeRequest.Kind.ZERO)
    r2 = services.pair_next_round(t, arbiter)
    board1 = r2.games.get(board=1)
    assert r2.games.get(white=players["Player E"]).result == Result.ZERO_BYE
    assert r2.games.filter(board__isnull=False).count() == 5  # Player E away, C back
    play(r2, arbiter, rng, overrides={board1.white.tpn: Result.BLACK_WINS_FORFEIT})

    # Round 3: a late entry arrives (TPNs are reassigned: round 4 not yet paired).
    late = services.admit_late_entry(t, arbiter, arrival_round=3, name="Late Comer", rating=2600)
    assert late.tpn == 1
    r3 = services.pair_next_round(t, arbiter)
    assert r3.games.filter(board__isnull=False).filter(white=late).exists() or r3.games.filter(
        black=late
    ).exists()
    play(r3, arbiter, rng)

    # Round 4: a withdrawal leaves 11 players, so one gets the pairing-allocated bye; after this
    # round TPNs are frozen.
    services.withdraw_player(players["Player K"], arbiter)
    r4 = services.pair_next_round(t, arbiter)
    assert r4.games.filter(result=Result.PAIRING_BYE).count() == 1
    assert not Game.objects.filter(round=r4, white=players["Player K"]).exists()
    assert not Game.objects.filter(round=r4, black=players["Player K"]).exists()
    play(r4, arbiter, rng)
    with pytest.raises(services.ServiceError, match="Art. 2.3"):
        services.renumber_players(t, arbiter)
    late2 = services.admit_late_entry(t, arbiter, arrival_round=5, name="Later Still", rating=2700)
    assert late2.tpn == 13  # frozen TPNs: the new player goes to the end

    # A double forfeit in round 5.
    r5 = services.pair_next_round(t, arbiter)
    last_board = r5.games.filter(board__isnull=False).order_by("-board").first()
    play(r5, arbiter, rng, overrides={last_board.white.tpn: Result.DOUBLE_FORFEIT})
    for _ in range(2):
        play(services.pair_next_round(t, arbiter), arbiter, rng)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    with pytest.raises(services.ServiceError, match="All 7 rounds"):
        services.pair_next_round(t, arbiter)

    # Scores agree with the games in the database.
    table = scores(t)
    assert table["Player C"] >= 5  # at least the half-point bye
    assert table["Late Comer"] <= 50  # absent in rounds 1 and 2
    assert table["Later Still"] <= 30
    expected: dict[str, int] = {name: 0 for name in table}
    points = t.point_system
    value = {
        ResultCode.WIN: points.win, ResultCode.DRAW: points.draw, ResultCode.LOSS: points.loss,
        ResultCode.FORFEIT_WIN: points.forfeit_win, ResultCode.FORFEIT_LOSS: points.forfeit_loss,
        ResultCode.HALF_POINT_BYE: points.half_point_bye,
        ResultCode.ZERO_POINT_BYE: points.zero_point_bye,
        ResultCode.PAIRING_ALLOCATED_BYE: points.pairing_allocated_bye,
    }
    for game in Game.objects.filter(round__tournament=t).select_related("white", "black"):
        white_code, black_code = game.result_codes()
        expected[game.white.name] += value[white_code]
        if game.black is not None:
            expected[game.black.name] += value[black_code]
    assert table == expected

    # No two players played each other twice (a forfeited game does not count, C.04.2 Art. 3.5).
    met = set()
    played = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for game in Game.objects.filter(round__tournament=t, result__in=played):
        pair = frozenset((game.white_id, game.black_id))
        assert pair not in met
        met.add(pair)

    # The TRF export reads back with the same scores and is re-imported to the same standings.
    text = services.export_trf(t)
    state = read_trf(text)
    assert len(state.players) == 13
    forfeits = [e for p in state.players for e in p.rounds if e.result is ResultCode.FORFEIT_WIN]
    assert len(forfeits) == 1
    copy = services.import_trf(text, arbiter)
    assert scores(copy) == table
    assert copy.round_set.count() == 7
    assert services.export_trf(copy) == text


def test_an_impossible_pairing_is_refused_with_the_engines_reason(arbiter):
    t = make_tournament(arbiter, players=2, rounds=3)
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    play(services.pair_next_round(t, arbiter), arbiter, random.Random(1))
    with pytest.raises(services.ServiceError, match="The engine cannot pair round 2"):
        services.pair_next_round(t, arbiter)
    assert t.round_set.count() == 1
