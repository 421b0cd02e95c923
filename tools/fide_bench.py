"""FIDE rating list: write files in FIDE's formats, and time loading and searching a big one.

    DATABASE_URL=postgres://... .venv/bin/python -m tools.fide_bench --players 1200000

generates a combined list (``players_list_foa.txt`` in ``players_list.zip``, the layout FIDE
publishes) of that many players, migrates the database, runs ``manage.py import_fide_list`` on it
and prints the time, then times searches by FIDE ID, by a name typed from its start and by words
of a name (``tournaments.fide_list.search``), and prints their latencies. The writers are also
used by the tests to make small files.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit "
    "OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
"""Header line of FIDE's combined list (players_list_foa.txt); every line is 162 characters."""

SINGLE_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit "
    "OTit           FOA {month} Gms K  B-day Flag"
)
"""Header line of a single-kind list (standard_rating_list.txt...): the rating column is named by
the month of the list, e.g. OCT26."""


def txt_line(p: dict) -> str:
    """One player of the combined list, in its columns (numbers left-aligned, as FIDE writes)."""
    return (
        f"{p['fide_id']:<15}{p['name']:<61}{p.get('fed', ''):<4}{p.get('sex', ''):<4}"
        f"{p.get('title', ''):<5}{p.get('w_title', ''):<5}{p.get('o_title', ''):<15}"
        f"{p.get('foa', ''):<4}"
        f"{p.get('std', 0):<6}{p.get('std_games', 0):<4}{p.get('std_k', 0):<3}"
        f"{p.get('rapid', 0):<6}{p.get('rapid_games', 0):<4}{p.get('rapid_k', 0):<3}"
        f"{p.get('blitz', 0):<6}{p.get('blitz_games', 0):<4}{p.get('blitz_k', 0):<3}"
        f"{p.get('born', 0):<6}{p.get('flag', ''):<4}"
    )


def single_line(p: dict, rating: int) -> str:
    """One player of a single-kind list (136 characters)."""
    return (
        f"{p['fide_id']:<15}{p['name']:<61}{p.get('fed', ''):<4}{p.get('sex', ''):<4}"
        f"{p.get('title', ''):<5}{p.get('w_title', ''):<5}{p.get('o_title', ''):<15}"
        f"{p.get('foa', ''):<4}{rating:<6}{0:<4}{20:<3}{p.get('born', 0):<6}"
        f"{p.get('flag', ''):<4}"
    )


def txt_text(players) -> str:
    """A combined list with CR LF line ends, as FIDE publishes it."""
    return "".join(f"{line}\r\n" for line in [HEADER, *(txt_line(p) for p in players)])


def xml_text(players) -> str:
    """An XML list: ``<playerslist>`` without a declaration, one ``<player>`` each."""
    fields = [
        ("fideid", "fide_id"), ("name", "name"), ("country", "fed"), ("sex", "sex"),
        ("title", "title"), ("w_title", "w_title"), ("o_title", "o_title"),
        ("foa_title", "foa"), ("rating", "std"), ("games", "std_games"), ("k", "std_k"),
        ("rapid_rating", "rapid"), ("rapid_games", "rapid_games"), ("rapid_k", "rapid_k"),
        ("blitz_rating", "blitz"), ("blitz_games", "blitz_games"), ("blitz_k", "blitz_k"),
        ("birthday", "born"), ("flag", "flag"),
    ]
    out = ["<playerslist>\n"]
    for p in players:
        out.append("<player>\n")
        for tag, key in fields:
            default = 0 if key.startswith(("std", "rapid", "blitz", "born")) else ""
            out.append(f"  <{tag}>{escape(str(p.get(key, default)))}</{tag}>\n")
        out.append("</player>\n")
    out.append("</playerslist>\n")
    return "".join(out)


SURNAMES = [
    "Smith", "Muller", "Ivanov", "Kowalski", "Garcia", "Nguyen", "Kumar", "Silva", "Rossi",
    "Novak", "Horvath", "Jensen", "Popescu", "Yilmaz", "Papadopoulos", "Petrov", "Fischer",
    "Larsen", "Dubois", "Kim", "Wang", "Sato", "Cohen", "Andersson", "Santos", "Sharma", "Ali",
    "Hansen", "Weber", "Kovacs", "Martin", "Bernard", "Moreau", "Costa", "Ferrari", "Bauer",
]
GIVEN = [
    "Anna", "Peter", "Maria", "Ivan", "Li", "Sofia", "Luca", "Ahmed", "Elena", "Jan", "Olga",
    "David", "Sara", "Mikhail", "Eva", "Tomas", "Nina", "Arjun", "Chen", "Fatima", "Lars",
]
FEDS = ["GER", "FRA", "IND", "RUS", "USA", "ESP", "ITA", "POL", "NED", "SUI", "CZE", "HUN"]


