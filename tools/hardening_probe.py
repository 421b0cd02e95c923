"""Issue 28's probes, in production mode: the login lockout behind a proxy, the FIDE list
import on hostile inputs, an event's archive round trip.

Builds a fresh PostgreSQL database and runs everything as the README deploys it (DEBUG=0, a
random key, ``TRUSTED_PROXIES=1``; gunicorn for the lockout):

- lockout: five wrong passwords for the arbiter's user name from one address behind the proxy,
  then the arbiter's right password from another address (must be let in), then the right
  password from the address that failed (must be refused);
- FIDE list: a 2000-player list loaded, then each hostile file given to ``manage.py
  import_fide_list``: its exit code, the first line it wrote on stderr, the peak memory (RSS)
  and seconds of the process, and how many players the list still holds afterwards;
- archive: ``import_trf`` of a corpus event, ``export_event``, ``import_event`` of that file,
  ``export_event`` of the copy; the two archives compared with their ids left out.

    python -m tools.hardening_probe [--database URL] [--port 8795] [--big]

``--big`` adds the large inputs (a 512 MB line in a zip, a 1 GB XML text node, a zip of 2 GB of
lines): about a minute each, written to /tmp and removed after.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zipfile
from pathlib import Path

from tools.checker_load import form_csrf
from tools.fide_bench import HEADER, random_players, txt_line, txt_text, xml_text
from tools.loadtest import HOST, PYTHON, ROOT, fresh_database, run, stop, wait_until_up

EVENT = ROOT.parent / "shared/corpus/dutch-2026/big_p0500_r09_s501.trf"
ARBITER, PASSWORD = "chief", "chief-pass-2026"


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "manage.py", *args], env=env, cwd=ROOT, text=True,
                          capture_output=True)


def measured(env: dict, *args: str) -> tuple[subprocess.CompletedProcess, float, float]:
    """A manage.py command, its peak RSS (MB, by /usr/bin/time) and its seconds on the clock."""
    with tempfile.NamedTemporaryFile("r") as peak:
        started = time.monotonic()
        done = subprocess.run(
            ["/usr/bin/time", "-q", "-f", "%M", "-o", peak.name, PYTHON, "manage.py", *args],
            env=env, cwd=ROOT, text=True, capture_output=True,
        )
        seconds = time.monotonic() - started
        kilobytes = int(peak.read().split()[-1])
    return done, kilobytes / 1024, seconds


# FIDE list: the hostile inputs ----------------------------------------------------------------


def hostile_files(folder: Path, big: bool) -> list[tuple[str, Path]]:
    players = list(random_players(2000, seed=7))
    files: list[tuple[str, Path]] = []

    def text(name: str, content: str | bytes, what: str) -> None:
        path = folder / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        files.append((what, path))

    lines = txt_text(players).splitlines(keepends=True)
    text("dup.txt", "".join([*lines, lines[1]]), "a FIDE ID twice")
    text("nul.txt", "".join([lines[0], lines[1][:10] + "\x00" + lines[1][11:], *lines[2:]]),
         "a NUL byte")
    text("header.txt", lines[0], "only the header line")
    text("latin1.txt", "".join([lines[0], *(txt_line({**p, "name": "Müller, Zoë"})
                                             + "\r\n" for p in players[:1500])]).encode("latin-1"),
         "a Latin-1 file (1500 players)")
    text("laughs.xml", '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
         '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
         '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
         "<playerslist><player><name>&lol3;</name></player></playerslist>\n",
         "billion laughs (XML entities)")
    text("xxe.xml", '<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
         "<playerslist><player><name>&x;</name></player></playerslist>\n", "XXE (external entity)")
    text("small.xml", xml_text(players[:100]), "a 100-player XML list (a twentieth)")
    if big:
        gigabyte = 1 << 30
        path = folder / "line.zip"
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            with zf.open("players_list_foa.txt", "w", force_zip64=True) as out:
                out.write(f"{HEADER}\r\n".encode())
                block = b"x" * (1 << 24)
                for _ in range(gigabyte // 2 // len(block)):  # under the size bound
                    out.write(block)
        files.append((f"a zip ({path.stat().st_size >> 20} MB) of one 512 MB line", path))
        path = folder / "node.xml"
        with path.open("wb") as out:
            out.write(b"<playerslist><player><name>")
            block = b"y" * (1 << 24)
            for _ in range(gigabyte // len(block)):
                out.write(block)
            out.write(b"</name></player></playerslist>\n")
        files.append(("an XML text node of 1 GB", path))
        path = folder / "lines.zip"
        line = (lines[1].rstrip("\r\n") + "\r\n").encode()
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            with zf.open("players_list_foa.txt", "w", force_zip64=True) as out:
                out.write(f"{HEADER}\r\n".encode())
                block = line * ((1 << 24) // len(line))
                for _ in range(2 * gigabyte // len(block)):
                    out.write(block)
        files.append((f"a zip ({path.stat().st_size >> 20} MB) of 2 GB of lines", path))
    return files


def probe_fide_list(env: dict, big: bool) -> None:
    count = ["shell", "-v", "0", "-c", "from tournaments.models import FidePlayer; "
             "print(FidePlayer.objects.count())"]
    with tempfile.TemporaryDirectory() as folder:
        good = Path(folder) / "players_list_foa.txt"
        good.write_text(txt_text(random_players(2000)), encoding="utf-8")
        done, peak, seconds = measured(env, "import_fide_list", str(good))
        print(f"  a 2000-player list: exit {done.returncode}, {done.stdout.strip()}; "
              f"{peak:.0f} MB, {seconds:.1f} s")
        for what, path in hostile_files(Path(folder), big):
            done, peak, seconds = measured(env, "import_fide_list", str(path))
            said = " / ".join(done.stderr.strip().splitlines()[:1]
                              or done.stdout.strip().splitlines())
            said = said.replace(str(path.parent) + "/", "")
            traceback = "Traceback" in done.stderr
            kept = manage(env, *count).stdout.strip()
            print(f"  {what}: exit {done.returncode}{' WITH A TRACEBACK' if traceback else ''};"
                  f" peak {peak:.0f} MB, {seconds:.1f} s; list holds {kept}\n"
                  f"      {said[:200]}")
            if done.returncode == 0:  # a list that loaded (the Latin-1 one): back to 2000
                manage(env, "import_fide_list", "--force", str(good))


# Login lockout behind one proxy ---------------------------------------------------------------


def login(port: int, address: str, password: str) -> int:
    """The status of a login of the arbiter from ``address``, as the proxy forwards it."""
    proxy = {"X-Forwarded-Proto": "https", "X-Forwarded-For": address}
    cookie, token = form_csrf(port, "/accounts/login/", proxy)
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        body = urllib.parse.urlencode({
            "csrfmiddlewaretoken": token, "username": ARBITER, "password": password,
        })
        conn.request("POST", "/accounts/login/", body=body, headers={
            **proxy, "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
            "Origin": f"https://{HOST}:{port}", "Referer": f"https://{HOST}:{port}/accounts/login/",
        })
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def probe_lockout(env: dict, port: int) -> None:
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "config.wsgi", "--bind", f"{HOST}:{port}", "--workers", "2",
         "--threads", "4", "--worker-class", "gthread"],
        env={**env, "ALLOWED_HOSTS": HOST}, cwd=ROOT, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_up(f"http://{HOST}:{port}", server)
        outsider = [login(port, "203.0.113.9", "wrong") for _ in range(6)]
        print(f"  six wrong passwords for {ARBITER!r} from 203.0.113.9: {outsider}")
        print(f"  the arbiter's right password from 198.51.100.7: "
              f"{login(port, '198.51.100.7', PASSWORD)} (302: let in)")
        print(f"  the right password from 203.0.113.9 after its failures: "
              f"{login(port, '203.0.113.9', PASSWORD)} (429: refused)")
    finally:
        stop([server], seconds=10)


# An event's archive, there and back -----------------------------------------------------------


def without_ids(archive: dict) -> str:
    """The archive as text with the values of its keys named like ids blanked."""
    text = json.dumps(archive, sort_keys=True)
    return re.sub(r'"(id|pk|tournament|player|round|game|white|black|actor|owner|[a-z_]+_id)"'
                  r": \d+", r'"\1": 0', text)


def probe_archive(env: dict) -> None:
    pk = int(run([PYTHON, "manage.py", "import_trf", str(EVENT), "--owner", ARBITER],
                 env).strip())
    with tempfile.TemporaryDirectory() as folder:
        first, second = Path(folder) / "first.json", Path(folder) / "second.json"
        started = time.monotonic()
        run([PYTHON, "manage.py", "export_event", str(pk), "--output", str(first)], env)
        exported = time.monotonic() - started
        started = time.monotonic()
        copy = int(run([PYTHON, "manage.py", "import_event", str(first), "--owner", ARBITER],
                       env).strip().split()[-1].rstrip("."))
        imported = time.monotonic() - started
        run([PYTHON, "manage.py", "export_event", str(copy), "--output", str(second)], env)
        a, b = json.loads(first.read_text()), json.loads(second.read_text())
        # The copy's trail is the original's and one more entry: its own import.
        added = b["audit"].pop() if b.get("audit") else {}
        for archive in (a, b):
            archive.pop("exported_at", None)
        same = without_ids(a) == without_ids(b)
        print(f"  {EVENT.name}: tournament {pk} exported in {exported:.1f} s "
              f"({first.stat().st_size >> 10} KB, {len(a['audit'])} audit entries), imported as "
              f"{copy} in {imported:.1f} s; the copy's archive equals the original's but for ids "
              f"and the time of export: {same}; its trail adds {added.get('action')!r}")
        if not same:
            for key in sorted(set(a) | set(b)):
                if without_ids({key: a.get(key)}) != without_ids({key: b.get(key)}):
                    print(f"      differs: {key}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/swiss_probe")
    parser.add_argument("--port", type=int, default=8795)
    parser.add_argument("--big", action="store_true", help="the 1-2 GB inputs too")
    options = parser.parse_args()
    env = {
        **os.environ, "DATABASE_URL": options.database, "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": HOST, "TRUSTED_PROXIES": "1",
        "REDIS_URL": "",
    }
    fresh_database(options.database)
    run([PYTHON, "manage.py", "migrate", "--noinput"], env)
    run([PYTHON, "manage.py", "shell", "-c",
         "from django.contrib.auth.models import User; "
         f"User.objects.create_user({ARBITER!r}, password={PASSWORD!r})"], env)
    print(f"production settings (DEBUG=0, TRUSTED_PROXIES=1), database {options.database} (new)")
    print("login lockout behind one proxy (gunicorn):")
    probe_lockout(env, options.port)
    print("FIDE list (manage.py import_fide_list):")
    probe_fide_list(env, options.big)
    print("event archive (manage.py export_event / import_event):")
    probe_archive(env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
