"""`make loadtest`: spectators of a 1000-player event against the production servers (issue 16).

Builds a fresh PostgreSQL database, imports the corpus file with ``manage.py import_trf`` (9
rounds, all results public), starts the servers as the README's production commands do
(gunicorn for the pages, uvicorn for the live streams; DEBUG=0, Redis when it answers), and runs
``wrk`` (Debian's package) on loopback only against each public page and API body at
concurrency 10 and 50, then with ``If-None-Match`` at concurrency 50 (304s). Prints req/s, p50
and p99 per page; every run is bounded in time and the servers are stopped at the end.

    python -m tools.loadtest [--trf FILE] [--seconds 10] [--workers 2] [--port 8765]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"

GOAL_RPS = 500
GOAL_P99_MS = 100
GOAL_304_RPS = 1500


def run(args: list[str], env: dict, **kwargs) -> str:
    done = subprocess.run(args, env=env, cwd=ROOT, check=True, text=True, capture_output=True,
                          **kwargs)
    return done.stdout


def fresh_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def redis_url() -> str:
    url = os.environ.get("REDIS_URL", f"redis://{HOST}:6379/0")
    try:
        import redis

        redis.Redis.from_url(url, socket_timeout=1).ping()
    except Exception:  # no Redis: one process would be right, two still serve the pages
        return ""
    return url


def wait_until_up(base: str, server: subprocess.Popen, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.poll() is not None:
            raise SystemExit("the server stopped while starting")
        try:
            urllib.request.urlopen(_request(base + "/"), timeout=10).read()
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    raise SystemExit(f"the server did not answer within {seconds:g} s")


def stop(processes: list[subprocess.Popen], seconds: float = 15) -> None:
    """Stop servers started in sessions of their own, with their children: SIGTERM, then
    SIGKILL for those still there after ``seconds``."""
    running = [process for process in processes if process.poll() is None]
    for process in running:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:  # ended between the poll and the signal
            pass
    for process in running:
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


PROXY = "X-Forwarded-Proto: https"
"""What the README's reverse proxy sends: with DEBUG off the app answers HTTPS requests only."""


def _request(url: str, accept: str = "text/html") -> urllib.request.Request:
    name, value = PROXY.split(": ")
    return urllib.request.Request(url, headers={"Accept": accept, name: value})


def _fetch(url: str, accept: str) -> tuple[int, str, int]:
    with urllib.request.urlopen(_request(url, accept), timeout=60) as response:
        return response.status, response.headers.get("ETag", ""), len(response.read())


def _next_version(stream) -> int:
    """The version number of the stream's next ``event: change``."""
    while True:
        line = stream.readline()
        if not line:
            raise SystemExit("the live stream ended before it told of the change")
        if line.startswith(b"data:"):
            return json.loads(line[5:])["version"]


CORRECT = """
import threading, time
from django.contrib.auth.models import User
from tournaments.services import corrections
from tournaments.models import Game, Result
game = Game.objects.get(round__tournament_id={pk}, round__number=9, board=1)
result = Result.WHITE_WINS if game.result != Result.WHITE_WINS else Result.DRAW
started = time.time()
corrections.correct_result(game, User.objects.get(username="loadtest"), result=result,
                           reason="loadtest: a result written down wrongly")
print("STARTED", started)
# A server process lives on: its background thread computes the new standings meanwhile.
for thread in threading.enumerate():
    if thread is not threading.main_thread():
        thread.join(timeout=30)
"""


def measure_live(events_url: str, base: str, pk: int, pages: list, env: dict) -> list[str]:
    """A result corrected by the arbiter (C.04.2 Art. 4.3.1, in another process, as the
    dashboard would): how long until an open page's stream tells of it, and until each page
    answers with the new version (a new ETag)."""
    etags = {path: _fetch(base + path, accept)[1] for _, path, accept in pages}
    with urllib.request.urlopen(_request(events_url + "?v=0"), timeout=30) as stream:
        known = _next_version(stream)  # the page's version: v=0 is older, so it is told at once
    told: dict[str, float] = {}

    def page_shows_it(name: str, path: str, accept: str) -> None:
        status, etag, _ = _fetch(base + path, accept)
        assert status == 200 and etag != etags[path], (path, etag)
        told[name] = time.time()

    with urllib.request.urlopen(_request(f"{events_url}?v={known}"), timeout=30) as stream:
        stream.readline()  # "retry: ...", sent once the stream listens

        def listen() -> None:
            told["version"] = _next_version(stream)
            told["stream"] = time.time()
            # Each open page now asks for itself again, all at once.
            readers = [threading.Thread(target=page_shows_it, args=page) for page in pages]
            for reader in readers:
                reader.start()
            for reader in readers:
                reader.join()

        listener = threading.Thread(target=listen)
        listener.start()
        done = subprocess.run(
            [PYTHON, "manage.py", "shell", "-c", CORRECT.format(pk=pk)], env=env, cwd=ROOT,
            check=True, text=True, capture_output=True,
        )
        listener.join(timeout=30)
    started = float(re.search(r"^STARTED (\S+)$", done.stdout, re.M).group(1))
    lines = [f"live: a result corrected (version {known} -> {told['version']}); the open "
             f"page's stream told it {(told['stream'] - started) * 1000:.0f} ms after the "
             "correction started"]
    for name, _, _ in pages:
        if name not in told:
            raise SystemExit(f"live: {name} did not answer with the change")
        lines.append(f"live: {name} answered with the change "
                     f"{(told[name] - started) * 1000:.0f} ms after the correction started")
    return lines


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * _UNITS[unit]


