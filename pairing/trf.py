"""Read and write tournament report files: TRF-16, the TRF(x)/TRF(bx) extensions and TRF-2026.

``read_trf`` takes the text of a file and returns a ``Tournament``; every defect is reported as a
``TrfFormatError`` naming the line and the column (1-based, as in the FIDE documents).
``write_trf`` writes TRF-2026 that bbpPairings v6 accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TypedDict

from pairing.errors import TrfFormatError, UndecodableFile
from pairing.model import (
    Acceleration,
    Board,
    Color,
    ForbiddenPairs,
    Player,
    Points,
    ResultCode,
    RoundEntry,
    RoundPairing,
    RuleSet,
    Tournament,
)
from pairing.text import Text, gettext_noop, ngettext_lazy
from pairing.trf_records import (
    BB_CODES,
    EXPECTED_W_OR_B,
    MAX_ROUNDS,
    MAX_TPN,
    ONE_ROUND_COUNT,
    POINTS_DO_NOT_MATCH,
    ROUNDS,
    TPN_REPEATED,
    Bye,
    PointsBuilder,
    acceleration_lines,
    field_text,
    forbidden_line,
    parse_int,
    parse_points,
    parse_round,
    parse_tpn,
    point_system_lines,
    points_field,
    points_text,
    quoted,
    read_162,
    read_240,
    read_250,
    read_260,
    read_xxa,
    read_xxp,
    read_xxs,
    read_xxz,
    split_tokens,
)

__all__ = [
    "decode_file",
    "read_trf",
    "write_trf",
    "read_pairings",
    "write_pairings",
    "player_points",
    "next_round_number",
    "read_player_record",
]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# What is wrong in a TRF file (``TrfFormatError``), said in the reader's language by the web app
# (more in ``pairing.trf_records``). ``%(value)s`` is the file's own text, quoted ('x').
MISALIGNED_ENTRY = gettext_noop("round %(round)s: misaligned round entry")
PAIRED_WITH_ITSELF = gettext_noop("round %(round)s: player paired with itself")
BAD_COLOUR = gettext_noop("round %(round)s: bad colour %(value)s")
BAD_RESULT = gettext_noop("round %(round)s: bad result %(value)s")
NEEDS_OPPONENT = gettext_noop("round %(round)s: %(value)s needs an opponent")
COLOUR_WITHOUT_OPPONENT = gettext_noop("round %(round)s: colour without opponent")
BYE_WITH_OPPONENT = gettext_noop("round %(round)s: bye or absence %(value)s with opponent")
GAME_WITHOUT_COLOUR = gettext_noop("round %(round)s: game without a colour")
MISALIGNED_POINTS = gettext_noop("misaligned points or rank column")
TOO_MANY_ROUNDS = gettext_noop("too many rounds")
NUL_CHARACTER = gettext_noop("a NUL character: this is not TRF text (UTF-16 or a binary file?)")
ONE_VALUE = gettext_noop("%(code)s: expected one value")
EMPTY_TYPE = gettext_noop("192: empty tournament type")
XXC_RANK = gettext_noop("XXC rank (pairing by rank) is not supported")
XXC_UNKNOWN = gettext_noop("XXC: unknown option %(value)s")
NO_PLAYER = gettext_noop("no player record (001): not a tournament file")
TPN_OUT_OF_RANGE = ngettext_lazy(
    "pairing number %(tpn)s out of range: the file has %(count)s player",
    "pairing number %(tpn)s out of range: the file has %(count)s players",
)
MORE_ROUNDS = gettext_noop("more rounds than the %(count)s declared (XXR/142)")
OPPONENT_MISSING = gettext_noop("round %(round)s: opponent %(opponent)s does not exist")
OPPONENT_DISAGREES = gettext_noop(
    "round %(round)s: opponent %(opponent)s does not list %(tpn)s"
)
RESULT_DISAGREES = gettext_noop(
    "round %(round)s: opponent %(opponent)s has an inconsistent result"
)
COLOUR_DISAGREES = gettext_noop(
    "round %(round)s: opponent %(opponent)s has an inconsistent colour"
)
SECOND_PAB = gettext_noop("round %(round)s: second pairing-allocated bye (also %(tpn)s)")
BYE_UNKNOWN_PLAYER = gettext_noop("bye for unknown player %(tpn)s")
BYE_AFTER_LAST = gettext_noop("bye in round %(round)s after the last round")
BYE_CONTRADICTS = gettext_noop(
    "bye for player %(tpn)s in round %(round)s contradicts the 001 record"
)
ACCELERATION_UNKNOWN_PLAYER = gettext_noop("acceleration for unknown player %(tpn)s")
ACCELERATION_AFTER_LAST = gettext_noop("acceleration in round %(round)s after the last round")
PROHIBITED_UNKNOWN_PLAYER = gettext_noop("prohibited pairing names unknown player %(tpn)s")
EMPTY_PAIRING_LIST = gettext_noop("empty pairing list")
PAIRS_ANNOUNCED = gettext_noop("%(count)s pairs announced, %(given)s given")
WHITE_BLACK = gettext_noop("expected 'white black', found %(value)s")
SECOND_PAB_IN_LIST = gettext_noop("second pairing-allocated bye")

# The fields of a 001 record and of the engine's output, as a message names them.
PAIRING_NUMBER = gettext_noop("pairing number")
RATING = gettext_noop("rating")
POINTS = gettext_noop("points")
RANK = gettext_noop("rank")
ROUND_OPPONENT = gettext_noop("round %(round)s opponent")
NUMBER_OF_PAIRS = gettext_noop("number of pairs")
WHITE = gettext_noop("white")
BLACK = gettext_noop("black")
# Made once: a label is built for every field read, and said only when the field is wrong.
_PAIRING_NUMBER, _RATING, _POINTS, _RANK = map(Text, (PAIRING_NUMBER, RATING, POINTS, RANK))
_ROUND_OPPONENT: dict[int, Text] = {}


def _round_opponent(round_no: int) -> Text:
    """The label of a round's opponent field (``round 3 opponent``)."""
    label = _ROUND_OPPONENT.get(round_no)
    if label is None:
        label = _ROUND_OPPONENT[round_no] = Text(ROUND_OPPONENT, round=round_no)
    return label

