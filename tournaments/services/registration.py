"""The public registration of an event (issue 27): opened and closed by its arbiters, each
entry waiting for their approval, the player told by e-mail, no one entered twice.

An approved entry becomes a player as one registered by an arbiter does: before round 1
numbered in the initial order (C.04.2 Art. 2.2), afterwards a late entry (Art. 2.4).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.fide_list.players import player_fields
from tournaments.models import FidePlayer, Player, RegistrationEntry, Tournament
from tournaments.names import fold
from tournaments.sentences import labelled
from tournaments.services.errors import ServiceError
from tournaments.services.players import admit_late_entry, clean_player_fields, register_players
from tournaments.services.write import audit, locked

logger = logging.getLogger(__name__)

ENTRY_FIELDS = ("name", "fide_id", "federation", "birth_year", "email")


def set_registration_open(tournament: Tournament, actor, is_open: bool) -> Tournament:
    """Open or close the event's public registration page; recorded in the audit trail."""
    with transaction.atomic():
        t = locked(tournament)
        if is_open and t.next_round_number() > t.rounds:
            raise ServiceError(_("All rounds have been paired: no more entries."))
        if t.registration_open != is_open:
            t.registration_open = is_open
            t.save(update_fields=["registration_open", "updated_at"])
            audit(t, actor, "open registration" if is_open else "close registration",
                  before=not is_open, after=is_open)
    tournament.refresh_from_db()
    return t


def submit_entry(tournament: Tournament, **fields) -> RegistrationEntry:
    """Record a player's entry from the public page, to wait for an arbiter's approval, and
    send the confirmation; or refuse: registration closed, a FIDE ID not in the list, a
    player entered already (same FIDE ID, or same name and birth year)."""
    entry = RegistrationEntry(**{key: fields.get(key) for key in ENTRY_FIELDS})
    entry.name = " ".join((entry.name or "").split())
    entry.fide_id = (entry.fide_id or "").strip()
    entry.federation = (entry.federation or "").strip().upper()
    entry.email = (entry.email or "").strip()
    entry.language = translation.get_language() or settings.LANGUAGE_CODE
    with transaction.atomic():
        # The row is taken so that two entries of one player sent at once are seen one after the
        # other; a waiting entry changes no page, so the tournament's version stays.
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not t.registration_open:
            raise ServiceError(_("Registration for this event is closed."))
        entry.tournament = t
        _take_from_list(entry)
        _check(entry)
        refuse_double_entry(t, entry.fide_id, entry.name, entry.birth_year)
        entry.save()
        transaction.on_commit(lambda: _mail(entry, received=True))
    return entry


def _take_from_list(entry: RegistrationEntry) -> None:
    """Look the FIDE ID up in FIDE's list, when one is loaded: the list's name, federation and
    birth year are taken (its spelling is the one the rating report needs)."""
    if not entry.fide_id or not FidePlayer.objects.exists():
        return
    listed = (
        FidePlayer.objects.filter(fide_id=int(entry.fide_id)).first()
        if entry.fide_id.isascii() and entry.fide_id.isdigit() and len(entry.fide_id) <= 11
        else None
    )
    if listed is None:
        raise ServiceError(labelled(_("FIDE ID"), _(
            "%(id)s is not in FIDE's rating list: check it, or leave it empty."
        ) % {"id": entry.fide_id[:11]}))
    entry.name = listed.name
    if listed.federation.isalpha():
        entry.federation = listed.federation
    if listed.birth_year and listed.birth_year >= 1900:
        entry.birth_year = listed.birth_year


def _check(entry: RegistrationEntry) -> None:
    try:
        entry.full_clean(exclude=["tournament", "player", "state", "language"])
    except ValidationError as error:
        problems = [
            labelled(RegistrationEntry._meta.get_field(field).verbose_name, " ".join(messages))
            for field, messages in error.message_dict.items()
        ]
        raise ServiceError(_("The entry was not sent:") + " " + " ".join(problems),
                           problems) from None


def refuse_double_entry(
    t: Tournament, fide_id: str, name: str, birth_year: int | None, *,
    exclude: RegistrationEntry | None = None,
) -> None:
    """Refuse a player registered or entered already in the event: the same FIDE ID, or the
    same name (whatever its accents and case) and birth year."""
    entries = t.entries.exclude(state=RegistrationEntry.State.REJECTED)
    if exclude is not None:
        entries = entries.exclude(pk=exclude.pk)
    if fide_id and (
        t.players.filter(fide_id=fide_id).exists() or entries.filter(fide_id=fide_id).exists()
    ):
        raise ServiceError(_(
            "A player with FIDE ID %(id)s is registered in this event already, or waits for "
            "the arbiter's approval: one entry is enough."
        ) % {"id": fide_id})
    key = fold(" ".join(name.replace(",", " ").split()))
    same_year = [
        *t.players.filter(birth_year=birth_year).values_list("name", flat=True),
        *entries.filter(birth_year=birth_year).values_list("name", flat=True),
    ] if birth_year else []
    if any(fold(" ".join(other.replace(",", " ").split())) == key for other in same_year):
        raise ServiceError(_(
            "%(name)s, born in %(year)s, is registered in this event already, or waits for the "
            "arbiter's approval: one entry is enough."
        ) % {"name": name, "year": birth_year})


