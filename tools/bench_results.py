"""Time results entry at the size of a big open (issue 26, item 1): a whole round saved in one
call of the service, the same round through the round page's own form posts (a page of boards
each, the last with "Save and finish round"), and quick entry board by board. Each round is
round 1 paired by the engine (``paired_round``), with its explanation stored, as arbiters have it.

    .venv/bin/python tools/bench_results.py --players 5000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/swiss_results .venv/bin/python \\
        tools/bench_results.py --players 5000

With a PostgreSQL DATABASE_URL the settings are production's (``tools.bench_event``: DEBUG off,
the deployment's timeouts and connection reuse, WhiteNoise's manifest); the database is used as
it is (a scratch database: the command adds a user and tournaments). Without it a temporary
SQLite file is created and migrated, with DEBUG on.

The posts are sent as the browser sends the form (``application/x-www-form-urlencoded``). CPU of
a request is the CPU of the thread that serves it (``time.thread_time``); the pages' computation
that a change sets off runs in a thread of its own (``pagecache.refresh_soon``, on as in
production), measured apart: the process's CPU while the posts and their computations run,
less the requests' own. The server CPU of a round's results is the posts' and that computation's.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def production_environment(database_url: str) -> None:
    """The settings a production deployment reads (DEBUG off, a random key, the database task
    queue), for the benchmarks' in-process server."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0", DATABASE_URL=database_url,
        SECRET_KEY=secrets.token_urlsafe(50), SECURE_COOKIES="0", ALLOWED_HOSTS="testserver",
        TASKS_BACKEND="database",
    )


def bench_django(username: str) -> tuple[tempfile.TemporaryDirectory | None, object]:
    """Set Django up for a benchmark in this process: production's settings on a PostgreSQL
    ``DATABASE_URL`` (used as it is), else a temporary SQLite file with DEBUG on; migrate,
    collect the static files WhiteNoise's manifest needs, and return the scratch directory to
    clean up (None on PostgreSQL) and the user ``username`` (created once)."""
    scratch = None
    production = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if production:
        production_environment(os.environ["DATABASE_URL"])
    else:
        scratch = tempfile.TemporaryDirectory()
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch.name}/bench.sqlite3"
        os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    if production:
        call_command("collectstatic", interactive=False, verbosity=0)  # WhiteNoise's manifest
    user, _ = get_user_model().objects.get_or_create(username=username)
    return scratch, user


class Timer:
    def __enter__(self) -> Timer:
        self.wall, self.cpu = time.perf_counter(), time.thread_time()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.thread_time() - self.cpu


