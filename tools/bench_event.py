"""A big event through the web app as production runs it (issue 26): ``make bench-event
PLAYERS=N``. Each arbiter action is a request of the test client against the real views (a
browser's form posts: no service is called around them), with production settings (DEBUG off,
PostgreSQL with the deployment's timeouts and connection reuse, the database task queue, gzip,
the page cache, the background refresh of the standings). A row of the table is one arbiter's
or visitor's action, what they wait for: wall seconds, CPU seconds of the thread that serves it
(``time.thread_time``), peak memory (RSS) of the process. Round 2's results: 20 boards by quick
entry, then every board through the round page's form, a page of boards shown (GET) and saved
(POST) at a time, the last with "Save and finish round", and the dashboard it leads to; the rows
give the slowest quick entry, GET and POST, the notes their totals.

The pages' computation that a change sets off runs in a background thread of the process that
made it (``tournaments.pagecache``; the worker's for a pairing), spaced on purpose: no one waits
for it. It is listed apart (done how long after the last change, its CPU: the process's less the
main thread's) and waited for after the import, the pairing, publishing, the quick entries and
the results posts; between the posts, as in production, it may run while the next page is shown.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/swiss_bench .venv/bin/python \\
        -m tools.bench_event --players 1000

The database named by BENCH_DATABASE_URL (or --database) is dropped and made again: give a
scratch database.
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

from tools.bench_results import (
    background_done,
    filled_form,
    post_page,
    production_environment,
)
from tools.loadtest import ROOT, fresh_database

QUICK = 20
"""Boards entered by quick entry ("board result", Enter) before the form posts."""


def peak_reset() -> None:
    """Start a new peak of resident memory (Linux: clear_refs 5 resets VmHWM)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def peak_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024


class Measure:
    """One action: wall seconds, CPU seconds of this thread, peak RSS (MB) of the process."""

    def __enter__(self) -> Measure:
        peak_reset()
        self.wall, self.cpu = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.thread_time() - self.cpu
        self.peak = peak_mb()


Row = tuple[str, float, float, float, str]


class Mark:
    """The CPU of the process and of this thread, and the pages' computations so far."""

    def __init__(self) -> None:
        from tournaments import pagecache

        self.process, self.thread = time.process_time(), time.thread_time()
        self.computations = pagecache.refreshes


class Steps:
    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.background: list[Row] = []
        self.ended = 0.0
        """``time.perf_counter()`` at the end of the last action run."""

    def add(self, name: str, wall: float, cpu: float, peak: float, note: str = "") -> None:
        self.rows.append((name, wall, cpu, peak, note))
        print(f"  {name}: {wall:.2f} s wall, {cpu:.2f} s CPU {note}", file=sys.stderr, flush=True)

    def run(self, name: str, action, note=""):
        with Measure() as measured:
            value = action()
        self.ended = time.perf_counter()
        text = note(value) if callable(note) else note
        self.add(name, measured.wall, measured.cpu, measured.peak, text)
        return value

    def computed(self, after: str, mark: Mark, since: float) -> None:
        """Wait for the pages' computation set off by the changes ``after`` names, made since
        ``mark``, and list it: done how long after ``since`` (``time.perf_counter()`` at the last
        change), its CPU (the process's less this thread's since ``mark``)."""
        from tournaments import pagecache

        background_done()
        wall = time.perf_counter() - since
        cpu = time.process_time() - mark.process - (time.thread_time() - mark.thread)
        row = (f"pages computed after {after}", wall, cpu, peak_mb(),
               f"{pagecache.refreshes - mark.computations} computation(s)")
        self.background.append(row)
        print(f"  {row[0]}: done {wall:.2f} s after, {cpu:.2f} s CPU", file=sys.stderr, flush=True)

    def table(self, players: int) -> str:
        lines = [
            f"bench-event: {players} players, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
            f"{'what the arbiter or a visitor waits for':<56} {'wall s':>8} {'CPU s':>8} "
            f"{'peak MB':>8}  note",
        ]
        for name, wall, cpu, peak, note in self.rows:
            lines.append(f"{name:<56} {wall:>8.2f} {cpu:>8.2f} {peak:>8.0f}  {note}")
        lines.append(f"{'in the background (no one waits)':<56} {'done s':>8} {'CPU s':>8}")
        for name, wall, cpu, _peak, note in self.background:
            lines.append(f"{name:<56} {wall:>8.2f} {cpu:>8.2f} {'':>8}  {note}")
        lines.append("done s: seconds from the change to the end of its computation")
        return "\n".join(lines)


class Posted:
    """The round's results posts, one a page of boards: for each the GET of the page and the
    POST of its form (``Measure``), the POST's queries and status; the CPU the browser's side
    spends reading the forms is in none of them."""

    def __init__(self) -> None:
        self.gets: list[Measure] = []
        self.posts: list[Measure] = []
        self.queries: list[int] = []
        self.statuses: list[int] = []
        self.sizes: list[int] = []
        self.finished = ""
        self.last_post_at = 0.0


