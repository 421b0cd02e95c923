"""FIDE's published rating list: read it (TXT or XML, zipped or not), load it, search it, and
refresh a tournament's players from it before round 1 (C.04.2 Art. 2.3).

The files are those of https://ratings.fide.com/download_lists.phtml: the combined list
``players_list_foa.txt`` (fixed columns named by its header line; the single-kind lists such
as ``standard_rating_list.txt`` name the rating column by the month, e.g. ``OCT26``) and the
XML lists (``<playerslist><player><fideid>..``). A file is read as a stream, one player at a
time, never whole: the combined list has more than a million players.

On PostgreSQL the list is loaded with ``COPY`` (psycopg 3) into an emptied table, with its
search indexes (a trigram index for words anywhere in the name, a prefix index for names
typed from the start) built once afterwards; elsewhere rows are inserted in batches.
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Collate, Upper
from django.utils.translation import gettext

from tournaments.models import FidePlayer, Player, RatingType, Tournament
from tournaments.names import fold

FIELDS = [f.attname for f in FidePlayer._meta.concrete_fields]
"""Columns of the table, in model order (``fide_id`` first)."""

# Columns of the TXT lists, by the name the header line gives them.
_TXT_COLUMNS = {
    "ID Number": "fide_id", "Name": "name", "Fed": "federation", "Sex": "sex", "Tit": "title",
    "WTit": "w_title", "OTit": "o_title", "FOA": "foa_title",
    "SRtng": "standard_rating", "SGm": "standard_games", "SK": "standard_k",
    "RRtng": "rapid_rating", "RGm": "rapid_games", "Rk": "rapid_k",
    "BRtng": "blitz_rating", "BGm": "blitz_games", "BK": "blitz_k",
    "B-day": "birth_year", "Flag": "flag",
    # Single-kind lists: the rating column is named by the month (OCT26), see _txt_columns.
    "Gms": "{kind}_games", "K": "{kind}_k",
}
_MONTH = re.compile(r"\A[A-Z]{3}[0-9]{2}\Z")

# Elements of the XML lists.
_XML_FIELDS = {
    "fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
    "title": "title", "w_title": "w_title", "o_title": "o_title", "foa_title": "foa_title",
    "rating": "{kind}_rating", "games": "{kind}_games", "k": "{kind}_k",
    "rapid_rating": "rapid_rating", "rapid_games": "rapid_games", "rapid_k": "rapid_k",
    "blitz_rating": "blitz_rating", "blitz_games": "blitz_games", "blitz_k": "blitz_k",
    "birthday": "birth_year", "flag": "flag",
}

_NUMBERS = frozenset(
    name for name in FIELDS
    if name.endswith(("_rating", "_games", "_k")) or name in ("birth_year",)
)
_WIDTH = {f.attname: f.max_length for f in FidePlayer._meta.concrete_fields if f.max_length}
_OLD_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM",
               "wf": "WFM", "wc": "WCM"}


class FideListError(ValueError):
    """The file is not one of FIDE's lists; the message says where it went wrong."""


def _kind_of(name: str) -> str:
    """The kind of rating of a single-kind list, from its file name (standard by default)."""
    lower = name.lower()
    for kind in (RatingType.RAPID, RatingType.BLITZ):
        if kind in lower:
            return kind
    return RatingType.STANDARD


def _row(values: dict[str, str]) -> tuple | None:
    """Return the table row of one player's fields as text, or None for a line to skip."""
    fide_id = values.get("fide_id", "").strip()
    if not fide_id.isdigit():
        return None
    row = []
    for name in FIELDS:
        text = values.get(name, "").strip()
        if name == "fide_id":
            row.append(int(fide_id))
        elif name in _NUMBERS:
            row.append(int(text) if text.isdigit() and int(text) < 32768 else None)
        else:
            if name in ("title", "w_title"):
                text = _OLD_TITLES.get(text.lower(), text.upper())
            elif name == "sex":
                text = text[:1].upper()
            row.append(text[: _WIDTH.get(name, len(text))])
    if row[FIELDS.index("birth_year")] == 0:
        row[FIELDS.index("birth_year")] = None
    return tuple(row)


def _txt_columns(header: str, kind: str) -> list[tuple[str, int, int | None]]:
    """Return (field, start, end) of each column, from where the header names it."""
    tokens = [(m.group(), m.start()) for m in re.finditer(r"ID Number|\S+", header)]
    columns = []
    for i, (token, start) in enumerate(tokens):
        end = tokens[i + 1][1] if i + 1 < len(tokens) else None
        field = "{kind}_rating" if _MONTH.match(token) else _TXT_COLUMNS.get(token)
        if field is None:
            continue
        columns.append((field.format(kind=kind), start, end))
    names = {field for field, _, _ in columns}
    if not {"fide_id", "name"} <= names:
        raise FideListError(
            "line 1: not a FIDE rating list (its header names no 'ID Number' and 'Name')."
        )
    return columns


