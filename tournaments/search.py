"""Find players of a tournament by name, FIDE ID or pairing number (dashboard, public list)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournaments.models import Player
from tournaments.names import Folded, fold

MAX_QUERY = 100


def search_players(players: QuerySet[Player], query: str) -> QuerySet[Player]:
    """Return the players matching ``query``: a number is a TPN or the start of a FIDE ID;
    words must each appear in the name, in any order, case and accents ignored ("celik"
    finds Çelik)."""
    query = " ".join(query.split())[:MAX_QUERY]
    if not query:
        return players
    if query.isascii() and query.isdigit():
        return players.filter(Q(tpn=int(query)) | Q(fide_id__startswith=query))
    condition = Q()
    for word in query.replace(",", " ").split():
        condition &= Q(folded_name__contains=fold(word))
    return players.annotate(folded_name=Folded("name")).filter(condition)