def post_results(client, t, number: int, results: dict[int, str]) -> Posted:
    """The round's results through the arbiter's round page as the browser posts it, a page of
    boards at a time, the last with "Save and finish round" (``tools.bench_results``'s
    ``filled_form``, ``post_page``)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    url = reverse("arbiter-round", args=[t.pk, number])
    posted = Posted()
    while True:
        with Measure() as shown:
            page = client.get(url)
        posted.gets.append(shown)
        posted.sizes.append(len(page.content))
        assert page.status_code == 200, page.status_code
        data, last = filled_form(page.content.decode(), results.__getitem__)
        with Measure() as saved, CaptureQueriesContext(connection) as queries:
            response = post_page(client, url, data)
        posted.last_post_at = time.perf_counter()
        posted.posts.append(saved)
        posted.queries.append(len(queries))
        posted.statuses.append(response.status_code)
        if last or response.status_code != 302:
            posted.finished = response["Location"]
            return posted
        url = response["Location"]


def slowest(steps: Steps, name: str, measures: list[Measure], note: str) -> None:
    """A row for the slowest of several requests of one kind, their totals in the note."""
    worst = max(measures, key=lambda m: m.wall)
    steps.add(
        f"{name} (slowest of {len(measures)})", worst.wall, worst.cpu,
        max(m.peak for m in measures),
        f"all {len(measures)}: {sum(m.wall for m in measures):.2f} s wall, "
        f"{sum(m.cpu for m in measures):.2f} s CPU; {note}",
    )


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
        return response["Location"]

    started = Mark()
    shown = steps.run("import TRF (1 round played), POST", import_trf, f"{len(trf) // 1024} KB")
    import_ended = steps.ended
    steps.run("the dashboard after the import, GET", lambda: arbiter.get(shown),
              lambda r: f"{len(r.content) // 1024} KB, status {r.status_code}")
    t = Tournament.objects.get()

    def click():
        response = arbiter.post(reverse("arbiter-pair", args=[t.pk]))
        assert response.status_code == 302, response.status_code
        return PairingJob.objects.get(tournament=t)

    steps.computed("the import", started, import_ended)
    job = steps.run("pair round 2: the click (job queued)", click)
    started = Mark()
    steps.run("pair round 2: the worker's job", lambda: pairing_jobs.run(job.pk))
    job.refresh_from_db()
    assert job.state == PairingJob.State.DONE, job.failure
    waited = (job.finished_at - job.requested_at).total_seconds()
    steps.rows[-1] = (*steps.rows[-1][:4], f"time to draft {waited:.2f} s")
    # In production the worker's process computes the pages after the job, not the web's.
    steps.computed("the pairing (in the worker)", started, steps.ended)
    page = steps.run(
        "arbiter round page (draft)",
        lambda: arbiter.get(reverse("arbiter-round", args=[t.pk, 2])),
        lambda r: f"{len(r.content) // 1024} KB",
    )
    assert page.status_code == 200
    started = Mark()
    steps.run(
        "publish round 2, POST",
        lambda: arbiter.post(
            reverse("arbiter-round-publish", args=[t.pk, 2]), {"round": job.round_id}
        ),
    )
    steps.computed("publishing", started, steps.ended)
    rng = random.Random(26)
    choices = [Result.WHITE_WINS.value, Result.DRAW.value, Result.BLACK_WINS.value]
    results = {
        g.pk: rng.choice(choices)
        for g in Game.objects.filter(round=job.round, black__isnull=False).order_by("board")
    }
    started = Mark()
    quick = reverse("arbiter-quick-entry", args=[t.pk, 2])
    entered = []
    for board in range(1, QUICK + 1):
        with Measure() as one:
            answer = arbiter.post(quick, {"round": job.round_id, "entry": f"{board * 37} ="},
                                  HTTP_ACCEPT="application/json")
        assert answer.json()["ok"], answer.json()
        entered.append(one)
    steps.ended = time.perf_counter()
    slowest(steps, "quick entry of a board, POST", entered, "one after the other (JSON)")
    steps.computed(f"the {QUICK} quick entries", started, steps.ended)
    started = Mark()
    posted = post_results(arbiter, t, 2, results)
    with Measure() as dashboard:  # where "Save and finish round" leads, followed at once
        shown = arbiter.get(posted.finished)
    slowest(steps, "results: a page of boards shown, GET", posted.gets,
            f"{len(results)} boards, {max(posted.sizes) // 1024} KB a page at most")
    slowest(steps, "results: a page of boards saved, POST", posted.posts,
            f"queries a post {min(posted.queries)}-{max(posted.queries)}, statuses "
            f"{sorted(set(posted.statuses))}; the last: Save and finish round")
    steps.add("the dashboard after finishing, GET", dashboard.wall, dashboard.cpu, dashboard.peak,
              f"{len(shown.content) // 1024} KB, status {shown.status_code}")
    steps.computed(f"the {len(posted.posts)} results posts", started, posted.last_post_at)
    t.refresh_from_db()
    stored = Game.objects.filter(round=job.round).exclude(result=Result.PENDING.value).count()
    print(f"  games with a result stored: {stored} of {len(results)}; quick entry per board: "
          f"tools/bench_results.py", file=sys.stderr)
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
