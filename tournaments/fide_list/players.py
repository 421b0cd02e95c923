"""The list's players: searched by FIDE ID or name, registered in a tournament, and its
players' ratings, titles and federations refreshed from it before round 1 (C.04.2 Art. 2.3)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Collate, Upper
from django.utils.translation import gettext

from tournaments.models import FidePlayer, Player, Tournament
from tournaments.names import fold


def search(query: str, *, limit: int = 20) -> list[FidePlayer]:
    """Players of the list by FIDE ID, or by name: typed from the start (``Carlsen, M``) in
    alphabetical order, then names holding every word (``magnus carlsen``; one word of three
    letters at least)."""
    query = " ".join(query.split())[:100]
    if not query:
        return []
    if query.isascii() and query.isdigit():
        return list(FidePlayer.objects.filter(fide_id=int(query))[:limit])
    found = list(start_query(query)[:limit])
    words = [w for w in re.split(r"[\s,]+", query) if w]
    # Words anywhere need one of three letters at least: the trigram index reads nothing shorter.
    if len(found) < limit and max(map(len, words), default=0) >= 3:
        seen = {p.fide_id for p in found}
        found += list(words_query(words).exclude(fide_id__in=seen)[: limit - len(found)])
    return found


def search_lines(text: str, *, limit: int = 10) -> list[tuple[str, list[FidePlayer]]]:
    """Several searches at once, one a line (a queue at the desk: ``Carlsen, M`` on one line,
    ``Lagno`` on the next); a line of FIDE IDs alone may hold several, split by spaces or
    commas. Each query with the players found, at most 100 queries."""
    queries: list[str] = []
    for line in text.splitlines():
        words = [w for w in re.split(r"[\s,;]+", line) if w]
        if words and all(w.isascii() and w.isdigit() for w in words):
            queries += words
        elif words:
            queries.append(line.strip())
    return [(q, search(q, limit=limit)) for q in queries[:100]]


def start_query(query: str) -> QuerySet[FidePlayer]:
    """Names starting with ``query`` (any case), alphabetically. FIDE writes its names in
    plain Latin letters: a query typed with accents is read without them (Çelik: CELIK)."""
    key = Upper("name")
    if connection.vendor == "postgresql":
        key = Collate(key, "C")  # the order of the index fideplayer_name_start
    players = FidePlayer.objects.annotate(key=key)
    return players.filter(key__startswith=fold(query).upper()).order_by("key")


def words_query(words: list[str]) -> QuerySet[FidePlayer]:
    """Names holding every word (any case), in no order: the first found are enough (sorting
    them all would read them all)."""
    condition = Q()
    for word in words:
        condition &= Q(name__icontains=fold(word))
    return FidePlayer.objects.filter(condition).order_by()


def player_fields(entry: FidePlayer, rating_type: str) -> dict:
    """The fields of a tournament player registered from the list (``services.PLAYER_FIELDS``)."""
    return {
        "name": entry.name,
        "fide_id": str(entry.fide_id),
        "title": entry.best_title if entry.best_title.isalpha() else "",
        "rating": entry.rating(rating_type),
        "federation": entry.federation if entry.federation.isalpha() else "",
        "sex": {"M": "m", "F": "w"}.get(entry.sex, ""),
        "birth_year": entry.birth_year if entry.birth_year and entry.birth_year >= 1900 else None,
    }


def entries_for(tournament: Tournament) -> dict[str, FidePlayer]:
    """The list's entries of a tournament's players with a FIDE ID, by that ID (as text)."""
    ids = [int(p) for p in tournament.players.exclude(fide_id="").values_list("fide_id", flat=True)
           if p.isdigit()]
    return {str(e.fide_id): e for e in FidePlayer.objects.filter(fide_id__in=ids)}


def refresh_players(tournament: Tournament, actor) -> list[Player]:
    """Take ratings, titles and federations from the list before round 1 is paired (C.04.2
    Art. 2.3), then number the players again; each change audited. Return the players changed."""
    from tournaments.services import ServiceError
    from tournaments.services.players import renumber
    from tournaments.services.write import audit, locked

    with transaction.atomic():
        t = locked(tournament)
        if t.round_set.exists():
            raise ServiceError(gettext(
                "Round 1 has been paired: ratings are corrected one by one (C.04.2 Art. 4.3.3)."
            ))
        entries = entries_for(t)
        changed = []
        for player in t.players.all():
            entry = entries.get(player.fide_id)
            if entry is None:
                continue
            fields = player_fields(entry, t.rating_type)
            new = {k: fields[k] for k in ("rating", "title", "federation")}
            before = {k: getattr(player, k) for k in new}
            if before == new:
                continue
            for key, value in new.items():
                setattr(player, key, value)
            player.save(update_fields=list(new))
            changed.append(player)
            audit(
                t, actor, "refresh from FIDE list", player=player, article="C.04.2 2.3",
                before=before, after=new,
            )
        if changed:
            renumber(t)
            t.save(update_fields=["updated_at"])
    return changed


def register_from_list(
    tournament: Tournament, actor, ids: Iterable[int], *, arrival_round: int | None = None
) -> tuple[list[Player], list[str]]:
    """Register the list's players of ``ids`` at once, all or none: before round 1 numbered by
    the initial order (C.04.2 Art. 2.2), afterwards admitted as late entries from
    ``arrival_round`` (Art. 2.4, ``services.admit_late_entry``). Return the players added and
    the names of those already registered (left as they are)."""
    from tournaments.services import ServiceError
    from tournaments.services.players import admit_late_entry, clean_player_fields, register_players
    from tournaments.services.write import locked

    entries = list(players_in_list(ids).order_by("name"))
    if not entries:
        raise ServiceError(gettext("Tick at least one player of the FIDE list."))
    with transaction.atomic():
        t = locked(tournament)  # two arbiters ticking the same player add them once
        registered = set(t.players.exclude(fide_id="").values_list("fide_id", flat=True))
        already = [e.name for e in entries if str(e.fide_id) in registered]
        rows = [
            clean_player_fields(player_fields(e, t.rating_type))
            for e in entries if str(e.fide_id) not in registered
        ]
        if not rows:
            return [], already
        if not t.round_set.exists():
            return register_players(t, actor, rows), already
        if arrival_round is None:
            raise ServiceError(gettext(
                "Round 1 has been paired: say from which round the players arrive "
                "(C.04.2 Art. 2.4)."
            ))
        added = [
            admit_late_entry(t, actor, arrival_round=arrival_round, **row)
            for row in rows
        ]
    return added, already


def players_in_list(ids: Iterable[int]) -> QuerySet[FidePlayer]:
    return FidePlayer.objects.filter(fide_id__in=list(ids))
