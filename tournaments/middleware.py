"""Public pages and API bodies served from the cache of the tournament's version (issue 16).

A per-site cache in the manner of Django's ``FetchFromCacheMiddleware``, but keyed by the
tournament's version (``tournaments.versioning``) instead of a timeout: a change makes new keys,
so a cached page is never stale and never needs to be invalidated.

It sits right after ``SecurityMiddleware`` (and WhiteNoise): a visitor without a session or a
message (so certainly anonymous) asking for a page whose view is marked ``versioned_cache`` gets
the stored response, or a 304 when the ETag matches, without the rest of the middleware or the
view running. On a miss the full stack runs once (one thread per process renders, the others
wait: ``pagecache.body``) and the response is kept when the view says which version it showed
(``request.public_version``) and it sets no cookie.

A page is keyed by its path and the query parameters its view reads (``cache_query``), so the
number of keys of a version stays bounded: a request with any other parameter (a search, a
reader's own row, a made-up one) is rendered for itself and not stored. Browsers that accept
gzip get the body compressed once (``Compression``, inside this middleware) and stored so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.http import parse_http_date_safe

from tournaments import pagecache, queries

_SKIPPED_HEADERS = {"date", "set-cookie", "content-length"}


@dataclass(frozen=True)
class Entry:
    """A stored response: status 200, its body and headers."""

    content: bytes
    headers: tuple[tuple[str, str], ...]

    def response(self) -> HttpResponse:
        response = HttpResponse(self.content)
        for name, value in self.headers:
            response[name] = value
        return response


def _view_class(func):
    return getattr(func, "view_class", None) or getattr(func, "cls", None)


def _versioned(func) -> bool:
    return getattr(func, "versioned_cache", False) or getattr(
        _view_class(func), "versioned_cache", False
    )


def cache_query(func) -> tuple[str, ...]:
    """The query parameters a cached view reads (none unless it says so)."""
    return getattr(func, "cache_query", None) or getattr(_view_class(func), "cache_query", ())


def cache_place(request: HttpRequest, keyed: tuple[str, ...]) -> str | None:
    """The page's place among the cached ones: its path and the values of the parameters its
    view reads, in one order; None when the request has another parameter or one twice."""
    query = request.GET
    if any(name not in keyed or len(query.getlist(name)) > 1 for name in query):
        return None
    return request.path + "?" + "&".join(f"{name}={query[name]}" for name in keyed if name in query)


def _gzip(request: HttpRequest) -> bool:
    """Whether the browser accepts gzip (as ``GZipMiddleware`` reads the header)."""
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


class Compression(GZipMiddleware):
    """Django's gzip, except for the live event streams: each event is a few bytes that must
    leave at once, not sit in a compressor's buffer."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


def _live_version(request: HttpRequest) -> int | None:
    try:
        return int(request.headers.get("X-Live-Version", ""))
    except ValueError:
        return None


class VersionedPageCache:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def _eligible(self, request: HttpRequest) -> bool:
        cookies = request.COOKIES
        return (
            request.method == "GET"
            and settings.SESSION_COOKIE_NAME not in cookies
            and "messages" not in cookies
        )

    def __call__(self, request: HttpRequest):
        if not self._eligible(request):
            return self.get_response(request)
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return self.get_response(request)
        if not _versioned(match.func):
            return self.get_response(request)
        place = cache_place(request, cache_query(match.func))
        if place is None:
            return self.get_response(request)
        pk = match.kwargs.get("pk")
        if pk is None:
            version = queries.site_version()
        else:
            version = queries.tournament_version(pk, at_least=_live_version(request))
            if version is None:
                return self.get_response(request)
        # A DRF view answers JSON or HTML after the Accept header (always in English); a page
        # is the same for all who read it in the same language.
        if _view_class(match.func):
            accept = request.headers.get("Accept", "")
        else:
            accept = translation.get_language_from_request(request)
        where = hashlib.blake2b(f"{place}|{accept}|{_gzip(request)}".encode(), digest_size=16)
        key = f"resp:{version.etag_seed}:{where.hexdigest()}"
        response = None

        def render() -> Entry | None:
            nonlocal response
            request.public_version = version  # the view need not read it again
            response = self.get_response(request)
            shown = getattr(request, "public_version", None)
            if (
                response.status_code != 200
                or response.streaming
                or response.cookies
                or shown is None
                or shown.etag_seed != version.etag_seed
            ):
                return None
            headers = tuple(
                (name, value)
                for name, value in response.items()
                if name.lower() not in _SKIPPED_HEADERS
            )
            return Entry(response.content, headers)

        entry = pagecache.body(key, render)
        if response is not None:  # rendered by this request
            return response
        if entry is None:  # another request of the same key was not cacheable: render this one
            return self.get_response(request)
        cached = entry.response()
        not_modified = get_conditional_response(
            request,
            etag=cached.get("ETag"),
            last_modified=parse_http_date_safe(cached.get("Last-Modified")),
            response=cached,
        )
        if not_modified is not None and not_modified.status_code == 412:
            return self.get_response(request)  # the view answers a failed If-Match (in JSON)
        return not_modified or cached
