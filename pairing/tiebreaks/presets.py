"""Named tie-break lists a tournament can start from, and the TRF-2026 ``202``/``212`` records.

``202`` lists the tie-breaks that break ties (comma-separated codes); ``212`` lists what defines
the standings: the same codes with ``PTS`` (points) in its place, usually first.
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.text import Text, gettext_noop

from .errors import TieBreakSpecError
from .specs import TieBreakSpec, format_specs, parse_specs


@dataclass(frozen=True)
class Preset:
    key: str
    label: str
    codes: str
    note: str = ""

    @property
    def specs(self) -> tuple[TieBreakSpec, ...]:
        return parse_specs(self.codes)


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        Preset(
            "fide-swiss",
            "FIDE individual Swiss (default)",
            "BH/C1,BH,DE,WIN,WON,BPG,BWG,PS",
            "Buchholz family first, then direct encounter and the counts, as Swiss events "
            "commonly list them. Not checked against a C.07 table of recommendations (the text "
            "is not in the project's rules folder): the event's regulations decide.",
        ),
        Preset(
            "fide-swiss-sb",
            "FIDE individual Swiss with Sonneborn-Berger",
            "BH/C1,BH,SB,DE,WIN,PS",
        ),
        Preset(
            "fide-round-robin",
            "FIDE individual round robin",
            "DE,WIN,SB,KS",
            "Buchholz is meaningless in a round robin (every player has the same opponents).",
        ),
        Preset(
            "rating-swiss",
            "Swiss with rating-based tie-breaks",
            "ARO/C1,TPR,BH/C1,BH",
            "Dropped automatically when unrated players take part and no rating is set.",
        ),
        Preset(
            "median-swiss",
            "Median Buchholz (US-style lists)",
            "BH/M1,BH,PS,BH/C1",
            "Close to the modified median / Solkoff / cumulative order of US events; FIDE's "
            "Median-1 always cuts both ends.",
        ),
        Preset("cut-sb", "Buchholz Cut-1, Buchholz, Sonneborn-Berger", "BH/C1,BH,SB"),
    )
}

DEFAULT_PRESET = "fide-swiss"

# Why a preset or a tie-break record is refused (the web app says it in the reader's language).
UNKNOWN_PRESET = gettext_noop("unknown preset %(key)s (known: %(known)s)")
NOT_A_RECORD = gettext_noop("not a %(code)s record: %(value)s")
PTS_NOT_FIRST = gettext_noop(
    "212: standings that rank a tie-break above points (PTS not first) are not supported"
)


def preset(key: str) -> Preset:
    try:
        return PRESETS[key]
    except KeyError:
        raise TieBreakSpecError(
            Text(UNKNOWN_PRESET, key=repr(key), known=", ".join(sorted(PRESETS)))
        ) from None


def record_202(specs: tuple[TieBreakSpec, ...] | list[TieBreakSpec]) -> str:
    """The TRF-2026 ``202`` line: ``202 BH/C1,BH,DE``."""
    return f"202 {format_specs(specs)}"


def record_212(specs: tuple[TieBreakSpec, ...] | list[TieBreakSpec]) -> str:
    """The TRF-2026 ``212`` line: points, then the tie-breaks: ``212 PTS,BH/C1,BH,DE``."""
    body = format_specs(specs)
    return f"212 PTS,{body}" if body else "212 PTS"


def parse_202(line: str) -> tuple[TieBreakSpec, ...]:
    """Read a ``202`` record (the code and the text after it)."""
    code, body = line[:3], line[3:]
    if code != "202":
        raise TieBreakSpecError(Text(NOT_A_RECORD, code="202", value=repr(line[:10])))
    return parse_specs(body)


def parse_212(line: str) -> tuple[TieBreakSpec, ...]:
    """Read a ``212`` record; only the usual form with ``PTS`` first is accepted."""
    code, body = line[:3], line[3:]
    if code != "212":
        raise TieBreakSpecError(Text(NOT_A_RECORD, code="212", value=repr(line[:10])))
    items = [item.strip().upper() for item in body.split(",") if item.strip()]
    if not items or items[0] != "PTS":
        raise TieBreakSpecError(Text(PTS_NOT_FIRST))
    return parse_specs(",".join(items[1:]))


def tiebreak_records(
    tournament_other_records: tuple[tuple[str, str], ...],
) -> tuple[TieBreakSpec, ...] | None:
    """The tie-break list of a file read by :func:`pairing.trf.read_trf` (``212`` wins over
    ``202``), or None when the file has neither."""
    by_code = dict(tournament_other_records)
    if "212" in by_code:
        return parse_212("212" + by_code["212"])
    if "202" in by_code:
        return parse_202("202" + by_code["202"])
    return None