def read_txt(lines: Iterable[str], *, kind: str = RatingType.STANDARD) -> Iterator[tuple]:
    """Yield the rows of a TXT list, one line at a time."""
    lines = iter(lines)
    header = next(lines, "").rstrip("\r\n")
    columns = _txt_columns(header, kind)
    for line_no, line in enumerate(lines, start=2):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        values = {field: line[start:end] for field, start, end in columns}
        row = _row(values)
        if row is None:
            raise FideListError(f"line {line_no}: no FIDE ID in columns 1-15.")
        yield row


def read_xml(stream, *, kind: str = RatingType.STANDARD) -> Iterator[tuple]:
    """Yield the rows of an XML list, one ``<player>`` element at a time."""
    from defusedxml.ElementTree import iterparse

    try:
        for _, element in iterparse(stream, events=("end",)):
            if element.tag != "player":
                continue
            values = {}
            for child in element:
                field = _XML_FIELDS.get(child.tag)
                if field is not None:
                    values[field.format(kind=kind)] = child.text or ""
            element.clear()
            row = _row(values)
            if row is None:
                raise FideListError("a <player> without a numeric <fideid>.")
            yield row
    except SyntaxError as error:  # ElementTree.ParseError, and defusedxml's refusals
        raise FideListError(f"not well-formed XML: {error}") from error


def read_file(path: str | Path) -> Iterator[tuple]:
    """Yield the rows of a list file: ``.txt`` or ``.xml``, or a ``.zip`` holding one."""
    path = Path(path)
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            members = [m for m in archive.namelist() if m.lower().endswith((".txt", ".xml"))]
            if len(members) != 1:
                raise FideListError(f"{path.name}: expected one .txt or .xml file inside.")
            with archive.open(members[0]) as stream:
                yield from _read_stream(stream, members[0])
        return
    with open(path, "rb") as stream:
        yield from _read_stream(stream, path.name)


def _read_stream(stream, name: str) -> Iterator[tuple]:
    kind = _kind_of(name)
    start = stream.peek(64)[:64] if hasattr(stream, "peek") else b""
    if name.lower().endswith(".xml") or start.lstrip().startswith(b"<"):
        yield from read_xml(stream, kind=kind)
    else:
        text = io.TextIOWrapper(stream, encoding="utf-8", errors="replace", newline="")
        yield from read_txt(text, kind=kind)


# ---------------------------------------------------------------------------------------------
# Loading


TABLE = FidePlayer._meta.db_table

SEARCH_INDEXES = {
    "fideplayer_name_trgm": (
        f'CREATE INDEX fideplayer_name_trgm ON {TABLE} USING gin (UPPER("name"::text) gin_trgm_ops)'
    ),
    "fideplayer_name_start": (
        f'CREATE INDEX fideplayer_name_start ON {TABLE} ((UPPER("name"::text) COLLATE "C"))'
    ),
}
"""PostgreSQL only: words anywhere in a name (pg_trgm), and a name typed from its start, in
byte order ("C"), which serves both the prefix (LIKE 'SMI%' as a range) and the order of the
answer, so that the first 20 are read straight from the index."""


def create_search_indexes(conn) -> None:
    """Create the PostgreSQL search indexes (and the pg_trgm extension); nothing elsewhere."""
    if conn.vendor != "postgresql":
        return
    with conn.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for sql in SEARCH_INDEXES.values():
            cursor.execute(sql)


def drop_search_indexes(conn) -> None:
    if conn.vendor != "postgresql":
        return
    with conn.cursor() as cursor:
        for name in (*SEARCH_INDEXES, "fideplayer_name_prefix"):
            cursor.execute(f"DROP INDEX IF EXISTS {name}")


@dataclass(frozen=True)
class Loaded:
    players: int
    seconds: float


def load(rows: Iterable[tuple], *, batch: int = 5000) -> Loaded:
    """Replace the table's contents with ``rows`` (``read_file``), all or nothing."""
    started = time.perf_counter()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            count = _copy(rows)
        else:
            FidePlayer.objects.all().delete()
            count = 0
            chunk = []
            for row in rows:
                chunk.append(FidePlayer(**dict(zip(FIELDS, row))))
                if len(chunk) == batch:
                    FidePlayer.objects.bulk_create(chunk)
                    count += len(chunk)
                    chunk = []
            FidePlayer.objects.bulk_create(chunk)
            count += len(chunk)
    return Loaded(count, time.perf_counter() - started)


def _copy(rows: Iterable[tuple]) -> int:
    """Empty the table, COPY the rows in, then build the search indexes once."""
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {TABLE}")
        cursor.execute("DROP INDEX IF EXISTS fideplayer_name")
    drop_search_indexes(connection)
    columns = ", ".join(f'"{name}"' for name in FIELDS)
    count = 0
    connection.ensure_connection()
    with connection.connection.cursor() as raw:
        with raw.copy(f"COPY {TABLE} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                count += 1
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE INDEX fideplayer_name ON {TABLE} ("name")')
    create_search_indexes(connection)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {TABLE}")
    return count


# ---------------------------------------------------------------------------------------------
# Searching


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
