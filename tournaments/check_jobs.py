"""The public checker's files checked by workers of the task queue, so that checks never hold the
site's request threads (issue 28).

``request_check`` refuses a visitor who asked too often (``CHECKER_RATE_LIMIT`` checks per
``CHECKER_RATE_WINDOW_MINUTES`` from one address, the address django-axes reads: behind
``TRUSTED_PROXIES`` proxies, the one they saw) or a queue already full (``CHECKER_QUEUE_MAX``
checks waiting), else records a ``CheckJob`` with the file's text; ``start`` hands it to the
``checks`` queue. How many checks run at once is how many workers serve that queue (``manage.py
db_worker --queue-name checks``, one check each); the others wait their turn, and the rounds the
arbiters pair (queue ``default``) never wait behind them. With the immediate backend (``make
run``, the tests) a check runs inside the request that asks for it.

A worker checks the file in a child process of its own (``os.fork``: the worker, a single
thread, is already set up) whose computing time is capped (``CHECKER_CPU_SECONDS``, by the
kernel's profiling timer, and ``RLIMIT_CPU`` behind it): the engine of the 2017 rules can spend
minutes on a large file; the visitor is told to run it on their own machine. The child writes
the report, rendered in the visitor's language, to a pipe; the job keeps it, and drops the
file's text. Jobs are deleted ``CHECKER_KEEP_MINUTES`` after they were asked for.
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import os
import resource
import select
import signal
import time
from dataclasses import dataclass

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _, ngettext
from django_tasks import task

from pairing.model import RuleSet
from tournaments import checker
from tournaments.models import CheckJob
from tournaments.sentences import number

log = logging.getLogger(__name__)

QUEUE = "checks"
ACTIVE = (CheckJob.State.WAITING, CheckJob.State.RUNNING)
REPORT_TEMPLATE = "tournaments/_check_report.html"


class Refusal(Exception):
    """A check not accepted now; ``status`` is the HTTP status that says so."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def client_address(request: HttpRequest) -> str:
    """The client's address as the login lockouts read it (``config.settings``'
    ``client_address_settings``: never a header the client wrote)."""
    return get_client_ip_address(request) or ""


def cpu_seconds() -> float:
    return float(settings.CHECKER_CPU_SECONDS)


def seconds_said(seconds: float) -> str:
    """Seconds as the page's language writes them: ``0.5`` / ``0,5``, ``20``."""
    return number(f"{seconds:g}")


def wall_seconds() -> float:
    """How long a child may take on the clock, on a busy machine: then it is stopped."""
    return cpu_seconds() * 10 + 30


def request_check(text: str, rules: RuleSet | None, address: str) -> CheckJob:
    """Record a check of ``text`` asked from ``address``, in the active language, or raise
    ``Refusal``. The job is written first and counted after: two requests at once can both be
    refused, never both accepted past the limit."""
    now = timezone.now()
    CheckJob.objects.filter(requested_at__lt=now - _kept()).delete()
    if CheckJob.objects.filter(state=CheckJob.State.WAITING).count() >= settings.CHECKER_QUEUE_MAX:
        raise Refusal(
            _("The checker has too many files waiting; try again in a few minutes, or check "
              "the file on your machine with python -m pairing."),
            status=503,
        )
    job = CheckJob.objects.create(
        text=text, rules=rules.value if rules else "", address=address,
        language=translation.get_language() or settings.LANGUAGE_CODE,
    )
    window = datetime.timedelta(minutes=settings.CHECKER_RATE_WINDOW_MINUTES)
    recent = CheckJob.objects.filter(address=address, requested_at__gte=now - window)
    limit = settings.CHECKER_RATE_LIMIT
    if recent.count() > limit:
        job.delete()
        oldest = recent.exclude(pk=job.pk).order_by("requested_at").first()
        wait = (oldest.requested_at + window - now) if oldest else window
        minutes = max(1, math.ceil(wait.total_seconds() / 60))
        raise Refusal(
            ngettext(
                "The checker takes %(limit)s files from one address in %(window)s minutes; try "
                "again in %(minutes)s minute, or check the file on your machine with "
                "python -m pairing.",
                "The checker takes %(limit)s files from one address in %(window)s minutes; try "
                "again in %(minutes)s minutes, or check the file on your machine with "
                "python -m pairing.",
                minutes,
            ) % {"limit": limit, "window": settings.CHECKER_RATE_WINDOW_MINUTES,
                 "minutes": minutes},
            status=429,
        )
    return job


def _kept() -> datetime.timedelta:
    """How long a job is kept: at least the rate limit's window, which counts the jobs."""
    return datetime.timedelta(
        minutes=max(settings.CHECKER_KEEP_MINUTES, settings.CHECKER_RATE_WINDOW_MINUTES)
    )


