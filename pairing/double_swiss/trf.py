"""Read and write Double-Swiss files: TRF with two round columns per match.

The format (corpus ``double-swiss/README.md``): ``192 FIDE_DOUBLESWISS``; match m is round
columns 2m-1 (game 1) and 2m (game 2) of each ``001`` record, both naming the same opponent
with alternating colours; a bye or absence fills both columns with the same ``0000 - X``;
``162`` gives the game values W, D, L, A and the match values P, H, F of the byes; ``142`` is
the number of columns (twice the matches). ``read_double_swiss`` takes the text and returns a
``DoubleSwissTournament``, reporting every defect as a ``TrfFormatError`` with line and column;
``write_double_swiss`` writes it back (``read -> write`` keeps a canonical file unchanged).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from pairing.double_swiss.model import (
    DOUBLE_SWISS_CODE,
    DOUBLE_SWISS_POINTS,
    DoubleSwissTournament,
    Match,
    is_bye_code,
)
from pairing.errors import TrfFormatError
from pairing.model import (
    Board,
    Color,
    Player,
    PointSystem,
    ResultCode,
    RoundEntry,
    RoundPairing,
    Tournament,
)
from pairing.text import Text, gettext_noop, ngettext_lazy
from pairing.trf import FIRST_ROUND_COLUMN, read_player_record, write_trf
from pairing.trf_records import (
    EXPECTED_W_OR_B,
    NO_POINT_VALUES,
    NO_VALUE_AFTER,
    ONE_ROUND_COUNT,
    POINTS_DO_NOT_MATCH,
    ROUNDS,
    TPN_REPEATED,
    UNKNOWN_SYMBOL,
    field_text,
    parse_points,
    parse_round,
    points_field,
    points_text,
    quoted,
    split_tokens,
)

__all__ = [
    "read_double_swiss",
    "write_double_swiss",
    "is_double_swiss",
    "state_before_match",
    "recorded_match",
    "build_matches",
]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# What is wrong in a Double-Swiss file (``TrfFormatError``), said in the reader's language by the
# web app (the defects it shares with other TRF files are in ``pairing.trf_records``).
TWO_COLUMNS_PER_MATCH = gettext_noop("142: a Double-Swiss file has two columns per match")
NOT_DOUBLE_SWISS = gettext_noop("192: %(value)s is not Double-Swiss")
NO_DOUBLE_SWISS_RECORD = gettext_noop(
    "no '192 FIDE_DOUBLESWISS' record: not a Double-Swiss file"
)
TPN_OUT_OF_RANGE = ngettext_lazy(
    "pairing number %(tpn)s out of range: the file has %(count)s player",
    "pairing number %(tpn)s out of range: the file has %(count)s players",
)
MORE_COLUMNS = gettext_noop("more columns than the %(count)s declared (142)")
GAME_2_MISSING = gettext_noop("match %(match)s: game 2 column missing")
ONE_GAME_NO_OPPONENT = gettext_noop("match %(match)s: one game has no opponent")
BYE_FILLS_BOTH = gettext_noop(
    "match %(match)s: a bye or absence fills both columns with the same code"
)
TWO_OPPONENTS = gettext_noop("match %(match)s: the two games name two opponents")
COLOURS_DO_NOT_ALTERNATE = gettext_noop(
    "match %(match)s: the colours of the two games do not alternate (Art. 4.4)"
)
OPPONENT_MISSING = gettext_noop("match %(match)s: opponent %(opponent)s does not exist")
OPPONENT_DISAGREES = gettext_noop(
    "match %(match)s: opponent %(opponent)s does not list %(tpn)s"
)
RESULT_DISAGREES = gettext_noop(
    "match %(match)s: opponent %(opponent)s: game %(game)s has an inconsistent result"
)
COLOUR_DISAGREES = gettext_noop(
    "match %(match)s: opponent %(opponent)s has an inconsistent colour"
)
SECOND_PAB = gettext_noop("match %(match)s: second pairing-allocated bye (also %(tpn)s)")

# Game results that the opponent's column may hold for each of ours (½-0 and 0-0 exist, Preface).
_OPPOSITE_GAME = {
    ResultCode.WIN: {ResultCode.LOSS},
    ResultCode.DRAW: {ResultCode.DRAW, ResultCode.LOSS},
    ResultCode.LOSS: {ResultCode.WIN, ResultCode.DRAW, ResultCode.LOSS},
    ResultCode.WIN_UNRATED: {ResultCode.LOSS_UNRATED},
    ResultCode.DRAW_UNRATED: {ResultCode.DRAW_UNRATED, ResultCode.LOSS_UNRATED},
    ResultCode.LOSS_UNRATED: {
        ResultCode.WIN_UNRATED, ResultCode.DRAW_UNRATED, ResultCode.LOSS_UNRATED,
    },
    ResultCode.FORFEIT_WIN: {ResultCode.FORFEIT_LOSS},
    ResultCode.FORFEIT_LOSS: {ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS},
}

# 162 symbols: per game (W, D, L, A), per match (P, H, F, Z).
_162_FIELDS = {
    "W": ("win", "forfeit_win"),
    "D": ("draw",),
    "L": ("loss",),
    "A": ("forfeit_loss",),
    "P": ("pairing_allocated_bye",),
    "H": ("half_point_bye",),
    "F": ("full_point_bye",),
    "Z": ("zero_point_bye",),
}


def is_double_swiss(text: str) -> bool:
    """Whether a TRF text declares the Double-Swiss system (``192 FIDE_DOUBLESWISS``)."""
    for raw in _LINE_BREAK.split(text):
        line = raw.lstrip("\ufeff")
        if line[:3] == "192" and line[3:].strip().upper() == DOUBLE_SWISS_CODE:
            return True
    return False


def _column(match_no: int, game: int) -> int:
    """Return the first column of the opponent field of a game's round column."""
    return FIRST_ROUND_COLUMN + 10 * (2 * (match_no - 1) + game - 1)


