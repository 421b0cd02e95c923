"""Time a players upload through the whole web path (issue 13): POST the CSV to
``players/upload/`` as an arbiter, and print the wall-clock seconds per list size.

    .venv/bin/python tools/bench_upload.py              # 1000 and 5000 players, a fresh SQLite file
    DATABASE_URL=postgres://... .venv/bin/python tools/bench_upload.py --players 1000

The database named by DATABASE_URL is used as it is (a scratch database: the command adds a
user and one tournament per size); without it a temporary SQLite file is created and migrated.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TITLES = ["", "", "", "", "FM", "IM", "GM", "CM", "WGM", "WIM"]
FEDERATIONS = ["SUI", "GER", "FRA", "ITA", "AUT", "NED", "ESP", "IND", "USA", "NOR"]


def players_csv(count: int, rng: random.Random) -> str:
    lines = ["name,rating,title,federation,fide_id,sex,birth_year"]
    for i in range(count):
        lines.append(
            f'"Player{i:05d}, Given",{rng.randint(1000, 2800)},{rng.choice(TITLES)},'
            f"{rng.choice(FEDERATIONS)},{1000000 + i},{rng.choice('mw')},{rng.randint(1940, 2015)}"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000, 5000])
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    scratch = None
    if not os.environ.get("DATABASE_URL"):
        scratch = tempfile.TemporaryDirectory()
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from tournaments import services

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench-upload")
    client = Client()
    client.force_login(user)
    rng = random.Random(13)
    for count in args.players:
        t = services.create_tournament(user, name=f"Upload benchmark {count}", rounds=9)
        data = players_csv(count, rng).encode()
        started = time.perf_counter()
        response = client.post(
            reverse("arbiter-players-upload", args=[t.pk]),
            {"file": SimpleUploadedFile("players.csv", data)},
        )
        seconds = time.perf_counter() - started
        stored = t.players.count()
        tpns = sorted(t.players.values_list("tpn", flat=True))
        ok = response.status_code == 302 and stored == count and tpns == list(range(1, count + 1))
        database = os.environ["DATABASE_URL"].split(":")[0]
        failed = "" if ok else f"  FAILED: HTTP {response.status_code}, {stored} stored"
        size = f"{len(data) / 1000:.0f} kB CSV"
        print(f"{count} players ({size}, {database}): {seconds:.2f} s{failed}")
        if not ok:
            return 1
    if scratch is not None:
        scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
