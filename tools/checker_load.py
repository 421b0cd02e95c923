"""The public pairings page while the public checker works (issue 28, item 2).

Builds a fresh PostgreSQL database, imports a corpus event, starts gunicorn as the README
deploys it (DEBUG=0, Redis, ``TASKS_BACKEND=database``) with ``db_worker`` processes: one for the
default queue, ``--check-workers`` for the ``checks`` queue (at ``nice --nice``). It samples the
public pairings page idle, then uploads ``--checks`` heavy files to ``/check/`` at once (400
players, 15 rounds, checked under the 2017 rules: each runs until its CPU cap) and samples the
page again while they run. Prints p50, p99 and the largest latency of both, and the ratio of
the p99s (the issue's goal: at most 2); the checks' workers are then stopped and the idle page
sampled again, since other work on the machine moves the figures.

    python -m tools.checker_load [--checks 12] [--seconds 30] [--check-workers 2] [--nice 10]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from tools.loadtest import HOST, PYTHON, ROOT, fresh_database, run, stop, wait_until_up

EVENT = ROOT.parent / "shared/corpus/dutch-2026/big_p0500_r09_s501.trf"
CHECK_FILE = Path("/tmp/checker_load_p400_r15.trf")


def heavy_file() -> str:
    """A legal 400-player, 15-round file (the checker's largest), made once."""
    if not CHECK_FILE.exists():
        from pairing.trf import write_trf
        from tools.synthetic import synthetic_tournament

        CHECK_FILE.write_text(write_trf(synthetic_tournament(400, 15, seed=28, total_rounds=15)))
    return CHECK_FILE.read_text()


def get(port: int, path: str, headers: dict | None = None) -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        conn.close()


def form_csrf(port: int, path: str, headers: dict | None = None) -> tuple[str, str]:
    """The CSRF cookie (as a ``Cookie`` header value) and token of the form at ``path``, as a
    browser has them before it posts the form."""
    _, answer, page = get(port, path, headers)
    cookie = answer["Set-Cookie"].split(";", 1)[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return cookie, token


def submit(port: int, text: str, rules: str) -> tuple[int, str, float]:
    """Upload a file as a browser does (the CSRF cookie and token of the form): the status, the
    job's address and the seconds the request took."""
    cookie, token = form_csrf(port, "/check/")
    boundary = secrets.token_hex(12)
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
        f"{token}\r\n",
        f'--{boundary}\r\nContent-Disposition: form-data; name="rules"\r\n\r\n{rules}\r\n',
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.trf"\r\n'
        f"Content-Type: text/plain\r\n\r\n{text}\r\n",
        f"--{boundary}--\r\n",
    ]
    body = "".join(parts).encode()
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    started = time.monotonic()
    try:
        conn.request("POST", "/check/", body=body, headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie,
        })
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("Location") or "", time.monotonic() - started
    finally:
        conn.close()