@dataclass
class _Reader:
    """Accumulate the records of one file, then check the matches against each other."""

    text: str
    players: dict[int, tuple[int, Player]] = field(default_factory=dict)
    name: str = ""
    total_rounds: int | None = None
    initial_color: Color | None = None
    values: dict[str, int] = field(default_factory=dict)
    type_192: str = ""
    other_records: list[tuple[str, str]] = field(default_factory=list)

    def read(self) -> DoubleSwissTournament:
        for line_no, raw in enumerate(_LINE_BREAK.split(self.text), start=1):
            line = raw.lstrip("\ufeff").rstrip()
            if not line.strip() or line.startswith("###"):
                continue
            self.record(line, line_no)
        return self.finish()

    def record(self, line: str, line_no: int) -> None:
        code = line[:3].upper()
        if code == "001":
            player = read_player_record(line, line_no)
            if player.tpn in self.players:
                first = self.players[player.tpn][0]
                raise TrfFormatError(
                    line_no, 5, Text(TPN_REPEATED, tpn=player.tpn, line=first)
                )
            self.players[player.tpn] = (line_no, player)
        elif code == "012" and not self.name:
            self.name = line[3:].strip()
        elif code == "142":
            tokens = split_tokens(line, 4)
            if len(tokens) != 1:
                raise TrfFormatError(line_no, 5, Text(ONE_ROUND_COUNT, code="142"))
            self.total_rounds = parse_round(tokens[0][1], line_no, tokens[0][0], Text(ROUNDS))
            if self.total_rounds % 2:
                raise TrfFormatError(line_no, tokens[0][0], Text(TWO_COLUMNS_PER_MATCH))
        elif code == "152":
            letter = field_text(line, 5, 5).upper()
            if letter not in ("W", "B") or line[5:].strip():
                raise TrfFormatError(line_no, 5, Text(EXPECTED_W_OR_B))
            self.initial_color = Color.WHITE if letter == "W" else Color.BLACK
        elif code == "162":
            self.read_162(line, line_no)
        elif code == "192":
            self.type_192 = line[3:].strip()
            if self.type_192.upper() != DOUBLE_SWISS_CODE:
                raise TrfFormatError(
                    line_no, 5, Text(NOT_DOUBLE_SWISS, value=quoted(self.type_192))
                )
        else:
            rest = line[3:]
            self.other_records.append((line[:3], rest[1:] if rest.startswith(" ") else rest))

    def read_162(self, line: str, line_no: int) -> None:
        """Read ``162``: game values W D L A, match values of the byes P H F (and Z)."""
        pending = split_tokens(line, 5)
        if not pending:
            raise TrfFormatError(line_no, 5, Text(NO_POINT_VALUES, code="162"))
        while pending:
            column, token = pending.pop(0)
            symbol, value_text = token[0].upper(), token[1:]
            value_column = column + 1
            if not value_text:
                if not pending:
                    raise TrfFormatError(
                        line_no, column, Text(NO_VALUE_AFTER, code="162", value=quoted(token))
                    )
                value_column, value_text = pending.pop(0)
            if symbol not in _162_FIELDS:
                raise TrfFormatError(
                    line_no, column, Text(UNKNOWN_SYMBOL, code="162", value=quoted(symbol))
                )
            value = parse_points(value_text, line_no, value_column, f"162 {symbol}")
            for name in _162_FIELDS[symbol]:
                self.values[name] = value

    def point_system(self) -> PointSystem:
        """Return the values read; the byes default to the match values of Art. 1.4."""
        v = self.values
        win, draw = v.get("win", 10), v.get("draw", 5)
        defaults = {
            "win": win, "draw": draw, "loss": 0, "forfeit_win": win, "forfeit_loss": 0,
            "pairing_allocated_bye": win + draw, "half_point_bye": 2 * draw,
            "full_point_bye": 2 * win, "zero_point_bye": 0,
        }
        values = {**defaults, **v}
        ps = replace(DOUBLE_SWISS_POINTS, **values)
        return ps

    def finish(self) -> DoubleSwissTournament:
        count = len(self.players)
        if self.type_192.upper() != DOUBLE_SWISS_CODE:
            raise TrfFormatError(1, 1, Text(NO_DOUBLE_SWISS_RECORD))
        for tpn, (line_no, player) in self.players.items():
            if tpn > count:
                raise TrfFormatError(
                    line_no, 5, Text(TPN_OUT_OF_RANGE, count, tpn=tpn, count=count)
                )
            if self.total_rounds is not None and len(player.rounds) > self.total_rounds:
                raise TrfFormatError(
                    line_no, FIRST_ROUND_COLUMN + 10 * self.total_rounds,
                    Text(MORE_COLUMNS, count=self.total_rounds),
                )
            if len(player.rounds) % 2:
                match_no = len(player.rounds) // 2 + 1
                raise TrfFormatError(
                    line_no, _column(match_no, 2), Text(GAME_2_MISSING, match=match_no)
                )
        t = Tournament(
            players=tuple(self.players[tpn][1] for tpn in sorted(self.players)),
            total_rounds=self.total_rounds,
            initial_color=self.initial_color,
            point_system=self.point_system(),
            name=self.name,
            tournament_type=self.type_192,
            other_records=tuple(self.other_records),
        )
        lines = {tpn: line_no for tpn, (line_no, _) in self.players.items()}
        dt = build_matches(t, lines)
        _check_pab_once_per_match(dt, lines)
        _check_points(dt, lines)
        return dt