FIRST_ROUND_COLUMN = 92
"""Column of the opponent field of round 1 in a ``001`` record; each round takes 10 columns."""

_OLD_TITLES = {
    "G": "GM", "M": "IM", "F": "FM", "C": "CM",
    "WG": "WGM", "WM": "WIM", "WF": "WFM", "WC": "WCM",
}

_RESULTS = {code.value: code for code in ResultCode}
_ABSENT = RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)

_DUTCH_CODES = {
    "FIDE_DUTCH": RuleSet.DUTCH_2026,
    "FIDE_DUTCH_2025": RuleSet.DUTCH_2026,
    "FIDE_DUTCH_2026": RuleSet.DUTCH_2026,
    "FIDE_DUTCH_2017": RuleSet.DUTCH_2017,
}

# Results that need the opponent's entry to be the matching one (same round, opposite colour).
_MATCHING_RESULT = {
    ResultCode.WIN: {ResultCode.LOSS},
    ResultCode.LOSS: {ResultCode.WIN},
    ResultCode.DRAW: {ResultCode.DRAW},
    ResultCode.WIN_UNRATED: {ResultCode.LOSS_UNRATED},
    ResultCode.LOSS_UNRATED: {ResultCode.WIN_UNRATED},
    ResultCode.DRAW_UNRATED: {ResultCode.DRAW_UNRATED},
    ResultCode.FORFEIT_WIN: {ResultCode.FORFEIT_LOSS},
    ResultCode.FORFEIT_LOSS: {ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS},
}

_FORFEITS = frozenset({ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS})

_NO_OPPONENT_RESULTS = frozenset(
    {
        ResultCode.HALF_POINT_BYE,
        ResultCode.FULL_POINT_BYE,
        ResultCode.PAIRING_ALLOCATED_BYE,
        ResultCode.ZERO_POINT_BYE,
    }
)


# ---------------------------------------------------------------------------------------------
# 001 records


