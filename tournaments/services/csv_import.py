"""Players registered from a CSV file (a spreadsheet's export): every row checked, all of them
saved or none, each error named by line and column."""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from tournaments.models import Player, Tournament
from tournaments.names import fold
from tournaments.sentences import labelled, quoted
from tournaments.services.errors import ServiceError, refuse_rows
from tournaments.services.players import player_errors, register_players

CSV_HEADERS: dict[str, dict[str, tuple[str, ...]]] = {
    "name": {"en": ("name",), "fr": ("Nom", "Nom complet", "Joueur")},
    "given_name": {"en": ("given_name", "first_name"), "fr": ("Prénom",)},
    "rating": {"en": ("rating", "elo"), "fr": ("Classement",)},
    "title": {"en": ("title",), "fr": ("Titre",)},
    "federation": {"en": ("federation", "fed"), "fr": ("Fédération",)},
    "fide_id": {"en": ("fide_id", "fideid", "fide id"), "fr": ("ID FIDE", "Code FIDE", "N° FIDE")},
    "sex": {"en": ("sex",), "fr": ("Sexe",)},
    "birth_year": {
        "en": ("birth_year", "birth", "born"),
        "fr": ("Né", "Née", "Naissance", "Année de naissance"),
    },
    "club": {"en": ("club",), "fr": ()},
}
"""The one table of the CSV header names the app reads: by player field, in each language the
app speaks (the field's own name first, then what Swiss-Manager's and Papi's exports and
spreadsheets call it). A header is matched without case, accents or underscores ("FEDERATION",
"ne", "fide-id"). A given name in its own column is joined to the family name ("Family, Given")."""


def header_key(name: str) -> str:
    """A header name as the table is searched: no case, no accents, words split by one space."""
    return " ".join(fold(name).replace("_", " ").replace("-", " ").replace(".", " ").split())


CSV_COLUMNS = {
    alias: field
    for field, languages in CSV_HEADERS.items()
    for aliases in languages.values()
    for alias in aliases
}
"""Every header name read, as written in ``CSV_HEADERS``, to its field."""


def csv_header_names() -> list[list[tuple[str, str]]]:
    """The names read for each field, with their language (``lang`` of the page that lists
    them): ``[[("en", "name"), ("fr", "Nom"), ...], ...]``."""
    return [
        [(language, alias) for language, aliases in languages.items() for alias in aliases]
        for languages in CSV_HEADERS.values()
    ]

_BY_KEY = {header_key(alias): field for alias, field in CSV_COLUMNS.items()}


CSV_SEPARATORS = ("\t", ";", ",")
"""Tab, semicolon (a spreadsheet's CSV where the decimal mark is a comma), comma."""


def csv_separator(text: str) -> str:
    """The separator of a CSV file, read from its header line: column names hold none of
    them, so the first of tab, semicolon and comma found there separates the columns."""
    header = text.split("\n", 1)[0]
    return next((sep for sep in CSV_SEPARATORS if sep in header), ",")


def parse_players_csv(text: str) -> list[dict]:
    """Read a players CSV (header line; name required; rating, title, federation, fide_id, sex,
    birth_year optional) and check every row; refuse with all errors, by line and column."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    reader = csv.reader(io.StringIO(text), strict=True, delimiter=csv_separator(text))
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise ServiceError(
            labelled(_csv_line(1), _("%(error)s (a quote left open?).") % {"error": error})
        ) from error
    if header is None or not any(cell.strip() for cell in header):
        raise ServiceError(labelled(_("CSV file"), _("empty, or no header line.")))
    columns: list[str] = []
    for name in header:
        key = _BY_KEY.get(header_key(name))
        if key is None:
            raise ServiceError(labelled(
                _csv_line(1),
                _("unknown column %(name)r (known: %(known)s).")
                % {"name": quoted(name), "known": ", ".join(CSV_COLUMNS)},
            ))
        if key in columns:
            raise ServiceError(
                labelled(_csv_line(1), _("two columns for %(column)s.") % {"column": key})
            )
        columns.append(key)
    if "name" not in columns:
        raise ServiceError(labelled(_("CSV file"), _("a 'name' column is required.")))
    rows, errors = [], []
    while True:
        first_line = reader.line_num + 1
        try:
            cells = next(reader, None)
        except csv.Error as error:
            errors.append(labelled(
                _csv_line(first_line), _("%(error)s (a quote left open?).") % {"error": error}
            ))
            break
        if cells is None:
            break
        where = _csv_line(first_line)
        if len(cells) > len(columns):
            errors.append(
                labelled(where, _("more fields than columns (quote names with commas)."))
            )
            continue
        data, bad = {}, []
        for key, value in zip(columns, cells):
            value = value.strip()
            if "\n" in value:
                bad.append(labelled(
                    where,
                    _("%(column)s runs over several lines (a quote left open?).")
                    % {"column": key},
                ))
            elif key in ("rating", "birth_year"):
                if not value:
                    continue
                if value.isascii() and value.isdigit() and len(value) <= 5:
                    data[key] = int(value)
                else:
                    bad.append(labelled(
                        where,
                        _("%(column)s %(value)r is not a number.")
                        % {"column": key, "value": quoted(value)},
                    ))
            else:
                data[key] = value
        if bad:
            errors += bad
            continue
        if not any(str(v) for v in data.values()):
            continue
        given = data.pop("given_name", "")
        if given:
            data["name"] = f"{data['name']}, {given}" if data.get("name") else given
        data, problems = player_errors(data)
        errors += [
            labelled(where, labelled(key, " ".join(messages)))
            for key, messages in problems.items()
        ]
        rows.append(data)
    refuse_rows(_("CSV file"), errors)
    if not rows:
        raise ServiceError(labelled(_("CSV file"), _("no players.")))
    return rows


def _csv_line(number: int) -> str:
    return _("CSV file, line %(number)s") % {"number": number}


def import_players_csv(tournament: Tournament, actor, text: str) -> list[Player]:
    """Register the players of a CSV file (``parse_players_csv``): all of them, or none."""
    return register_players(tournament, actor, parse_players_csv(text))
