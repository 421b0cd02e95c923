"""Field parsers and the extension records of TRF files (point systems, accelerations, byes).

Used by ``pairing.trf``: ``162``/``XXS``/``BB?`` point systems, ``250``/``XXA`` accelerations,
``260``/``XXP`` prohibited pairings and ``240``/``XXZ`` byes (reference/FORMATS.md sections 2-3).
Columns are 1-based and inclusive, as in the FIDE documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import cast

from pairing.errors import TrfFormatError
from pairing.model import (
    STANDARD_POINTS,
    Acceleration,
    ForbiddenPairs,
    Points,
    PointSystem,
    ResultCode,
    format_points,
)
from pairing.text import Number, Text, gettext_noop

_INT = re.compile(r"[0-9]+")
_POINTS = re.compile(r"(-?)([0-9]{1,3})(?:\.([0-9])0*)?")

MAX_TPN = 9999
MAX_ROUNDS = 999
MAX_DIGITS = 9
"""No TRF field holds a longer number; a longer one is refused before it is converted."""

# What is wrong in a TRF file (``TrfFormatError``), said in the reader's language by the web app.
# ``%(field)s`` names the field (a label below, or a record code and symbol such as ``162 W``);
# ``%(value)s`` is the file's own text, quoted as Python writes it ('x').
NOT_A_NUMBER = gettext_noop("%(field)s: expected a number, found %(value)s")
TOO_MANY_DIGITS = gettext_noop("%(field)s: %(digits)s digits, too large a number")
NOT_POINTS = gettext_noop("%(field)s: expected points like 1.5, not %(value)s")
POINTS_TOO_WIDE = gettext_noop("%(field)s: %(value)s does not fit in 4 columns")
NOT_A_TPN = gettext_noop("%(field)s: %(value)s is not a valid pairing number")
NOT_A_ROUND = gettext_noop("%(field)s: %(value)s is not a valid round number")
NO_POINT_VALUES = gettext_noop("%(code)s: no point values")
NO_VALUE_AFTER = gettext_noop("%(code)s: no value after %(value)s")
UNKNOWN_SYMBOL = gettext_noop("%(code)s: unknown symbol %(value)s")
POINTS_DISAGREE = gettext_noop(
    "%(code)s gives the %(field)s %(value)s points, but line %(line)s (%(form)s) gives %(other)s"
)
XXS_BAD_ENTRY = gettext_noop("XXS: bad entry %(value)s")
MATCH_POINTS_250 = gettext_noop("250: match points must be empty for individuals")
LAST_ROUND_FIRST = gettext_noop("%(code)s: last round before first round")
LAST_PLAYER_FIRST_250 = gettext_noop("250: last player before first player")
TEXT_AFTER_250 = gettext_noop("250: unexpected text after the last player")
XXA_NO_PLAYER = gettext_noop("XXA: missing player")
XXA_TOO_MANY_ROUNDS = gettext_noop("XXA: too many rounds")
TWO_PLAYERS_NEEDED = gettext_noop("%(code)s: needs at least two players")
BAD_BYE_TYPE_240 = gettext_noop("240: bad bye type %(value)s")
ONE_ROUND_COUNT = gettext_noop("%(code)s: expected one number of rounds")
TPN_REPEATED = gettext_noop("pairing number %(tpn)s repeated (line %(line)s)")
POINTS_DO_NOT_MATCH = gettext_noop("points %(points)s do not match the results (%(total)s)")
EXPECTED_W_OR_B = gettext_noop("152: expected W or B")

# The fields, as a message names them.
ROUNDS = gettext_noop("rounds")
MATCH_POINTS_250_FIELD = gettext_noop("250 match points")
GAME_POINTS_250 = gettext_noop("250 game points")
FIRST_ROUND_250 = gettext_noop("250 first round")
LAST_ROUND_250 = gettext_noop("250 last round")
FIRST_PLAYER_250 = gettext_noop("250 first player")
LAST_PLAYER_250 = gettext_noop("250 last player")
XXA_PLAYER = gettext_noop("XXA player")
XXA_POINTS = gettext_noop("XXA points")
FIRST_ROUND_260 = gettext_noop("260 first round")
LAST_ROUND_260 = gettext_noop("260 last round")
PLAYER_260 = gettext_noop("260 player")
XXP_PLAYER = gettext_noop("XXP player")
ROUND_240 = gettext_noop("240 round")
PLAYER_240 = gettext_noop("240 player")
XXZ_PLAYER = gettext_noop("XXZ player")

# The point-system fields, as a message about two disagreeing lines names them.
POINT_FIELD_NAMES = {
    "win": gettext_noop("win"),
    "draw": gettext_noop("draw"),
    "loss": gettext_noop("loss"),
    "forfeit_win": gettext_noop("forfeit win"),
    "forfeit_loss": gettext_noop("forfeit loss"),
    "pairing_allocated_bye": gettext_noop("pairing allocated bye"),
    "half_point_bye": gettext_noop("half point bye"),
    "full_point_bye": gettext_noop("full point bye"),
    "zero_point_bye": gettext_noop("zero point bye"),
}


def quoted(text: str) -> str:
    """The file's text in a message, quoted as Python writes it: ``'x'``."""
    return repr(text)