def random_players(count: int, seed: int = 2026):
    """``count`` made-up players with realistic spread: most unrated, some titled."""
    rng = random.Random(seed)
    for i in range(count):
        # Surnames with a unique suffix so that prefixes narrow down like real names do.
        surname = rng.choice(SURNAMES)
        surname += "" if i % 3 else rng.choice(["son", "ova", "er", "ski"])
        name = f"{surname}{chr(97 + i % 26)}{chr(97 + (i // 26) % 26)}, {rng.choice(GIVEN)}"
        rated = rng.random() < 0.4
        yield {
            "fide_id": 100_000_000 + i, "name": name[:60], "fed": rng.choice(FEDS),
            "sex": rng.choice("MMMF"), "title": rng.choice(["GM", "IM", "FM", "CM"])
            if rated and rng.random() < 0.03 else "",
            "std": rng.randint(1400, 2700) if rated else 0, "std_games": rng.randint(0, 9),
            "std_k": 20 if rated else 0,
            "rapid": rng.randint(1400, 2700) if rated and rng.random() < 0.6 else 0,
            "blitz": rng.randint(1400, 2700) if rated and rng.random() < 0.5 else 0,
            "born": rng.randint(1940, 2018), "flag": rng.choice(["", "", "", "i", "w", "wi"]),
        }


def write_zip(path: Path, count: int) -> None:
    """players_list.zip holding players_list_foa.txt, written in chunks (never whole)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open("players_list_foa.txt", "w", force_zip64=True) as out:
            out.write(f"{HEADER}\r\n".encode())
            chunk = []
            for p in random_players(count):
                chunk.append(txt_line(p))
                if len(chunk) == 10_000:
                    out.write(("\r\n".join(chunk) + "\r\n").encode())
                    chunk = []
            out.write(("\r\n".join(chunk) + "\r\n").encode() if chunk else b"")


def _searches(count: int, rounds: int) -> None:
    import django

    django.setup()
    from django.db import connection

    from tournaments import fide_list

    rng = random.Random(7)
    sample = list(random_players(min(count, 200_000)))
    queries = {"FIDE ID": [], "name from its start": [], "words of a name": []}
    for _ in range(rounds):
        p = rng.choice(sample)
        surname, given = p["name"].split(", ")
        queries["FIDE ID"].append(str(p["fide_id"]))
        queries["name from its start"].append(f"{surname[: rng.randint(3, len(surname))]}")
        queries["words of a name"].append(f"{given.lower()} {surname[1:6].lower()}")
    fide_list.search("warm up")
    for what, items in queries.items():
        times, found = [], 0
        for q in items:
            started = time.perf_counter()
            result = fide_list.search(q)
            times.append((time.perf_counter() - started) * 1000)
            found += bool(result)
        times.sort()
        print(
            f"search by {what}: median {statistics.median(times):.1f} ms, "
            f"p95 {times[int(len(times) * 0.95) - 1]:.1f} ms, max {times[-1]:.1f} ms "
            f"({len(items)} queries, {found} with results)"
        )
    if connection.vendor == "postgresql":
        plans = {
            "start": fide_list.start_query(queries["name from its start"][0])[:20],
            "words": fide_list.words_query(queries["words of a name"][0].split())[:20],
        }
        for label, qs in plans.items():
            lines = [line.strip() for line in qs.explain().splitlines()]
            print(f"plan ({label}): " + " / ".join(lines[:3]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1_200_000)
    parser.add_argument("--searches", type=int, default=200)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    print(f"database: {os.environ.get('DATABASE_URL', 'SQLite (DATABASE_URL not set)')}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "players_list.zip"
        started = time.perf_counter()
        write_zip(path, args.players)
        print(f"wrote {args.players} players to {path.name} ({path.stat().st_size / 1e6:.0f} MB "
              f"zipped) in {time.perf_counter() - started:.1f} s")
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], check=True)
        started = time.perf_counter()
        subprocess.run([*manage, "import_fide_list", str(path)], check=True)
        print(f"import_fide_list: {time.perf_counter() - started:.1f} s wall clock "
              "(the process, reading the zip, COPY and the indexes)")
    _searches(args.players, args.searches)
    return 0


if __name__ == "__main__":
    sys.exit(main())
