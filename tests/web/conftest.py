"""Shared fixtures of the web tests: users and small tournaments built through the services."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import User
from django.utils import timezone, translation

from tournaments import services

RATINGS = [2412, 2380, 2351, 2330, 2301, 2290, 2255, 2230, 2204, 2190, 2150, 2101, 2050, 1998, 1950]


@pytest.fixture(autouse=True)
def _fresh_caches(settings):
    """Each test starts with no cached page or version in this process (the Django cache keys
    hold the version's time to the microsecond, so they never meet another test's), sends its
    live events on a channel of its own, and computes nothing in background threads."""
    from tournaments import pagecache, versioning

    settings.LIVE_WARM = False
    settings.LIVE_CHANNEL_PREFIX = f"test-{os.getpid()}"
    versioning.forget()
    pagecache.clear_local()
    yield
    versioning.forget()
    pagecache.clear_local()


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