def points_text(points: Points) -> Number:
    """Points in a message: ``1.5``, which the web app writes as its language does (``1,5``)."""
    return Number(format_points(points))


# ---------------------------------------------------------------------------------------------
# Small field parsers


def field_text(line: str, first: int, last: int) -> str:
    """Return columns first..last (1-based, inclusive) of a line, padded with blanks."""
    text = line[first - 1 : last]
    return text + " " * (last - first + 1 - len(text))


def parse_int(text: str, line_no: int, column: int, what: str) -> int:
    """Parse a non-negative decimal integer (blanks around it allowed)."""
    stripped = text.strip()
    if not _INT.fullmatch(stripped):
        raise TrfFormatError(
            line_no, column, Text(NOT_A_NUMBER, field=what, value=quoted(stripped[:20]))
        )
    if len(stripped) > MAX_DIGITS:
        raise TrfFormatError(
            line_no, column, Text(TOO_MANY_DIGITS, field=what, digits=len(stripped))
        )
    return int(stripped)


def parse_points(text: str, line_no: int, column: int, what: str) -> Points:
    """Parse points like ``11.5`` into tenths."""
    stripped = text.strip()
    match = _POINTS.fullmatch(stripped)
    if not match:
        raise TrfFormatError(line_no, column, Text(NOT_POINTS, field=what, value=quoted(stripped)))
    sign, whole, tenth = match.groups()
    value = int(whole) * 10 + int(tenth or "0")
    value = -value if sign else value
    if len(format_points(value)) > 4:
        raise TrfFormatError(
            line_no, column, Text(POINTS_TOO_WIDE, field=what, value=stripped)
        )
    return value


def parse_tpn(text: str, line_no: int, column: int, what: str) -> int:
    """Parse a TPN (1..9999)."""
    value = parse_int(text, line_no, column, what)
    if not 1 <= value <= MAX_TPN:
        raise TrfFormatError(line_no, column, Text(NOT_A_TPN, field=what, value=value))
    return value


def parse_round(text: str, line_no: int, column: int, what: str) -> int:
    """Parse a round number (1..999)."""
    value = parse_int(text, line_no, column, what)
    if not 1 <= value <= MAX_ROUNDS:
        raise TrfFormatError(line_no, column, Text(NOT_A_ROUND, field=what, value=value))
    return value


def split_tokens(line: str, start_column: int) -> list[tuple[int, str]]:
    """Split the line from start_column on blanks; return (column, token) pairs."""
    return [
        (start_column + m.start(), m.group())
        for m in re.finditer(r"[^ \t]+", line[start_column - 1 :])
    ]


# ---------------------------------------------------------------------------------------------
# Point systems: 162, XXS, BB?


_POINT_FIELDS = (
    "win", "draw", "loss", "forfeit_win", "forfeit_loss", "pairing_allocated_bye",
    "half_point_bye", "full_point_bye", "zero_point_bye",
)

_162_SYMBOLS = {
    "W": ("win", "forfeit_win", "full_point_bye"),
    "D": ("draw", "half_point_bye"),
    "L": ("loss",),
    "A": ("zero_point_bye", "forfeit_loss"),
    "Z": ("zero_point_bye", "forfeit_loss"),
    "P": ("pairing_allocated_bye",),
    "X": (),
}

_XXS_CODES = {
    "WW": ("win",), "BW": ("win",), "WD": ("draw",), "BD": ("draw",),
    "WL": ("loss",), "BL": ("loss",), "ZPB": ("zero_point_bye",),
    "HPB": ("half_point_bye",), "FPB": ("full_point_bye",), "PAB": ("pairing_allocated_bye",),
    "FW": ("forfeit_win",), "FL": ("forfeit_loss",),
    "W": ("win", "forfeit_win", "full_point_bye"), "D": ("draw", "half_point_bye"),
}