def sample(port: int, path: str, seconds: float, clients: int = 4, pause: float = 0.05) -> list:
    """Latencies (s) of ``clients`` visitors each loading ``path`` every ``pause`` s, each time
    on a new connection (as a browser's first visit; gunicorn drops idle keep-alive ones)."""
    latencies: list[float] = []
    errors: list[str] = []
    end = time.monotonic() + seconds

    def visitor() -> None:
        while time.monotonic() < end:
            started = time.monotonic()
            try:
                status = get(port, path)[0]
            except OSError as error:
                errors.append(type(error).__name__)
                continue
            latencies.append(time.monotonic() - started)
            if status != 200:
                errors.append(str(status))
            time.sleep(pause)

    threads = [threading.Thread(target=visitor) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(f"{len(errors)} requests failed: {sorted(set(errors))}")
    return latencies


def figures(latencies: list[float]) -> dict:
    ordered = sorted(latencies)
    return {
        "n": len(ordered), "load": os.getloadavg()[0],
        "p50": statistics.median(ordered) * 1000,
        "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        "max": ordered[-1] * 1000,
    }


def states(port: int, jobs: list[str]) -> dict[str, int]:
    seen: dict[str, int] = {}
    for job in jobs:
        page = get(port, job)[2]
        state = ("waiting" if "Waiting for its turn" in page else "running"
                 if "Being checked" in page else "capped" if "computing time" in page
                 else "done" if "check-report" in page else "other")
        seen[state] = seen.get(state, 0) + 1
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=30, help="length of each sample")
    parser.add_argument("--check-workers", type=int, default=2)
    parser.add_argument("--nice", type=int, default=10, help="niceness of the checks' workers")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn processes (4 threads)")
    parser.add_argument("--rules", default="2017", help="the Dutch rules the checks ask for")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/swiss_checkjobs")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5")
    options = parser.parse_args()

    env = {
        **os.environ, "DATABASE_URL": options.database, "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": HOST, "SECURE_COOKIES": "0",
        "REDIS_URL": options.redis, "CACHE_KEY_PREFIX": f"checkjobs-{secrets.token_hex(4)}",
        "TASKS_BACKEND": "database", "CHECKER_RATE_LIMIT": str(options.checks + 10),
    }
    text = heavy_file()
    fresh_database(options.database)
    manage = [PYTHON, "manage.py"]
    run([*manage, "migrate", "--noinput"], env)
    run([*manage, "collectstatic", "--noinput"], env)
    run([*manage, "shell", "-c",
         "from django.contrib.auth.models import User; User.objects.create_user('loadtest')"], env)
    pk = int(run([*manage, "import_trf", str(EVENT), "--owner", "loadtest"], env).strip())
    page = f"/t/{pk}/rounds/9/"

    def start(args: list[str], niceness: int = 0) -> subprocess.Popen:
        prefix = ["nice", "-n", str(niceness)] if niceness else []
        return subprocess.Popen([*prefix, *args], env=env, cwd=ROOT, start_new_session=True)

    worker = [*manage, "db_worker", "--no-reload", "--interval", "0.5"]
    processes = [
        start([PYTHON, "-m", "gunicorn", "config.wsgi", "--bind", f"{HOST}:{options.port}",
               "--workers", str(options.workers), "--threads", "4", "--worker-class", "gthread"]),
        start(worker),
        *(start([*worker, "--queue-name", "checks"], options.nice)
          for _ in range(options.check_workers)),
    ]
    try:
        wait_until_up(f"http://{HOST}:{options.port}", processes[0], seconds=180)
        for _ in range(20):
            assert get(options.port, page)[0] == 200
        idle = figures(sample(options.port, page, options.seconds))
        answers: list[tuple[int, str, float]] = []
        uploads = [
            threading.Thread(target=lambda: answers.append(submit(options.port, text,
                                                                  options.rules)))
            for _ in range(options.checks)
        ]
        for thread in uploads:
            thread.start()
        for thread in uploads:
            thread.join()
        if any(status != 302 for status, _, _ in answers):
            raise SystemExit(f"uploads refused: {[a[0] for a in answers]}")
        jobs = [urllib.parse.urlsplit(location).path for _, location, _ in answers]
        time.sleep(2)  # the workers take their first jobs
        before = states(options.port, jobs)
        loaded = figures(sample(options.port, page, options.seconds))
        after = states(options.port, jobs)
        stop(processes[2:], seconds=10)  # the checks end: the page idle again, to compare
        idle_after = figures(sample(options.port, page, options.seconds))
    finally:
        stop(processes, seconds=10)

    print(f"gunicorn {options.workers}x4 threads, DEBUG=0, PostgreSQL, Redis; "
          f"{options.check_workers} checks worker(s) at nice {options.nice}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"{options.checks} uploads of a 400-player, 15-round file ({options.rules} rules): "
          f"the request took {max(a[2] for a in answers) * 1000:.0f} ms at most; jobs "
          f"{before} when sampling began, {after} when it ended")
    print(f"public pairings page {page} (4 visitors, {options.seconds:g} s each):")
    for name, f in (("idle", idle), ("checks running", loaded), ("idle again", idle_after)):
        print(f"  {name:15} n={f['n']:5}  p50 {f['p50']:7.1f} ms  p99 {f['p99']:7.1f} ms  "
              f"max {f['max']:7.1f} ms  (machine's load average {f['load']:.1f})")
    before_ratio, after_ratio = loaded["p99"] / idle["p99"], loaded["p99"] / idle_after["p99"]
    print(f"p99 with checks / idle p99: {before_ratio:.2f} (idle before), {after_ratio:.2f} "
          f"(idle after); goal <= 2: {'met' if max(before_ratio, after_ratio) <= 2 else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