def _parse_round_entry(line: str, line_no: int, round_no: int, tpn: int) -> RoundEntry:
    """Parse the 10-column block of one round of a 001 record: ``oooo c r``."""
    col = FIRST_ROUND_COLUMN + 10 * (round_no - 1)
    block = field_text(line, col, col + 7)
    if block[4] != " " or block[6] != " " or field_text(line, col - 2, col - 1) != "  ":
        raise TrfFormatError(line_no, col - 2, Text(MISALIGNED_ENTRY, round=round_no))
    where = (line_no, col, round_no)
    opponent = None
    if block[0:4].strip() not in ("", "0000"):  # four blanks mean 0000
        opponent = parse_tpn(block[0:4], line_no, col, _round_opponent(round_no))
        if opponent == tpn:
            raise TrfFormatError(line_no, col, Text(PAIRED_WITH_ITSELF, round=round_no))
    entry = RoundEntry(
        opponent, _parse_color(block[5], where), _parse_result(block[7], opponent, where),
        absent=opponent is None and block[7] in " -",  # not paired (pairing.outcomes)
    )
    _check_entry(entry, block[7], where)
    return entry


def _parse_color(char: str, where: tuple[int, int, int]) -> Color | None:
    """Parse the colour letter; ``-`` and blank mean no colour."""
    if char in "wW":
        return Color.WHITE
    if char in "bB":
        return Color.BLACK
    if char in "- ":
        return None
    line_no, col, round_no = where
    raise TrfFormatError(line_no, col + 5, Text(BAD_COLOUR, round=round_no, value=quoted(char)))


def _parse_result(char: str, opponent: int | None, where: tuple[int, int, int]) -> ResultCode:
    """Parse the result letter; blank, and ``-`` without opponent, are a zero-point bye."""
    if char == " " or (char == "-" and opponent is None):
        return ResultCode.ZERO_POINT_BYE
    if char.upper() in _RESULTS:
        return _RESULTS[char.upper()]
    line_no, col, round_no = where
    raise TrfFormatError(line_no, col + 7, Text(BAD_RESULT, round=round_no, value=quoted(char)))


def _check_entry(entry: RoundEntry, char: str, where: tuple[int, int, int]) -> None:
    """Check that byes have no opponent or colour, and games have both (forfeits may lack
    colour)."""
    line_no, col, round_no = where
    if entry.opponent is None:
        if entry.result not in _NO_OPPONENT_RESULTS:
            raise TrfFormatError(
                line_no, col + 7, Text(NEEDS_OPPONENT, round=round_no, value=quoted(char))
            )
        if entry.color is not None:
            raise TrfFormatError(line_no, col + 5, Text(COLOUR_WITHOUT_OPPONENT, round=round_no))
    elif entry.result in _NO_OPPONENT_RESULTS:
        raise TrfFormatError(
            line_no, col + 7, Text(BYE_WITH_OPPONENT, round=round_no, value=quoted(char))
        )
    elif entry.color is None and entry.result not in _FORFEITS:
        raise TrfFormatError(line_no, col + 5, Text(GAME_WITHOUT_COLOUR, round=round_no))


def _parse_title(text: str) -> str:
    """Normalise a title: old lower-case codes (``g``, ``wm``) become ``GM``, ``WIM``."""
    title = text.strip().upper()
    return _OLD_TITLES.get(title, title)