BB_CODES = {
    "BBW": ("win", "forfeit_win", "full_point_bye"),
    "BBD": ("draw", "half_point_bye"),
    "BBL": ("loss",),
    "BBZ": ("zero_point_bye",),
    "BBF": ("forfeit_loss",),
    "BBU": ("pairing_allocated_bye",),
}


@dataclass
class PointsBuilder:
    """Collect point-system settings in file order; the PAB follows the win unless set.

    One file may state the point system in two forms (TRF-2026 ``162``, TRF(x) ``XXS``,
    bbpPairings' ``BB?`` lines). Within a form a later value overrides an earlier one; two
    forms that give one field different values make the file ambiguous, and it is refused
    naming both lines.
    """

    values: dict[str, Points] = field(default_factory=dict)
    pab_set: bool = False
    origin: dict[str, tuple[str, int]] = field(default_factory=dict)
    """For each field set explicitly: the form that set it and its line."""

    def set(
        self, names: tuple[str, ...], value: Points, *, form: str = "", line_no: int = 0,
        column: int = 0, code: str = "",
    ) -> None:
        """Set point-system fields to a value, read from ``code`` of a form at a line."""
        for name in names:
            earlier_form, earlier_line = self.origin.get(name, (form, line_no))
            if earlier_form != form and self.values[name] != value:
                raise TrfFormatError(line_no, column, Text(
                    POINTS_DISAGREE, code=code, field=Text(POINT_FIELD_NAMES[name]),
                    value=points_text(value), line=earlier_line, form=earlier_form,
                    other=points_text(self.values[name]),
                ))
            self.values[name] = value
            self.origin[name] = (form, line_no)
        if "pairing_allocated_bye" in names:
            self.pab_set = True
        elif "win" in names and not self.pab_set:
            self.values["pairing_allocated_bye"] = value

    def build(self) -> PointSystem:
        """Return the point system read so far."""
        return replace(STANDARD_POINTS, **self.values) if self.values else STANDARD_POINTS


def read_162(line: str, line_no: int, points: PointsBuilder) -> None:
    """Parse ``162``: symbol at column 6, value at 7-10, then every 9 columns."""
    tokens = split_tokens(line, 5)
    if not tokens:
        raise TrfFormatError(line_no, 5, Text(NO_POINT_VALUES, code="162"))
    pending = list(tokens)
    while pending:
        column, token = pending.pop(0)
        symbol, value_text = token[0].upper(), token[1:]
        if not value_text:
            if not pending:
                raise TrfFormatError(
                    line_no, column, Text(NO_VALUE_AFTER, code="162", value=quoted(token))
                )
            value_column, value_text = pending.pop(0)
        else:
            value_column = column + 1
        if symbol not in _162_SYMBOLS:
            raise TrfFormatError(
                line_no, column, Text(UNKNOWN_SYMBOL, code="162", value=quoted(symbol))
            )
        value = parse_points(value_text, line_no, value_column, f"162 {symbol}")
        points.set(
            _162_SYMBOLS[symbol], value, form="162", line_no=line_no, column=column,
            code=f"162 {symbol}",
        )


def read_xxs(line: str, line_no: int, points: PointsBuilder) -> None:
    """Parse ``XXS CODE=VALUE ...``; later entries override earlier ones."""
    tokens = split_tokens(line, 4)
    if not tokens:
        raise TrfFormatError(line_no, 4, Text(NO_POINT_VALUES, code="XXS"))
    for column, token in tokens:
        code, sep, value_text = token.partition("=")
        if not sep or code.upper() not in _XXS_CODES:
            raise TrfFormatError(line_no, column, Text(XXS_BAD_ENTRY, value=quoted(token)))
        value = parse_points(value_text, line_no, column + len(code) + 1, f"XXS {code}")
        points.set(
            _XXS_CODES[code.upper()], value, form="XXS", line_no=line_no, column=column,
            code=f"XXS {code}",
        )


# ---------------------------------------------------------------------------------------------
# Accelerations, prohibited pairings, byes


