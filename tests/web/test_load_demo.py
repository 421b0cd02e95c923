import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from tournaments.models import Game, Result, Round, Tournament

pytestmark = pytest.mark.django_db


def test_load_demo_builds_a_real_tournament_once(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "username 'arbiter', password 'swiss-demo-2026'" in out
    login = RequestFactory().post("/accounts/login/")  # django-axes needs the request
    assert authenticate(login, username="arbiter", password="swiss-demo-2026") is not None
    t = Tournament.objects.get()
    assert t.players.count() == 40
    assert list(t.round_set.values_list("number", "state")) == [
        (n, Round.State.FINISHED) for n in range(1, 6)
    ]
    games = Game.objects.filter(round__tournament=t)
    assert games.filter(result=Result.HALF_BYE).count() == 1
    assert games.filter(result=Result.WHITE_WINS_FORFEIT).count() == 1
    assert games.filter(result=Result.PAIRING_BYE).exists()
    assert t.players.filter(arrival_round=3).count() == 1
    assert t.players.filter(withdrawn_from_round=4).count() == 1
    assert not games.filter(result="").exists()

    call_command("load_demo")
    assert "already there" in capsys.readouterr().out
    assert Tournament.objects.count() == 1
    assert Round.objects.count() == 5