def published_round(user, players: int):
    """A tournament of ``players`` and its first round published (top half against bottom
    half), built with a few inserts."""
    from django.utils import timezone

    from tournaments import services
    from tournaments.models import Game, Player, Round

    t = services.create_tournament(user, name=f"Results benchmark {players}", rounds=9)
    Player.objects.bulk_create(
        Player(tournament=t, name=f"Player{i:05d}, Given", tpn=i + 1, rating=2800 - i // 4)
        for i in range(players)
    )
    rnd = Round.objects.create(
        tournament=t, number=1, state=Round.State.PUBLISHED, published_at=timezone.now()
    )
    ps = list(t.players.order_by("tpn"))
    half = players // 2
    Game.objects.bulk_create(
        Game(round=rnd, board=i + 1, white=ps[i], black=ps[half + i]) for i in range(half)
    )
    return t, rnd


def paired_round(user, players: int):
    """A tournament of ``players`` and its first round paired by the engine and published: the
    round as the arbiters have it, with the engine's explanation stored (read with the round:
    300 KB of JSON at 5000 players in round 1, megabytes in later rounds)."""
    import random

    from tournaments import services
    from tournaments.models import Player

    t = services.create_tournament(user, name=f"Results benchmark {players}", rounds=9)
    Player.objects.bulk_create(
        Player(tournament=t, name=f"Player{i:05d}, Given", tpn=i + 1, rating=2800 - i // 4)
        for i in range(players)
    )
    services.draw_initial_color(t, user, random.Random(26))
    rnd = services.publish_round(services.pair_next_round(t, user), user)
    return t, rnd


def page_form(client, url: str, result_of) -> tuple[dict[str, str], bool]:
    """The form of the round page at ``url`` as the arbiter's browser sends it, each board's
    result ``result_of(game id)``, with "Save and show the next boards", or "Save and finish
    round" on the last page; and whether the page is the last."""
    return filled_form(client.get(url).content.decode(), result_of)


def filled_form(page: str, result_of) -> tuple[dict[str, str], bool]:
    """The form of a round page's HTML ``page`` filled as ``page_form`` says."""
    from tests.web.pages import form_data

    last = 'name="next_page"' not in page
    data = {}
    for name, value in form_data(page).items():
        board = re.fullmatch(r"g(\d+)", name)
        data[name] = result_of(int(board.group(1))) if board else value
    return {**data, "finish" if last else "next_page": "1"}, last


def post_page(client, url: str, data: dict[str, str]):
    """Post a page's form as the browser does (a form without ``enctype``: urlencoded)."""
    from urllib.parse import urlencode

    return client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")


def background_done() -> None:
    """Wait for the pages' computation set off by the last changes (``pagecache``)."""
    from tournaments import pagecache

    while pagecache.computing():
        time.sleep(0.02)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--quick", type=int, default=50, help="boards entered by quick entry")
    parser.add_argument(
        "--pace", type=float, default=0.0,
        help="seconds between two quick entries (the hall's typing; 0: one after the other)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    scratch, user = bench_django("bench-results")
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournaments import pagecache, services
    from tournaments.models import Result, Round

    database = os.environ["DATABASE_URL"].split(":")[0]
    boards = args.players // 2
    print(f"{args.players} players, {boards} boards, {database}")

    t, rnd = paired_round(user, args.players)
    results = {g.pk: (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)[g.board % 3]
               for g in rnd.games.all()}
    with Timer() as whole, CaptureQueriesContext(connection) as queries:
        saved = services.set_results(rnd, user, results, seen={})
    assert saved.saved == boards, saved
    print(f"  whole round, one call of set_results: {whole.wall:.2f} s wall, "
          f"{whole.cpu:.2f} s CPU, {len(queries)} queries")

    background_done()

    t, rnd = paired_round(user, args.players)
    client = Client()
    client.force_login(user)
    url = reverse("arbiter-round", args=[t.pk, 1])
    background_done()  # the new tournament's computation
    posts_cpu, posts_wall, queries_per_post, pages_cpu = [], 0.0, [], 0.0
    refreshes, process = pagecache.refreshes, time.process_time()
    while True:
        with Timer() as shown:
            data, last = page_form(client, url, lambda game: Result.WHITE_WINS)
        pages_cpu += shown.cpu
        with Timer() as posted, CaptureQueriesContext(connection) as queries:
            response = post_page(client, url, data)
        posts_cpu.append(posted.cpu)
        posts_wall += posted.wall
        queries_per_post.append(len(queries))
        assert response.status_code == 302, response.status_code
        if last:
            break
        url = response["Location"]
    background_done()
    computed = time.process_time() - process - pages_cpu - sum(posts_cpu)
    rnd.refresh_from_db()
    stored = rnd.games.filter(result=Result.WHITE_WINS).count()
    ok = rnd.state == Round.State.FINISHED and stored == boards
    print(f"  whole round through the form, {len(posts_cpu)} posts (the last: Save and finish "
          f"round): {sum(posts_cpu):.2f} s CPU ({statistics.mean(posts_cpu) * 1000:.0f} ms a post, "
          f"max {max(posts_cpu) * 1000:.0f}), {posts_wall:.2f} s wall; queries a post "
          f"{min(queries_per_post)}-{max(queries_per_post)}; pages computed after the changes: "
          f"{pagecache.refreshes - refreshes}, {computed:.2f} s CPU; server CPU of the posts and "
          f"their computations {sum(posts_cpu) + computed:.2f} s; the pages shown (GET) "
          f"{pages_cpu:.2f} s CPU (with reading their form); "
          f"{'all stored, round finished' if ok else f'FAILED: {stored} stored, {rnd.state}'}")

    t, rnd = paired_round(user, args.players)
    quick = reverse("arbiter-quick-entry", args=[t.pk, 1])
    client.get(reverse("arbiter-round", args=[t.pk, 1]))
    background_done()
    cpu, wall, counts = [], [], []
    refreshes, process = pagecache.refreshes, time.process_time()
    for board in range(1, args.quick + 1):
        time.sleep(args.pace)
        with Timer() as one, CaptureQueriesContext(connection) as queries:
            entry = f"{board * 37 % boards + 1} ="
            answer = client.post(quick, {"round": rnd.pk, "entry": entry},
                                 HTTP_ACCEPT="application/json")
        assert answer.json()["ok"], answer.json()
        cpu.append(one.cpu * 1000)
        wall.append(one.wall * 1000)
        counts.append(len(queries))
    background_done()
    computed = time.process_time() - process - sum(cpu) / 1000
    print(f"  quick entry, {args.quick} boards {args.pace:g} s apart: CPU median "
          f"{statistics.median(cpu):.1f} ms, max {max(cpu):.1f} ms; wall median "
          f"{statistics.median(wall):.1f} ms; queries {min(counts)}-{max(counts)}; pages computed "
          f"after them: {pagecache.refreshes - refreshes}, {computed:.2f} s CPU; with them "
          f"{(sum(cpu) / 1000 + computed) / args.quick * 1000:.1f} ms a board")
    if scratch is not None:
        scratch.cleanup()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
