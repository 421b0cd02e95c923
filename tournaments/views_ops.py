"""What the machines around the app ask it: is the process up (``/healthz``), can it serve
(``/readyz``: the database and the cache answer), and its figures for Prometheus (``/metrics``,
django-prometheus's exporter, for staff users or the ``METRICS_TOKEN`` bearer)."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django_prometheus.exports import ExportToDjangoView


def _text(body: str, status: int = 200) -> HttpResponse:
    return HttpResponse(body + "\n", status=status, content_type="text/plain; charset=utf-8")


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """The process answers (a liveness probe: nothing else is asked, so a database that is down
    does not make the orchestrator restart every server)."""
    return _text("ok")


@never_cache
def readyz(request: HttpRequest) -> HttpResponse:
    """The process can serve pages: one query on the database and a write and read of the
    cache (Redis when ``REDIS_URL`` is set). 503 and what failed otherwise, so that the load
    balancer sends no visitor here meanwhile."""
    failures = []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        failures.append(f"database: {type(error).__name__}")
    try:
        cache.set("readyz", "1", 10)
        if cache.get("readyz") != "1":
            failures.append("cache: what was written could not be read")
    except Exception as error:  # the cache backend's own errors (redis.ConnectionError, ...)
        failures.append(f"cache: {type(error).__name__}")
    if failures:
        return _text("not ready: " + "; ".join(failures), status=503)
    return _text("ready")


def _may_read_metrics(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    return request.user.is_authenticated and request.user.is_staff


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus text format: requests, responses and latencies by view, the database
    connections and errors, cache hits (django-prometheus), for staff or the token only."""
    if not _may_read_metrics(request):
        return _text("metrics: log in as staff or send Authorization: Bearer <METRICS_TOKEN>", 403)
    return ExportToDjangoView(request)
