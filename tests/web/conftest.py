"""Shared fixtures of the web tests: users and small tournaments built through the services."""

from __future__ import annotations

import os
import signal

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone, translation

from tournaments import services

# The tests whose outcome the cache and live backend can change: CI runs them a second time with
# the cache and the live events in Redis (REDIS_URL), as production does; every other web test
# runs once per database. Chosen from a traced Redis run of all of tests/web (issue 24): 104
# tests touch the cache, 97 of them only miss and store (they render the same page on either
# backend; both pickle what they store), while the tests below read what was stored for a
# second process, or carry the live events through Redis pub/sub. A new test of the cache or
# of the live layer goes in one of these modules, or takes @pytest.mark.cache_backend.
CACHE_BACKEND_MODULES = {
    "test_live": "versions, pages kept for other processes, the live event stream",
    "test_live_browser": "a result reaches open pages through the live events",
}

RATINGS = [2412, 2380, 2351, 2330, 2301, 2290, 2255, 2230, 2204, 2190, 2150, 2101, 2050, 1998, 1950]


DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


def pytest_collection_modifyitems(items):
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and module.__name__.rpartition(".")[2] in CACHE_BACKEND_MODULES:
            item.add_marker(pytest.mark.cache_backend)
        # pytest-django refuses the database to any other test: its outcome is the same on
        # every database, so CI's PostgreSQL pass leaves it out.
        if item.get_closest_marker("django_db") is None and not (
            DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        ):
            item.add_marker(pytest.mark.no_database)


@pytest.fixture(autouse=True)
def _fresh_caches(settings):
    """Each test starts with no cached page or version in this process (the Django cache keys
    hold the version's time to the microsecond, so they never meet another test's), sends its
    live events on a channel of its own, and computes nothing in background threads."""
    from tournaments import live, pagecache, versioning

    settings.LIVE_WARM = False
    settings.LIVE_CHANNEL_PREFIX = f"test-{os.getpid()}"
    versioning.forget()
    pagecache.clear_local()
    live.clear_local()
    yield
    versioning.forget()
    pagecache.clear_local()
    live.clear_local()


@pytest.fixture(autouse=True)
def _fresh_thread_state():
    """Each test starts, and leaves, the thread with the default language and time zone: a
    request through LocaleMiddleware, or the API's English, activates a language for the
    thread and nothing deactivates it, so a later test would read French where it expects
    English (issue 24)."""
    translation.deactivate()
    timezone.deactivate()
    yield
    translation.deactivate()
    timezone.deactivate()


@pytest.fixture
def arbiter(db):
    return User.objects.create_user("arbiter", password="arbiter-pass-123")


@pytest.fixture
def other_arbiter(db):
    return User.objects.create_user("other", password="other-pass-123")


@pytest.fixture
def staff(db):
    return User.objects.create_user("staff", password="staff-pass-123", is_staff=True)


def make_tournament(arbiter, players: int = 10, rounds: int = 5, **fields):
    tournament = services.create_tournament(arbiter, name="Test Open", rounds=rounds, **fields)
    for i in range(players):
        services.add_player(
            tournament, arbiter, name=f"Player {chr(65 + i)}", rating=RATINGS[i % len(RATINGS)] - i
        )
    return tournament


@pytest.fixture
def tournament(arbiter):
    return make_tournament(arbiter)


def run_db_worker() -> None:
    """Run the task queue's worker in this process until the queue is empty
    (``db_worker --batch``), then give the process back its signal handlers: the worker
    installs its own for SIGINT, SIGTERM and SIGQUIT and leaves them, and a process pool forked
    later (tools.conformance) inherits a SIGTERM that no longer stops its workers."""
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    try:
        call_command("db_worker", "--batch", "--interval", "0", "--no-startup-delay")
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
