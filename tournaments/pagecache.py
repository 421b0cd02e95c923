"""Compute once per change, serve many (issue 16): bodies and standings cached by version.

Every key holds a tournament's version (``tournaments.versioning``), so nothing is ever
invalidated: a change makes new keys and the old ones age out. Two levels:

- this process's memory, a few bodies by size and a few computed objects, read without a copy;
- the Django cache (``settings.CACHES``: local memory by default, Redis when ``REDIS_URL`` is
  set), shared by the worker processes, so a page rendered by one is served by all.

One thread per process computes a missing entry; the others wait for it (``_single_flight``).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection

from tournaments.periodic import every

log = logging.getLogger(__name__)

TIMEOUT = 600
"""Seconds an entry stays in the Django cache: keys never go stale, old versions age out."""


class _Local:
    """A small LRU in this process's memory, bounded by the size of what it keeps."""

    def __init__(self, max_bytes: int, max_items: int) -> None:
        self.max_bytes = max_bytes
        self.max_items = max_items
        self.items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self.lock:
            hit = self.items.get(key)
            if hit is None:
                return None
            self.items.move_to_end(key)
            return hit[0]

    def put(self, key: str, value: Any, size: int) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self.items[key] = (value, size)
            self.size += size
            while self.items and (self.size > self.max_bytes or len(self.items) > self.max_items):
                _, (_, dropped) = self.items.popitem(last=False)
                self.size -= dropped

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.size = 0


