"""Issue 26: a round paired by a worker of the task queue, followed on its page; one at a time;
no half round when the worker dies or the tournament changes meanwhile."""

from __future__ import annotations

import datetime
import random
import signal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from tournaments import services
from tournaments.models import ByeRequest, PairingJob, Result, Round
from tournaments.services import pairing_jobs, rounds

from .conftest import make_tournament, run_db_worker

pytestmark = pytest.mark.django_db


@pytest.fixture
def ready(arbiter):
    t = make_tournament(arbiter, players=9)
    services.draw_initial_color(t, arbiter, rng=random.Random(2))
    return t


def test_the_pair_click_follows_the_job_to_the_draft(client, arbiter, ready):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter-pair", args=[ready.pk]))
    assert response.url == reverse("arbiter-pairing-job", args=[ready.pk])
    job = PairingJob.objects.get(tournament=ready)
    assert job.state == PairingJob.State.DONE and job.round.number == 1
    assert job.requested_by == arbiter and job.started_at and job.finished_at
    page = client.get(response.url)  # done: straight to the draft
    assert page.url == reverse("arbiter-round", args=[ready.pk, 1])
    kept = client.get(response.url + "?stay=1").content.decode()
    assert "Paired" in kept and "Round 1: the draft" in kept


def test_the_job_says_which_score_group_the_engine_pairs(arbiter, ready, monkeypatch):
    first = services.pair_next_round(ready, arbiter)
    services.publish_round(first, arbiter)
    services.set_results(first, arbiter, {
        g.pk: Result.WHITE_WINS for g in first.games.all() if not g.is_bye})
    services.finish_round(first, arbiter)
    said, say = [], pairing_jobs._say
    monkeypatch.setattr(pairing_jobs, "_say",
                        lambda job, stage: (said.append(str(stage)), say(job, stage)))
    job = pairing_jobs.request_pairing(ready, arbiter)
    pairing_jobs.run(job.pk)
    groups = [line for line in said if line.startswith("pairing score group")]
    assert said == ["the engine pairs round 2", *groups,
                    "checking the pairing against the rules", "saving the draft"]
    assert groups == ["pairing score group 1 of 2", "pairing score group 2 of 2"]  # 1 and 0


def test_a_second_click_is_told_a_pairing_is_running(arbiter, ready):
    job = pairing_jobs.request_pairing(ready, arbiter)  # waiting for a worker
    with pytest.raises(services.ServiceError, match="Round 1 is being paired"):
        pairing_jobs.request_pairing(ready, arbiter)
    pairing_jobs.run(job.pk)
    job.refresh_from_db()
    assert job.state == PairingJob.State.DONE
    pairing_jobs.run(job.pk)  # a second worker taking it finds it done: nothing happens
    assert Round.objects.filter(tournament=ready).count() == 1


def test_a_worker_killed_midway_leaves_no_half_round_and_the_round_is_paired_again(
    arbiter, ready
):
    job = pairing_jobs.request_pairing(ready, arbiter)
    assert pairing_jobs._claim(job.pk) is not None  # the worker took it... and died
    job.refresh_from_db()
    assert job.state == PairingJob.State.RUNNING and not Round.objects.exists()
    with pytest.raises(services.ServiceError, match="is being paired"):
        pairing_jobs.request_pairing(ready, arbiter)  # still beating: not given up yet
    silent = timezone.now() - pairing_jobs.STALE - datetime.timedelta(seconds=1)
    PairingJob.objects.filter(pk=job.pk).update(heartbeat_at=silent)
    again = pairing_jobs.request_pairing(ready, arbiter)
    job.refresh_from_db()
    assert job.state == PairingJob.State.FAILED and "worker stopped" in str(job.failure)
    pairing_jobs.run(again.pk)
    again.refresh_from_db()
    assert again.state == PairingJob.State.DONE and again.round.number == 1


def test_a_change_made_while_the_engine_works_is_not_overwritten(arbiter, ready, monkeypatch):
    pair = rounds.engine_pairing

    def pair_while_a_bye_is_requested(t, built, k, progress=None):
        result = pair(t, built, k, progress)
        late = t.players.get(tpn=9)  # asked while the engine was at work, not seen by it
        services.request_bye(late, arbiter, round_number=1, kind=ByeRequest.Kind.HALF)
        return result

    monkeypatch.setattr(pairing_jobs, "engine_pairing", pair_while_a_bye_is_requested)
    job = pairing_jobs.request_pairing(ready, arbiter)
    pairing_jobs.run(job.pk)
    job.refresh_from_db()
    assert job.state == PairingJob.State.FAILED and not Round.objects.exists()
    with translation.override("fr"):
        page_reason = pairing_jobs_failure(job)
    assert "Appariez-la à nouveau" in page_reason, page_reason


def pairing_jobs_failure(job: PairingJob) -> str:
    from tournaments import audit

    return audit.shown(job.failure)


