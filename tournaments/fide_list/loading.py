"""Loading a list: its players are written into a temporary table as they are read, each chunk
checked for FIDE IDs met before; the list loaded before is replaced only once the new one has
been read whole, in one transaction, and never by an empty or much smaller one unless forced.

On PostgreSQL the players are staged with ``COPY`` (psycopg 3), then the list is replaced with
its search indexes (a trigram index for words anywhere in the name, a prefix index for names
typed from the start) built once afterwards; elsewhere rows are inserted in batches.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from django.db import DatabaseError, connection, transaction

from tournaments.fide_list.files import FIELDS, NUMBER_FIELDS, FideListError, Limits, open_list
from tournaments.models import FidePlayer

TABLE = FidePlayer._meta.db_table
STAGE = "fide_list_import"
"""The temporary table (one per database session) a new list is read into."""

CHUNK = 5000
"""Players written into the temporary table at once, after one check for FIDE IDs met before."""

PLAUSIBLE_SHARE = 0.5
"""A list with fewer players than this share of the list loaded replaces it only if forced:
FIDE's list grows from month to month."""

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
    encoding: str | None
    """That of a TXT list's text (``ascii`` when all of it is), None for XML."""
    replaced: int
    """Players of the list loaded before."""


Progress = Callable[[int, int, "int | None"], None]
"""``progress(players, bytes_read, bytes_total)``: players read so far, bytes of the file read
(decompressed) and announced (None when unknown)."""


def import_list(
    source: str | Path | BinaryIO, *, name: str | None = None, force: bool = False,
    encoding: str | None = None, progress: Progress | None = None, limits: Limits | None = None,
) -> Loaded:
    """Replace the loaded list with that of a file (``open_list``), all or nothing: the file is
    read whole, its players checked, before the list loaded changes, in one transaction.
    Refused (``FideListError``): a file that is not a list, a FIDE ID twice, an empty list or
    one with fewer than half the players of that loaded, unless ``force``. An exception raised
    by ``progress`` (a job cancelled) stops the import as well, the list loaded kept."""
    started = time.perf_counter()
    with open_list(source, name=name, encoding=encoding, limits=limits) as listed:
        with _Stage() as stage:
            for count in stage.fill(listed):
                if progress is not None:
                    progress(count, listed.bytes_read, listed.bytes_total)
            before = FidePlayer.objects.count()
            if not force:
                _check_plausible(stage.count, before)
            stage.replace()
    return Loaded(stage.count, time.perf_counter() - started, listed.encoding, before)


def _check_plausible(players: int, before: int) -> None:
    if players == 0:
        raise FideListError(
            "no player in the file: the list loaded is kept (unless forced to empty it)."
        )
    if players < before * PLAUSIBLE_SHARE:
        raise FideListError(
            f"{players} players in the file, fewer than half the {before} of the list loaded: "
            "it is kept (unless forced to replace it)."
        )


class _Stage:
    """The temporary table a new list is read into: each chunk of players is checked for FIDE
    IDs met before (in the chunk, then in the table) before it is written."""

    def __init__(self) -> None:
        self.postgres = connection.vendor == "postgresql"
        self.count = 0

    def __enter__(self) -> _Stage:
        types = {name: "integer" if name in NUMBER_FIELDS else "text" for name in FIELDS}
        columns = ", ".join(f'"{name}" {types[name]}' for name in FIELDS[1:])
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {STAGE}")
            cursor.execute(
                f'CREATE TEMPORARY TABLE {STAGE} ("fide_id" bigint PRIMARY KEY, {columns}, '
                "line integer NOT NULL)"
            )
        return self

    def __exit__(self, *exc) -> None:
        # After a database error PostgreSQL refuses every statement until the rollback, which
        # drops the table created in the transaction; a table left over is dropped on entry.
        with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {STAGE}")

    def fill(self, entries: Iterable[tuple[int, tuple]]) -> Iterator[int]:
        """Write the players in, yielding the count after each chunk."""
        entries = iter(entries)
        while chunk := list(itertools.islice(entries, CHUNK)):
            self._check_new(chunk)
            self._write(chunk)
            self.count += len(chunk)
            yield self.count

    def _check_new(self, chunk: list[tuple[int, tuple]]) -> None:
        lines: dict[int, int] = {}
        for number, row in chunk:
            first = lines.setdefault(row[0], number)
            if first != number:
                raise FideListError(f"line {number}: FIDE ID {row[0]} already on line {first}.")
        if self.postgres:
            condition, ids = '"fide_id" = ANY(%s)', list(lines)
        else:
            condition, ids = '"fide_id" IN (SELECT value FROM json_each(%s))', json.dumps(
                list(lines))
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT fide_id, line FROM {STAGE} WHERE {condition}", [ids])
            met = cursor.fetchall()
        if met:
            fide_id, first = min(met, key=lambda item: lines[item[0]])
            raise FideListError(
                f"line {lines[fide_id]}: FIDE ID {fide_id} already on line {first}."
            )

    def _write(self, chunk: list[tuple[int, tuple]]) -> None:
        columns = ", ".join(f'"{name}"' for name in [*FIELDS, "line"])
        rows = [(*row, number) for number, row in chunk]
        if self.postgres:
            connection.ensure_connection()
            with connection.connection.cursor() as raw:
                with raw.copy(f"COPY {STAGE} ({columns}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * (len(FIELDS) + 1))
            with connection.cursor() as cursor:
                cursor.executemany(f"INSERT INTO {STAGE} ({columns}) VALUES ({marks})", rows)

    def replace(self) -> None:
        """Replace the list loaded with the staged one, in one transaction (on PostgreSQL, the
        search indexes built once afterwards)."""
        columns = ", ".join(f'"{name}"' for name in FIELDS)
        with transaction.atomic(), connection.cursor() as cursor:
            if self.postgres:
                cursor.execute(f"TRUNCATE {TABLE}")
                cursor.execute("DROP INDEX IF EXISTS fideplayer_name")
                drop_search_indexes(connection)
            else:
                cursor.execute(f"DELETE FROM {TABLE}")
            cursor.execute(f"INSERT INTO {TABLE} ({columns}) SELECT {columns} FROM {STAGE}")
            if self.postgres:
                cursor.execute(f'CREATE INDEX fideplayer_name ON {TABLE} ("name")')
                create_search_indexes(connection)
                cursor.execute(f"ANALYZE {TABLE}")