def start(job: CheckJob) -> None:
    """Hand a job to the checks queue (with the immediate backend: check it now)."""
    check_file_job.enqueue(str(job.pk))


def ahead_of(job: CheckJob) -> int:
    """How many checks wait before this one."""
    return CheckJob.objects.filter(
        state=CheckJob.State.WAITING, requested_at__lt=job.requested_at
    ).count()


def is_lost(job: CheckJob) -> bool:
    """Whether a running check has lost its worker (stopped, restarted): it ran past the time its
    child is allowed, and nobody will end it."""
    return (
        job.state == CheckJob.State.RUNNING and job.started_at is not None
        and timezone.now() - job.started_at > datetime.timedelta(seconds=wall_seconds() + 60)
    )


@task(queue_name=QUEUE)
def check_file_job(job_id: str) -> None:
    """The task queue's entry: check the file of a job (``run``)."""
    run(job_id)


def run(job_id: str) -> None:
    """Check the file of a waiting job; the job keeps the report, or says why there is none."""
    now = timezone.now()
    taken = CheckJob.objects.filter(pk=job_id, state=CheckJob.State.WAITING).update(
        state=CheckJob.State.RUNNING, started_at=now
    )
    job = CheckJob.objects.filter(pk=job_id).first()
    if not taken or job is None:
        return  # taken by another worker, or deleted
    with translation.override(job.language):
        outcome = capped(job.text, job.rules)
    job.finished_at = timezone.now()
    job.text = ""
    if outcome.report is not None:
        job.state, job.report = CheckJob.State.DONE, outcome.report
    else:
        job.state, job.failure = CheckJob.State.FAILED, outcome.failure
    job.save(update_fields=["state", "finished_at", "text", "report", "failure"])


@dataclass(frozen=True)
class Outcome:
    report: str | None = None
    """The report as HTML; else ``failure`` says why there is none."""
    failure: str = ""


def report_html(text: str, rules: str) -> str:
    """The checker's report of a file, as HTML in the active language (``checker.Refused``
    for a file it cannot check)."""
    report = checker.check(text, rules=RuleSet(rules) if rules else None)
    return render_to_string(REPORT_TEMPLATE, {"report": report})


def capped(text: str, rules: str) -> Outcome:
    """``report_html`` in a child process capped at ``CHECKER_CPU_SECONDS`` of computing time
    and ``wall_seconds`` on the clock."""
    cap = cpu_seconds()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: nothing of the parent's (its database connection) is used
        os.close(read_end)
        _child(write_end, cap, text, rules)
    os.close(write_end)
    data, timed_out = _read_all(read_end, wall_seconds())
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGPROF, signal.SIGXCPU):
        return Outcome(failure=cpu_exceeded(cap))
    if timed_out:
        return Outcome(failure=_(
            "This check took more than %(seconds)s s on the clock (the server is busy); try "
            "again later, or run it with python -m pairing on your machine."
        ) % {"seconds": int(wall_seconds())})
    try:
        said = json.loads(data)
    except ValueError:
        log.error("checker: the child ended with status %s and no answer", status)
        said = {"failed": "no answer"}
    if "report" in said:
        return Outcome(report=said["report"])
    if "refused" in said:
        return Outcome(failure=said["refused"])
    return Outcome(failure=_(
        "The checker failed (%(error)s); please report the file."
    ) % {"error": said["failed"]})


def cpu_exceeded(cap: float) -> str:
    return _(
        "This check needed more than %(seconds)s s of computing time; run it with python -m "
        "pairing on your machine (python -m pairing --dutch FILE -c)."
    ) % {"seconds": seconds_said(cap)}


def _child(write_end: int, cap: float, text: str, rules: str) -> None:
    """Check the file under the cap, write the answer as JSON, and leave at once (no cleanup of
    the parent's state: its connections stay the parent's)."""
    code = 0
    try:
        # The kernel stops the process after ``cap`` seconds of CPU, user and system (SIGPROF's
        # default action), and RLIMIT_CPU one second later should the timer be changed.
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_PROF, cap)
        hard = math.ceil(cap) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard + 1))
        try:
            answer = {"report": report_html(text, rules)}
        except checker.Refused as refusal:
            answer = {"refused": str(refusal)}
        except Exception as error:  # a bug: said on the page, logged with its traceback
            log.exception("checker: the check failed")
            answer = {"failed": type(error).__name__}
        data = json.dumps(answer).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
    except BaseException:  # noqa: BLE001 - the child must never return into the parent's code
        code = 1
    finally:
        os._exit(code)


def _read_all(fd: int, seconds: float) -> tuple[bytes, bool]:
    """Everything written to ``fd`` until it is closed, or what came in ``seconds`` and True."""
    chunks = []
    deadline = time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return b"".join(chunks), True
            ready, _w, _x = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks), False
            chunks.append(chunk)
    finally:
        os.close(fd)
