"""The audited, locked write path: every change of a tournament's state goes through it.

A service opens a transaction, takes the tournament row with :func:`locked` (two arbiters or two
clicks are served one after the other), checks the rules against the data as stored now, writes,
and records what it did with :func:`audit` (who, what, before, after, the article applied).
A change refused raises ``ServiceError`` with a sentence an arbiter can read.

Taking the row raises the tournament's version once in the transaction (the key of its cached
pages, ``tournaments.versioning``); once committed, the standings and rounds of the new version
are computed, and the live pages told of the version computed (``changed``). Nothing else
raises it: no signal, no model hook.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connection, models, transaction
from django.utils.translation import gettext as _

from pairing.text import Text
from tournaments import live, pagecache, versioning
from tournaments.models import AuditEntry, Player, Round, Tournament
from tournaments.services.errors import ServiceError


def page_value(value) -> str:
    """Return the text an edit page carries for a stored value, to tell later whether the value
    changed after the page was loaded (optimistic concurrency: nothing is overwritten unseen)."""
    return "" if value is None else str(value)


def page_values(instance: models.Model, fields) -> dict[str, str]:
    """Return ``page_value`` of each of the instance's fields, by name."""
    return {name: page_value(getattr(instance, name)) for name in fields}


def audit_entry(
    tournament: Tournament,
    actor,
    action: str,
    *,
    round_number: int | None = None,
    player: Player | None = None,
    article: str = "",
    reason: str = "",
    before=None,
    after=None,
) -> AuditEntry:
    """An entry of the audit trail, not yet saved (``audit`` saves one; a service that changes
    many rows at once saves many with ``bulk_create``).

    ``reason`` is the arbiter's words, or a ``pairing.text.Text`` when the services add to them:
    kept in English and as data, to be said in each reader's language (``tournaments.audit``);
    so is every ``Text`` in ``before`` and ``after`` (the rows of a round)."""
    return AuditEntry(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        round_number=round_number,
        player=player,
        article=article,
        reason=str(reason),
        reason_text=reason.as_data() if isinstance(reason, Text) else None,
        before=_stored(before),
        after=_stored(after),
    )


def _stored(value):
    """A value as the audit trail keeps it: each sentence as data."""
    if isinstance(value, Text):
        return value.as_data()
    if isinstance(value, list):
        return [_stored(v) for v in value]
    if isinstance(value, dict):
        return {k: _stored(v) for k, v in value.items()}
    return value


def audit(tournament: Tournament, actor, action: str, **fields) -> AuditEntry:
    """Record one change in the audit trail: who, what, the round or player, the article
    applied, the reason, the data before and after (``audit_entry``'s fields)."""
    entry = audit_entry(tournament, actor, action, **fields)
    entry.save()
    return entry


def player_data(player: Player) -> dict:
    return {
        "name": player.name,
        "tpn": player.tpn,
        "rating": player.rating,
        "title": player.title,
        "federation": player.federation,
        "fide_id": player.fide_id,
        "arrival_round": player.arrival_round,
        "withdrawn_from_round": player.withdrawn_from_round,
    }


def locked(tournament: Tournament, *, change: bool = True) -> Tournament:
    """Return the tournament row locked until the end of the transaction, whose change raises
    the tournament's version (once, however many rows it writes: ``changed``).

    ``change=False``: the caller raises it itself once it knows what it changes (``changed``
    with ``standings``), or changes nothing."""
    t = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if change:
        changed(t.pk)
    return t


