"""A Double-Swiss event (C.04.5) through the services: every round a match of two games."""

from __future__ import annotations

import random

import pytest

from pairing.double_swiss import pair_match, read_double_swiss, state_before_match
from pairing.double_swiss.trf import recorded_match
from pairing.replay import pairing_lines
from tournaments import services
from tournaments.models import ByeRequest, Game, Result, Round, Tournament

from .conftest import make_tournament

GAMES = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]


def play(rnd: Round, arbiter, rng: random.Random, overrides: dict[int, str] | None = None):
    """Publish the round, enter both games of every match, finish it."""
    services.publish_round(rnd, arbiter)
    overrides = overrides or {}
    results = {}
    for game in rnd.games.filter(black__isnull=False):
        results[game.pk] = overrides.get(
            game.board, f"{rng.choice(GAMES).value}|{rng.choice(GAMES).value}"
        )
    services.set_results(rnd, arbiter, results)
    services.finish_round(rnd, arbiter)


@pytest.fixture
def event(arbiter):
    t = make_tournament(arbiter, players=20, rounds=7, pairing_system="dswiss")
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    return t


def test_it_gives_byes_the_match_values(event):
    assert (event.points_pairing_bye, event.points_half_bye, event.points_full_bye) == (
        15, 10, 20
    )


def test_it_runs_a_seven_match_event_with_forfeits_byes_and_a_late_entry(event, arbiter):
    rng = random.Random(7)
    players = {p.name: p for p in event.players.all()}
    services.request_bye(players["Player C"], arbiter, round_number=1, kind=ByeRequest.Kind.HALF)
    r1 = services.pair_next_round(event, arbiter)
    assert r1.games.filter(is_match=True, black__isnull=False).count() == 9
    assert r1.games.get(white=players["Player C"]).result == Result.HALF_BYE
    play(r1, arbiter, rng)
    # Round 2: one game forfeited (a regular match), one match forfeited (both games).
    r2 = services.pair_next_round(event, arbiter)
    one_game = f"{Result.WHITE_WINS_FORFEIT.value}|{Result.DRAW.value}"
    whole = f"{Result.BLACK_WINS_FORFEIT.value}|{Result.WHITE_WINS_FORFEIT.value}"
    play(r2, arbiter, rng, overrides={1: one_game, 2: whole})
    late = services.admit_late_entry(event, arbiter, arrival_round=3, name="Late", rating=1500)
    for _ in range(5):
        play(services.pair_next_round(event, arbiter), arbiter, rng)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED

    # The export is a Double-Swiss file whose every match the engine pairs again identically.
    text = services.export_trf(event)
    dt = read_double_swiss(text)
    assert dt.paired_matches() == 7 and len(dt.tpns) == 21
    for k in range(1, 8):
        assert pairing_lines(pair_match(state_before_match(dt, k))) == pairing_lines(
            recorded_match(dt, k)
        )
    # Scores are game points plus bye match values; standings follow them.
    table = services.standings(event)
    assert [s.score for s in table] == sorted((s.score for s in table), reverse=True)
    by_tpn = {s.player.tpn: s.score for s in table}
    assert by_tpn == {tpn: dt.score(tpn) for tpn in dt.tpns}
    assert by_tpn[late.tpn] <= 100  # absent in rounds 1 and 2
    # A single forfeited game leaves a match played; a forfeit match is none (Preface).
    r2_rows = {g.board: g for g in Round.objects.get(tournament=event, number=2).games.all()}
    one, forfeit = r2_rows[1].white.tpn, r2_rows[2].white.tpn
    assert dt.matches_of(one)[1].was_played and not dt.matches_of(forfeit)[1].was_played
    assert dt.matches_of(forfeit)[1].is_forfeit


def test_it_refuses_impossible_match_results(event, arbiter):
    rnd = services.pair_next_round(event, arbiter)
    services.publish_round(rnd, arbiter)
    game = rnd.games.filter(black__isnull=False).first()
    for bad in (Result.NOT_PLAYED.value + "|1-0", "|1-0", "1-0", "H|1-0"):
        with pytest.raises(services.ServiceError):
            services.set_results(rnd, arbiter, {game.pk: bad})
    services.set_results(rnd, arbiter, {game.pk: "1/2-0|0-0"})
    game.refresh_from_db()
    assert (game.result, game.second_result) == ("1/2-0", "0-0")
    with pytest.raises(services.ServiceError, match="missing results"):
        services.finish_round(rnd, arbiter)


