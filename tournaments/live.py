"""Live pages (issue 16): Server-Sent Events telling open pages that a tournament changed.

Open pages are told of the versions whose pages were computed (issue 26): once a change is
committed the write path has the new version's standings and rounds computed, a burst of changes
once (``pagecache.refresh_soon``), and that computation calls :func:`publish`; every change also
calls :func:`changed` at once, which only drops the other processes' copy of the version (an
arbiter's next page shows the change, whichever process serves it). So a burst of results makes
the spectators fetch a handful of versions, each computed, not one version a result.

Across worker processes the messages go through Redis pub/sub (``settings.REDIS_URL``): each
process that has visitors listening runs one thread that subscribes and hands the messages to
them; the same thread drops the process's copy of the version. Without Redis (``make run``:
one process) the message goes straight to this process's listeners.

The stream (:func:`events`) says ``event: change`` with the new version number; the page's
script (``static/js/live.js``) then fetches the page again and swaps its content. Served by an
ASGI server (uvicorn) the stream is an asynchronous generator and costs no thread; under WSGI
(``runserver``, the test server) it is a plain generator holding one thread per visitor.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, StreamingHttpResponse

from tournaments import versioning

log = logging.getLogger(__name__)

KEEPALIVE = 15.0
"""Seconds between two comment lines on a quiet stream (proxies close idle connections)."""

RETRY_MS = 2000
"""How long a browser waits before it reconnects a closed stream."""

POLL_MS = 15000
"""Under a production WSGI server (a stream would hold one of its few threads) the answer ends at
once and the browser asks again after this long: the page still follows, only later."""


def _channel() -> str:
    return f"{getattr(settings, 'LIVE_CHANNEL_PREFIX', 'swiss')}:live"


def _changes_channel() -> str:
    return f"{getattr(settings, 'LIVE_CHANNEL_PREFIX', 'swiss')}:changed"


def _stream_seconds() -> float:
    """A stream ends after this long; the browser reconnects and is told what it missed."""
    return float(getattr(settings, "LIVE_STREAM_SECONDS", 300))


# ---------------------------------------------------------------------------------------------
# Listeners in this process


class _Listener:
    """One open stream: a queue of version numbers, filled from any thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[int] | queue.Queue[int] = (
            asyncio.Queue() if loop is not None else queue.Queue()
        )

    def deliver(self, number: int) -> None:
        if self.loop is None:
            self.queue.put_nowait(number)
        else:
            try:
                self.loop.call_soon_threadsafe(self.queue.put_nowait, number)
            except RuntimeError:  # the loop is closed: the stream is gone
                pass


_listeners: dict[int, set[_Listener]] = {}
_listeners_lock = threading.Lock()


def _add(tournament_id: int, listener: _Listener) -> None:
    _start_redis_thread()
    with _listeners_lock:
        _listeners.setdefault(tournament_id, set()).add(listener)


def _remove(tournament_id: int, listener: _Listener) -> None:
    with _listeners_lock:
        group = _listeners.get(tournament_id)
        if group is not None:
            group.discard(listener)
            if not group:
                del _listeners[tournament_id]


TOLD_TRUSTED = 60.0
"""Seconds a version told to the open pages (:func:`publish`) stays the one a newly opened
stream compares its page with: a newer version is then being computed and will be told. Past
that (a message lost while Redis was away), the current version is."""

_told: dict[int, tuple[int, float]] = {}
"""Per tournament, the last version told to this process's pages and when (monotonic)."""


def fan_out(tournament_id: int, number: int) -> None:
    """Tell this process's open pages of a tournament that its version ``number`` is ready."""
    with _listeners_lock:
        told = _told.get(tournament_id)
        if told is None or told[0] <= number:
            _told[tournament_id] = (number, time.monotonic())
        group = list(_listeners.get(tournament_id, ()))
    for listener in group:
        listener.deliver(number)


def clear_local() -> None:
    """Forget the versions told (the tests start each test from nothing)."""
    with _listeners_lock:
        _told.clear()


def listening(tournament_id: int) -> int:
    """How many streams of this process follow the tournament (for the tests)."""
    with _listeners_lock:
        return len(_listeners.get(tournament_id, ()))


# ---------------------------------------------------------------------------------------------
# Redis


_redis_client = None
_redis_thread: threading.Thread | None = None
_redis_lock = threading.Lock()


def _redis():
    """The Redis client when ``REDIS_URL`` is set, else None."""
    global _redis_client
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    if _redis_client is None:
        import redis

        _redis_client = redis.Redis.from_url(url, socket_timeout=5, health_check_interval=30)
    return _redis_client


def _start_redis_thread() -> None:
    global _redis_thread
    if _redis() is None:
        return
    with _redis_lock:
        if _redis_thread is not None and _redis_thread.is_alive():
            return
        subscribed = threading.Event()
        _redis_thread = threading.Thread(
            target=_redis_loop, args=(subscribed,), name="live-redis", daemon=True
        )
        _redis_thread.start()
    # The first stream of this process must not miss an event sent right after it opened.
    subscribed.wait(timeout=5)


