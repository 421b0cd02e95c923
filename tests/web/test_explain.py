"""The engine's explanation in the web app: stored with a Dutch round, shown to the arbiter as a
table per bracket, to a player on the card once published, and served by the API."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from pairing.dutch.explanation import RoundExplanation
from tournaments import explain, sentences, services
from tournaments.models import Round, Tournament
from tournaments.services import pairing_changes

from .conftest import make_tournament
from .test_public import enter, text_of

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def played(arbiter, players: int = 9, rounds: int = 4, played_rounds: int = 2) -> Tournament:
    """A Dutch tournament with ``played_rounds`` rounds finished (seeded results)."""
    t = make_tournament(arbiter, players=players, rounds=rounds)
    services.draw_initial_color(t, arbiter, random.Random(0))
    for k in range(played_rounds):
        rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
        boards = [g for g in rnd.games.order_by("board") if g.board is not None]
        rng = random.Random(k)
        enter(rnd, arbiter, *(rng.choice(["1-0", "0-1", "1/2-1/2"]) for _ in boards))
        services.finish_round(rnd, arbiter)
    return t


def engine_pairs(rnd: Round) -> set[frozenset[int]]:
    """The pairs the stored explanation chose, as player ids."""
    data = rnd.explanation_data
    pk = {int(tpn): p for tpn, p in data["players"].items()}
    why = RoundExplanation.from_dict(data)
    return {frozenset((pk[a], pk[b])) for bracket in why.brackets for a, b in bracket.pairs}


def board_pairs(rnd: Round) -> set[frozenset[int]]:
    return {frozenset((g.white_id, g.black_id)) for g in rnd.games.exclude(black=None)}


def test_a_dutch_round_keeps_its_explanation_as_data(arbiter):
    t = played(arbiter)

    rnd = services.pair_next_round(t, arbiter)

    assert rnd.explanation_data is not None
    assert engine_pairs(rnd) == board_pairs(rnd)
    why = RoundExplanation.from_dict(rnd.explanation_data)
    assert rnd.explanation.splitlines() == why.lines()
    bye = rnd.games.get(result="PAB").white
    assert rnd.explanation_data["players"][str(why.bye)] == bye.pk
    assert {p.pk for p in t.players.all()} == set(rnd.explanation_data["players"].values())


def test_a_clock_round_keeps_its_text_only(arbiter):
    t = services.create_tournament(
        arbiter, name="Clock", rounds=3, pairing_system=Tournament.PairingSystem.CLOCK
    )
    for i in range(6):
        services.add_player(t, arbiter, name=f"P{i}", rating=2000 - i)
    services.draw_initial_color(t, arbiter, random.Random(0))

    rnd = services.pair_next_round(t, arbiter)

    assert rnd.explanation and "players" not in rnd.explanation_data  # lines, no brackets
    assert explain.text(rnd) == rnd.explanation
    assert explain.api_data(rnd)["explanation"] is None


def test_the_draft_page_shows_a_table_per_bracket_with_names_and_scores(client, arbiter):
    t = played(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    client.force_login(arbiter)

    page = client.get(reverse("arbiter-round", args=[t.pk, rnd.number]))

    html = page.content.decode()
    assert html.count('<section class="why-bracket">') == len(rnd.explanation_data["brackets"])
    assert '<table class="list why-pairs">' in html
    first = next(c for b in rnd.explanation_data["brackets"] for c in b["choices"])
    player = t.players.get(pk=rnd.explanation_data["players"][str(first["tpn"])])
    text = text_of(page)
    score = sentences.format_points(rnd.explanation_data["scores"][str(first["tpn"])])
    assert f"{player.name} {player.tpn} · {score} pt" in text
    assert "Pairing-allocated bye:" in text
    assert "changed by hand" not in text


def test_the_draft_page_says_when_the_boards_were_changed_by_hand(client, arbiter):
    t = played(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    text = pairing_changes.pairing_text(rnd)
    (white1, _), (white2, _) = pairing_changes.parse_pairing(text)[0][:2]
    swapped = pairing_changes.swap_in_text(text, white1, white2)
    boards, bye = pairing_changes.parse_pairing(swapped)
    pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=bye, accept_warnings=True)
    client.force_login(arbiter)

    page = text_of(client.get(reverse("arbiter-round", args=[t.pk, rnd.number])))

    assert "The boards were changed by hand after the engine paired the round" in page


def test_the_card_says_why_once_the_round_is_published(client, arbiter):
    t = played(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    game = rnd.games.exclude(black=None).order_by("board").first()
    card = reverse("public-player", args=[t.pk, game.white_id])

    draft = text_of(client.get(card))
    assert "Why this pairing? Round 2 " in draft  # the published rounds only
    assert f"Round {rnd.number} " not in draft.split("Why this pairing?")[1]

    services.publish_round(rnd, arbiter)
    page = text_of(client.get(card))

    assert "Why this pairing?" in page
    section = page.split("Why this pairing?")[1]
    assert section.startswith(f" Round {rnd.number} ")
    assert game.black.name in section.split(f"Round {rnd.number - 1}")[0]
    sentences = explain.for_player(rnd, game.white)
    assert sentences and all(s in page for s in sentences)
    assert not any(f" {game.black.tpn} " in f" {s} " for s in sentences)  # names, not TPNs


def test_the_bye_is_explained_to_its_player(client, arbiter):
    t = played(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    bye = rnd.games.get(result="PAB").white

    page = text_of(client.get(reverse("public-player", args=[t.pk, bye.pk])))

    assert "You received the pairing-allocated bye: the lowest score" in page


def test_a_pairing_changed_by_hand_is_not_explained_by_the_engines_reasons(arbiter):
    t = played(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    text = pairing_changes.pairing_text(rnd)
    (first, _), (second, _) = pairing_changes.parse_pairing(text)[0][:2]
    first = [first]
    swapped = pairing_changes.swap_in_text(text, first[0], second)
    boards, bye = pairing_changes.parse_pairing(swapped)
    pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=bye, accept_warnings=True)
    services.publish_round(rnd, arbiter)
    moved = t.players.get(tpn=first[0])

    assert explain.for_player(rnd, moved) == [explain.BY_HAND]
    unmoved = t.players.get(tpn=bye) if bye else None
    if unmoved is not None:
        assert explain.for_player(rnd, unmoved) != [explain.BY_HAND]


def test_names_follow_the_players_when_tpns_are_reassigned(arbiter):
    t = played(arbiter, played_rounds=1)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    game = rnd.games.exclude(black=None).order_by("board").first()
    before = explain.for_player(rnd, game.white)
    # A late rating correction before round 4 renumbers the players (C.04.2 Art. 2.3).
    lowest = t.players.order_by("-tpn").first()
    services.update_player(lowest, arbiter, rating=2900)
    assert t.players.get(pk=lowest.pk).tpn == 1

    assert explain.for_player(rnd, game.white) == before
    assert any(game.black.name in s for s in before)


def test_the_api_serves_the_explanation_of_published_rounds_only(client, arbiter):
    t = played(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    url = reverse("api-round-explanation", args=[t.pk, rnd.number])

    draft = client.get(url, **JSON)
    assert draft.status_code == 404
    body = draft.content.decode()
    assert "bracket" not in body and "S1" not in body and "Player" not in body

    services.publish_round(rnd, arbiter)
    data = client.get(url, **JSON).json()

    assert data["round"] == rnd.number
    assert data["text"] == rnd.explanation.splitlines()
    players = {p["tpn"]: p for p in data["players"]}
    pairs = {
        frozenset((players[p["tpn"]]["id"], players[p["opponent"]]["id"]))
        for b in data["explanation"]["brackets"] for p in b["pairs"]
    }
    assert pairs == board_pairs(rnd)
    bye = rnd.games.get(result="PAB").white
    assert players[data["explanation"]["bye"]]["name"] == bye.name
    first = data["explanation"]["brackets"][0]
    assert first["score"] == rnd.explanation_data["brackets"][0]["score"] / 10  # points


def test_the_api_hides_drafts_even_after_earlier_rounds_were_published(client, arbiter):
    t = played(arbiter)
    services.pair_next_round(t, arbiter)  # round 3: a draft
    rounds = client.get(reverse("api-rounds", args=[t.pk]), **JSON).json()
    assert [r["number"] for r in rounds] == [1, 2]
    assert client.get(reverse("api-round-explanation", args=[t.pk, 2]), **JSON).status_code == 200
    assert client.get(reverse("api-round-explanation", args=[t.pk, 3]), **JSON).status_code == 404
    assert client.get(reverse("api-round-explanation", args=[t.pk, 9]), **JSON).status_code == 404


def test_the_card_costs_the_same_queries_however_many_rounds_it_explains(client, arbiter):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cost(played_rounds: int) -> int:
        t = played(arbiter, players=7, rounds=5, played_rounds=played_rounds)
        player = t.players.get(tpn=3)
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(reverse("public-player", args=[t.pk, player.pk]))
        assert text_of(page).count("Round ") >= played_rounds
        return len(ctx.captured_queries)

    assert cost(1) == cost(4)