def _parse_player(line: str, line_no: int) -> Player:
    """Parse a 001 record."""
    tpn = parse_tpn(field_text(line, 5, 8), line_no, 5, _PAIRING_NUMBER)
    rating_text = field_text(line, 49, 52)
    rating = None
    if rating_text.strip():
        rating = parse_int(rating_text, line_no, 49, _RATING)
    declared_text = field_text(line, 81, 84)
    declared = None
    if declared_text.strip():
        declared = parse_points(declared_text, line_no, 81, _POINTS)
    rank_text = field_text(line, 86, 89)
    rank = None if not rank_text.strip() else parse_int(rank_text, line_no, 86, _RANK)
    if field_text(line, 85, 85) != " " or field_text(line, 90, 91) != "  ":
        raise TrfFormatError(line_no, 85, Text(MISALIGNED_POINTS))
    round_count = max(0, (len(line) - FIRST_ROUND_COLUMN) // 10 + 1)
    if round_count > MAX_ROUNDS:
        raise TrfFormatError(line_no, FIRST_ROUND_COLUMN, Text(TOO_MANY_ROUNDS))
    rounds = tuple(_parse_round_entry(line, line_no, r, tpn) for r in range(1, round_count + 1))
    return Player(
        tpn=tpn,
        name=field_text(line, 15, 47).strip(),
        rating=rating,
        title=_parse_title(field_text(line, 11, 13)),
        sex=field_text(line, 10, 10).strip(),
        federation=field_text(line, 54, 56).strip(),
        fide_id=field_text(line, 58, 68).strip(),
        birth=field_text(line, 70, 79).strip(),
        declared_points=declared,
        rank=rank,
        rounds=rounds,
    )


def read_player_record(line: str, line_no: int) -> Player:
    """Parse one ``001`` record on its own, without the checks between players.

    For readers of TRF variants that build on the record (the Double-Swiss two-column format).
    """
    return _parse_player(line, line_no)


# ---------------------------------------------------------------------------------------------
# Whole file


def player_points(t: Tournament, player: Player) -> Points:
    """Return a player's points from the round entries (accelerations not included)."""
    return sum(t.point_system.points_for(entry) for entry in player.rounds)


def last_paired_round(players: tuple[Player, ...] | list[Player]) -> int:
    """Return the last round in which some entry was produced by pairing (0 if none)."""
    last = 0
    for player in players:
        for r, entry in enumerate(player.rounds, start=1):
            if r > last and entry.was_paired:
                last = r
    return last


def recorded_initial_color(players: tuple[Player, ...]) -> Color | None:
    """The initial colour a file without ``XXC``/``152`` records in its games, as bbpPairings
    reads it: in the first round with a colour, the colour of the highest player paired by
    then, reversed for each player above him who has none in that round (the colours
    alternate down the list, C.04.3 Art. 5.2.5). None when no colour is recorded."""
    first = min((k for p in players for k, e in enumerate(p.rounds) if e.color is not None),
                default=None)
    if first is None:
        return None
    paired = [p for p in sorted(players, key=lambda p: p.tpn)
              if any(e.was_paired for e in p.rounds[: first + 1])]
    for i, player in enumerate(paired):
        color = player.rounds[first].color if len(player.rounds) > first else None
        if color is not None:
            return color if i % 2 == 0 else color.opposite
    return None


def next_round_number(t: Tournament) -> int:
    """Return the round to pair next, as bbpPairings reads a file: a round is over once
    someone was paired in it, or once a later round has an entry (a round in which everyone
    was absent or on a requested bye, followed by the pre-set byes of the next one); and a
    column that holds an entry for every player is a round already decided, even with byes
    only."""
    columns = max((len(p.rounds) for p in t.players), default=0)
    over = max(last_paired_round(t.players), columns - 1)
    if t.players and all(len(p.rounds) > over for p in t.players):
        over += 1
    return over + 1


class _Rules(TypedDict, total=False):
    """The ``Tournament`` fields that the 192 (or 092) code gives."""

    rules: RuleSet
    baku: bool
    tournament_type: str


@dataclass
class _Reader:
    """Accumulate the records of one file, then check them against each other."""

    text: str
    players: dict[int, tuple[int, Player]] = field(default_factory=dict)
    name: str = ""
    total_rounds: int | None = None
    initial_color: Color | None = None
    points: PointsBuilder = field(default_factory=PointsBuilder)
    type_192: str | None = None
    type_092: str | None = None
    accelerations: list[tuple[int, int, Acceleration]] = field(default_factory=list)
    forbidden: list[tuple[int, ForbiddenPairs]] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    other_records: list[tuple[str, str]] = field(default_factory=list)

    def read(self) -> Tournament:
        """Read every line, then check and build the tournament."""
        for line_no, raw in enumerate(_LINE_BREAK.split(self.text), start=1):
            if "\x00" in raw:
                raise TrfFormatError(line_no, raw.index("\x00") + 1, Text(NUL_CHARACTER))
            line = raw.lstrip("\ufeff").rstrip()  # a byte-order mark is not part of the record
            if not line.strip() or line.startswith("###"):
                continue
            self.read_record(line, line_no)
        return self.finish()

    def read_record(self, line: str, line_no: int) -> None:
        """Read one record by its code; keep unknown records verbatim for the writer."""
        key = line[:3].upper()
        handler = _HANDLERS.get(key)
        if handler is None and key in BB_CODES:
            handler = _Reader.read_bb
        if handler is None or (key == "012" and self.name):
            self.keep(line)
        else:
            handler(self, line, line_no)

    def keep(self, line: str) -> None:
        """Keep a record that the model has no field for (022, 092, 132, ...)."""
        code, rest = line[:3], line[3:]
        if code == "092" and self.type_092 is None:
            self.type_092 = rest.strip()
        self.other_records.append((code, rest[1:] if rest.startswith(" ") else rest))

    def read_001(self, line: str, line_no: int) -> None:
        """Read a player record."""
        self.add_player(_parse_player(line, line_no), line_no)

    def read_012(self, line: str, line_no: int) -> None:
        """Read the tournament name (the first non-blank 012)."""
        self.name = line[3:].strip()

    def read_rounds(self, line: str, line_no: int) -> None:
        """Read ``XXR n`` or ``142 n``: the number of rounds."""
        tokens = split_tokens(line, 4)
        if len(tokens) != 1:
            raise TrfFormatError(line_no, 5, Text(ONE_ROUND_COUNT, code=line[:3]))
        self.total_rounds = parse_round(tokens[0][1], line_no, tokens[0][0], Text(ROUNDS))

    def read_bb(self, line: str, line_no: int) -> None:
        """Read a bbpPairings point value (``BBW 3.0``)."""
        tokens = split_tokens(line, 4)
        if len(tokens) != 1:
            raise TrfFormatError(line_no, 5, Text(ONE_VALUE, code=line[:3]))
        value = parse_points(tokens[0][1], line_no, tokens[0][0], line[:3])
        code = line[:3].upper()
        self.points.set(
            BB_CODES[code], value, form="BB?", line_no=line_no, column=tokens[0][0], code=code
        )

    def read_162(self, line: str, line_no: int) -> None:
        """Read the TRF-2026 point system."""
        read_162(line, line_no, self.points)

    def read_xxs(self, line: str, line_no: int) -> None:
        """Read the JaVaFo point system."""
        read_xxs(line, line_no, self.points)

    def read_192(self, line: str, line_no: int) -> None:
        """Read the encoded tournament type."""
        self.type_192 = line[3:].strip()
        if not self.type_192:
            raise TrfFormatError(line_no, 5, Text(EMPTY_TYPE))

    def read_acceleration(self, line: str, line_no: int) -> None:
        """Read ``250`` or ``XXA``."""
        read = read_250 if line[:3] == "250" else read_xxa
        self.accelerations += [(line_no, 5, a) for a in read(line, line_no)]

    def read_forbidden(self, line: str, line_no: int) -> None:
        """Read ``260`` or ``XXP``."""
        read = read_260 if line[:3] == "260" else read_xxp
        self.forbidden.append((line_no, read(line, line_no)))

    def read_byes(self, line: str, line_no: int) -> None:
        """Read ``240`` or ``XXZ``."""
        read = read_240 if line[:3] == "240" else read_xxz
        self.byes += read(line, line_no)

    def read_xxc(self, line: str, line_no: int) -> None:
        """Read ``XXC white1|black1``: the initial colour."""
        for column, token in split_tokens(line, 4):
            word = token.lower()
            if word == "white1":
                self.initial_color = Color.WHITE
            elif word == "black1":
                self.initial_color = Color.BLACK
            elif word == "rank":
                raise TrfFormatError(line_no, column, Text(XXC_RANK))
            else:
                raise TrfFormatError(line_no, column, Text(XXC_UNKNOWN, value=quoted(token)))

    def read_152(self, line: str, line_no: int) -> None:
        """Read ``152 W|B``: the initial colour."""
        letter = field_text(line, 5, 5).upper()
        if letter not in ("W", "B") or line[5:].strip():
            raise TrfFormatError(line_no, 5, Text(EXPECTED_W_OR_B))
        self.initial_color = Color.WHITE if letter == "W" else Color.BLACK

    def add_player(self, player: Player, line_no: int) -> None:
        """Add a player; a repeated TPN is an error."""
        if player.tpn in self.players:
            first = self.players[player.tpn][0]
            raise TrfFormatError(line_no, 5, Text(TPN_REPEATED, tpn=player.tpn, line=first))
        self.players[player.tpn] = (line_no, player)

    def finish(self) -> Tournament:
        """Check the records against each other and build the tournament."""
        count = len(self.players)
        if not count:
            raise TrfFormatError(1, 1, Text(NO_PLAYER))
        for tpn, (line_no, player) in self.players.items():
            if tpn > count:
                raise TrfFormatError(
                    line_no, 5, Text(TPN_OUT_OF_RANGE, count, tpn=tpn, count=count)
                )
            if self.total_rounds is not None and len(player.rounds) > self.total_rounds:
                column = FIRST_ROUND_COLUMN + 10 * self.total_rounds
                raise TrfFormatError(
                    line_no, column, Text(MORE_ROUNDS, count=self.total_rounds)
                )
        self.check_games()
        players = self.merge_byes()
        point_system = self.points.build()
        tournament = Tournament(
            players=players,
            total_rounds=self.total_rounds,
            initial_color=self.initial_color or recorded_initial_color(players),
            point_system=point_system,
            accelerations=self.checked_accelerations(count),
            forbidden_pairs=self.checked_forbidden_pairs(count),
            name=self.name,
            other_records=tuple(self.other_records),
            **self.rules(),
        )
        self.check_points(tournament)
        return tournament

    def rules(self) -> _Rules:
        """Return rules, baku and tournament_type from 192 (or a recognised code in 092)."""
        code = self.type_192
        if code is None and self.type_092 is not None:
            if _dutch_code(self.type_092) is not None:
                code = self.type_092
        if code is None:
            return {}
        known = _dutch_code(code)
        if known is None:
            return {"tournament_type": code}
        rules, baku = known
        return {"rules": rules, "baku": baku, "tournament_type": code}

    def check_games(self) -> None:
        """Check that both players of every game list each other consistently."""
        for tpn, (line_no, player) in self.players.items():
            for r, entry in enumerate(player.rounds, start=1):
                if entry.opponent is None:
                    continue
                column = FIRST_ROUND_COLUMN + 10 * (r - 1)
                where = {"round": r, "opponent": entry.opponent}
                if entry.opponent not in self.players:
                    raise TrfFormatError(line_no, column, Text(OPPONENT_MISSING, **where))
                other = self.players[entry.opponent][1]
                if len(other.rounds) < r or other.rounds[r - 1].opponent != tpn:
                    raise TrfFormatError(
                        line_no, column, Text(OPPONENT_DISAGREES, **where, tpn=tpn)
                    )
                theirs = other.rounds[r - 1]
                if theirs.result not in _MATCHING_RESULT[entry.result]:
                    raise TrfFormatError(line_no, column + 7, Text(RESULT_DISAGREES, **where))
                expected = entry.color.opposite if entry.color is not None else None
                if theirs.color is not expected:
                    raise TrfFormatError(line_no, column + 5, Text(COLOUR_DISAGREES, **where))
        self.check_one_pab_per_round()

    def check_one_pab_per_round(self) -> None:
        """Check that no round has two pairing-allocated byes (C.04.1 Art. 3)."""
        pab: dict[int, int] = {}
        for tpn, (line_no, player) in sorted(self.players.items(), key=lambda item: item[1][0]):
            for r, entry in enumerate(player.rounds, start=1):
                if entry.result is not ResultCode.PAIRING_ALLOCATED_BYE:
                    continue
                if r in pab:
                    column = FIRST_ROUND_COLUMN + 10 * (r - 1) + 7
                    raise TrfFormatError(line_no, column, Text(SECOND_PAB, round=r, tpn=pab[r]))
                pab[r] = tpn

    def merge_byes(self) -> tuple[Player, ...]:
        """Return the players with the 240/XXZ byes written into their round entries."""
        players = {tpn: p for tpn, (_, p) in self.players.items()}
        next_round = last_paired_round(list(players.values())) + 1
        for bye in self.byes:
            round_no = bye.round if bye.round is not None else next_round
            if bye.tpn not in players:
                raise TrfFormatError(
                    bye.line_no, bye.column, Text(BYE_UNKNOWN_PLAYER, tpn=bye.tpn)
                )
            if self.total_rounds is not None and round_no > self.total_rounds:
                raise TrfFormatError(
                    bye.line_no, bye.column, Text(BYE_AFTER_LAST, round=round_no)
                )
            player = players[bye.tpn]
            entry = RoundEntry(None, None, bye.result)
            rounds = list(player.rounds)
            if len(rounds) >= round_no:
                if rounds[round_no - 1] != entry:
                    raise TrfFormatError(
                        bye.line_no, bye.column,
                        Text(BYE_CONTRADICTS, tpn=bye.tpn, round=round_no),
                    )
                continue
            rounds += [_ABSENT] * (round_no - 1 - len(rounds))
            rounds.append(entry)
            players[bye.tpn] = replace(player, rounds=tuple(rounds))
        return tuple(players[tpn] for tpn in sorted(players))

    def checked_accelerations(self, count: int) -> tuple[Acceleration, ...]:
        """Return the accelerations by (TPN, round); later lines win, zero values are dropped."""
        values: dict[tuple[int, int], Points] = {}
        for line_no, column, acc in self.accelerations:
            if acc.tpn > count:
                raise TrfFormatError(
                    line_no, column, Text(ACCELERATION_UNKNOWN_PLAYER, tpn=acc.tpn)
                )
            if acc.points and self.total_rounds is not None and acc.round > self.total_rounds:
                raise TrfFormatError(
                    line_no, column, Text(ACCELERATION_AFTER_LAST, round=acc.round)
                )
            values[(acc.tpn, acc.round)] = acc.points
        return tuple(
            Acceleration(tpn, r, points) for (tpn, r), points in sorted(values.items()) if points
        )

    def checked_forbidden_pairs(self, count: int) -> tuple[ForbiddenPairs, ...]:
        """Return the prohibited pairings, all naming existing players."""
        for line_no, pairs in self.forbidden:
            unknown = [tpn for tpn in pairs.tpns if tpn > count]
            if unknown:
                raise TrfFormatError(
                    line_no, 5, Text(PROHIBITED_UNKNOWN_PLAYER, tpn=min(unknown))
                )
        return tuple(pairs for _, pairs in self.forbidden)

    def check_points(self, t: Tournament) -> None:
        """Check the points column: the results, with or without the next round's pre-set byes."""
        after = last_paired_round(t.players)
        for player in t.players:
            if player.declared_points is None:
                continue
            total = player_points(t, player)
            preset = sum(
                t.point_system.points_for(e) for e in player.rounds[after:] if e.is_preset
            )
            if player.declared_points not in (total, total - preset):
                line_no = self.players[player.tpn][0]
                raise TrfFormatError(line_no, 81, Text(
                    POINTS_DO_NOT_MATCH, points=points_text(player.declared_points),
                    total=points_text(total),
                ))


_HANDLERS = {
    "001": _Reader.read_001,
    "012": _Reader.read_012,
    "142": _Reader.read_rounds,
    "XXR": _Reader.read_rounds,
    "152": _Reader.read_152,
    "XXC": _Reader.read_xxc,
    "162": _Reader.read_162,
    "XXS": _Reader.read_xxs,
    "192": _Reader.read_192,
    "250": _Reader.read_acceleration,
    "XXA": _Reader.read_acceleration,
    "260": _Reader.read_forbidden,
    "XXP": _Reader.read_forbidden,
    "240": _Reader.read_byes,
    "XXZ": _Reader.read_byes,
}


def _dutch_code(code: str) -> tuple[RuleSet, bool] | None:
    """Return (rules, baku) for a Dutch 192 code, or None."""
    upper = code.strip().upper()
    baku = upper.endswith("_BAKU")
    base = upper[: -len("_BAKU")] if baku else upper
    rules = _DUTCH_CODES.get(base)
    return None if rules is None else (rules, baku)


_ENCODING_NAMES = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "cp1252": "Windows-1252"}


