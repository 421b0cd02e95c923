"""A round paired by a worker of the task queue, so that pairing a large event holds neither a
request nor the tournament's row (issue 26).

``request_pairing`` checks that a round may be paired now and records a ``PairingJob``;
``start`` hands it to the task queue (``django_tasks``: the database backend and its
``db_worker`` in production, the immediate backend for ``make run`` and the tests, which runs
the job at once). The worker runs ``run``: it reads the tournament, pairs with the engine while
nothing is locked, saying what it does (``PairingJob.stage``) and that it is alive
(``heartbeat_at``), then saves the draft in one short transaction, and only if the tournament
did not change meanwhile (its version, ``tournaments.versioning``). A worker killed midway
leaves no half round: its job stops beating, and the next click pairs again.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop
from django_tasks import task

from pairing.text import Text
from tournaments.models import PairingJob, PublicVersion, Tournament
from tournaments.periodic import every
from tournaments.services.engine_state import build_engine_state
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import engine_pairing, round_to_pair, save_pairing
from tournaments.services.write import changed, long_work

log = logging.getLogger(__name__)

HEARTBEAT = 5.0
"""Seconds between two signs of life of a running job."""
STALE = datetime.timedelta(seconds=120)
"""A running job silent for this long has lost its worker; a waiting one is never stale (the
queue keeps it until a worker takes it)."""

ACTIVE = (PairingJob.State.WAITING, PairingJob.State.RUNNING)

READING = gettext_noop("reading the tournament")
PAIRING = gettext_noop("the engine pairs round %(number)s")
SAVING = gettext_noop("saving the draft")
CHANGED = gettext_noop(
    "the tournament changed while round %(number)s was being paired (a player, a bye or a "
    "result): nothing was saved. Pair it again."
)
ALREADY = gettext_noop("round %(number)s is no longer the round to pair: nothing was saved.")
WORKER_LOST = gettext_noop(
    "the worker stopped before the round was saved (a restart, or it ran out of memory): "
    "nothing was saved. Pair it again."
)
FAILED = gettext_noop("the pairing failed (%(error)s); nothing was saved. Please report it.")


def request_pairing(tournament: Tournament, actor) -> PairingJob:
    """Record that the next round is to be paired, or refuse: the round cannot be paired now
    (``rounds.round_to_pair``), or a pairing of the tournament is waiting or running."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        k = round_to_pair(t, actor)
        active = t.pairing_jobs.filter(state__in=ACTIVE).first()
        if active is not None and not is_stale(active):
            raise ServiceError(
                _(
                    "Round %(number)s is being paired (asked %(seconds)s seconds ago): the draft "
                    "appears when it is done."
                ) % {
                    "number": active.round_number,
                    "seconds": int((timezone.now() - active.requested_at).total_seconds()),
                }
            )
        if active is not None:
            _end(active, PairingJob.State.FAILED, failure=Text(WORKER_LOST))
        return PairingJob.objects.create(
            tournament=t, round_number=k,
            requested_by=actor if actor is not None and actor.is_authenticated else None,
        )


def start(job: PairingJob) -> None:
    """Hand a job to the task queue (after ``request_pairing``'s transaction)."""
    pair_round_job.enqueue(job.pk)


def is_stale(job: PairingJob) -> bool:
    """Whether a running job has lost its worker."""
    beat = job.heartbeat_at or job.started_at
    return (
        job.state == PairingJob.State.RUNNING and beat is not None
        and timezone.now() - beat > STALE
    )


def latest(tournament: Tournament) -> PairingJob | None:
    """The tournament's most recent pairing job."""
    return tournament.pairing_jobs.first()


@task()
def pair_round_job(job_id: int) -> None:
    """The task queue's entry: pair the round of a job (``run``)."""
    run(job_id)


def run(job_id: int) -> None:
    """Pair the round of a waiting job and save the draft; the job says how it ended."""
    job = _claim(job_id)
    if job is None:
        return  # taken by another worker, or replaced
    try:
        with _beating(job):
            _pair(job)
    except ServiceError as error:  # said in the reader's language where it is a Text
        _end(job, PairingJob.State.FAILED, failure=error.text or str(error))
    except Exception as error:  # a bug: said on the job's page, and logged
        log.exception("pairing job %s", job.pk)
        _end(job, PairingJob.State.FAILED, failure=Text(FAILED, error=type(error).__name__))


def _claim(job_id: int) -> PairingJob | None:
    with transaction.atomic():
        job = PairingJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.state != PairingJob.State.WAITING:
            return None
        now = timezone.now()
        job.state, job.started_at, job.heartbeat_at = PairingJob.State.RUNNING, now, now
        job.stage = Text(READING).as_data()
        job.save(update_fields=["state", "started_at", "heartbeat_at", "stage"])
    return job


def _pair(job: PairingJob) -> None:
    t = job.tournament
    k = job.round_number
    with long_work():  # one consistent read, however long its queries take
        read_version = _version(t)
        built = build_engine_state(t, pairing_round=k)
    _say(job, Text(PAIRING, number=k))
    pairing, data = engine_pairing(t, built, k, progress=lambda text: _say(job, text))
    _say(job, Text(SAVING))
    with long_work():
        t = Tournament.objects.select_for_update().get(pk=t.pk)
        if _version(t) != read_version:
            raise ServiceError(Text(CHANGED, number=k), text=Text(CHANGED, number=k))
        if round_to_pair(t, job.requested_by) != k:
            raise ServiceError(Text(ALREADY, number=k), text=Text(ALREADY, number=k))
        changed(t.pk)
        rnd = save_pairing(t, job.requested_by, k, built, pairing, data)
        _end(job, PairingJob.State.DONE, round=rnd)


def _version(t: Tournament) -> int | None:
    return PublicVersion.objects.filter(pk=t.pk).values_list("number", flat=True).first()


def _say(job: PairingJob, stage: Text) -> None:
    """Tell the arbiter's page what the worker does now (and that it is alive)."""
    job.stage = stage.as_data()
    job.heartbeat_at = timezone.now()
    PairingJob.objects.filter(pk=job.pk).update(stage=job.stage, heartbeat_at=job.heartbeat_at)


def _end(job: PairingJob, state: str, *, failure=None, round=None) -> None:
    job.state, job.finished_at, job.round = state, timezone.now(), round
    job.failure = failure.as_data() if isinstance(failure, Text) else failure
    job.save(update_fields=["state", "finished_at", "round", "failure"])


@contextmanager
def _beating(job: PairingJob) -> Iterator[None]:
    """A thread that says the job is alive every ``HEARTBEAT`` seconds while the engine works
    (``PAIRING_JOB_HEARTBEAT``; off where the job runs inside the request, as with the
    immediate backend)."""
    if not getattr(settings, "PAIRING_JOB_HEARTBEAT", True):
        yield
        return

    def beat() -> None:
        PairingJob.objects.filter(pk=job.pk, state=PairingJob.State.RUNNING).update(
            heartbeat_at=timezone.now()
        )
        close_old_connections()

    # ``connection`` is per thread: read it in the beating thread, not here (``connection.close``
    # taken here is the worker's own connection, which the beating thread may not close).
    with every(HEARTBEAT, beat, name=f"pairing-job-{job.pk}", finally_=lambda: connection.close()):
        yield