def test_the_engines_refusal_is_said_on_the_jobs_page(client, arbiter):
    t = make_tournament(arbiter, players=2, rounds=3)
    services.draw_initial_color(t, arbiter, rng=random.Random(2))
    services.set_results(services.publish_round(services.pair_next_round(t, arbiter), arbiter),
                         arbiter, {g.pk: "1-0" for g in t.round_set.get().games.all()})
    services.finish_round(t.round_set.get(), arbiter)
    client.force_login(arbiter)
    client.post(reverse("arbiter-pair", args=[t.pk]))  # the two players have met: no pairing
    job = PairingJob.objects.get(tournament=t)
    assert job.state == PairingJob.State.FAILED and job.round is None
    page = client.get(reverse("arbiter-pairing-job", args=[t.pk])).content.decode()
    assert "The engine cannot pair round 2" in page and "Pair round 2 again" in page
    french = client.get(reverse("arbiter-pairing-job", args=[t.pk]),
                        HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le moteur ne peut pas apparier la ronde 2" in french


@pytest.mark.django_db(transaction=True)
def test_a_database_worker_pairs_the_round_the_page_asked_for(client, arbiter, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                  "QUEUES": ["default", "checks"]}}
    t = make_tournament(arbiter, players=7)
    services.draw_initial_color(t, arbiter, rng=random.Random(2))
    client.force_login(arbiter)
    client.post(reverse("arbiter-pair", args=[t.pk]))
    job = PairingJob.objects.get(tournament=t)
    assert job.state == PairingJob.State.WAITING  # in the queue: the click returned at once
    page = client.get(reverse("arbiter-pairing-job", args=[t.pk])).content.decode()
    assert "Waiting for a worker" in page and 'http-equiv="refresh"' in page
    before = signal.getsignal(signal.SIGTERM)
    run_db_worker()
    assert signal.getsignal(signal.SIGTERM) == before  # a pool forked later stops on SIGTERM
    job.refresh_from_db()
    assert job.state == PairingJob.State.DONE and job.round.number == 1


def _saving_queries(arbiter, requests: int, monkeypatch) -> tuple[int, Round]:
    """The queries of saving round 1 of 13 players of whom ``requests`` asked for a bye."""
    t = make_tournament(arbiter, players=13, allow_full_point_bye=True)
    services.draw_initial_color(t, arbiter, rng=random.Random(2))
    kinds = [ByeRequest.Kind.HALF, ByeRequest.Kind.ZERO, ByeRequest.Kind.FULL,
             ByeRequest.Kind.ABSENT]
    for tpn in range(1, requests + 1):
        services.request_bye(t.players.get(tpn=tpn * 3), arbiter, round_number=1,
                             kind=kinds[tpn % len(kinds)])
    counted, save = [], pairing_jobs.save_pairing

    def counting_save(*args):
        with CaptureQueriesContext(connection) as queries:
            rnd = save(*args)
        counted.append(len(queries))
        return rnd

    monkeypatch.setattr(pairing_jobs, "save_pairing", counting_save)
    job = pairing_jobs.request_pairing(t, arbiter)
    pairing_jobs.run(job.pk)
    job.refresh_from_db()
    assert job.state == PairingJob.State.DONE, job.failure
    return counted[0], job.round


def test_saving_a_round_costs_the_same_queries_however_many_byes_were_requested(
    arbiter, monkeypatch
):
    one, _ = _saving_queries(arbiter, 1, monkeypatch)
    four, rnd = _saving_queries(arbiter, 4, monkeypatch)
    assert one == four  # the requests' players read with them, the rows not read back
    assert rnd.games.filter(black__isnull=True).count() == 5  # four requests and the PAB


def test_the_audit_of_a_paired_round_lists_its_rows_as_the_round_reads_them(
    arbiter, monkeypatch
):
    from tournaments.models import AuditEntry
    from tournaments.services.write import _stored

    _, rnd = _saving_queries(arbiter, 4, monkeypatch)
    entry = AuditEntry.objects.get(tournament=rnd.tournament, action="pair round")
    rows = rounds.round_rows(rnd)  # the boards, then the byes by TPN, the PAB among them
    assert entry.after == _stored(rows) and len(rows) == 4 + 5


def test_pairing_a_round_leaves_the_earlier_rounds_explanations_unread(arbiter, ready):
    first = services.pair_next_round(ready, arbiter)
    assert first.explanation_data  # the engine's explanation, stored with the round
    services.publish_round(first, arbiter)
    services.set_results(first, arbiter, {
        g.pk: Result.DRAW for g in first.games.all() if not g.is_bye})
    services.finish_round(first, arbiter)
    with CaptureQueriesContext(connection) as queries:
        job = pairing_jobs.request_pairing(ready, arbiter)
        pairing_jobs.run(job.pk)
    job.refresh_from_db()
    assert job.state == PairingJob.State.DONE and job.round.number == 2
    read = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert any('"tournaments_round"' in sql for sql in read)
    assert not [sql for sql in read if "explanation" in sql]  # megabytes a round at 5000