def wrk(url: str, connections: int, seconds: int, headers: list[str]) -> dict:
    args = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    for header in headers:
        args += ["-H", header]
    out = subprocess.run([*args, url], check=True, text=True, capture_output=True).stdout
    found = {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1)),
        "p99": _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1)),
        "errors": 0,
    }
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket = re.search(r"Socket errors:.*", out)
    if bad:
        found["errors"] += int(bad.group(1))
    if socket:
        found["errors"] += sum(int(n) for n in re.findall(r"\d+", socket.group(0)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--trf", type=Path, default=ROOT.parent / "shared/corpus/dutch-2026/big_p1000_r09_s1001.trf"
    )
    parser.add_argument("--seconds", type=int, default=10, help="length of each wrk run")
    parser.add_argument("--workers", type=int, default=2, help="server processes")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--database", default="postgres://postgres@127.0.0.1:5432/swiss_loadtest",
        help="PostgreSQL database to create afresh",
    )
    options = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk; make loadtest does it)")
    if not options.trf.is_file():
        raise SystemExit(f"{options.trf}: no such file")

    redis_at = redis_url()
    env = {
        **os.environ,
        "DATABASE_URL": options.database,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": HOST,
        "REDIS_URL": redis_at,
        "CACHE_KEY_PREFIX": f"loadtest-{secrets.token_hex(4)}",
    }
    print(f"database {options.database} (new), Redis {redis_at or 'none'}", flush=True)
    fresh_database(options.database)
    manage = [PYTHON, "manage.py"]
    run([*manage, "migrate", "--noinput"], env)
    run([*manage, "collectstatic", "--noinput"], env)
    run(
        [*manage, "shell", "-c",
         "from django.contrib.auth.models import User; User.objects.create_user('loadtest')"],
        env,
    )
    started = time.monotonic()
    pk = int(run([*manage, "import_trf", str(options.trf), "--owner", "loadtest"], env).strip())
    print(f"import_trf {options.trf.name}: tournament {pk} in {time.monotonic() - started:.1f} s",
          flush=True)

    base = f"http://{HOST}:{options.port}"
    # The README's production commands: gunicorn for the pages, uvicorn (ASGI) for the live
    # streams only (/t/<id>/events/, which a proxy sends to it).
    servers = [
        subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "config.wsgi", "--bind", f"{HOST}:{options.port}",
             "--workers", str(options.workers), "--threads", "4", "--worker-class", "gthread",
             "--reuse-port"],
            env=env, cwd=ROOT, start_new_session=True,
        ),
        subprocess.Popen(
            [PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", HOST,
             "--port", str(options.port + 1), "--no-access-log", "--lifespan", "off",
             "--timeout-graceful-shutdown", "3"],
            env=env, cwd=ROOT, start_new_session=True,
        ),
    ]
    server = servers[0]
    try:
        wait_until_up(base, server)
        pages = [
            ("public pairings, round 9", f"/t/{pk}/rounds/9/", "text/html"),
            ("public standings", f"/t/{pk}/standings/", "text/html"),
            ("public crosstable", f"/t/{pk}/crosstable/", "text/html"),
            ("API pairings, round 9", f"/api/tournaments/{pk}/rounds/9/pairings/",
             "application/json"),
            ("API standings", f"/api/tournaments/{pk}/standings/", "application/json"),
        ]
        rows = []
        for name, path, accept in pages:
            started = time.monotonic()
            status, etag, size = _fetch(base + path, accept)
            first = time.monotonic() - started
            assert status == 200 and etag, (path, status)
            headers = [f"Accept: {accept}", PROXY]
            runs = {c: wrk(base + path, c, options.seconds, headers) for c in (10, 50)}
            runs[304] = wrk(
                base + path, 50, options.seconds, [*headers, f"If-None-Match: {etag}"]
            )
            rows.append((name, size, first, runs))
            print(f"  measured {name}", flush=True)
        live = measure_live(
            f"http://{HOST}:{options.port + 1}/t/{pk}/events/", base, pk, pages, env
        )
    finally:
        stop(servers)

    print()
    print(f"gunicorn {options.workers} workers x 4 threads (--reuse-port), DEBUG=0, PostgreSQL, "
          f"Redis {'on' if redis_at else 'off'}; "
          f"wrk -t2 for {options.seconds} s per cell; req/s, p50 / p99 in ms")
    print()
    print("| page | body | first (cold) | c=10 req/s | c=10 p50 / p99 | c=50 req/s "
          "| c=50 p50 / p99 | 304 c=50 req/s | 304 p99 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    met = True
    for name, size, first, runs in rows:
        c10, c50, n304 = runs[10], runs[50], runs[304]
        print(
            f"| {name} | {size / 1024:.0f} KB | {first * 1000:.0f} ms | {c10['rps']:.0f} "
            f"| {c10['p50']:.1f} / {c10['p99']:.1f} | {c50['rps']:.0f} "
            f"| {c50['p50']:.1f} / {c50['p99']:.1f} | {n304['rps']:.0f} | {n304['p99']:.1f} |"
        )
        errors = sum(r["errors"] for r in runs.values())
        if errors:
            print(f"  {name}: {errors} errors or unexpected statuses")
        met &= (
            not errors and c50["rps"] >= GOAL_RPS and c50["p99"] < GOAL_P99_MS
            and n304["rps"] >= GOAL_304_RPS
        )
    print()
    print("\n".join(live))
    print()
    print(f"goal (>= {GOAL_RPS} req/s with p99 < {GOAL_P99_MS} ms at c=50, 304s >= "
          f"{GOAL_304_RPS}/s): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
