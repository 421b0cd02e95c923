"""A big event through the web app as production runs it (issue 26): ``make bench-event
PLAYERS=N``. Each arbiter action is a request of the test client against the real views (a
browser's form posts: no service is called around them), with production settings (DEBUG off,
PostgreSQL with the deployment's timeouts and connection reuse, the database task queue, gzip,
the page cache, the background refresh of the standings). For each step: wall seconds, CPU
seconds of the process (every thread: the background refresh counts), peak memory (RSS). The
results step ends when the pages' computation its changes set off is done, and its CPU is split
into the posts', the pages shown between them and that computation's.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/swiss_bench .venv/bin/python \\
        -m tools.bench_event --players 1000

The database named by DATABASE_URL is dropped and made again: give a scratch database.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import sys
import time
from pathlib import Path

from tools.bench_results import background_done, page_form, post_page, production_environment
from tools.loadtest import ROOT, fresh_database


def peak_reset() -> None:
    """Start a new peak of resident memory (Linux: clear_refs 5 resets VmHWM)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def peak_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024


class Steps:
    def __init__(self) -> None:
        self.rows: list[tuple[str, float, float, float, str]] = []

    def run(self, name: str, action, note=""):
        peak_reset()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        value = action()
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        text = note(value) if callable(note) else note
        self.rows.append((name, wall, cpu, peak_mb(), text))
        print(f"  {name}: {wall:.2f} s wall, {cpu:.2f} s CPU {text}", file=sys.stderr, flush=True)
        return value

    def table(self, players: int) -> str:
        lines = [
            f"bench-event: {players} players, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
            f"{'step':<44} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}  note",
        ]
        for name, wall, cpu, peak, note in self.rows:
            lines.append(f"{name:<44} {wall:>8.2f} {cpu:>8.2f} {peak:>8.0f}  {note}")
        return "\n".join(lines)


class Posted:
    """What the round's results posts cost: the statuses, the CPU of the posts' and of the pages'
    requests (the threads that served them), the pages' computations the changes set off."""

    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.posts_cpu = self.pages_cpu = 0.0
        self.queries: list[int] = []