def decode_file(raw: bytes, encoding: str = "utf-8-sig") -> str:
    """Return the text of a file's bytes (UTF-8 by default, a byte-order mark dropped); raise
    ``UndecodableFile`` naming the line and the byte where it is not that encoding. Lines may
    end with CR (TRF-2026 Remark 1), LF or CR LF.

    >>> decode_file(b"012 Open\\n012 Caf\\xe9\\n")
    Traceback (most recent call last):
    ...
    pairing.errors.UndecodableFile: line 2, byte 17: the file is not valid UTF-8 (byte 0xE9)
    """
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1  # TRF26: CR
        name = _ENCODING_NAMES.get(encoding, encoding)
        raise UndecodableFile(line, error.start + 1, raw[error.start], name) from None


def read_trf(text: str) -> Tournament:
    """Parse the text of a TRF file; raise TrfFormatError naming line and column on a defect."""
    return _Reader(text).read()


# ---------------------------------------------------------------------------------------------
# Writer


def _fit(text: str, width: int, *, right: bool = False) -> str:
    """Cut or pad a field to its columns."""
    text = text[:width]
    return text.rjust(width) if right else text.ljust(width)


def _entry_text(entry: RoundEntry) -> str:
    """Return the 8 significant columns of a round entry, e.g. ``  12 w 1`` or ``0000 - H``."""
    if entry.opponent is None:
        return f"0000 - {'-' if entry.absent else entry.result.value}"
    color = entry.color.value if entry.color is not None else "-"
    return f"{entry.opponent:>4} {color} {entry.result.value}"


