"""A Clock-system tournament (``pairing.clock``) run through the services and the pages."""

from __future__ import annotations

import io
import random

import pytest
from django.urls import reverse

from pairing.cli import main as pairing_cli
from pairing.clock import is_clock_trf
from pairing.systems import CLOCK
from tournaments import services
from tournaments.models import ByeRequest, Result, Round, Tournament

pytestmark = pytest.mark.django_db

# The seed's example (Appendix A, 27 players, master colour black): round 1, White first, by rank.
SEED_FIRST_ROUND = {
    (14, 1), (8, 21), (4, 17), (24, 11), (3, 16), (23, 10), (19, 6), (13, 26), (2, 15), (22, 9),
    (18, 5), (12, 25), (20, 7),
}


def clock_event(arbiter, players: int = 27, rounds: int = 9) -> Tournament:
    t = services.create_tournament(
        arbiter, name="Clock Open", rounds=rounds, pairing_system=Tournament.PairingSystem.CLOCK
    )
    for i in range(players):
        services.add_player(t, arbiter, name=f"Player {i + 1:02d}", rating=2400 - 10 * i)
    return t


def play(rnd: Round, arbiter, rng: random.Random) -> None:
    services.publish_round(rnd, arbiter)
    results = {}
    for game in rnd.games.all():
        if game.is_bye:
            continue
        results[game.pk] = rng.choice(
            [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS] * 6 + [Result.WHITE_WINS_FORFEIT]
        )
    services.set_results(rnd, arbiter, results)
    services.finish_round(rnd, arbiter)


def test_a_27_player_clock_event_runs_nine_rounds(client, arbiter, tmp_path):
    t = clock_event(arbiter)
    assert services.draw_initial_color(t, arbiter, rng=random.Random(0)) == "b"
    client.force_login(arbiter)
    settings = client.get(reverse("arbiter-tournament-edit", args=[t.pk])).content.decode()
    assert '<option value="clock" selected>Clock (Italian-Swiss)</option>' in settings
    rng = random.Random(19)
    for k in range(1, 10):
        if k == 3:
            services.request_bye(t.players.get(tpn=5), arbiter, round_number=3,
                                 kind=ByeRequest.Kind.HALF)
        if k == 6:
            services.withdraw_player(t.players.get(tpn=12), arbiter, from_round=6)
        response = client.post(reverse("arbiter-pair", args=[t.pk]))
        assert response.status_code == 302, f"round {k}"
        rnd = t.round_set.get(number=k)
        assert rnd.state == Round.State.DRAFT
        page = client.get(reverse("arbiter-round", args=[t.pk, k])).content.decode()
        assert "How the engine paired this round" in page and "picker PN-" in page
        games = list(rnd.games.select_related("white", "black"))
        if k == 1:
            assert {(g.white.tpn, g.black.tpn) for g in games if not g.is_bye} == SEED_FIRST_ROUND
            assert [g.white.tpn for g in games if g.result == Result.PAIRING_BYE] == [27]
        play(rnd, arbiter, rng)
    assert t.round_set.filter(state=Round.State.FINISHED).count() == 9

    # What the web app paired is what the engine pairs from the exported file, round by round.
    text = services.export_trf(t)
    assert is_clock_trf(text) and "192 CUSTOM_SWISS" in text and "152 B" in text
    path = tmp_path / "clock.trf"
    path.write_text(text)
    out = io.StringIO()
    assert pairing_cli(["--clock", str(path), "-c"], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == "9 of 9 rounds identical\n"

    home = client.get(reverse("public-tournament", args=[t.pk])).content.decode()
    assert "Clock (Italian-Swiss)" in home and "Qualification Commission" in home


def test_the_public_home_page_names_the_dutch_system_without_the_note(client, arbiter):
    t = services.create_tournament(arbiter, name="Dutch Open", rounds=5)
    home = client.get(reverse("public-tournament", args=[t.pk])).content.decode()
    assert "FIDE Dutch (2026 rules)" in home and "Qualification Commission" not in home
    assert "Qualification Commission" in CLOCK.note


def test_the_clock_system_is_fixed_with_its_grid_once_round_1_is_paired(arbiter):
    t = clock_event(arbiter, players=6, rounds=5)
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    services.pair_next_round(t, arbiter)
    with pytest.raises(services.ServiceError, match="pairing system is fixed"):
        services.update_tournament(t, arbiter, pairing_system=Tournament.PairingSystem.DUTCH_2026)
    with pytest.raises(services.ServiceError, match="no late entries"):
        services.admit_late_entry(t, arbiter, arrival_round=3, name="Late, Comer", rating=2000)
    with pytest.raises(services.ServiceError, match="TPNs can no longer change"):
        services.renumber_players(t, arbiter)


def test_baku_acceleration_belongs_to_the_dutch_system(arbiter):
    t = clock_event(arbiter, players=2, rounds=3)
    with pytest.raises(services.ServiceError, match="Dutch system"):
        services.update_tournament(t, arbiter, baku_acceleration=True)


def test_a_clock_file_imports_as_a_clock_tournament(arbiter):
    t = clock_event(arbiter, players=8, rounds=5)
    services.draw_initial_color(t, arbiter, rng=random.Random(0))
    rng = random.Random(4)
    for _ in range(2):
        play(services.pair_next_round(t, arbiter), arbiter, rng)
    copy = services.import_trf(services.export_trf(t), arbiter)
    assert copy.pairing_system == Tournament.PairingSystem.CLOCK
    third = services.pair_next_round(copy, arbiter)
    original = services.pair_next_round(t, arbiter)
    pairs = [
        sorted((g.white.tpn, g.black.tpn if g.black else 0) for g in r.games.all())
        for r in (third, original)
    ]
    assert pairs[0] == pairs[1]