def approve_entry(
    entry: RegistrationEntry, actor, *, arrival_round: int | None = None
) -> Player:
    """Make a waiting entry a player: before round 1 numbered in the initial order (C.04.2 Art.
    2.2); afterwards a late entry from ``arrival_round`` (the next round unless said, Art. 2.4).
    The rating, title and sex come from FIDE's list when the FIDE ID is in it."""
    with transaction.atomic():
        t = locked(entry.tournament)
        current = _waiting(t, entry)
        refuse_double_entry(t, current.fide_id, current.name, current.birth_year,
                            exclude=current)
        data = clean_player_fields(player_data_of(current, t))
        if t.round_set.exists():
            player = admit_late_entry(
                t, actor, arrival_round=arrival_round or t.next_round_number(), **data
            )
        else:
            (player,) = register_players(t, actor, [data])
        _decide(t, actor, current, RegistrationEntry.State.APPROVED, player)
    return player


def reject_entry(entry: RegistrationEntry, actor) -> RegistrationEntry:
    """Refuse a waiting entry; the player is told by e-mail."""
    with transaction.atomic():
        t = locked(entry.tournament)
        current = _waiting(t, entry)
        _decide(t, actor, current, RegistrationEntry.State.REJECTED, None)
    return current


def player_data_of(entry: RegistrationEntry, t: Tournament) -> dict:
    """The player's fields of an entry, with the rating, title and sex of FIDE's list."""
    data = {
        "name": entry.name, "fide_id": entry.fide_id, "federation": entry.federation,
        "birth_year": entry.birth_year,
    }
    listed = FidePlayer.objects.filter(fide_id=int(entry.fide_id)).first() if (
        entry.fide_id.isascii() and entry.fide_id.isdigit()
    ) else None
    if listed is not None:
        fields = player_fields(listed, t.rating_type)
        data.update({key: fields[key] for key in ("rating", "title", "sex")})
    return data


def _waiting(t: Tournament, entry: RegistrationEntry) -> RegistrationEntry:
    current = t.entries.select_for_update().filter(pk=entry.pk).first()
    if current is None:
        raise ServiceError(_("This entry is not one of this event's."))
    if current.state != RegistrationEntry.State.WAITING:
        raise ServiceError(
            _("The entry of %(name)s was %(state)s already.")
            % {"name": current.name, "state": current.get_state_display().lower()}
        )
    return current


def _decide(t, actor, entry: RegistrationEntry, state: str, player: Player | None) -> None:
    entry.state = state
    entry.player = player
    entry.decided_at = timezone.now()
    entry.save(update_fields=["state", "player", "decided_at"])
    action = "approve entry" if state == RegistrationEntry.State.APPROVED else "reject entry"
    audit(t, actor, action, player=player, after={"name": entry.name, "fide_id": entry.fide_id})
    transaction.on_commit(lambda: _mail(entry))


def _mail(entry: RegistrationEntry, *, received: bool = False) -> None:
    """Tell the player, in the language of their entry, that it was received, approved or
    rejected. A mail that cannot be sent is logged; the entry stands."""
    event = entry.tournament.name
    with translation.override(entry.language or settings.LANGUAGE_CODE):
        if received:
            subject = _("Entry received: %(event)s") % {"event": event}
            body = _(
                "Dear %(name)s,\n\nYour entry to %(event)s was received. It waits for the "
                "arbiter's approval: you will be told by e-mail.\n"
            )
        elif entry.state == RegistrationEntry.State.APPROVED:
            subject = _("Entry approved: %(event)s") % {"event": event}
            body = _("Dear %(name)s,\n\nThe arbiter approved your entry to %(event)s.\n")
        else:
            subject = _("Entry not accepted: %(event)s") % {"event": event}
            body = _(
                "Dear %(name)s,\n\nThe arbiter did not accept your entry to %(event)s. Ask the "
                "organisers if you wish to know why.\n"
            )
    try:
        send_mail(subject, body % {"name": entry.name, "event": event}, None, [entry.email])
    except Exception:  # an unreachable mail server must not undo the entry recorded
        logger.exception("Mail to entry %s not sent", entry.pk)
