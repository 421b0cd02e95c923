"""Issue 26, Done when: in a real headless Chromium, the arbiter's Pair click hands the round to
a worker of the task queue (the database backend, as deployed), the page waits for it, shows
each stage the worker reports while it pairs, and the draft appears on its own.

The worker is ``manage.py db_worker --batch``, run by the test itself; each time the job says
what it does, the test reloads the arbiter's page and keeps what it shows.
"""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User

from tournaments import services
from tournaments.models import PairingJob, Round
from tournaments.services import pairing_jobs

from .conftest import make_tournament, run_db_worker
from .test_e2e_browser import browser, log_in, page  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_arbiter_follows_the_pairing_job_to_the_draft(
    page, live_server, settings, monkeypatch  # noqa: F811
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                  "QUEUES": ["default", "checks"]}}
    settings.PAIRING_JOB_HEARTBEAT = False  # the worker runs in this thread: no second one
    arbiter = User.objects.create_user("chief", password="chief-pass-123")
    t = make_tournament(arbiter, players=9, rounds=5)
    services.draw_initial_color(t, arbiter, rng=random.Random(2))

    log_in(page, live_server.url, "chief", "chief-pass-123", f"/arbiter/t/{t.pk}/")

    # The click returns at once: the round waits in the queue, the page says so and reloads.
    page.get_by_role("button", name="Pair round 1").click()
    page.wait_for_url(f"**/arbiter/t/{t.pk}/pairing/")
    assert "Waiting for a worker" in page.locator("#pairing-job").inner_text()
    assert page.locator('meta[http-equiv="refresh"]').count() == 1
    assert not Round.objects.filter(tournament=t).exists()

    # A worker takes the job; at each stage it reports, the arbiter's page is read again.
    seen = []
    said = pairing_jobs._say

    def say_and_look(job, stage):
        said(job, stage)
        page.goto(f"{live_server.url}/arbiter/t/{t.pk}/pairing/")
        seen.append(" ".join(page.locator("#pairing-job p").first.inner_text().split()))

    monkeypatch.setattr(pairing_jobs, "_say", say_and_look)
    run_db_worker()

    assert seen == [
        "Pairing – the engine pairs round 1",
        "Pairing – checking the pairing against the rules",
        "Pairing – saving the draft",
    ]
    job = PairingJob.objects.get(tournament=t)
    assert job.state == PairingJob.State.DONE and job.round.number == 1

    # Done: the job's page, reloading itself, leads to the draft.
    page.goto(f"{live_server.url}/arbiter/t/{t.pk}/pairing/")
    page.wait_for_url(f"**/arbiter/t/{t.pk}/rounds/1/")
    assert "Draft" in page.locator("h1").inner_text()
    rnd = Round.objects.get(tournament=t, number=1)
    shown = page.locator("table.boards").first.locator("tbody tr").all_inner_texts()
    assert len(shown) == rnd.games.filter(board__isnull=False).count() == 4  # 9 players
    for game, row in zip(rnd.games.filter(board__isnull=False).order_by("board"), shown):
        assert game.white.name in row and game.black.name in row
    assert rnd.state == Round.State.DRAFT
