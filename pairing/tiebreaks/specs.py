"""Tie-break specifications: an acronym with its modifiers (C.07 Art. 14), as TRF-2026 writes them.

``BH/C1`` is Buchholz Cut-1, ``BH/M1`` Median-1, ``SB/C1/P`` Sonneborn-Berger Cut-1 with forfeits
counted as played games, ``KS/L+1`` Koya with the limit raised by one half point, ``TPN/R`` the
pairing number in reverse order.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from pairing.text import Text, gettext_noop

from .errors import TieBreakSpecError

# Why a tie-break code is refused (the web app says it in the reader's language). ``%(code)s``
# is the tie-break's acronym, ``%(text)s`` the code as written, quoted ('BH/C1').
NEGATIVE_COUNT = gettext_noop("cut and median counts must not be negative")
CUT_AND_MEDIAN = gettext_noop("%(code)s: Cut and Median cannot be combined")
NO_CUT = gettext_noop("%(code)s: the Cut modifier is not defined for it")
NO_MEDIAN = gettext_noop("%(code)s: the Median modifier is not defined for it")
NO_PLAYED = gettext_noop("%(code)s: the /P modifier is not defined for it")
LIMIT_KS_ONLY = gettext_noop("%(code)s: the limit modifier is defined for KS only")
REVERSE_TPN_RTNG_ONLY = gettext_noop("%(code)s: the /R modifier is defined for TPN and RTNG only")
EMPTY_CODE = gettext_noop("empty tie-break code")
UNKNOWN_TIEBREAK = gettext_noop("unknown tie-break %(head)s in %(text)s")
MODIFIER_TWICE = gettext_noop("%(text)s: modifier /%(modifier)s given twice")
BAD_MODIFIER = gettext_noop("%(text)s: bad modifier /%(modifier)s")
CUTS_NOTHING = gettext_noop("%(text)s: /%(modifier)s cuts nothing")
UNKNOWN_MODIFIER = gettext_noop("%(text)s: unknown modifier /%(modifier)s")


class Acronym(enum.Enum):
    """The individual tie-breaks of C.07 (article numbers as in the 2024/2026 text)."""

    DE = "DE"  # Art. 6 direct encounter
    WIN = "WIN"  # 7.1 rounds with the points of a win, with or without playing
    WON = "WON"  # 7.2 games won over the board
    BPG = "BPG"  # 7.3 games played with Black
    BWG = "BWG"  # 7.4 games won with Black
    PS = "PS"  # 7.5 progressive scores
    REP = "REP"  # 7.6 rounds one elected to play (GE before 2026)
    STD = "STD"  # 7.7 standard points
    TPN = "TPN"  # 7.8 pairing number
    BH = "BH"  # 8.1 Buchholz
    AOB = "AOB"  # 8.2 average of opponents' Buchholz
    FB = "FB"  # 8.3 fore Buchholz
    SB = "SB"  # 9.1 Sonneborn-Berger
    KS = "KS"  # 9.2 Koya
    ARO = "ARO"  # 10.1 average rating of opponents
    TPR = "TPR"  # 10.2 tournament performance rating
    PTP = "PTP"  # 10.3 perfect tournament performance
    APRO = "APRO"  # 10.4 average performance rating of opponents
    APPO = "APPO"  # 10.5 average perfect performance of opponents
    RTNG = "RTNG"  # 10.6 rating


ALIASES = {"GE": Acronym.REP}

RATING_BASED = frozenset(
    {Acronym.ARO, Acronym.TPR, Acronym.PTP, Acronym.APRO, Acronym.APPO, Acronym.RTNG}
)
"""Tie-breaks that need ratings (C.07 Art. 10): dropped when unrated players take part, unless
the tournament sets a rating for them."""

_CUT = frozenset({Acronym.BH, Acronym.FB, Acronym.SB, Acronym.PS, Acronym.ARO})
_MEDIAN = frozenset({Acronym.BH, Acronym.FB, Acronym.ARO})
_PLAYED = frozenset({Acronym.DE, Acronym.BH, Acronym.FB, Acronym.AOB, Acronym.SB, Acronym.KS})
_REVERSE = frozenset({Acronym.TPN, Acronym.RTNG})

NAMES = {
    Acronym.DE: "Direct encounter",
    Acronym.WIN: "Number of wins",
    Acronym.WON: "Games won over the board",
    Acronym.BPG: "Games played with Black",
    Acronym.BWG: "Games won with Black",
    Acronym.PS: "Progressive scores",
    Acronym.REP: "Rounds one elected to play",
    Acronym.STD: "Standard points",
    Acronym.TPN: "Pairing number",
    Acronym.BH: "Buchholz",
    Acronym.AOB: "Average of opponents' Buchholz",
    Acronym.FB: "Fore Buchholz",
    Acronym.SB: "Sonneborn-Berger",
    Acronym.KS: "Koya",
    Acronym.ARO: "Average rating of opponents",
    Acronym.TPR: "Tournament performance rating",
    Acronym.PTP: "Perfect tournament performance",
    Acronym.APRO: "Average performance rating of opponents",
    Acronym.APPO: "Average perfect performance of opponents",
    Acronym.RTNG: "Rating",
}


@dataclass(frozen=True)
class TieBreakSpec:
    """One tie-break of a tournament's list, with its modifiers."""

    acronym: Acronym
    cut: int = 0
    """Cut-n (Art. 14.1/14.2): the n least significant values are left out."""
    median: int = 0
    """Median-n (Art. 14.3/14.4): the n least and the n most significant values are left out."""
    played: bool = False
    """``/P``: forfeits count as games played against the scheduled opponent."""
    limit: int = 0
    """Koya limit (Art. 14.5), in half points added to the 50 % threshold."""
    reverse: bool = False
    """``/R``: the reverse order (TPN descending, RTNG ascending)."""

    def __post_init__(self) -> None:
        a = self.acronym
        if self.cut < 0 or self.median < 0:
            raise TieBreakSpecError(Text(NEGATIVE_COUNT))
        if self.cut and self.median:
            raise TieBreakSpecError(Text(CUT_AND_MEDIAN, code=a.value))
        if self.cut and a not in _CUT:
            raise TieBreakSpecError(Text(NO_CUT, code=a.value))
        if self.median and a not in _MEDIAN:
            raise TieBreakSpecError(Text(NO_MEDIAN, code=a.value))
        if self.played and a not in _PLAYED:
            raise TieBreakSpecError(Text(NO_PLAYED, code=a.value))
        if self.limit and a is not Acronym.KS:
            raise TieBreakSpecError(Text(LIMIT_KS_ONLY, code=a.value))
        if self.reverse and a not in _REVERSE:
            raise TieBreakSpecError(Text(REVERSE_TPN_RTNG_ONLY, code=a.value))

    @property
    def code(self) -> str:
        """The TRF-2026 spelling, e.g. ``BH/C1``."""
        parts = [self.acronym.value]
        if self.cut:
            parts.append(f"C{self.cut}")
        if self.median:
            parts.append(f"M{self.median}")
        if self.limit:
            parts.append(f"L{self.limit:+d}")
        if self.played:
            parts.append("P")
        if self.reverse:
            parts.append("R")
        return "/".join(parts)

    @property
    def name(self) -> str:
        text = NAMES[self.acronym]
        if self.cut:
            text += f" Cut-{self.cut}"
        if self.median:
            text += f" Median-{self.median}"
        if self.limit:
            text += f" (limit {self.limit:+d} half points)"
        if self.played:
            text += " (forfeits as played)"
        if self.reverse:
            text += " (reverse order)"
        return text

    @property
    def rating_based(self) -> bool:
        return self.acronym in RATING_BASED

    def __str__(self) -> str:
        return self.code


