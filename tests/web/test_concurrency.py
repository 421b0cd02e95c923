"""Two arbiters pressing "pair" at the same moment get one round, never two."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import IntegrityError, connection, connections, transaction

from tournaments import services
from tournaments.models import Round

from .conftest import make_tournament, needs_engine


@pytest.mark.django_db
def test_the_database_refuses_a_second_round_with_the_same_number(tournament):
    Round.objects.create(tournament=tournament, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=tournament, number=1)


@needs_engine
@pytest.mark.django_db(transaction=True)
def test_two_arbiters_pairing_at_once_get_one_round(django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("needs a server database for two connections (run with DATABASE_URL=postgres)")
    arbiter = django_user_model.objects.create_user("a1", password="pw-123456789")
    colleague = django_user_model.objects.create_user("a2", password="pw-123456789")
    t = make_tournament(arbiter, players=12)
    t.arbiters.add(colleague)
    services.draw_initial_color(t, arbiter, rng=random.Random(4))
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def press_pair(user):
        try:
            start.wait()
            services.pair_next_round(t, user)
            outcomes.append("paired")
        except services.ServiceError as error:
            outcomes.append(str(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press_pair, args=(u,)) for u in (arbiter, colleague)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["Round 1 is a draft: publish or unpair it first.", "paired"]
    assert Round.objects.filter(tournament=t).count() == 1
    assert Round.objects.get(tournament=t).games.count() == 6
