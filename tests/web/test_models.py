import pytest

from pairing.model import ResultCode
from tournaments import services
from tournaments.models import Game, Player, Result, Round

pytestmark = pytest.mark.django_db


def test_it_orders_tpns_by_rating_then_title_then_name(arbiter):
    t = services.create_tournament(arbiter, name="Order", rounds=3)
    services.add_player(t, arbiter, name="Zeta", rating=2000)
    services.add_player(t, arbiter, name="Alpha", rating=2000)
    services.add_player(t, arbiter, name="Beta", rating=2000, title="fm")
    services.add_player(t, arbiter, name="Gamma", rating=2000, title="GM")
    services.add_player(t, arbiter, name="Top", rating=2500)
    services.add_player(t, arbiter, name="Unrated")
    order = list(t.players.order_by("tpn").values_list("name", "tpn"))
    assert order == [
        ("Top", 1), ("Gamma", 2), ("Beta", 3), ("Alpha", 4), ("Zeta", 5), ("Unrated", 6)
    ]
    assert Player.objects.get(name="Beta").title == "FM"


def test_it_converts_the_point_system_in_tenths(arbiter):
    t = services.create_tournament(arbiter, name="Pts", rounds=3, points_win=30, points_draw=10)
    ps = t.point_system
    assert (ps.win, ps.draw, ps.loss) == (30, 10, 0)


def test_game_results_map_to_trf_codes(tournament):
    a, b = tournament.players.order_by("tpn")[:2]
    rnd = Round.objects.create(tournament=tournament, number=1)
    game = Game(round=rnd, board=1, white=a, black=b, result=Result.BLACK_WINS_FORFEIT)
    assert game.result_codes() == (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN)
    game.result = Result.PENDING
    assert game.result_codes() is None
    bye = Game(round=rnd, white=a, result=Result.HALF_BYE)
    assert bye.result_codes() == (ResultCode.HALF_POINT_BYE, None)


def test_plays_in_respects_arrival_and_withdrawal(tournament):
    p = tournament.players.first()
    p.arrival_round, p.withdrawn_from_round = 2, 4
    assert [p.plays_in(r) for r in range(1, 6)] == [False, True, True, False, False]


def test_renumbering_is_refused_after_round_four(tournament, arbiter):
    for n in range(1, 5):
        Round.objects.create(tournament=tournament, number=n, state=Round.State.FINISHED)
    with pytest.raises(services.ServiceError, match="Art. 2.3"):
        services.renumber_players(tournament, arbiter)