def test_it_keeps_a_result_changed_meanwhile(event, arbiter):
    rnd = services.pair_next_round(event, arbiter)
    services.publish_round(rnd, arbiter)
    game = rnd.games.filter(black__isnull=False).first()
    services.set_results(rnd, arbiter, {game.pk: "1-0|0-1"})
    saved = services.set_results(rnd, arbiter, {game.pk: "0-1|0-1"}, seen={game.pk: "|"})
    assert saved.saved == 0 and saved.refused
    game.refresh_from_db()
    assert game.match_result == "1-0|0-1"


def test_the_pairing_system_is_fixed_once_round_one_is_paired(event, arbiter):
    services.pair_next_round(event, arbiter)
    with pytest.raises(services.ServiceError, match="fixed"):
        services.update_tournament(event, arbiter, pairing_system="2026")
    assert not Game.objects.filter(round__tournament=event, black__isnull=False, is_match=False)


def test_it_enters_two_game_results_per_board_in_the_browser(client, event, arbiter):
    from django.urls import reverse

    client.force_login(arbiter)
    client.post(reverse("arbiter-pair", args=[event.pk]))
    client.post(reverse("arbiter-round-publish", args=[event.pk, 1]))
    rnd = Round.objects.get(tournament=event, number=1)
    games = list(rnd.games.filter(black__isnull=False).order_by("board"))
    page = client.get(reverse("arbiter-round", args=[event.pk, 1])).content.decode()
    assert page.count("<select") == 2 * len(games) == 20
    assert "colours reversed" in page
    data = {}
    for g in games:
        data[f"g{g.pk}"], data[f"g{g.pk}_2"] = Result.WHITE_WINS, Result.DRAW
    data[f"g{games[0].pk}_2"] = Result.WHITE_HALF_BLACK_ZERO
    response = client.post(
        reverse("arbiter-round", args=[event.pk, 1]), {**data, "finish": "1"}, follow=True
    )
    assert "Round 1 finished." in response.content.decode()
    first = games[0]
    first.refresh_from_db()
    assert (first.result, first.second_result) == ("1-0", "1/2-0")

    public = client.get(reverse("public-round", args=[event.pk, 1])).content.decode()
    assert "1-0 · ½-0" in public and "1-0 · ½-½" in public
    cross = client.get(reverse("public-crosstable", args=[event.pk])).content.decode()
    assert "1 ½" in cross  # both games of a match in one cell
    card = client.get(reverse("public-player", args=[event.pk, first.black_id])).content.decode()
    assert "0 ½" in card  # lost game 1; ½-0 in game 2, where this player had White
    api = client.get(f"/api/tournaments/{event.pk}/rounds/1/pairings/").json()
    boards = api if isinstance(api, list) else api.get("boards", api.get("results", []))
    assert any(b.get("second_result") == "1/2-0" for b in boards)
    standings = services.standings(event)
    assert {s.score for s in standings} == {15, 10, 5}  # 1-0 ½-½ / 1-0 0-½ (board 1), byes


def test_a_match_paired_by_hand_is_a_match_and_is_checked_on_its_own_rules(event, arbiter):
    from tournaments.services import corrections, pairing_changes

    rnd = services.pair_next_round(event, arbiter)
    tpn = {p.tpn: p for p in event.players.all()}
    boards = [(1, 2), (3, 4)] + [(w, w + 1) for w in range(5, 21, 2)]
    preview = pairing_changes.preview_pairing(rnd, boards, None)
    assert preview.errors == () and preview.warnings == ()
    bad = pairing_changes.preview_pairing(rnd, [(1, 2), (1, 3)], None)
    assert "player 1 is paired twice" in bad.errors
    pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=None, note="by hand")
    rows = rnd.games.filter(black__isnull=False)
    assert rows.count() == 10 and all(g.is_match for g in rows)
    assert rows.filter(white=tpn[1], black=tpn[2]).exists()
    services.publish_round(rnd, arbiter)
    game = rows.first()
    services.set_results(rnd, arbiter, {g.pk: "1-0|1-0" for g in rows})
    services.finish_round(rnd, arbiter)
    with pytest.raises(services.ServiceError, match="Double-Swiss match"):
        corrections.correct_result(game, arbiter, result=Result.DRAW, reason="typo")


