"""Names as readers look for them and sort them: accents and case ignored in a search
("celik" finds Çelik, "oeuvrard" Œuvrard, "muller" Müller), and alphabetical order by the
Unicode Collation Algorithm (Bézier before Boudiaf, Çelik among the C's).

``fold`` is the search key in Python. The database folds a name the same way: PostgreSQL with
its ``unaccent`` extension (migration 0015 creates it where the role may), else with the
same letters replaced by ``translate``/``replace``; SQLite through ``fold`` itself,
registered as the SQL function ``fold_text`` on every connection (``TournamentsConfig``).

``name_key`` is the sort key: pyuca's collator, the root order of the Unicode Collation
Algorithm (DUCET), which is also how English and French sort names.
"""

from __future__ import annotations

import functools
import unicodedata

from django.db import connection as default_connection
from django.db.models import CharField, Func

# Letters that carry their mark in themselves (no decomposition) or stand for two letters.
_LETTERS = {
    "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ŧ": "t", "ŀ": "l",
    "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ĳ": "ij",
}


def fold(text: str) -> str:
    """The text without accents or case, as a search compares names.

    >>> [fold(name) for name in ("Çelik", "Œuvrard", "MÜLLER", "Ødegaard", "Łukasz")]
    ['celik', 'oeuvrard', 'muller', 'odegaard', 'lukasz']
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(_LETTERS.get(c, c) for c in bare)


@functools.cache
def _collator():
    import pyuca

    return pyuca.Collator()


def name_key(name: str) -> tuple[int, ...]:
    """The sort key of a name in alphabetical order (Unicode Collation Algorithm).

    >>> sorted(["Boudiaf", "Cohen", "Bézier", "Çelik", "Zoë"], key=name_key)
    ['Bézier', 'Boudiaf', 'Çelik', 'Cohen', 'Zoë']
    """
    return _collator().sort_key(name)


# ---------------------------------------------------------------------------------------------
# The same fold in SQL


def register_sqlite_fold(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: SQLite gets ``fold_text(x)``, Python's ``fold``."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("fold_text", 1, _sqlite_fold, deterministic=True)


def _sqlite_fold(value):
    return None if value is None else fold(value)


_UNACCENT: dict[str, bool] = {}


def has_unaccent(connection=default_connection) -> bool:
    """Whether PostgreSQL's ``unaccent`` extension is installed in this database (asked once a
    database per process)."""
    alias = connection.alias
    if alias not in _UNACCENT:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'unaccent'")
            _UNACCENT[alias] = cursor.fetchone() is not None
    return _UNACCENT[alias]


def forget_unaccent() -> None:
    """Ask again (the extension was just created)."""
    _UNACCENT.clear()


def _replaced_sql(expression: str) -> tuple[str, list[str]]:
    """``fold`` written in SQL for the Latin letters (a PostgreSQL without ``unaccent``):
    ``translate`` for one letter to one, ``replace`` for a letter that stands for two."""
    single_from, single_to, doubles = [], [], []
    for code in range(0xC0, 0x250):  # Latin-1 Supplement, Latin Extended-A and -B
        letter = chr(code).lower()
        if len(letter) != 1:
            continue
        folded = fold(letter)
        if folded == letter or letter in single_from:
            continue
        if len(folded) == 1:
            single_from.append(letter)
            single_to.append(folded)
        elif folded and (letter, folded) not in doubles:
            doubles.append((letter, folded))
    sql = f"translate(lower({expression}), %s, %s)"
    params = ["".join(single_from), "".join(single_to)]
    for letter, folded in doubles:
        sql = f"replace({sql}, %s, %s)"
        params += [letter, folded]
    return sql, params


class Folded(Func):
    """A name without accents or case, in SQL (``fold``): compare it with ``fold(word)``."""

    output_field = CharField()
    arity = 1

    def as_sqlite(self, compiler, connection, **extra):
        return super().as_sql(compiler, connection, function="fold_text", **extra)

    def as_postgresql(self, compiler, connection, **extra):
        inner, params = compiler.compile(self.source_expressions[0])
        if has_unaccent(connection):
            return f"lower(unaccent({inner}))", params
        sql, extra_params = _replaced_sql(inner)
        return sql, [*params, *extra_params]

    def as_sql(self, compiler, connection, **extra):
        raise NotImplementedError(f"no accent folding for {connection.vendor}")
