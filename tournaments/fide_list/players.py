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


def players_in_list(ids: Iterable[int]) -> QuerySet[FidePlayer]:
    return FidePlayer.objects.filter(fide_id__in=list(ids))