def _redis_loop(subscribed: threading.Event) -> None:
    """Hand every message of the channel to this process's streams; reconnect on errors."""
    import redis

    while True:
        try:
            pubsub = _redis().pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(_channel(), _changes_channel())
            pubsub.get_message(timeout=5)  # a confirmation: both channels are subscribed
            with _listeners_lock:
                _told.clear()  # what was told while no subscription listened is not known
            subscribed.set()
            told = _channel().encode()
            for message in pubsub.listen():
                tournament_id, number = (int(x) for x in message["data"].split(b":"))
                versioning.forget(tournament_id, below=number)
                if message["channel"] == told:
                    fan_out(tournament_id, number)
        except (redis.RedisError, OSError, ValueError):
            log.warning("live updates: Redis subscription lost, retrying", exc_info=True)
            time.sleep(1)


def publish(tournament_id: int, number: int) -> None:
    """Tell every open stream of the tournament, in every process, a new version number whose
    pages are computed."""
    client = _redis()
    if client is None:
        fan_out(tournament_id, number)
        return
    import redis

    try:
        client.publish(_channel(), f"{tournament_id}:{number}")
    except redis.RedisError:
        log.warning("live updates: cannot publish to Redis", exc_info=True)
        fan_out(tournament_id, number)


def changed(tournament_id: int, number: int) -> None:
    """Tell the other processes that listen to Redis that a change made the tournament's
    version ``number``: they drop their copy of the version at once (the open pages are told
    later, by :func:`publish`). Without Redis there is one process, which knows already."""
    client = _redis()
    if client is None:
        return
    import redis

    try:
        client.publish(_changes_channel(), f"{tournament_id}:{number}")
    except redis.RedisError:
        log.warning("live updates: cannot publish to Redis", exc_info=True)


# ---------------------------------------------------------------------------------------------
# The stream


def _event(number: int) -> bytes:
    return f"event: change\ndata: {json.dumps({'version': number})}\n\n".encode()


def _version_number(tournament_id: int) -> int | None:
    try:
        version = versioning.current(tournament_id)
    finally:
        # A stream may stay open for minutes: it must not hold a database connection meanwhile
        # (inside a transaction, as in a test, the connection is not ours to close).
        if not connection.in_atomic_block:
            connection.close()
    return None if version is None else version.number


def _since(request: HttpRequest) -> int | None:
    try:
        return int(request.GET.get("v", ""))
    except ValueError:
        return None


async def events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """``text/event-stream`` of a tournament's version numbers, one event per change."""
    asgi = isinstance(request, ASGIRequest)
    # Listen first, then read the version: a change in between is not missed.
    listener = _Listener(asyncio.get_running_loop() if asgi else None)
    _add(pk, listener)
    try:
        number = await sync_to_async(_version_number)(pk)
    except BaseException:
        _remove(pk, listener)
        raise
    if number is None:
        _remove(pk, listener)
        raise Http404("No such tournament.")
    opening = _opening(number, _since(request), _last_told(pk))
    if asgi:
        content = _astream(pk, listener, number, opening)
    elif request.META.get("SERVER_SOFTWARE", "").startswith("gunicorn/"):
        # The proxy should send the streams to the ASGI server; if it does not, no gunicorn
        # thread is held: the browser asks again later.
        _remove(pk, listener)
        content = [f"retry: {POLL_MS}\n\n".encode() + opening[len(f"retry: {RETRY_MS}\n\n"):]]
    else:
        # Django's own server (runserver, the tests' live server): one thread per stream.
        content = _stream(pk, listener, number, opening)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _last_told(tournament_id: int) -> int | None:
    """The last version told to the open pages of this process, while it is trusted."""
    with _listeners_lock:
        told = _told.get(tournament_id)
    if told is None or time.monotonic() - told[1] > TOLD_TRUSTED:
        return None
    return told[0]


def _opening(number: int, since: int | None, told: int | None = None) -> bytes:
    """The stream's first lines: an event at once when the page was made from a version older
    than the last one told (``told``; None: the current one, ``number``). A page older than
    the current version but not than the last told waits for the computation under way, which
    tells it."""
    head = f"retry: {RETRY_MS}\n\n".encode()
    if since is None:
        return head
    shown = number if told is None else min(told, number)
    return head + (_event(number) if since < shown else b"")


async def _astream(
    pk: int, listener: _Listener, last: int, opening: bytes
) -> AsyncIterator[bytes]:
    try:
        yield opening
        end = time.monotonic() + _stream_seconds()
        while (left := end - time.monotonic()) > 0:
            try:
                number = await asyncio.wait_for(listener.queue.get(), min(KEEPALIVE, left))
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if number > last:  # a late message of an older change says nothing new
                last = number
                yield _event(number)
    finally:
        _remove(pk, listener)


def _stream(pk: int, listener: _Listener, last: int, opening: bytes) -> Iterator[bytes]:
    try:
        yield opening
        end = time.monotonic() + _stream_seconds()
        while (left := end - time.monotonic()) > 0:
            try:
                number = listener.queue.get(timeout=min(KEEPALIVE, left))
            except queue.Empty:
                yield b": keep-alive\n\n"
                continue
            if number > last:  # a late message of an older change says nothing new
                last = number
                yield _event(number)
    finally:
        _remove(pk, listener)