def _code_stamp() -> str:
    """A digest of the code and templates the pages are made from: every key holds it, so that
    after a deploy no page made by the old code is served from a cache that outlived it."""
    digest = hashlib.blake2b(digest_size=6)
    base = Path(settings.BASE_DIR)
    for folder in ("templates", "tournaments", "static", "config"):
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in {".py", ".html", ".js", ".css"} and path.is_file():
                digest.update(path.relative_to(base).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


STAMP = _code_stamp()

_bodies = _Local(max_bytes=64 * 1024 * 1024, max_items=512)
_objects = _Local(max_bytes=16, max_items=16)  # size 1 each: a few versions' standings and rounds
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def clear_local() -> None:
    """Forget what this process keeps (the tests start each test from nothing)."""
    _bodies.clear()
    _objects.clear()
    _next_at.clear()
    _ended_at.clear()
    _urgent.clear()


def _single_flight(key: str) -> threading.Lock:
    with _locks_guard:
        lock = _locks.get(key)
        if lock is None:
            lock = _locks[key] = threading.Lock()
        return lock


def _done(key: str) -> None:
    with _locks_guard:
        _locks.pop(key, None)


WAIT = 5.0
"""Seconds a claim lives without a sign from the process that holds it: the one computing keeps
it alive while it works, however long a render takes (``_kept_alive``); a claim left to die
means that process is gone, and a waiting process does the work itself. Whole seconds: Redis
keeps a key's life in whole seconds."""

LONGEST = 120.0
"""Seconds a process waits at most for another's computation before it does the work itself."""

POLL = 0.02
"""Seconds between two looks at the shared cache while waiting."""


def _shared_flight(key: str, produce: Callable[[], Any]) -> Any:
    """``produce()``'s value under ``key`` in the Django cache, produced by one process only.

    Right after a change every worker process gets requests for the same new pages: the first
    to claim the key (``cache.add``, atomic in Redis) renders or computes, the others wait for
    its value instead of doing the same work at the same moment, as long as the claim is alive
    (a cold 5000-player standings takes several seconds). None: not worth keeping.
    """
    claim = f"{key}:claimed"
    if cache.add(claim, 1, WAIT):
        try:
            with _kept_alive(claim):
                return _produce_and_keep(key, produce)
        finally:
            cache.delete(claim)
    end = time.monotonic() + LONGEST
    while time.monotonic() < end:
        time.sleep(POLL)
        found = cache.get(key)
        if found is not None:
            return found
        if cache.get(claim) is None:  # produced nothing worth keeping, or died
            found = cache.get(key)
            if found is not None:
                return found
            break
    return _produce_and_keep(key, produce)


def _kept_alive(claim: str):
    """Renew a claim every ``WAIT / 4`` seconds while its holder works."""
    return every(WAIT / 4, lambda: cache.touch(claim, WAIT), name="pagecache-claim")


def _produce_and_keep(key: str, produce: Callable[[], Any]) -> Any:
    value = produce()
    if value is not None:
        cache.set(key, value, TIMEOUT)
    return value


def body(key: str, render: Callable[[], Any]) -> Any:
    """What is cached under ``key`` (an object with ``content`` bytes), else ``render()``'s,
    kept for the next requests (None: not cacheable, not kept)."""
    key = f"{STAMP}:{key}"
    found = _bodies.get(key)
    if found is not None:
        return found
    try:
        with _single_flight(key):
            found = _bodies.get(key) or cache.get(key)
            if found is None:
                found = _shared_flight(key, render)
                if found is None:
                    return None
            _bodies.put(key, found, len(found.content))
            return found
    finally:
        _done(key)


def computed(key: str, compute: Callable[[], Any], *, shared: bool = True) -> Any:
    """A computed object (standings, a crosstable) under ``key``, computed once.

    ``shared``: also kept in the Django cache for the other processes. Not worth it for an
    object that unpickles more slowly than it is computed (a history of model instances).
    """
    key = f"{STAMP}:{key}"
    found = _objects.get(key)
    if found is not None:
        return found
    try:
        with _single_flight(key):
            found = _objects.get(key)
            if found is None:
                if shared:
                    found = cache.get(key)
                    if found is None:
                        found = _shared_flight(key, compute)
                else:
                    found = compute()
                _objects.put(key, found, 1)
            return found
    finally:
        _done(key)


# ---------------------------------------------------------------------------------------------
# Right after a change: the new standings, before the first visitor asks


_refresher: Callable[[int], None] | None = None

QUIET = 1.0
"""Seconds without another change before a tournament's pages are computed again: a burst of
results (a round saved board by board, quick entry in the hall) makes one computation. A change
that comes when none was computed for that long is computed at once (a correction reaches the
open pages, told once it is computed, in the time of one computation); the changes that follow
it wait as said."""

LATEST = 5.0
"""Seconds at most between a change and the computation that shows it, changes or not: results
typed every half second still reach the warm pages every few seconds (a big event's every
``SHARE`` allows)."""

SHARE = 0.02
"""At most this share of one core goes to computing a tournament's pages again: a computation
that took c seconds of CPU is followed by the next one c / SHARE seconds later at the soonest,
whatever QUIET and LATEST say. A 5000-player event's computation (0.5 s) comes every 25 s at
most, so results typed in the hall one every second or two make one computation per dozen
boards, not one each; a 100-player event's (10 ms) is not delayed (0.5 s, within QUIET)."""

_next_at: dict[int, float] = {}
"""Per tournament, when its next computation may start at the soonest (``SHARE``; monotonic)."""


def next_at(tournament_id: int) -> float:
    """When a tournament's next computation may start at the soonest (monotonic; 0: now)."""
    return _next_at.get(tournament_id, 0.0)

_ended_at: dict[int, float] = {}
"""Per tournament, when its last computation ended, for ``QUIET`` seconds (monotonic)."""

_pending: dict[int, tuple[float, float] | None] = {}
"""The tournaments whose computation thread runs in this process: the times of the first and the
last change not yet computed, or None while a computation runs with no change since."""
_pending_lock = threading.Lock()
_wakeup = threading.Condition(_pending_lock)
"""Wakes a computation thread that waits (``QUIET``, ``LATEST``, ``SHARE``) when an urgent
change comes."""

_urgent: set[int] = set()
"""The tournaments whose next computation waits for nothing (``refresh_soon(urgent=True)``)."""

refreshes = 0
"""How many computations this process started (figures of the big-events benchmark)."""


def refresh_with(compute: Callable[[int], None]) -> None:
    """Say how a tournament's pages are computed after a change (``tournaments.apps`` passes
    ``tournaments.queries.refresh``: this module reads no page itself)."""
    global _refresher
    _refresher = compute


def refresh_soon(tournament_id: int, *, urgent: bool = False) -> bool:
    """Compute the new version's standings and rounds in a background thread (``LIVE_WARM``,
    default on), before the first visitor asks: at once for a change after a quiet time, else
    once ``QUIET`` seconds pass without another change, or ``LATEST`` seconds after the first
    change not yet shown, and in any case no sooner than the last computation's cost allows
    (``SHARE``). One thread a tournament in a process; changes that come while it computes
    make one more computation, not one each. False: nothing is computed (``LIVE_WARM`` off).

    ``urgent``: a change the spectators wait for (a round's pairings published or taken back):
    computed at once, or right after the computation under way, whatever ``QUIET`` and
    ``SHARE`` say (at 5000 players ``SHARE`` alone would hold the new pairings back 20-50 s)."""
    if not getattr(settings, "LIVE_WARM", True) or _refresher is None:
        return False
    now = time.monotonic()
    with _pending_lock:
        if urgent:
            _urgent.add(tournament_id)
            _wakeup.notify_all()
        if tournament_id in _pending:
            waiting = _pending[tournament_id]
            _pending[tournament_id] = (now, now) if waiting is None else (waiting[0], now)
            return True
        _pending[tournament_id] = (now, now)
        ended = _ended_at.get(tournament_id)
        at_once = ended is None or now - ended >= QUIET
    threading.Thread(target=_refresh, args=(tournament_id, at_once), daemon=True).start()
    return True


def waiting() -> list[int]:
    """The tournaments whose computation is waiting or running in this process."""
    with _pending_lock:
        return list(_pending)


def computing() -> bool:
    """Whether a computation is waiting or running in this process (tests, benchmarks)."""
    with _pending_lock:
        return bool(_pending)


def _refresh(tournament_id: int, at_once: bool) -> None:
    """Compute, and again as long as changes come meanwhile; ``at_once``: the first change
    after a quiet time, computed without waiting for ``QUIET`` (``SHARE`` still holds)."""
    global refreshes
    close_old_connections()
    try:
        while True:
            with _pending_lock:
                waiting = _pending[tournament_id]
                assert waiting is not None  # set by refresh_soon, cleared below
                first, last = waiting
                due = _next_at.get(tournament_id, 0.0)
                if not at_once:
                    due = max(min(last + QUIET, first + LATEST), due)
                if tournament_id in _urgent:
                    due = 0.0
                wait = due - time.monotonic()
                if wait > 0:
                    _wakeup.wait(wait)  # the time asked, or an urgent change
                    continue
                _pending[tournament_id] = None
                _urgent.discard(tournament_id)
            refreshes += 1
            cpu = time.thread_time()
            try:
                _refresher(tournament_id)
            except Exception:  # a background thread has no one to report to but the log
                log.exception("computing the pages of tournament %s", tournament_id)
            spent = time.thread_time() - cpu
            at_once = False
            with _pending_lock:
                now = time.monotonic()
                for past in [k for k, at in _next_at.items() if at <= now]:
                    del _next_at[past]
                for past in [k for k, at in _ended_at.items() if now - at >= QUIET]:
                    del _ended_at[past]
                _next_at[tournament_id] = now + spent / SHARE
                _ended_at[tournament_id] = now
                if _pending[tournament_id] is None:
                    del _pending[tournament_id]
                    return
    finally:
        connection.close()
