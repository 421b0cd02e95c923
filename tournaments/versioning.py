"""A version number per tournament, raised once by every change: the key of the cached pages
(issue 16).

The number lives in ``PublicVersion``, one row per tournament. The write path of the services
(``tournaments.services.write``) raises it once in each transaction that changes a tournament,
so a reader never sees new data under an old version, and after the commit tells the live pages
(``tournaments.live``) and has the standings computed again (``tournaments.pagecache``). A
change made around the services (a shell, a raw SQL load) raises nothing: it is seen when the
next change through the services raises the version.

A change that cannot change the standings (a result in a round that is not complete before nor
after it: the standings count complete rounds only) raises the number but leaves the standings'
version (``Current.standings_key``) where it was, so the standings are not computed again.

Reading the version costs one query, and none while this process's copy is younger than
``settings.LIVE_VERSION_TTL`` seconds: a change made by this process drops the copy at once, a
change made by another process drops it when the event arrives through Redis
(``tournaments.live``), and without Redis after the TTL at the latest.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Max, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournaments.models import PublicVersion, Tournament


@dataclass(frozen=True)
class Current:
    """A tournament's version as read: its number and when it was raised; and the version
    whose change last could change the standings (the same, or an older one)."""

    tournament_id: int
    number: int
    changed_at: datetime
    standings_number: int | None = None
    standings_changed_at: datetime | None = None

    @property
    def key(self) -> str:
        """Unique across databases too: the microsecond of the change goes with the number."""
        return _key(self.tournament_id, self.number, self.changed_at)

    @property
    def standings_key(self) -> str:
        """The key of the version that last could change the standings: the same as long as
        only results of rounds that do not count yet change."""
        if self.standings_number is None or self.standings_changed_at is None:
            return self.key
        return _key(self.tournament_id, self.standings_number, self.standings_changed_at)


def _key(tournament_id: int, number: int, changed_at: datetime) -> str:
    micros = int(changed_at.timestamp() * 1_000_000)
    return f"t{tournament_id}.{number}.{micros}"


_FIELDS = ("number", "changed_at", "standings_number", "standings_changed_at")


_memo: dict[int, tuple[float, Current]] = {}
_memo_lock = threading.Lock()


def _ttl() -> float:
    return float(getattr(settings, "LIVE_VERSION_TTL", 1.0))


def current(tournament_id: int, *, at_least: int | None = None) -> Current | None:
    """The tournament's version, None when there is no such tournament.

    ``at_least``: a version number the caller knows exists (a live page told of it), so a copy
    older than that is read again.
    """
    now = time.monotonic()
    hit = _memo.get(tournament_id)
    if (
        hit is not None
        and now - hit[0] < _ttl()
        and (at_least is None or hit[1].number >= at_least)
    ):
        return hit[1]
    row = PublicVersion.objects.filter(pk=tournament_id).values_list(*_FIELDS).first()
    if row is None:
        if not Tournament.objects.filter(pk=tournament_id).exists():
            return None
        # A tournament saved without signals (a raw SQL load): start its count now.
        version, _ = PublicVersion.objects.get_or_create(
            tournament_id=tournament_id, defaults={"changed_at": timezone.now()}
        )
        row = tuple(getattr(version, name) for name in _FIELDS)
    found = Current(tournament_id, *row)
    if not transaction.get_connection().in_atomic_block:
        # Inside a transaction the row may hold a raise not yet committed: keep no copy of it.
        with _memo_lock:
            _memo[tournament_id] = (now, found)
    return found


def forget(tournament_id: int | None = None, *, below: int | None = None) -> None:
    """Drop this process's copy of a version (of all of them with None); with ``below``, only a
    copy older than that version number (a late message changes nothing newer)."""
    with _memo_lock:
        if tournament_id is None:
            _memo.clear()
        elif below is None:
            _memo.pop(tournament_id, None)
        else:
            hit = _memo.get(tournament_id)
            if hit is not None and hit[1].number < below:
                del _memo[tournament_id]


@dataclass(frozen=True)
class SiteVersion:
    key: str
    changed_at: datetime | None


def site() -> SiteVersion:
    """The version of the list of all tournaments, in one query: it changes with any of them."""
    row = PublicVersion.objects.aggregate(
        n=Count("pk"), top=Max("pk"), total=Sum("number"), at=Max("changed_at")
    )
    at = row["at"]
    micros = int(at.timestamp() * 1_000_000) if at else 0
    return SiteVersion(f"all.{row['n']}.{row['top']}.{row['total']}.{micros}", at)


# ---------------------------------------------------------------------------------------------
# Raising the version


def bump(tournament_id: int, *, standings: bool = True) -> None:
    """Raise a tournament's version in the current transaction (the write path calls it once a
    transaction: ``tournaments.services.write``). ``standings``: whether the change can change
    the standings; if not, they keep the version they had (one statement either way)."""
    if standings:
        kept = {"standings_number": None, "standings_changed_at": None}
    else:  # the right-hand sides read the row as it was before this statement
        kept = {
            "standings_number": Coalesce("standings_number", "number"),
            "standings_changed_at": Coalesce("standings_changed_at", "changed_at"),
        }
    PublicVersion.objects.filter(pk=tournament_id).update(
        number=F("number") + 1, changed_at=timezone.now(), **kept
    )
    forget(tournament_id)


def standings_changed(tournament_id: int) -> None:
    """The transaction under way, whose raise kept the standings' version, also makes a change
    that can change them: they take the new version."""
    PublicVersion.objects.filter(pk=tournament_id, standings_number__isnull=False).update(
        standings_number=None, standings_changed_at=None
    )
    forget(tournament_id)


def start(tournament_id: int) -> None:
    """Give a new tournament its version (number 1)."""
    PublicVersion.objects.get_or_create(
        tournament_id=tournament_id, defaults={"changed_at": timezone.now()}
    )
