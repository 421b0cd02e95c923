"""A version number per tournament, raised by every change: the key of the cached pages (issue 16).

The number lives in ``PublicVersion``, one row per tournament, and is raised in the transaction of
the change itself, so a reader never sees new data under an old version. Signals on every model
of the app raise it, so a change made anywhere (a service, the admin, the shell) counts; writes
that send no signal (``bulk_create``, ``QuerySet.update``) are made by services that also write an
``AuditEntry``, which does. A transaction raises each tournament's version once, however many
rows it writes.

Reading the version costs one query, and none while this process's copy is younger than
``settings.LIVE_VERSION_TTL`` seconds: a change made by this process drops the copy at once, a
change made by another process drops it when the event arrives through Redis
(``tournaments.live``), and without Redis after the TTL at the latest.

Once a change is committed, ``after_commit`` tells the live pages (``tournaments.live``) and
computes the standings of the new version in a background thread (``tournaments.pagecache``).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Max, Sum
from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver
from django.utils import timezone

from tournaments.models import (
    AuditEntry,
    ByeRequest,
    Game,
    Player,
    PublicVersion,
    Round,
    Tournament,
)


@dataclass(frozen=True)
class Current:
    """A tournament's version as read: its number and when it was raised."""

    tournament_id: int
    number: int
    changed_at: datetime

    @property
    def key(self) -> str:
        """Unique across databases too: the microsecond of the change goes with the number."""
        micros = int(self.changed_at.timestamp() * 1_000_000)
        return f"t{self.tournament_id}.{self.number}.{micros}"


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
    row = PublicVersion.objects.filter(pk=tournament_id).values_list("number", "changed_at").first()
    if row is None:
        if not Tournament.objects.filter(pk=tournament_id).exists():
            return None
        # A tournament saved without signals (a raw SQL load): start its count now.
        version, _ = PublicVersion.objects.get_or_create(
            tournament_id=tournament_id, defaults={"changed_at": timezone.now()}
        )
        row = (version.number, version.changed_at)
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


class _Committed:
    """The on-commit hook of one tournament's change (one per transaction and tournament)."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id

    def __call__(self) -> None:
        after_commit(self.tournament_id)


def _hooked(tournament_id: int) -> bool:
    """Whether this transaction already has the on-commit hook of this tournament."""
    connection = transaction.get_connection()
    for _sids, func, *_ in getattr(connection, "run_on_commit", ()):
        if isinstance(func, _Committed) and func.tournament_id == tournament_id:
            return True
    return False


def bump(tournament_id: int | None) -> None:
    """Raise a tournament's version in the current transaction."""
    if tournament_id is None:
        return
    PublicVersion.objects.filter(pk=tournament_id).update(
        number=F("number") + 1, changed_at=timezone.now()
    )
    forget(tournament_id)
    if not (transaction.get_connection().in_atomic_block and _hooked(tournament_id)):
        transaction.on_commit(_Committed(tournament_id))


def after_commit(tournament_id: int) -> None:
    """A change is committed: drop the copy, tell the live pages, compute the new standings."""
    from tournaments import live, pagecache

    forget(tournament_id)
    version = current(tournament_id)
    if version is None:  # deleted
        return
    live.publish(tournament_id, version.number)
    pagecache.warm_soon(tournament_id)


# ---------------------------------------------------------------------------------------------
# Signals: every model of the app


_deleting = threading.local()
"""Rounds and players being deleted with their rows (pre_delete comes first for all of them),
so that the games and byes deleted with them need no query to find their tournament."""


def _parents(kind: str) -> dict[int, int]:
    if not hasattr(_deleting, kind):
        setattr(_deleting, kind, {})
    return getattr(_deleting, kind)


def _tournament_of(instance) -> int | None:
    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, (Player, Round, AuditEntry)):
        return instance.tournament_id
    if isinstance(instance, Game):
        if Game.round.is_cached(instance):
            return instance.round.tournament_id
        known = _parents("rounds").get(instance.round_id)
        if known is not None:
            return known
        rounds = Round.objects.filter(pk=instance.round_id)
        return rounds.values_list("tournament_id", flat=True).first()
    if isinstance(instance, ByeRequest):
        if ByeRequest.player.is_cached(instance):
            return instance.player.tournament_id
        known = _parents("players").get(instance.player_id)
        if known is not None:
            return known
        players = Player.objects.filter(pk=instance.player_id)
        return players.values_list("tournament_id", flat=True).first()
    return None


_WATCHED = (Tournament, Player, Round, Game, ByeRequest, AuditEntry)


@receiver(post_save)
def _saved(sender, instance, created=False, raw=False, **kwargs) -> None:
    if sender not in _WATCHED:
        return
    if sender is Tournament and created:
        PublicVersion.objects.get_or_create(
            tournament_id=instance.pk, defaults={"changed_at": timezone.now()}
        )
        transaction.on_commit(_Committed(instance.pk))
        return
    bump(_tournament_of(instance))


@receiver(pre_delete)
def _deleting_parent(sender, instance, **kwargs) -> None:
    # Django sends pre_delete for every row of a cascade before deleting any: the games and
    # byes deleted with their round or player are then counted by it, without a query each.
    if sender is Tournament:
        _parents("tournaments")[instance.pk] = instance.pk
    elif sender is Round:
        _parents("rounds")[instance.pk] = instance.tournament_id
    elif sender is Player:
        _parents("players")[instance.pk] = instance.tournament_id


@receiver(post_delete)
def _deleted(sender, instance, **kwargs) -> None:
    if sender not in _WATCHED:
        return
    if sender is Tournament:
        _parents("tournaments").pop(instance.pk, None)
        forget(instance.pk)
        transaction.on_commit(_Committed(instance.pk))
        return
    tournament_id = _tournament_of(instance)
    if sender is Round:
        _parents("rounds").pop(instance.pk, None)
    elif sender is Player:
        _parents("players").pop(instance.pk, None)
    elif sender is Game and instance.round_id in _parents("rounds"):
        return  # deleted with its round, which raises the version
    elif sender is ByeRequest and instance.player_id in _parents("players"):
        return  # deleted with its player
    if tournament_id in _parents("tournaments"):
        return  # deleted with its tournament
    bump(tournament_id)
