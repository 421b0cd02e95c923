"""The public checker's files are jobs of the task queue (issue 28, item 2): a page that waits
for the report, a rate limit per client address, a cap on each check's computing time."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.utils import timezone

from config.settings import client_address_settings
from tournaments import check_jobs, services
from tournaments.models import CheckJob

from .test_explain import played
from .test_public import text_of

pytestmark = pytest.mark.django_db

URL = "/check/"
# The queue without its workers: a job waits until the test runs it as a worker would.
NO_WORKER = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend",
                         "QUEUES": ["default", "checks"]}}
REFRESH = '<meta http-equiv="refresh"'


@pytest.fixture
def trf(arbiter) -> str:
    return services.export_trf(played(arbiter, players=8, rounds=4, played_rounds=3))


def upload(client, text: str, **extra):
    return client.post(URL, {"file": SimpleUploadedFile("event.trf", text.encode())}, **extra)


def test_a_check_is_a_job_and_its_page_shows_the_report(client, trf):
    response = upload(client, trf)

    job = CheckJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/check/{job.pk}/"
    assert job.state == CheckJob.State.DONE  # the immediate backend: checked in the request
    assert job.text == ""  # the file is not kept once checked
    page = client.get(response["Location"])
    assert "3 of 3 rounds as the rules pair them" in text_of(page)
    assert REFRESH not in page.content.decode()
    assert "no-cache" in page["Cache-Control"]


@override_settings(TASKS=NO_WORKER)
def test_the_page_waits_for_a_worker_then_shows_the_report(client, trf):
    first = upload(client, trf)["Location"]
    second = upload(client, trf)["Location"]

    for _ in range(2):  # a second load still waits: nothing checks the file but a worker
        page = client.get(second)
        assert page.status_code == 200 and REFRESH in page.content.decode()
        text = text_of(page)
        assert "Waiting for its turn" in text
        assert "1 file is checked before this one." in text
    assert "checked before" not in text_of(client.get(first))
    waiting = CheckJob.objects.get(pk=second.split("/")[2])
    assert waiting.state == CheckJob.State.WAITING and waiting.text == trf.replace("\r\n", "\n")

    check_jobs.run(str(waiting.pk))  # what a worker of the "checks" queue does

    page = client.get(second)
    assert REFRESH not in page.content.decode()
    assert "3 of 3 rounds as the rules pair them" in text_of(page)
    assert "checked before" not in text_of(client.get(first))  # ahead only of waiting jobs


def test_the_checks_have_their_own_queue_apart_from_the_rounds_to_pair():
    from tournaments.services.pairing_jobs import pair_round_job

    assert check_jobs.check_file_job.queue_name == "checks"
    assert pair_round_job.queue_name == "default"


@override_settings(TASKS=NO_WORKER, CHECKER_RATE_LIMIT=5, CHECKER_RATE_WINDOW_MINUTES=10)
def test_a_sixth_check_from_one_address_in_ten_minutes_is_refused(client, trf):
    for _ in range(5):
        assert upload(client, trf, REMOTE_ADDR="203.0.113.7").status_code == 302

    refused = upload(client, trf, REMOTE_ADDR="203.0.113.7")

    assert refused.status_code == 429
    assert ("The checker takes 5 files from one address in 10 minutes; try again in 10 minutes, "
            "or check the file on your machine with python -m pairing.") in text_of(refused)
    assert CheckJob.objects.count() == 5
    # With no proxy configured, a header the client writes changes nothing...
    spoofed = upload(client, trf, REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert spoofed.status_code == 429
    # ... and another address is not refused.
    assert upload(client, trf, REMOTE_ADDR="203.0.113.8").status_code == 302
    # Ten minutes later the address may check again.
    CheckJob.objects.update(requested_at=timezone.now() - datetime.timedelta(minutes=11))
    assert upload(client, trf, REMOTE_ADDR="203.0.113.7").status_code == 302


@override_settings(TASKS=NO_WORKER, CHECKER_RATE_LIMIT=1, **client_address_settings(1))
def test_behind_the_proxy_each_client_has_its_own_limit(client, trf):
    def through_proxy(client_ip: str, forged: str = ""):
        header = f"{forged}, {client_ip}" if forged else client_ip  # nginx appends the client
        return upload(client, trf, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=header)

    assert through_proxy("203.0.113.7").status_code == 302
    assert through_proxy("203.0.113.8").status_code == 302  # the proxy's address is shared
    assert through_proxy("203.0.113.7").status_code == 429
    assert through_proxy("203.0.113.7", forged="198.51.100.9").status_code == 429
    assert sorted(CheckJob.objects.values_list("address", flat=True)) == [
        "203.0.113.7", "203.0.113.8"]


@override_settings(TASKS=NO_WORKER, CHECKER_QUEUE_MAX=2)
def test_a_full_queue_refuses_more_files(client, trf):
    for i in range(2):
        assert upload(client, trf, REMOTE_ADDR=f"203.0.113.{i}").status_code == 302
    refused = upload(client, trf, REMOTE_ADDR="203.0.113.9")
    assert refused.status_code == 503
    assert "The checker has too many files waiting; try again in a few minutes" in text_of(refused)


def endless(monkeypatch):
    """Make every check compute for ever, whatever the machine's speed or its warm caches (an
    8-player file can take less than the tests' 0.01 s cap once the engine's code is warm)."""

    def compute_for_ever(text, rules):
        while True:
            pass

    monkeypatch.setattr(check_jobs, "report_html", compute_for_ever)


@override_settings(CHECKER_CPU_SECONDS=0.01)
def test_a_check_over_its_computing_time_is_stopped_with_a_clear_message(client, trf, monkeypatch):
    endless(monkeypatch)
    page = upload(client, trf, follow=True)

    job = CheckJob.objects.get()
    assert job.state == CheckJob.State.FAILED and job.report == ""
    assert ("This check needed more than 0.01 s of computing time; run it with python -m pairing "
            "on your machine (python -m pairing --dutch FILE -c).") in text_of(page)


def test_a_file_the_engine_cannot_read_is_refused_at_once_without_a_job(client):
    page = upload(client, "name,rating\nAnn,2000\n")
    assert page.status_code == 200
    assert "This is not a TRF file the engine reads" in text_of(page)
    assert not CheckJob.objects.exists()


@override_settings(TASKS=NO_WORKER)
def test_a_check_whose_worker_stopped_says_so_and_old_checks_are_deleted(client, trf):
    lost = CheckJob.objects.get(pk=upload(client, trf)["Location"].split("/")[2])
    long_ago = timezone.now() - datetime.timedelta(seconds=check_jobs.wall_seconds() + 61)
    CheckJob.objects.filter(pk=lost.pk).update(state=CheckJob.State.RUNNING, started_at=long_ago)

    page = client.get(f"/check/{lost.pk}/")

    assert REFRESH not in page.content.decode()
    assert "The worker checking this file stopped before it was done" in text_of(page)
    CheckJob.objects.filter(pk=lost.pk).update(
        requested_at=timezone.now() - datetime.timedelta(minutes=61)
    )
    upload(client, trf)  # the next request deletes what is older than an hour
    assert not CheckJob.objects.filter(pk=lost.pk).exists()
    assert client.get(f"/check/{lost.pk}/").status_code == 404


def test_the_report_is_in_the_language_of_the_page_that_asked(client, trf):
    asked = upload(client, trf, HTTP_ACCEPT_LANGUAGE="fr")["Location"]
    page = text_of(client.get(asked, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Rondes appariées selon les règles : 3 sur 3" in page  # the report, written in French
    assert "Check another file" in page  # the page around it, in the reader's language


@override_settings(TASKS=NO_WORKER, CHECKER_RATE_LIMIT=2, CHECKER_CPU_SECONDS=0.01)
def test_the_checkers_pages_and_refusals_in_french(client, trf, monkeypatch):
    fr = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    assert ("Jusqu’à 2 Mo, 400 joueurs, 15 rondes et 0,01 s de calcul. Le fichier est conservé "
            "jusqu’à sa vérification") in text_of(client.get(URL, **fr))
    upload(client, trf, **fr)
    waiting = upload(client, trf, **fr)["Location"]
    page = text_of(client.get(waiting, **fr))
    assert "En attente de son tour – 1 fichier est vérifié avant celui-ci." in page
    assert "Le fichier est vérifié de son côté" in page and "Vérifier un autre fichier" in page
    assert ("La vérification accepte 2 fichiers d’une même adresse en 10 minutes ; réessayez "
            "dans 10 minutes") in text_of(upload(client, trf, **fr))

    endless(monkeypatch)
    check_jobs.run(waiting.split("/")[2])  # over its cap

    assert ("Cette vérification demandait plus de 0,01 s de calcul ; lancez-la avec python -m "
            "pairing sur votre machine") in text_of(client.get(waiting, **fr))
