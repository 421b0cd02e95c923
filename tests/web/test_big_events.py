"""Issue 26, items 4 and 5: pages that stay small at 5000 players (the standings by pages, the
reader's own row, compressed bodies, a bounded set of cached pages) and what a deployment of
many events needs (health, readiness, metrics, connection reuse, timeouts, several gunicorn
instances on one host)."""

from __future__ import annotations

import gzip
import os
import random
import re
import runpy

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError, connection
from django.http import StreamingHttpResponse
from django.test import RequestFactory

from config.settings import postgresql_timeouts
from tournaments import services, views_ops, views_public
from tournaments.middleware import Compression
from tournaments.models import Player
from tournaments.services import pairing_jobs
from tournaments.services.write import long_work

from .test_deploy_settings import KEY, ROOT, run_python
from .test_public import table_rows, url

pytestmark = pytest.mark.django_db

PAGE_SIZE = 10  # 100 on the site; the same code with fewer rows to make
PLAYERS = 2 * PAGE_SIZE + 3  # three pages: 10, 10, 3


def test_a_page_of_the_standings_is_a_hundred_rows():
    assert views_public.PAGE_SIZE == 100


@pytest.fixture
def big(arbiter, monkeypatch):
    monkeypatch.setattr(views_public, "PAGE_SIZE", PAGE_SIZE)
    t = services.create_tournament(arbiter, name="Big Open", rounds=9)
    rows = [
        services.clean_player_fields({"name": f"Player {i:02d}", "rating": 2600 - i})
        for i in range(PLAYERS)
    ]
    rows[15]["name"] = "Zoë Unique"
    services.register_players(t, arbiter, rows)
    return t


def _own_row(response) -> str | None:
    found = re.search(r'<tr id="me"[^>]*>(.*?)</tr>', response.content.decode(), re.S)
    return found and re.sub(r"<[^>]+>|\s+", " ", found.group(1))


def test_the_standings_come_in_pages_of_a_hundred(client, big):
    path = url("public-standings", big.pk)
    first = client.get(path)
    assert len(table_rows(first, "standings")) == PAGE_SIZE
    assert table_rows(first, "standings")[0][1] == "Player 00"
    assert 'href="?page=3"' in first.content.decode() and 'href="?page=2"' in first.content.decode()
    last = client.get(path, {"page": 3})
    rows = table_rows(last, "standings")
    assert len(rows) == 3 and rows[0][1] == "Player 20" and rows[-1][1] == "Player 22"
    for bad in ("4", "0", "01", "x", "-1"):
        assert client.get(path, {"page": bad}).status_code == 404, bad


def test_the_readers_own_row_follows_the_top_of_the_standings(client, big):
    path = url("public-standings", big.pk)
    zoe = Player.objects.get(tournament=big, name="Zoë Unique")
    page = client.get(path, {"player": zoe.pk})
    assert len(table_rows(page, "standings")) == PAGE_SIZE  # the top, then the reader's row
    assert "Zoë Unique" in _own_row(page) and 'class="own"' in page.content.decode()
    assert "Zoë Unique" not in str(table_rows(page, "standings"))
    top = Player.objects.get(tournament=big, name="Player 03")
    on_the_page = client.get(path, {"player": top.pk})
    assert 'class="own"' not in on_the_page.content.decode()  # marked where it stands
    assert "Player 03" in _own_row(on_the_page)
    assert client.get(path, {"player": 10**8}).status_code == 404
    card = client.get(url("public-player", big.pk, zoe.pk)).content.decode()
    assert f"{path}?player={zoe.pk}#me" in card


def test_a_name_searched_on_the_standings_leads_to_the_readers_row(client, big):
    path = url("public-standings", big.pk)
    zoe = Player.objects.get(tournament=big, name="Zoë Unique")
    one = client.get(path, {"q": "zoe"})
    assert one.status_code == 302 and one["Location"] == f"{path}?player={zoe.pk}"
    # Each word anywhere in the name: 01, 10-19 less Zoë's 15, 21.
    several = client.get(path, {"q": "Player 1"}).content.decode()
    assert "11 players match" in several and several.count("#me") == 11
    assert "No player matches" in client.get(path, {"q": "Nobody"}).content.decode()


def test_only_the_pages_a_view_reads_are_kept_in_the_cache(
    client, big, django_assert_num_queries
):
    path = url("public-standings", big.pk)
    client.get(path)
    for query in ({"page": 2}, {"page": 3}):
        first = client.get(path, query)
        with django_assert_num_queries(1):  # the version, then the page stored
            assert client.get(path, query).content == first.content
    zoe = Player.objects.get(tournament=big, name="Zoë Unique")
    for query in ({"player": zoe.pk}, {"page": 2, "utm_source": "qr"}, {"page": [2, 3]}):
        client.get(path, query)
        with CountQueries() as seen:  # rendered again each time: nothing was stored
            client.get(path, query)
        assert seen.count > 1, query


class CountQueries:
    def __enter__(self):
        from django.test.utils import CaptureQueriesContext

        self.context = CaptureQueriesContext(connection)
        self.context.__enter__()
        return self

    def __exit__(self, *exc):
        self.context.__exit__(*exc)
        self.count = len(self.context.captured_queries)