@pytest.mark.parametrize("name", ["dsw_p07_r6_s14.trf", "dsw_p14_r7_s81.trf", "dsw_p08_r7_s21.trf"])
def test_it_imports_a_double_swiss_file_and_exports_it_again(arbiter, name):
    import os

    from tests.conftest import CORPUS

    path = CORPUS / "double-swiss" / name
    if not path.is_file():
        if os.environ.get("REQUIRE_CORPUS") == "1":
            pytest.fail(f"REQUIRE_CORPUS=1 but there is no {path}")
        pytest.skip(f"no corpus file {path}")
    text = path.read_text()
    t = services.import_trf(text, arbiter)
    assert t.system.matches and t.round_set.count() == read_double_swiss(text).paired_matches()
    again = read_double_swiss(services.export_trf(t))
    original = read_double_swiss(text)
    assert again.matches == original.matches
    assert {s.player.tpn: s.score for s in services.standings(t)} == {
        tpn: original.score(tpn) for tpn in original.tpns
    }


def test_a_seven_match_event_runs_through_the_pages(client, staff):
    """Issue 15's end to end: 20 players, 7 matches, a one-game forfeit, a forfeit match, a
    requested bye and a late entry, all through the arbiter's pages, then the public ones."""
    from django.urls import reverse

    arbiter = staff
    client.force_login(arbiter)
    response = client.post(reverse("arbiter-tournament-create"), {
        "name": "Double Open", "rounds": "7", "pairing_system": "dswiss",
        "points_win": "1", "points_draw": "0.5", "points_loss": "0", "points_forfeit_win": "1",
        "points_forfeit_loss": "0", "points_pairing_bye": "1.5", "points_half_bye": "1",
        "points_full_bye": "2", "points_zero_bye": "0", "tiebreaks": "BH/C1\nSB",
    })
    t = Tournament.objects.get(name="Double Open")
    assert response.status_code == 302 and t.system.matches
    for i in range(20):
        services.add_player(t, arbiter, name=f"Player {i:02d}", rating=2400 - 10 * i)
    client.post(reverse("arbiter-draw-colour", args=[t.pk]))
    player = {p.tpn: p for p in t.players.all()}
    client.post(reverse("arbiter-bye", args=[t.pk]),
                {"player": player[5].pk, "round_number": "2", "kind": "H"})
    rng = random.Random(15)
    for k in range(1, 8):
        if k == 3:
            client.post(reverse("arbiter-late-entry", args=[t.pk]),
                        {"name": "Late, Lara", "rating": "1500", "arrival_round": "3"})
        client.post(reverse("arbiter-pair", args=[t.pk]))
        client.post(reverse("arbiter-round-publish", args=[t.pk, k]))
        rnd = Round.objects.get(tournament=t, number=k)
        data = {}
        for g in rnd.games.filter(black__isnull=False):
            data[f"g{g.pk}"] = rng.choice(GAMES).value
            data[f"g{g.pk}_2"] = rng.choice(GAMES).value
            if k == 2 and g.board == 1:  # one game forfeited: a match played all the same
                data[f"g{g.pk}"] = Result.WHITE_WINS_FORFEIT.value
            if k == 2 and g.board == 2:  # White forfeits both games: a forfeit match
                data[f"g{g.pk}"] = Result.BLACK_WINS_FORFEIT.value
                data[f"g{g.pk}_2"] = Result.WHITE_WINS_FORFEIT.value
        response = client.post(
            reverse("arbiter-round", args=[t.pk, k]), {**data, "finish": "1"}, follow=True
        )
        assert f"Round {k} finished." in response.content.decode()
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Round.objects.get(tournament=t, number=2).games.get(white=player[5]).result == "H"
    dt = read_double_swiss(services.export_trf(t))
    assert len(dt.tpns) == 21 and dt.paired_matches() == 7
    for k in range(1, 8):
        assert pairing_lines(pair_match(state_before_match(dt, k))) == pairing_lines(
            recorded_match(dt, k)
        )
    for name in ("public-standings", "public-crosstable"):
        assert client.get(reverse(name, args=[t.pk])).status_code == 200
    api = client.get(f"/api/tournaments/{t.pk}/standings/")
    assert api.status_code == 200
