"""The FIDE rating report: the tournament records of a TRF file (``022`` to ``132`` and ``222``).

``header_records`` turns a tournament into those records for the export, ``report_fields`` turns
the records of an imported file back into tournament fields. Column layouts are those of
TRF-16 and TRF-2026 (``/shared/reference/FORMATS.md``): dates ``YYYY/MM/DD``, round dates
``YY/MM/DD`` in the columns of the round blocks of the ``001`` records (round 1 at 92-99).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable

from django.utils import timezone, translation
from django.utils.text import slugify

from tournaments.models import TIME_CONTROL_CODE, RatingType, Round, Tournament

REPORT_CODES = ("022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122",
                "132", "222")
"""The records this module writes and reads; the rest of a file is the engine's business."""

ROUND_DATE_COLUMN = 92
"""Column of round 1's date in a ``132`` record; each round takes 10 columns, as in ``001``."""

_WITH_FIDE_ID = re.compile(r"\A(?P<name>.*?)\s*\((?P<fide_id>[0-9]{1,11})\)\Z")
_RATING_SUFFIX = re.compile(r"\s*\((?P<kind>standard|rapid|blitz)\)\Z", re.IGNORECASE)


def export_filename(t: Tournament) -> str:
    """Return ``<slug>-<end date>.trf`` (``<slug>.trf`` while the end date is not set)."""
    slug = slugify(t.name) or f"tournament-{t.pk}"
    return f"{slug}-{t.end_date:%Y-%m-%d}.trf" if t.end_date else f"{slug}.trf"


def arbiter_text(name: str, fide_id: str) -> str:
    """Return an arbiter as records 102 and 112 carry it: ``IA Anna Schmidt (4611234)``."""
    return f"{name} ({fide_id})" if fide_id else name


def split_arbiter(text: str) -> tuple[str, str]:
    """Return (name, FIDE ID) of ``arbiter_text``; the ID is empty when the text has none."""
    match = _WITH_FIDE_ID.match(text.strip())
    if match is None:
        return text.strip(), ""
    return match["name"], match["fide_id"]


def deputies(t: Tournament) -> list[tuple[str, str]]:
    """Return the deputy arbiters as (name, FIDE ID), one per non-blank line of the field."""
    return [split_arbiter(line) for line in t.deputy_arbiters.splitlines() if line.strip()]


def _date(value: datetime.date | None) -> str:
    return "" if value is None else f"{value:%Y/%m/%d}"


def round_dates(t: Tournament, rounds: int) -> list[datetime.date | None]:
    """Return the date of rounds 1..``rounds``: the day each was published (local time)."""
    published = dict(
        Round.objects.filter(tournament=t, number__lte=rounds).values_list("number", "published_at")
    )
    return [
        timezone.localdate(published[n]) if published.get(n) else None
        for n in range(1, rounds + 1)
    ]


def round_dates_text(dates: Iterable[datetime.date | None]) -> str:
    """Return the text of a ``132`` record after its code (unknown dates stay blank)."""
    blocks = "".join(f"  {d:%y/%m/%d}" if d else " " * 10 for d in dates)
    # The text starts at column 5; two blanks precede each date, as they precede a round block.
    return (" " * (ROUND_DATE_COLUMN - 5 - 2) + blocks).rstrip()


def header_records(t: Tournament, *, rounds: int) -> list[tuple[str, str]]:
    """Return the report records of ``t`` as (code, text), for ``pairing.trf.write_trf``.

    ``rounds`` is the number of rounds the file holds (their dates go into ``132``).
    """
    players = list(t.players.values_list("rating", flat=True))
    with translation.override("en"):  # a file is read back whatever the reader's language
        rating_type = str(t.get_rating_type_display())
    records = [
        ("022", t.place),
        ("032", t.federation.upper()),
        ("042", _date(t.start_date)),
        ("052", _date(t.end_date)),
        ("062", str(len(players))),
        ("072", str(sum(1 for rating in players if rating))),
        ("082", "0"),
        ("092", f"{t.event_type} ({rating_type})".strip()),
        ("102", arbiter_text(t.chief_arbiter, t.chief_arbiter_fide_id)),
    ]
    records += [("112", arbiter_text(name, fide_id)) for name, fide_id in deputies(t)]
    records.append(("122", t.time_control))
    if rounds:
        records.append(("132", round_dates_text(round_dates(t, rounds))))
    if t.time_control_code:
        records.append(("222", t.time_control_code))
    return [(code, text) for code, text in records if text.strip()]


def _parse_date(text: str) -> datetime.date | None:
    """Read ``YYYY/MM/DD`` (also ``-`` or ``.`` between, or ``DD.MM.YYYY``); None if unreadable."""
    text = text.strip()
    for pattern in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y", "%y/%m/%d"):
        try:
            return datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def parse_round_dates(text: str) -> dict[int, datetime.date]:
    """Return the round dates of a ``132`` record's text (after ``132 ``), by round number."""
    line = "132 " + text
    dates = {}
    for r in range(1, 100):
        col = ROUND_DATE_COLUMN + 10 * (r - 1)
        if len(line) < col:
            break
        value = _parse_date(line[col - 1 : col + 7])
        if value is not None:
            dates[r] = value
    return dates


def rating_type_of_code(code: str) -> str:
    """Return the rating type a 222 time control implies (Laws of Chess, Appendices A and B):
    blitz when time + 60 increments is at most 10 minutes, rapid under 60, else standard."""
    if not re.fullmatch(TIME_CONTROL_CODE, code):
        return RatingType.STANDARD
    first = code.split("-")[0].lstrip("W").split(":")
    seconds = 0
    for period in first:
        body = period.split("/")[-1]
        base, _, increment = body.partition("+")
        seconds += int(base or 0) + 60 * int(increment or 0)
    if seconds <= 600:
        return RatingType.BLITZ
    if seconds < 3600:
        return RatingType.RAPID
    return RatingType.STANDARD


def report_fields(records: Iterable[tuple[str, str]]) -> tuple[dict, dict[int, datetime.date]]:
    """Return the tournament fields of an imported file's report records, and its round dates.

    Counts (062-082) are derived data and are not read back.
    """
    fields: dict = {}
    deputy_lines = []
    dates: dict[int, datetime.date] = {}
    for code, text in records:
        value = text.strip()
        if code == "022":
            fields["place"] = value
        elif code == "032":
            fields["federation"] = value.upper()
        elif code in ("042", "052") and _parse_date(value):
            fields["start_date" if code == "042" else "end_date"] = _parse_date(value)
        elif code == "092":
            match = _RATING_SUFFIX.search(value)
            if match:
                fields["rating_type"] = match["kind"].lower()
                value = value[: match.start()]
            fields["event_type"] = value
        elif code == "102":
            fields["chief_arbiter"], fields["chief_arbiter_fide_id"] = split_arbiter(value)
        elif code == "112":
            deputy_lines.append(value)
        elif code == "122":
            fields["time_control"] = value
        elif code == "132":
            dates = parse_round_dates(text)
        elif code == "222":
            fields["time_control_code"] = value
    if deputy_lines:
        fields["deputy_arbiters"] = "\n".join(deputy_lines)
    if "rating_type" not in fields and fields.get("time_control_code"):
        fields["rating_type"] = rating_type_of_code(fields["time_control_code"])
    return fields, dates