def _player_line(t: Tournament, player: Player) -> str:
    """Return the 001 record of a player."""
    if not 1 <= player.tpn <= MAX_TPN:
        raise ValueError(f"pairing number {player.tpn} does not fit in TRF")
    if player.rating is not None and not 0 <= player.rating <= 9999:
        raise ValueError(f"rating {player.rating} does not fit in TRF")
    points = player.declared_points
    if points is None:
        points = player_points(t, player)
    head = (
        f"001 {player.tpn:>4} {_fit(player.sex, 1)}{_fit(player.title, 3, right=True)} "
        f"{_fit(player.name, 33)} {'' if player.rating is None else player.rating:>4} "
        f"{_fit(player.federation, 3)} {_fit(player.fide_id, 11, right=True)} "
        f"{_fit(player.birth, 10)} {points_field(points)} "
        f"{'' if player.rank is None else _fit(str(player.rank), 4, right=True):>4}"
    )
    return (head + "".join(f"  {_entry_text(e)}" for e in player.rounds)).rstrip()


def _tournament_type(t: Tournament) -> str | None:
    """Return the 192 code to write: the one read if it still fits rules and baku."""
    if t.tournament_type:
        known = _dutch_code(t.tournament_type)
        if known is None or known == (t.rules, t.baku):
            return t.tournament_type
    if t.rules is RuleSet.DUTCH_2026 and not t.baku and not t.tournament_type:
        return None
    base = "FIDE_DUTCH_2017" if t.rules is RuleSet.DUTCH_2017 else "FIDE_DUTCH_2025"
    return base + ("_BAKU" if t.baku else "")