def post_results(client, t, number: int, results: dict[int, str]) -> Posted:
    """The round's results through the arbiter's round page as the browser posts it, a page of
    boards at a time, the last with "Save and finish round" (``tools.bench_results.page_form``,
    ``post_page``); then the pages' computation the changes set off, waited for."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    url = reverse("arbiter-round", args=[t.pk, number])
    posted = Posted()
    while True:
        cpu = time.thread_time()
        data, last = page_form(client, url, results.__getitem__)
        posted.pages_cpu += time.thread_time() - cpu
        cpu = time.thread_time()
        with CaptureQueriesContext(connection) as queries:
            response = post_page(client, url, data)
        posted.posts_cpu += time.thread_time() - cpu
        posted.queries.append(len(queries))
        posted.statuses.append(response.status_code)
        if last or response.status_code != 302:
            background_done()
            return posted
        url = response["Location"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument(
        "--database", default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/swiss_bench"
        ),
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    fresh_database(args.database)
    production_environment(args.database)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from pairing.trf import write_trf
    from tools.synthetic import synthetic_tournament
    from tournaments import pagecache
    from tournaments.models import Game, PairingJob, Result, Tournament
    from tournaments.services import pairing_jobs

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # WhiteNoise's manifest
    steps = Steps()
    user = get_user_model().objects.create_user(
        "bench-event", password="bench-pass-123", is_staff=True
    )
    arbiter = Client()
    arbiter.force_login(user)
    trf = write_trf(synthetic_tournament(args.players, 1, seed=2026)).encode()

    def import_trf():
        upload = SimpleUploadedFile("big.trf", trf, content_type="text/plain")
        response = arbiter.post(reverse("arbiter-tournament-import"), {"file": upload})
        assert response.status_code == 302, response.status_code
        return Tournament.objects.get()

    t = steps.run("import TRF (1 round played), POST", import_trf, f"{len(trf) // 1024} KB")

    def click():
        response = arbiter.post(reverse("arbiter-pair", args=[t.pk]))
        assert response.status_code == 302, response.status_code
        return PairingJob.objects.get(tournament=t)

    job = steps.run("pair round 2: the click (job queued)", click)
    steps.run("pair round 2: the worker's job", lambda: pairing_jobs.run(job.pk))
    job.refresh_from_db()
    assert job.state == PairingJob.State.DONE, job.failure
    waited = (job.finished_at - job.requested_at).total_seconds()
    steps.rows[-1] = (*steps.rows[-1][:4], f"time to draft {waited:.2f} s")
    page = steps.run(
        "arbiter round page (draft)",
        lambda: arbiter.get(reverse("arbiter-round", args=[t.pk, 2])),
        lambda r: f"{len(r.content) // 1024} KB",
    )
    assert page.status_code == 200
    steps.run(
        "publish round 2, POST",
        lambda: arbiter.post(
            reverse("arbiter-round-publish", args=[t.pk, 2]), {"round": job.round_id}
        ),
    )
    rng = random.Random(26)
    choices = [Result.WHITE_WINS.value, Result.DRAW.value, Result.BLACK_WINS.value]
    results = {
        g.pk: rng.choice(choices)
        for g in Game.objects.filter(round=job.round, black__isnull=False).order_by("board")
    }
    background_done()  # the computation set off by publishing, not counted with the results
    refreshes = pagecache.refreshes
    posted = steps.run(
        f"results of {len(results)} boards + finish, form POST",
        lambda: post_results(arbiter, t, 2, results),
        lambda p: f"statuses {sorted(set(p.statuses))}",
    )
    computed = steps.rows[-1][2] - posted.posts_cpu - posted.pages_cpu
    print(f"  {len(posted.statuses)} posts: {posted.posts_cpu:.2f} s CPU, queries a post "
          f"{min(posted.queries)}-{max(posted.queries)}; pages computed after the changes: "
          f"{pagecache.refreshes - refreshes}, {computed:.2f} s CPU; the pages shown (GET, with "
          f"reading their form) {posted.pages_cpu:.2f} s CPU; quick entry per board: "
          f"tools/bench_results.py", file=sys.stderr)
    t.refresh_from_db()
    stored = Game.objects.filter(round=job.round).exclude(result=Result.PENDING.value).count()
    print(f"  games with a result stored: {stored} of {len(results)}", file=sys.stderr)
    visitor = Client(HTTP_ACCEPT_ENCODING="gzip")
    pagecache.clear_local()
    from django.core.cache import cache

    cache.clear()
    standings = reverse("public-standings", args=[t.pk])
    for label in ("cold", "warm"):
        steps.run(
            f"public standings, {label} (gzip)",
            lambda: visitor.get(standings),
            lambda r: f"{len(r.content) // 1024} KB gz, status {r.status_code}",
        )
    plain = Client().get(standings)
    print(f"  standings page 1 uncompressed: {len(plain.content) // 1024} KB", file=sys.stderr)
    steps.run(
        "public standings, ?player= (not cached)",
        lambda: visitor.get(standings, {"player": t.players.order_by("-tpn").first().pk}),
        lambda r: f"{len(r.content) // 1024} KB gz",
    )
    crosstable = reverse("public-crosstable", args=[t.pk])
    for label in ("cold", "warm"):
        steps.run(
            f"public crosstable, {label} (gzip)",
            lambda: visitor.get(crosstable),
            lambda r: f"{len(r.content) // 1024} KB gz",
        )
    steps.run(
        "export TRF",
        lambda: arbiter.get(reverse("arbiter-export-trf", args=[t.pk])),
        lambda r: f"{len(r.content) // 1024} KB",
    )
    print(steps.table(args.players))
    print(f"max RSS of the run: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