def test_pages_are_compressed_for_browsers_that_accept_gzip(client, big):
    path = url("public-standings", big.pk)
    plain = client.get(path)
    packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) * 3 < len(plain.content)
    again = client.get(path)  # the compressed copy is kept apart from the plain one
    assert "Content-Encoding" not in again and again.content == plain.content
    api = client.get(url("api-standings", big.pk), HTTP_ACCEPT_ENCODING="gzip")
    assert api["Content-Encoding"] == "gzip"


def test_the_live_event_streams_are_never_compressed():
    request = RequestFactory().get("/t/1/events/", HTTP_ACCEPT_ENCODING="gzip")
    stream = StreamingHttpResponse(iter([b"retry: 5000\n\n" * 40]),
                                   content_type="text/event-stream")
    assert "Content-Encoding" not in Compression(lambda r: stream)(request)
    page = StreamingHttpResponse(iter([b"<p>" * 200]), content_type="text/html")
    assert Compression(lambda r: page)(request)["Content-Encoding"] == "gzip"


# ---------------------------------------------------------------------------------------------
# Health, readiness, metrics


def test_healthz_says_the_process_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]


def test_readyz_asks_the_database_and_the_cache(client, monkeypatch):
    assert client.get("/readyz").content == b"ready\n"

    def down(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(views_ops.connection, "cursor", down)
    monkeypatch.setattr(views_ops.cache, "get", lambda *a, **k: None)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.content.decode() == (
        "not ready: database: OperationalError; cache: what was written could not be read\n"
    )


def test_metrics_are_for_staff_or_the_token(client, settings):
    settings.METRICS_TOKEN = "scrape-me-0123456789"
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    client.get("/healthz")
    scraped = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-me-0123456789")
    assert scraped.status_code == 200 and scraped["Content-Type"].startswith("text/plain")
    assert 'django_http_responses_total_by_status_total{status="200"}' in scraped.content.decode()
    staff = User.objects.create_user("boss", password="boss-pass-123", is_staff=True)
    client.force_login(staff)
    assert client.get("/metrics").status_code == 200
    settings.METRICS_TOKEN = ""
    client.logout()
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403


# ---------------------------------------------------------------------------------------------
# Settings of a deployment


def test_connections_are_reused_and_postgresql_statements_bounded(tmp_path):
    show = (
        "import django; django.setup(); from django.conf import settings; d = settings.DATABASES"
        "['default']; print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], d['OPTIONS']['options'])"
    )
    pg = "postgres://postgres@127.0.0.1:5432/never_opened"
    default = run_python(show, tmp_path, DEBUG="0", SECRET_KEY=KEY, DATABASE_URL=pg)
    assert default.stdout.strip() == "60 True -c lock_timeout=10000 -c statement_timeout=30000"
    tuned = run_python(
        show, tmp_path, DEBUG="0", SECRET_KEY=KEY, DATABASE_URL=pg, CONN_MAX_AGE="0",
        CONN_HEALTH_CHECKS="0", DB_LOCK_TIMEOUT="2000", DB_STATEMENT_TIMEOUT="0",
    )
    assert tuned.stdout.strip() == "0 False -c lock_timeout=2000 -c statement_timeout=0"
    with pytest.raises(ImproperlyConfigured, match="DB_LOCK_TIMEOUT and DB_STATEMENT_TIMEOUT"):
        postgresql_timeouts(-5, 0)


def _statement_timeout() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


def test_the_pairing_job_lifts_the_statement_timeout_for_its_own_transactions(
    arbiter, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's statement_timeout (run with DATABASE_URL=postgres)")
    t = services.create_tournament(arbiter, name="Timed", rounds=3)
    services.register_players(
        t, arbiter, [services.clean_player_fields({"name": f"P{i}"}) for i in range(6)]
    )
    services.draw_initial_color(t, arbiter, rng=random.Random(2))
    with connection.cursor() as cursor:  # what a request's connection has (OPTIONS)
        cursor.execute("SET statement_timeout = 30000")
    seen = []
    build = pairing_jobs.build_engine_state
    monkeypatch.setattr(
        pairing_jobs, "build_engine_state",
        lambda *a, **k: seen.append(_statement_timeout()) or build(*a, **k),
    )
    save = pairing_jobs.save_pairing
    monkeypatch.setattr(
        pairing_jobs, "save_pairing", lambda *a: seen.append(_statement_timeout()) or save(*a)
    )
    job = pairing_jobs.request_pairing(t, arbiter)
    pairing_jobs.run(job.pk)
    assert seen == ["0", "0"]
    with long_work():
        assert _statement_timeout() == "0"


def test_two_gunicorn_instances_on_a_host_share_no_socket_or_pid_file(tmp_path, monkeypatch):
    places = []
    # The settings file sets PROMETHEUS_MULTIPROC_DIR in this process: set first, it is
    # removed again after the test (a folder that does not exist breaks every later process).
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    for name, port in (("open-a", 8101), ("open-b", 8102)):
        monkeypatch.setenv("INSTANCE", name)
        monkeypatch.setenv("RUN_DIR", str(tmp_path / name))
        monkeypatch.setenv("BIND", f"127.0.0.1:{port}")
        monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR")
        conf = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
        assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(tmp_path / name / "metrics")
        places.append((conf["control_socket"], conf["pidfile"], conf["bind"][0]))
        assert conf["proc_name"] == name and conf["worker_class"] == "gthread"
        assert conf["control_socket"] == str(tmp_path / name / "gunicorn.ctl")
    sockets, pids, binds = zip(*places)
    assert len(set(sockets)) == len(set(pids)) == len(set(binds)) == 2