def parse_spec(text: str) -> TieBreakSpec:
    """Parse one tie-break code such as ``BH/C1``, ``SB/P``, ``KS/L-1`` or ``TPN/R``."""
    raw = text.strip().upper()
    if not raw:
        raise TieBreakSpecError(Text(EMPTY_CODE))
    head, *mods = raw.split("/")
    acronym = ALIASES.get(head)
    if acronym is None:
        try:
            acronym = Acronym(head)
        except ValueError:
            raise TieBreakSpecError(
                Text(UNKNOWN_TIEBREAK, head=repr(head), text=repr(text.strip()))
            ) from None
    fields: dict[str, object] = {}
    quoted = repr(text.strip())
    for mod in mods:
        key = mod[:1]
        arg = mod[1:]
        if mod in ("P", "R"):
            name = "played" if mod == "P" else "reverse"
            if name in fields:
                raise TieBreakSpecError(Text(MODIFIER_TWICE, text=quoted, modifier=mod))
            fields[name] = True
            continue
        if key in ("C", "M", "L") and arg:
            name = {"C": "cut", "M": "median", "L": "limit"}[key]
            if name in fields:
                raise TieBreakSpecError(Text(MODIFIER_TWICE, text=quoted, modifier=key))
            body = arg[1:] if key == "L" and arg[0] in "+-" else arg
            if not body.isdigit() or (key != "L" and arg[0] in "+-"):
                raise TieBreakSpecError(Text(BAD_MODIFIER, text=quoted, modifier=mod))
            value = int(body)
            if key == "L" and arg[0] == "-":
                value = -value
            if key in ("C", "M") and value == 0:
                raise TieBreakSpecError(Text(CUTS_NOTHING, text=quoted, modifier=mod))
            fields[name] = value
            continue
        raise TieBreakSpecError(Text(UNKNOWN_MODIFIER, text=quoted, modifier=mod))
    return TieBreakSpec(acronym, **fields)  # type: ignore[arg-type]


def parse_specs(text: str) -> tuple[TieBreakSpec, ...]:
    """Parse a comma-separated list (the body of a TRF-2026 ``202`` record)."""
    items = [item for item in text.split(",") if item.strip()]
    return tuple(parse_spec(item) for item in items)


def format_specs(specs: tuple[TieBreakSpec, ...] | list[TieBreakSpec]) -> str:
    return ",".join(spec.code for spec in specs)