def read_250(line: str, line_no: int) -> list[Acceleration]:
    """Parse ``250``: game points 10-13, rounds 15-17 and 19-21, TPNs 23-26 and 28-31."""
    if field_text(line, 5, 8).strip():
        match_points = parse_points(
            field_text(line, 5, 8), line_no, 5, Text(MATCH_POINTS_250_FIELD)
        )
        if match_points:
            raise TrfFormatError(line_no, 5, Text(MATCH_POINTS_250))
    points = parse_points(field_text(line, 10, 13), line_no, 10, Text(GAME_POINTS_250))
    first_round = parse_round(field_text(line, 15, 17), line_no, 15, Text(FIRST_ROUND_250))
    last_round = parse_round(field_text(line, 19, 21), line_no, 19, Text(LAST_ROUND_250))
    first_tpn = parse_tpn(field_text(line, 23, 26), line_no, 23, Text(FIRST_PLAYER_250))
    last_tpn = parse_tpn(field_text(line, 28, 31), line_no, 28, Text(LAST_PLAYER_250))
    if first_round > last_round:
        raise TrfFormatError(line_no, 19, Text(LAST_ROUND_FIRST, code="250"))
    if first_tpn > last_tpn:
        raise TrfFormatError(line_no, 28, Text(LAST_PLAYER_FIRST_250))
    if line[31:].strip():
        raise TrfFormatError(line_no, 32, Text(TEXT_AFTER_250))
    return [
        Acceleration(tpn, r, points)
        for tpn in range(first_tpn, last_tpn + 1)
        for r in range(first_round, last_round + 1)
    ]


def read_xxa(line: str, line_no: int) -> list[Acceleration]:
    """Parse ``XXA NNNN pp.p pp.p ...``: one value per round from round 1."""
    tokens = split_tokens(line, 4)
    if not tokens:
        raise TrfFormatError(line_no, 4, Text(XXA_NO_PLAYER))
    column, text = tokens[0]
    tpn = parse_tpn(text, line_no, column, Text(XXA_PLAYER))
    if len(tokens) - 1 > MAX_ROUNDS:
        raise TrfFormatError(line_no, column, Text(XXA_TOO_MANY_ROUNDS))
    return [
        Acceleration(tpn, r, parse_points(value, line_no, col, Text(XXA_POINTS)))
        for r, (col, value) in enumerate(tokens[1:], start=1)
    ]


def _read_tpn_list(line: str, line_no: int, start: int, what: Text) -> list[int]:
    """Parse the blank-separated TPNs from column start to the end of the line."""
    return [parse_tpn(text, line_no, col, what) for col, text in split_tokens(line, start)]


def read_260(line: str, line_no: int) -> ForbiddenPairs:
    """Parse ``260``: first round 5-7, last round 9-11, TPNs from column 13."""
    first = parse_round(field_text(line, 5, 7), line_no, 5, Text(FIRST_ROUND_260))
    last = parse_round(field_text(line, 9, 11), line_no, 9, Text(LAST_ROUND_260))
    if last < first:
        raise TrfFormatError(line_no, 9, Text(LAST_ROUND_FIRST, code="260"))
    tpns = _read_tpn_list(line, line_no, 12, Text(PLAYER_260))
    if len(set(tpns)) < 2:
        raise TrfFormatError(line_no, 13, Text(TWO_PLAYERS_NEEDED, code="260"))
    return ForbiddenPairs(frozenset(tpns), first, last)


def read_xxp(line: str, line_no: int) -> ForbiddenPairs:
    """Parse ``XXP id id ...``: the players never meet."""
    tpns = _read_tpn_list(line, line_no, 4, Text(XXP_PLAYER))
    if len(set(tpns)) < 2:
        raise TrfFormatError(line_no, 5, Text(TWO_PLAYERS_NEEDED, code="XXP"))
    return ForbiddenPairs(frozenset(tpns))


_BYE_TYPES = {
    "F": ResultCode.FULL_POINT_BYE,
    "H": ResultCode.HALF_POINT_BYE,
    "Z": ResultCode.ZERO_POINT_BYE,
}


@dataclass(frozen=True)
class Bye:
    """A pre-set bye from 240 (round given) or XXZ (round None: the next round)."""

    line_no: int
    column: int
    tpn: int
    round: int | None
    result: ResultCode


def read_240(line: str, line_no: int) -> list[Bye]:
    """Parse ``240``: bye type column 5, round 7-9, TPNs from column 11."""
    kind = field_text(line, 5, 5).upper()
    if kind not in _BYE_TYPES:
        raise TrfFormatError(line_no, 5, Text(BAD_BYE_TYPE_240, value=quoted(kind)))
    round_no = parse_round(field_text(line, 7, 9), line_no, 7, Text(ROUND_240))
    return [
        Bye(line_no, col, parse_tpn(text, line_no, col, Text(PLAYER_240)), round_no,
            _BYE_TYPES[kind])
        for col, text in split_tokens(line, 10)
    ]