def _match_of(entries: tuple[RoundEntry, RoundEntry], where: tuple[int, int]) -> Match:
    """Return the match of two game columns, checking that they form one."""
    line_no, match_no = where
    first, second = entries
    if first.opponent is None or second.opponent is None:
        if first.opponent is not None or second.opponent is not None:
            raise TrfFormatError(
                line_no, _column(match_no, 1), Text(ONE_GAME_NO_OPPONENT, match=match_no)
            )
        if first.result is not second.result or not is_bye_code(first.result):
            raise TrfFormatError(
                line_no, _column(match_no, 2) + 7, Text(BYE_FILLS_BOTH, match=match_no)
            )
        return Match.bye_of(first.result)
    if first.opponent != second.opponent:
        raise TrfFormatError(
            line_no, _column(match_no, 2), Text(TWO_OPPONENTS, match=match_no)
        )
    color = first.color
    if second.color is not None:
        if color is not None and second.color is color:
            raise TrfFormatError(
                line_no, _column(match_no, 2) + 5, Text(COLOURS_DO_NOT_ALTERNATE, match=match_no)
            )
        color = second.color.opposite
    return Match(first.opponent, color, (first.result, second.result))


def build_matches(t: Tournament, lines: dict[int, int] | None = None) -> DoubleSwissTournament:
    """Return the tournament with its matches; check both sides of every match agree."""
    lines = lines or {}
    own: dict[int, list[Match]] = {}
    for player in t.players:
        rounds = list(player.rounds)
        matches = []
        for m in range(len(rounds) // 2):
            at = (lines.get(player.tpn, 0), m + 1)
            matches.append(_match_of((rounds[2 * m], rounds[2 * m + 1]), at))
        own[player.tpn] = matches
    result: list[tuple[Match, ...]] = []
    for player in t.players:
        line_no = lines.get(player.tpn, 0)
        checked = []
        for m, match in enumerate(own[player.tpn], start=1):
            if match.opponent is None:
                checked.append(match)
                continue
            theirs = own.get(match.opponent, [])
            where = {"match": m, "opponent": match.opponent}
            if match.opponent not in own:
                raise TrfFormatError(line_no, _column(m, 1), Text(OPPONENT_MISSING, **where))
            if len(theirs) < m or theirs[m - 1].opponent != player.tpn:
                raise TrfFormatError(
                    line_no, _column(m, 1), Text(OPPONENT_DISAGREES, **where, tpn=player.tpn)
                )
            other = theirs[m - 1]
            for g in range(2):
                if other.games[g] not in _OPPOSITE_GAME[match.games[g]]:
                    raise TrfFormatError(
                        line_no, _column(m, g + 1) + 7,
                        Text(RESULT_DISAGREES, **where, game=g + 1),
                    )
            expected = match.color.opposite if match.color is not None else None
            if other.color is not expected:
                raise TrfFormatError(
                    line_no, _column(m, 1) + 5, Text(COLOUR_DISAGREES, **where)
                )
            checked.append(replace(match, opponent_games=other.games))
        result.append(tuple(checked))
    return DoubleSwissTournament(t, tuple(result))


def _check_pab_once_per_match(dt: DoubleSwissTournament, lines: dict[int, int]) -> None:
    """Check that no match has two pairing-allocated byes (Art. 1.4)."""
    seen: dict[int, int] = {}
    for tpn in dt.tpns:
        for m, match in enumerate(dt.matches_of(tpn), start=1):
            if match.bye is ResultCode.PAIRING_ALLOCATED_BYE:
                if m in seen:
                    raise TrfFormatError(
                        lines[tpn], _column(m, 1) + 7, Text(SECOND_PAB, match=m, tpn=seen[m])
                    )
                seen[m] = tpn


def _check_points(dt: DoubleSwissTournament, lines: dict[int, int]) -> None:
    """Check the points column: game points plus bye values (reading 1), with or without
    the next match's pre-set byes."""
    after = dt.paired_matches()
    ps = dt.point_system
    for player in dt.tournament.players:
        if player.declared_points is None:
            continue
        total = dt.score(player.tpn)
        preset = sum(m.points(ps) for m in dt.matches_of(player.tpn)[after:] if m.is_preset)
        if player.declared_points not in (total, total - preset):
            raise TrfFormatError(lines[player.tpn], 81, Text(
                POINTS_DO_NOT_MATCH, points=points_text(player.declared_points),
                total=points_text(total),
            ))


def read_double_swiss(text: str) -> DoubleSwissTournament:
    """Parse the text of a Double-Swiss TRF file; raise TrfFormatError on a defect."""
    return _Reader(text).read()


def _162_line(ps: PointSystem) -> str:
    """Return the ``162`` record: game values, then the match values of the byes."""
    items = [
        ("W", ps.win), ("D", ps.draw), ("L", ps.loss), ("A", ps.forfeit_loss),
        ("P", ps.pairing_allocated_bye), ("H", ps.half_point_bye), ("F", ps.full_point_bye),
    ]
    if ps.zero_point_bye:
        items.append(("Z", ps.zero_point_bye))
    return "162  " + "    ".join(f"{symbol}{points_field(value)}" for symbol, value in items)


def _zero_padded(line: str) -> str:
    """Return a ``001`` record with its opponents written as four digits (``0004``)."""
    if not line.startswith("001"):
        return line
    head, rest = line[: FIRST_ROUND_COLUMN - 1], line[FIRST_ROUND_COLUMN - 1 :]
    blocks = [rest[i : i + 10] for i in range(0, len(rest), 10)]
    return head + "".join(b[:4].strip().zfill(4) + b[4:] for b in blocks)


def write_double_swiss(dt: DoubleSwissTournament, *, newline: str = "\n") -> str:
    """Return the tournament as Double-Swiss TRF text (the ``162`` line always written)."""
    t = dt.tournament
    players = tuple(
        p if p.declared_points is not None else replace(p, declared_points=dt.score(p.tpn))
        for p in t.players
    )
    base = replace(
        t, players=players, point_system=DOUBLE_SWISS_POINTS.__class__(),
        tournament_type=DOUBLE_SWISS_CODE if not t.tournament_type else t.tournament_type,
    )
    lines = [_zero_padded(line) for line in write_trf(base, newline="\n").split("\n")]
    at = next(i for i, line in enumerate(lines) if line.startswith("192"))
    lines.insert(at, _162_line(t.point_system))
    return newline.join(lines[:-1]) + newline


# ---------------------------------------------------------------------------------------------
# Replaying a match (corpus README, "Replaying match k")


def state_before_match(dt: DoubleSwissTournament, k: int) -> DoubleSwissTournament:
    """Return the tournament as it stood before match k was paired.

    Columns 1 .. 2k-2 are kept (a missing match is an absence); of columns 2k-1 and 2k only
    pre-set byes and absences; the points are recomputed.
    """
    if k < 1:
        raise ValueError(f"match {k} does not exist")
    absent = RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)
    players = []
    matches = []
    for player, own in zip(dt.tournament.players, dt.matches, strict=True):
        kept = list(own[: k - 1]) + [Match.bye_of(ResultCode.ZERO_POINT_BYE)] * max(
            0, k - 1 - len(own)
        )
        rounds = list(player.rounds[: 2 * k - 2]) + [absent] * max(
            0, 2 * k - 2 - len(player.rounds)
        )
        if len(own) >= k and own[k - 1].is_preset:
            kept.append(own[k - 1])
            rounds += list(player.rounds[2 * k - 2 : 2 * k])
        points = sum(m.points(dt.point_system) for m in kept)
        players.append(replace(player, rounds=tuple(rounds), declared_points=points))
        matches.append(tuple(kept))
    t = replace(dt.tournament, players=tuple(players))
    return DoubleSwissTournament(t, tuple(matches))


def recorded_match(dt: DoubleSwissTournament, k: int) -> RoundPairing:
    """Return what match k recorded: each pair with White (in game 1) first, and the PAB."""
    if not 1 <= k <= dt.paired_matches():
        raise ValueError(f"match {k} was never paired (the file records {dt.paired_matches()})")
    boards = []
    bye = None
    for tpn in dt.tpns:
        own = dt.matches_of(tpn)
        if len(own) < k:
            continue
        match = own[k - 1]
        if match.bye is ResultCode.PAIRING_ALLOCATED_BYE:
            bye = tpn
        elif match.opponent is not None:
            if match.color is Color.WHITE or (match.color is None and tpn < match.opponent):
                boards.append(Board(tpn, match.opponent))
    boards.sort(key=lambda b: (min(b.white, b.black), b.white))
    return RoundPairing(round=k, boards=tuple(boards), bye=bye)
