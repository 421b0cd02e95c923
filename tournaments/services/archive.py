"""An event archive: one tournament whole, as a versioned JSON file, to move it to another
server or keep it (``manage.py export_event``, the dashboard's download; read back by
``tournaments.services.archive_import``).

The format (version 1), a JSON object:

- ``format``: ``"swiss-event-archive"``; ``version``: 1, raised whenever a server of an older
  version could not read the file right (an older server refuses a newer version);
  ``exported_at``: when it was written (ISO 8601, UTC);
- ``tournament``: every field of the tournament (settings, time zone, point system, tie-break
  list, status, initial colour, when it was created and last changed), by the model's field
  name;
- ``arbiters``: the user names of its arbiters, for the record (an import gives the rights to
  the importing user only);
- ``players``: every player with their fields (TPN, arrival round of a late entry, round of a
  withdrawal) and an ``id``;
- ``rounds``: every round with its fields (state, the engine's explanation, when it was paired,
  published, finished) and its ``games``, each row as stored (board number, ``white`` and
  ``black`` by player ``id``, results, the Art. 4.3 rating-only result and colours, the note of
  a pairing made by hand), in the order they were written;
- ``bye_requests``: the requested byes and announced absences (``player`` by ``id``);
- ``audit``: the audit trail, oldest first: when, who (``actor``, a user name), what, the round,
  the player (``id``), the article, the reason as written and as data (``reason_text``), the
  data before and after, as stored.

Values are as the models store them: points in tenths, dates and times in ISO 8601. An ``id``
is the player's number on the server that wrote the file, used only to refer to the player
within it; an import gives new numbers. Pairing jobs are not kept. A field missing from a
file takes its default on import; a field the importing server does not know is refused.
"""

from __future__ import annotations

import datetime
import json

from django.db import models
from django.utils import timezone
from django.utils.text import slugify

from tournaments.models import AuditEntry, ByeRequest, Tournament

FORMAT = "swiss-event-archive"
VERSION = 1
"""The version of the format this server writes, and the newest it reads."""

RENUMBERED = "renumber players"
"""The audit action whose ``before`` and ``after`` hold TPNs by player id (the ids change on
import: so do those keys)."""


def kept_fields(model: type[models.Model]) -> list[models.Field]:
    """The fields of a model the archive holds as values: all but its id and its references to
    other rows (those are written by ``id``, or left out: the tournament, the round)."""
    return [f for f in model._meta.concrete_fields if not f.primary_key and not f.is_relation]


def values(instance: models.Model) -> dict:
    """A row's kept fields, as JSON values."""
    out = {}
    for field in kept_fields(type(instance)):
        value = getattr(instance, field.attname)
        if isinstance(value, (datetime.date, datetime.datetime)):
            value = value.isoformat()
        out[field.name] = value
    return out


def export_event(tournament: Tournament) -> str:
    """Return the tournament as an event archive (JSON text)."""
    return json.dumps(event_data(tournament), ensure_ascii=False, indent=1) + "\n"


def archive_filename(t: Tournament) -> str:
    """Return ``<slug>-event.json`` (the tournament's name, or its id)."""
    return f"{slugify(t.name) or f'tournament-{t.pk}'}-event.json"


def event_data(t: Tournament) -> dict:
    """The tournament as the archive's JSON object."""
    players = list(t.players.order_by("pk"))
    rounds = list(t.round_set.order_by("number").prefetch_related("games"))
    requests = ByeRequest.objects.filter(player__tournament=t).order_by("pk")
    entries = AuditEntry.objects.filter(tournament=t).select_related("actor").order_by("at", "pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().astimezone(datetime.UTC).isoformat(),
        "tournament": values(t),
        "arbiters": sorted(u.get_username() for u in t.arbiters.all()),
        "players": [{"id": p.pk, **values(p)} for p in players],
        "rounds": [
            {
                **values(rnd),
                "games": [
                    {"white": g.white_id, "black": g.black_id, **values(g)}
                    for g in sorted(rnd.games.all(), key=lambda g: g.pk)
                ],
            }
            for rnd in rounds
        ],
        "bye_requests": [{"player": r.player_id, **values(r)} for r in requests],
        "audit": [
            {
                "actor": e.actor.get_username() if e.actor else None,
                "player": e.player_id,
                **values(e),
            }
            for e in entries
        ],
    }