@contextmanager
def long_work() -> Iterator[None]:
    """A transaction whose statements may run longer than a request's (``DB_STATEMENT_TIMEOUT``
    bounds those): a pairing job reads and saves a 5000-player round. PostgreSQL's ``SET
    LOCAL`` lifts the limit to ``JOB_STATEMENT_TIMEOUT`` (0: none) until the transaction ends,
    so the connection is left as it was for the next request of the thread."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT set_config('statement_timeout', %s, true)",
                    [str(getattr(settings, "JOB_STATEMENT_TIMEOUT", 0))],
                )
        yield


def created(tournament: Tournament) -> None:
    """A new tournament: its version starts, and the list of all tournaments changes."""
    versioning.start(tournament.pk)
    transaction.on_commit(_Committed(tournament.pk))


def changed(tournament_id: int, *, standings: bool = True) -> None:
    """Raise the tournament's version in this transaction, once; after the commit the pages of
    the new version are computed (once however many changes come meanwhile:
    ``tournaments.pagecache.refresh_soon``), then the live pages told of it.

    ``standings=False``: the change cannot change the standings (a result in a round that does
    not count, before or after it): they keep their version, and are not computed again."""
    hook = _registered(tournament_id)
    if hook is None:
        versioning.bump(tournament_id, standings=standings)
        transaction.on_commit(_Committed(tournament_id, standings))
    elif standings and not hook.standings:
        # raised by an earlier change of the same transaction, one that kept the standings
        versioning.standings_changed(tournament_id)


def urgent(tournament_id: int) -> None:
    """The change of this transaction is one the spectators wait for (a round's pairings
    published or taken back): its pages are computed as soon as it commits
    (``pagecache.refresh_soon``'s ``urgent``). Call after the change was registered
    (``locked``, ``changed``)."""
    hook = _registered(tournament_id)
    assert hook is not None, "urgent() before the change"
    hook.urgent = True


class _Committed:
    """What a committed change of one tournament sets off (one per transaction).

    Open pages are told only of versions computed (``tournaments.queries.refresh`` tells them),
    so that a burst of results makes as many renders for the spectators as computations, not
    one a result (issue 26). The other processes drop their copy of the version at once
    (``live.changed``): an arbiter's next page, served by any of them, shows the change.
    """

    def __init__(self, tournament_id: int, standings: bool = True) -> None:
        self.tournament_id = tournament_id
        self.standings = standings
        """Whether the raise of the version took the standings with it."""
        self.urgent = False
        """Whether its pages are computed at once (``urgent``)."""

    def __call__(self) -> None:
        versioning.forget(self.tournament_id)
        version = versioning.current(self.tournament_id)
        if version is None:  # deleted meanwhile
            return
        live.changed(self.tournament_id, version.number)
        if not pagecache.refresh_soon(self.tournament_id, urgent=self.urgent):
            live.publish(self.tournament_id, version.number)  # nothing computes: tell at once


def _registered(tournament_id: int) -> _Committed | None:
    """The commit's effects for this tournament the transaction under way has already.

    A hook registered in a block that ended (a savepoint released: an earlier service called
    inside a test's transaction, or before this one in an outer block) counts for that block
    only; one registered in a block still open, this one or one around it, counts for it."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return None
    open_blocks = set(connection.savepoint_ids)
    return next(
        (
            hook
            for savepoints, hook, *_robust in connection.run_on_commit
            if isinstance(hook, _Committed) and hook.tournament_id == tournament_id
            and savepoints <= open_blocks
        ),
        None,
    )


def current_player(t: Tournament, player: Player) -> Player:
    """Return the player as stored now (call with the tournament locked)."""
    current = Player.objects.filter(pk=player.pk, tournament=t).first()
    if current is None:
        raise ServiceError(
            _("%(name)s was removed meanwhile: nothing was done.") % {"name": player.name}
        )
    return current


def changes_from_page(
    instance: models.Model, fields: dict, loaded: dict[str, str] | None, what: str
) -> dict:
    """Return the fields a page changed, or refuse: one of them changed since it was loaded.

    ``loaded`` holds ``page_value`` of each field as the page showed it (None: the caller does
    not say, every field counts as changed). A field the page left as it was is not written, so
    a change made meanwhile by someone else survives; a field changed both on the page and in
    the database since is a conflict, and nothing is saved.
    """
    if loaded is None:
        return dict(fields)
    changed, stale = {}, []
    for key, value in fields.items():
        was = loaded.get(key)
        if was is not None and page_value(value) == was:
            continue
        now = page_value(getattr(instance, key))
        if was is None or now == was:
            changed[key] = value
        elif now != page_value(value):
            label = instance._meta.get_field(key).verbose_name
            empty = _("(empty)")
            stale.append(
                _("%(field)s is now %(now)r, your page showed %(was)r")
                % {"field": label, "now": now or empty, "was": was or empty}
            )
    if stale:
        raise ServiceError(
            _(
                "%(what)s was changed meanwhile by someone else (%(fields)s): nothing was "
                "saved. Reload the page and make your change again."
            ) % {"what": what, "fields": "; ".join(stale)}
        )
    return changed

def locked_round(rnd: Round, *, change: bool = True) -> tuple[Tournament, Round]:
    """Lock the tournament and return it with the round as stored now (``change``: as
    ``locked``'s).

    A round that is gone was unpaired or paired again by another click or arbiter meanwhile.
    """
    t = locked(rnd.tournament, change=change)
    current = Round.objects.light().filter(pk=rnd.pk).first()
    if current is None:
        raise ServiceError(round_changed_meanwhile(rnd.number))
    return t, current


def round_changed_meanwhile(number: int) -> str:
    return _(
        "Round %(number)s was changed meanwhile (unpaired or paired again, by another click or "
        "arbiter): nothing was done. Check the round as it is now."
    ) % {"number": number}
