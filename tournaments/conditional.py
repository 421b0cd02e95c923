"""Conditional GET shared by the API and the public pages: ETag, Last-Modified, 304."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date


def not_modified(request: HttpRequest, etag: str, last_modified: int | None) -> HttpResponse | None:
    """The 304 (or 412) answer when the client's copy is current, None when a body is due."""
    early = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if early is not None:
        stamp(early, etag, last_modified)
    return early


def stamp(response: HttpResponse, etag: str, last_modified: int | None) -> None:
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    # Caches may keep a copy but must ask again each time (a scoreboard wants fresh data).
    response["Cache-Control"] = "no-cache"