def read_xxz(line: str, line_no: int) -> list[Bye]:
    """Parse ``XXZ id id ...``: absent in the round to be paired."""
    return [
        Bye(line_no, col, parse_tpn(text, line_no, col, Text(XXZ_PLAYER)), None,
             ResultCode.ZERO_POINT_BYE)
        for col, text in split_tokens(line, 4)
    ]


# ---------------------------------------------------------------------------------------------
# Writing the extension records


def points_field(points: Points, width: int = 4) -> str:
    """Return points right-aligned in their columns."""
    text = format_points(points)
    if len(text) > width:
        raise ValueError(f"points {text} do not fit in {width} columns")
    return text.rjust(width)


def point_system_lines(ps: PointSystem) -> list[str]:
    """Return ``162`` (or ``XXS`` when 162 cannot say it) for a non-standard point system."""
    if ps == STANDARD_POINTS:
        return []
    if (
        ps.forfeit_win == ps.win == ps.full_point_bye
        and ps.half_point_bye == ps.draw
        and ps.forfeit_loss == ps.zero_point_bye
    ):
        items = [
            ("W", ps.win, STANDARD_POINTS.win),
            ("D", ps.draw, STANDARD_POINTS.draw),
            ("L", ps.loss, STANDARD_POINTS.loss),
            ("A", ps.zero_point_bye, STANDARD_POINTS.zero_point_bye),
        ]
        parts = [f"{sym}{points_field(v)}" for sym, v, default in items if v != default]
        if ps.pairing_allocated_bye != ps.win:
            parts.append(f"P{points_field(ps.pairing_allocated_bye)}")
        return ["162  " + "    ".join(parts)] if parts else []
    codes = [
        ("WW", ps.win), ("BW", ps.win), ("WD", ps.draw), ("BD", ps.draw), ("WL", ps.loss),
        ("BL", ps.loss), ("ZPB", ps.zero_point_bye), ("HPB", ps.half_point_bye),
        ("FPB", ps.full_point_bye), ("PAB", ps.pairing_allocated_bye), ("FW", ps.forfeit_win),
        ("FL", ps.forfeit_loss),
    ]
    return ["XXS " + " ".join(f"{code}={format_points(v)}" for code, v in codes)]


def acceleration_lines(accelerations: tuple[Acceleration, ...]) -> list[str]:
    """Return ``250`` lines: runs of rounds with equal points, then runs of consecutive TPNs."""
    by_player: dict[int, dict[int, Points]] = {}
    for acc in accelerations:
        if acc.points:
            by_player.setdefault(acc.tpn, {})[acc.round] = acc.points
    runs: list[tuple[int, int, Points, int]] = []
    for tpn, rounds in by_player.items():
        start = prev = None
        for r in sorted(rounds):
            if start is not None and r == cast(int, prev) + 1 and rounds[r] == rounds[start]:
                prev = r
                continue
            if start is not None:
                runs.append((start, cast(int, prev), rounds[start], tpn))
            start = prev = r
        runs.append((cast(int, start), cast(int, prev), rounds[cast(int, start)], tpn))
    lines = []
    runs.sort()
    i = 0
    while i < len(runs):
        first, last, points, tpn = runs[i]
        j = i
        while (
            j + 1 < len(runs)
            and runs[j + 1][:3] == runs[i][:3]
            and runs[j + 1][3] == runs[j][3] + 1
        ):
            j += 1
        game_points = f"{points // 10:02d}.{points % 10}" if points > 0 else format_points(points)
        lines.append(
            f"250      {game_points:>4} {first:03d} {last:03d} {tpn:04d} {runs[j][3]:04d}"
        )
        i = j + 1
    return lines


def forbidden_line(pairs: ForbiddenPairs) -> str:
    """Return ``XXP`` for a whole-tournament prohibition, else ``260`` with its rounds."""
    tpns = sorted(pairs.tpns)
    if pairs.first_round == 1 and pairs.last_round is None:
        return "XXP " + " ".join(str(tpn) for tpn in tpns)
    last = pairs.last_round if pairs.last_round is not None else MAX_ROUNDS
    return f"260 {pairs.first_round:>3} {last:>3} " + " ".join(f"{tpn:>4}" for tpn in tpns)
