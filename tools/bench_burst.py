"""A burst of results with spectators following the event (issue 26, item 3): how many times
the standings and the pages are computed.

Round 1 of ``--players`` is paired by the engine, its results saved and the round finished; round
2 is paired and published. Then ``--spectators`` anonymous visitors open the round 2 pairings or
the standings (one in two each) and their live stream, and follow it as ``static/js/live.js``
does: told of a version newer than their page's, they fetch the page again, a random 0-300 ms
later. Meanwhile the arbiter enters ``--results`` boards of round 2 by quick entry, evenly over
``--seconds`` (the round stays incomplete: the standings after round 1 cannot change). Then,
once the last computation's spacing has passed (``pagecache.SHARE``, ``QUIET``), one result
more, alone: how soon the spectators show it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/swiss_burst .venv/bin/python \\
        tools/bench_burst.py --players 1000

With a PostgreSQL DATABASE_URL the settings are production's (``tools.bench_results``: DEBUG
off, the database task queue, WhiteNoise's manifest, the pages' background computation on);
the database is used as it is (a scratch database). Without it a temporary SQLite file is
created, with DEBUG on. With REDIS_URL set the cache and the live events go through Redis.

Counted, from the first result to the moment every spectator shows the last version: the
computations of each cached object (``pagecache.computed``: the standings, the rounds'
history) and the renders of each cached page (``pagecache.body``), whoever asked for them (the
background computation after a change, or a spectator's fetch); the versions the live streams
were told of; the spectators' fetches. CPU is the process's (``time.process_time``: the
server's work and the in-process spectators' own, their streams and parsing) and the computing
threads' own (``time.thread_time`` around each computation and render; a render includes the
computations it asks for).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.bench_results import (  # noqa: E402
    background_done,
    bench_django,
    paired_round,
)

VERSION = re.compile(rb'data-live-version="(\d+)"')


class Counts:
    """What was computed and rendered, and its CPU, by kind (``standings``, ``history``,
    ``page:<path>``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.made: Counter[str] = Counter()
        self.cpu: Counter[str] = Counter()
        self.told: set[int] = set()

    def counted(self, kind: str, produce):
        def run():
            cpu = time.thread_time()
            try:
                return produce()
            finally:
                with self.lock:
                    self.made[kind] += 1
                    self.cpu[kind] += time.thread_time() - cpu

        return run


def instrument(counts: Counts, tournament_id: int, pages: dict[str, str]) -> None:
    """Count every computation and render (wrappers around ``pagecache.computed`` and
    ``pagecache.body``, whose callers read them from the module) and every version told."""
    from tournaments import live, pagecache

    computed, body, fan_out = pagecache.computed, pagecache.body, live.fan_out

    def counted_computed(key, compute, **options):
        return computed(key, counts.counted(key.split(":")[0], compute), **options)

    def counted_body(key, render):
        return body(key, counts.counted("page", render))

    def counted_fan_out(tid, number):
        if tid == tournament_id:
            with counts.lock:
                counts.told.add(number)
        return fan_out(tid, number)

    pagecache.computed = counted_computed
    pagecache.body = counted_body
    live.fan_out = counted_fan_out


class Spectator(threading.Thread):
    """One visitor's page and its live stream, followed as ``static/js/live.js`` does."""

    def __init__(self, path: str, events: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        from django.test import Client

        self.client = Client()
        self.path, self.events, self.stop = path, events, stop
        self.version = 0
        self.fetches = 0
        self.errors = 0
        self.updated_at = 0.0
        self.ready = threading.Event()

    def fetch(self, told: int | None = None) -> None:
        headers = {} if told is None else {"HTTP_X_LIVE_VERSION": str(told)}
        response = self.client.get(self.path, **headers)
        if response.status_code != 200:
            self.errors += 1
            return
        self.version = int(VERSION.search(response.content)[1])
        self.updated_at = time.monotonic()

    def run(self) -> None:
        from django.db import connection

        try:
            self.fetch()
            response = self.client.get(self.events, {"v": self.version})
            chunks = iter(response.streaming_content)
            next(chunks)  # the opening: the stream listens
            self.ready.set()
            for chunk in chunks:
                if self.stop.is_set():
                    break
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                found = re.search(r'"version": (\d+)', text)
                if found is None or int(found[1]) <= self.version:
                    continue  # a keep-alive, or told late of a version the page shows
                time.sleep(random.random() * 0.3)  # live.js spreads the visitors' fetches
                self.fetches += 1
                self.fetch(int(found[1]))
            response.close()
        finally:
            self.ready.set()
            connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--results", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="the burst's length")
    parser.add_argument("--spectators", type=int, default=20)
    args = parser.parse_args()
    scratch, user = bench_django("bench-burst")
    from django.conf import settings
    from django.test import Client
    from django.urls import reverse

    from tournaments import live, pagecache, services, versioning
    from tournaments.models import Result

    settings.LIVE_WARM = True
    live.KEEPALIVE = 1.0  # the spectators' threads look at the stop signal every second
    database = os.environ["DATABASE_URL"].split(":")[0]
    redis = " and Redis" if getattr(settings, "REDIS_URL", "") else ""

    setup = time.perf_counter()
    t, r1 = paired_round(user, args.players)
    services.set_results(r1, user, {g.pk: (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)[
        g.board % 3] for g in r1.games.filter(black__isnull=False)})
    services.finish_round(r1, user)
    r2 = services.publish_round(services.pair_next_round(t, user), user)
    boards = r2.games.filter(black__isnull=False).count()
    background_done()
    print(f"{args.players} players, round 2 of {boards} boards, {database}{redis}; "
          f"{args.results} results over {args.seconds:g} s, {args.spectators} spectators "
          f"(set up in {time.perf_counter() - setup:.0f} s)")

    pages = {
        "round": reverse("public-round", args=[t.pk, 2]),
        "standings": reverse("public-standings", args=[t.pk]),
    }
    events = reverse("public-events", args=[t.pk])
    counts = Counts()
    stop = threading.Event()
    watched = list(pages.values())
    spectators = [Spectator(watched[i % len(watched)], events, stop)
                  for i in range(args.spectators)]
    for spectator in spectators:
        spectator.start()
    for spectator in spectators:
        spectator.ready.wait(60)
    background_done()
    instrument(counts, t.pk, pages)

    arbiter = Client()
    arbiter.force_login(user)
    quick = reverse("arbiter-quick-entry", args=[t.pk, 2])
    step = args.seconds / args.results
    refreshes, process = pagecache.refreshes, time.process_time()
    start = time.monotonic()
    posts = []
    entered = [i * 7 % boards + 1 for i in range(args.results)]
    for i, board in enumerate(entered):
        pause = start + i * step - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        cpu = time.thread_time()
        answer = arbiter.post(quick, {"round": r2.pk, "entry": f"{board} ="},
                              HTTP_ACCEPT="application/json")
        posts.append(time.thread_time() - cpu)
        assert answer.json()["ok"], answer.json()
    last_result = time.monotonic()
    background_done()
    final = versioning.current(t.pk).number
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and any(s.version < final for s in spectators):
        time.sleep(0.05)
    reached = [s for s in spectators if s.version >= final]
    lag = max((s.updated_at for s in reached), default=last_result) - last_result
    cpu = time.process_time() - process
    with counts.lock:
        made, spent, told = Counter(counts.made), Counter(counts.cpu), len(counts.told)
    computations = pagecache.refreshes - refreshes

    # A lone change (a correction minutes later): how soon do the spectators show it?
    time.sleep(max(0.0, pagecache.next_at(t.pk) - time.monotonic()) + pagecache.QUIET)
    lone = time.monotonic()
    # A board the burst left pending: the same result again would change nothing.
    lone_board = max(set(range(1, boards + 1)) - set(entered))
    answer = arbiter.post(quick, {"round": r2.pk, "entry": f"{lone_board} ="},
                          HTTP_ACCEPT="application/json")
    assert answer.json()["ok"], answer.json()
    alone = versioning.current(t.pk).number
    assert alone > final, "the lone result did not change the tournament"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and any(s.version < alone for s in spectators):
        time.sleep(0.02)
    shown_after = sorted(s.updated_at - lone for s in spectators if s.version >= alone)
    stop.set()
    for spectator in spectators:
        spectator.join(5)

    fetches = sum(s.fetches for s in spectators)
    errors = sum(s.errors for s in spectators)
    print(f"  burst: {args.results} results in {last_result - start:.1f} s (quick entry "
          f"{statistics.median(posts) * 1000:.0f} ms CPU a post, median); the version rose by "
          f"{args.results}; live streams told of {told} versions; spectators "
          f"fetched {fetches} pages ({errors} errors)")
    print(f"  computed: background computations {computations}; standings "
          f"{made['standings']} ({spent['standings']:.2f} s CPU); rounds' history "
          f"{made['history']} ({spent['history']:.2f} s CPU); pages rendered "
          f"{made['page']} ({spent['page']:.2f} s CPU, with what they computed)")
    print(f"  every spectator shows the last version: "
          f"{'yes' if len(reached) == len(spectators) else f'NO, {len(reached)} of them'}, "
          f"{lag:.1f} s after the last result; process CPU from the first result to then "
          f"{cpu:.1f} s (load average {os.getloadavg()[0]:.1f})")
    print(f"  a lone result later: {len(shown_after)} of {len(spectators)} spectators show it, "
          f"{statistics.median(shown_after):.2f} s after it was sent (median), "
          f"{shown_after[-1]:.2f} s (the last)" if shown_after else
          "  a lone result later: NO spectator shows it")
    if scratch is not None:
        scratch.cleanup()
    ok = len(reached) == len(shown_after) == len(spectators) and not errors
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