def write_trf(t: Tournament, *, newline: str = "\n") -> str:
    """Return the tournament as TRF-2026 text.

    Pre-set byes are written in the players' round columns; a points column that was blank
    (``declared_points`` None) is written as the sum of the results, since engines require it.
    """
    lines: list[str] = []
    if t.name:
        lines.append(f"012 {t.name}")
    lines += [f"{code} {rest}".rstrip() for code, rest in t.other_records]
    if t.total_rounds is not None:
        lines.append(f"142 {t.total_rounds}")
    if t.initial_color is not None:
        lines.append("152 W" if t.initial_color is Color.WHITE else "152 B")
    lines += point_system_lines(t.point_system)
    code = _tournament_type(t)
    if code:
        lines.append(f"192 {code}")
    lines += acceleration_lines(t.accelerations)
    lines += [forbidden_line(pairs) for pairs in t.forbidden_pairs]
    lines += [_player_line(t, player) for player in t.players]
    return newline.join(lines) + newline


def read_pairings(text: str, round_number: int) -> RoundPairing:
    """Parse engine output: a count, then ``white black`` lines, ``tpn 0`` for the PAB."""
    lines = [(n, line.strip()) for n, line in enumerate(_LINE_BREAK.split(text), 1) if line.strip()]
    if not lines:
        raise TrfFormatError(1, 1, Text(EMPTY_PAIRING_LIST))
    count = parse_int(lines[0][1], lines[0][0], 1, Text(NUMBER_OF_PAIRS))
    if count != len(lines) - 1:
        raise TrfFormatError(
            lines[0][0], 1, Text(PAIRS_ANNOUNCED, count=count, given=len(lines) - 1)
        )
    boards: list[Board] = []
    bye: int | None = None
    for line_no, line in lines[1:]:
        parts = line.split()
        if len(parts) != 2:
            raise TrfFormatError(line_no, 1, Text(WHITE_BLACK, value=quoted(line)))
        white = parse_tpn(parts[0], line_no, 1, Text(WHITE))
        black = parse_int(parts[1], line_no, len(parts[0]) + 2, Text(BLACK))
        if black == 0:
            if bye is not None:
                raise TrfFormatError(line_no, 1, Text(SECOND_PAB_IN_LIST))
            bye = white
        else:
            black_column = len(parts[0]) + 2
            boards.append(Board(white, parse_tpn(parts[1], line_no, black_column, Text(BLACK))))
    return RoundPairing(round_number, tuple(boards), bye)


def write_pairings(pairing: RoundPairing) -> str:
    """Return a round as engine output: the count, ``white black`` lines, the PAB last."""
    return "".join(f"{line}\n" for line in pairing.engine_lines())
