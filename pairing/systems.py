"""The pairing systems, and the one lookup that finds them.

Everything that differs from one system to another is a method or an attribute of its
:class:`PairingSystem`: how its files are read and written, how a round is paired, explained and
replayed, what a pairing made by hand breaks, how the boards are ordered and the players ranked,
and what a tournament manager must know of it (does a round hold one game or a match of two,
from which round the pairing numbers are frozen, may players join late). The command line, the
web app, the checker and the conformance tools ask :func:`system` or :func:`system_of_file` for
the system and call it; none of them tests which system it holds.

Every method takes and returns the engine's :class:`pairing.model.Tournament`: one column of
round entries a round, or two a round for a system whose rounds are matches of two games.

>>> [s.code for s in SYSTEMS]
['2026', '2017', 'clock', 'dswiss']
>>> system("2017").name
'FIDE Dutch system, 2017 rules (C.04.3)'
>>> DOUBLE_SWISS.columns_per_round, DOUBLE_SWISS.first_column(3)
(2, 5)
>>> found, t = system_of_file('''
... 001    1      Alpha                             2400                             0.0
... 001    2      Beta                              2300                             0.0
... XXR 3
... XXC white1
... ''')
>>> found.code, found.pair(t).engine_lines()
('2026', ['1', '1 2'])

Adding a system: its package beside ``pairing.dutch`` (a function that pairs a ``Tournament``),
one subclass of :class:`PairingSystem` here, and its instance in :data:`SYSTEMS`.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from pairing.checker import check_round
from pairing.clock import pair_round as pair_clock_round
from pairing.clock.trf import CLOCK_TOURNAMENT_TYPE, is_clock_trf, mark_as_clock
from pairing.double_swiss import (
    is_double_swiss,
    pair_match,
    read_double_swiss,
    recorded_match,
    state_before_match,
    write_double_swiss,
)
from pairing.double_swiss.checker import check_match
from pairing.double_swiss.model import DOUBLE_SWISS_CODE
from pairing.double_swiss.tiebreaks import MatchContext
from pairing.double_swiss.trf import build_matches
from pairing.dutch import explain_round, pair_round as pair_dutch_round
from pairing.model import TPN, Board, Points, RoundPairing, RuleSet, Tournament
from pairing.replay import paired_rounds, recorded_round, replayable_rounds, state_before_round
from pairing.text import Text, as_data, gettext_noop
from pairing.tiebreaks import Rules, Standings, TieBreakSpec, standings as tiebreak_standings
from pairing.trf import next_round_number, read_trf, write_trf

__all__ = [
    "CLOCK",
    "DOUBLE_SWISS",
    "DUTCH_2017",
    "DUTCH_2026",
    "SYSTEMS",
    "PairingSystem",
    "Ranked",
    "UnknownSystem",
    "dutch",
    "read_as",
    "system",
    "system_of_file",
    "system_of_option",
]

TPN_FREEZE_ROUND = 4
"""No TPN may change once this round has been paired (C.04.2 Art. 2.3)."""


class UnknownSystem(KeyError):
    """No pairing system has that code."""


@dataclass(frozen=True)
class Ranked:
    """One line of the standings: a rank (shared by ``tied`` players), the score and the
    tie-breaks asked for, in their order (None where a tie-break was not used, C.07 Art. 10)."""

    rank: int
    tied: int
    tpn: TPN
    score: Points
    games: int
    """Games played over the board (matches played, for a system of matches)."""
    values: tuple[int | Fraction | None, ...]


class PairingSystem(abc.ABC):
    """A pairing system: its names, what a tournament manager must know of it, and the engine."""

    code: str
    """The system's code, as stored by the web app and given to ``--rules``."""
    key: str
    """Its name in code (``DUTCH_2026``), as a program's list of choices names it."""
    label: str
    """A short name, to choose a system from a list."""
    name: str
    """The full name, with its regulation."""
    description: str
    """One line on how it pairs, for the players."""
    note: str = ""
    """What players must know of a system that is not FIDE-approved."""
    article: str
    """The regulation its pairings follow, as the audit trail cites it."""
    rules: RuleSet = RuleSet.DUTCH_2026
    """The Dutch rule set (other systems: the default, which the Dutch checker reads)."""
    option: str
    """The command line's option that names a file of this system (``--dutch``)."""
    tournament_type: str = ""
    """The ``192`` code a tournament of this system carries (none: the writer's own)."""
    columns_per_round: int = 1
    """TRF round columns a round takes: 2 when a round is a match of two games."""
    unit: str = "round"
    units: str = "rounds"
    planned_record: str = "XXR/142"
    """The records of a file that say how many rounds are planned."""
    tpns_frozen_from_round: int = TPN_FREEZE_ROUND
    """TPNs change no more once this round is paired."""
    late_entries: bool = True
    """Whether players may join once round 1 is paired (C.04.2 Art. 2.4)."""
    accelerates: bool = False
    """Whether Baku acceleration (C.04.7) applies."""

    @property
    def matches(self) -> bool:
        """Whether a round is a match of two games with alternating colours."""
        return self.columns_per_round == 2

    def first_column(self, k: int) -> int:
        """The first TRF column of round k."""
        return (k - 1) * self.columns_per_round + 1

    def __repr__(self) -> str:
        return f"<pairing system {self.code}>"

    # Files ------------------------------------------------------------------------------------

    def recognises(self, text: str) -> bool:
        """Whether a TRF text says it is of this system."""
        return False

    def read(self, text: str) -> Tournament:
        """Parse a TRF text; raise ``TrfFormatError`` with the line and column of a defect."""
        return read_trf(text)

    def write(self, t: Tournament) -> str:
        """The tournament as a TRF text of this system."""
        return write_trf(t)

    # Replaying a recorded tournament ---------------------------------------------------------

    def next_round(self, t: Tournament) -> int:
        """The round to pair next."""
        return next_round_number(t)

    def planned_rounds(self, t: Tournament) -> int | None:
        """The number of rounds the file plans (``XXR``/``142``), if it says."""
        return t.total_rounds

    def paired_rounds(self, t: Tournament) -> int:
        """The number of rounds already paired."""
        return paired_rounds(t)

    def replayable_rounds(self, t: Tournament) -> list[int]:
        """The recorded rounds that have a pairing to reproduce."""
        return replayable_rounds(t)

    def recorded_round(self, t: Tournament, k: int) -> RoundPairing:
        """The pairing of round k as the tournament recorded it."""
        return recorded_round(t, k)

    def state_before(self, t: Tournament, k: int) -> Tournament:
        """The tournament as it stood before round k was paired."""
        return state_before_round(t, k)

    # Pairing ----------------------------------------------------------------------------------

    @abc.abstractmethod
    def pair(self, t: Tournament, *, explain: bool = False) -> RoundPairing:
        """Pair the next round; raise ``NoValidPairing`` when no legal pairing exists."""

    def pair_explained(
        self, t: Tournament, progress: Callable[[Text], None] | None = None
    ) -> tuple[RoundPairing, dict[str, object]]:
        """Pair the next round, and say why as JSON-ready data: the engine's lines, each
        kept as a template and its values to be said in any language. ``progress``, if
        given, is told what a long pairing is doing (the Dutch engine: which score group)."""
        pairing = self.pair(t, explain=True)
        return pairing, {"lines": [as_data(line) for line in pairing.explanation]}

    def check(self, t: Tournament, pairing: RoundPairing) -> tuple[list[Text], list[Text]]:
        """What a pairing made by hand breaks: errors (it does not pair each player due once)
        and the rules it breaks, which an arbiter may accept (C.04.2 Art. 4.4)."""
        errors: list[Text] = []
        warnings: list[Text] = []
        for violation in check_round(t, pairing, rules=self.rules):
            (errors if violation.kind.structural else warnings).append(violation.text)
        return errors, warnings

    def scores(self, t: Tournament, before_round: int) -> dict[TPN, Points]:
        """Each player's score before a round (its pre-set entries left out)."""
        points = t.point_system
        return {
            p.tpn: sum(points.points_for(e) for e in p.rounds[: before_round - 1])
            for p in t.players
        }

    def board_order(self, t: Tournament, pairing: RoundPairing) -> list[tuple[TPN, TPN]]:
        """The pairs of round ``pairing.round`` in the order they are published (C.04.2
        Art. 3.6; 2017: D.9): the score of the higher-ranked player, then the sum of both
        scores, then the TPN of the higher-ranked player."""
        score = self.scores(t, pairing.round)

        def key(board: Board) -> tuple[int, int, int]:
            higher = min((board.white, board.black), key=lambda tpn: (-score[tpn], tpn))
            return (-score[higher], -(score[board.white] + score[board.black]), higher)

        return [(b.white, b.black) for b in sorted(pairing.boards, key=key)]

    def published(self, t: Tournament, pairing: RoundPairing) -> RoundPairing:
        """The pairing with its boards in board order (:meth:`board_order`), as it is
        published and as bbpPairings and JaVaFo write it; the bye stays apart."""
        boards = tuple(Board(white, black) for white, black in self.board_order(t, pairing))
        return replace(pairing, boards=boards)

    # Standings --------------------------------------------------------------------------------

    def standings(
        self, t: Tournament, specs: Sequence[TieBreakSpec], rounds: int
    ) -> list[Ranked]:
        """Rank the players by score, then by the tie-breaks (C.07), over rounds 1..``rounds``
        of a tournament whose columns hold complete rounds only."""
        columns = rounds * self.columns_per_round
        if columns < max((len(p.rounds) for p in t.players), default=0):
            t = replace(t, players=tuple(replace(p, rounds=p.rounds[:columns]) for p in t.players))
        table = tiebreak_standings(t, specs)
        entries = {p.tpn: p.rounds for p in t.players}
        points = t.point_system
        return _ranked(
            table, specs,
            score=lambda tpn: sum(points.points_for(e) for e in entries[tpn]),
            games=lambda tpn: sum(1 for e in entries[tpn] if e.game_was_played),
        )


def _ranked(
    table: Standings,
    specs: Sequence[TieBreakSpec],
    *,
    score: Callable[[TPN], Points],
    games: Callable[[TPN], int],
) -> list[Ranked]:
    column = {spec.code: i for i, spec in enumerate(table.specs)}
    tied: dict[int, int] = {}
    for row in table.rows:
        tied[row.rank] = tied.get(row.rank, 0) + 1
    return [
        Ranked(
            rank=row.rank, tied=tied[row.rank], tpn=row.tpn, score=score(row.tpn),
            games=games(row.tpn),
            values=tuple(
                row.values[column[spec.code]] if spec.code in column else None for spec in specs
            ),
        )
        for row in table.rows
    ]


class DutchSystem(PairingSystem):
    """The FIDE Dutch system (C.04.3), under the 2026 or the 2017 rules."""

    article = "C.04.3"
    option = "--dutch"
    accelerates = True

    def __init__(self, rules: RuleSet, label: str, name: str, description: str) -> None:
        self.rules = rules
        self.code = rules.value
        self.key = rules.name
        self.label = label
        self.name = name
        self.description = description

    def pair(self, t: Tournament, *, explain: bool = False) -> RoundPairing:
        return pair_dutch_round(t, rules=self.rules, explain=explain)

    def pair_explained(
        self, t: Tournament, progress: Callable[[Text], None] | None = None
    ) -> tuple[RoundPairing, dict[str, object]]:
        """The Dutch engine says why as a ``RoundExplanation`` (``as_dict()``), bracket by
        bracket; the pairing carries its text."""
        pairing, why = explain_round(t, rules=self.rules, progress=progress)
        return replace(pairing, explanation=tuple(why.lines())), why.as_dict()


class ClockSystem(PairingSystem):
    """The Clock (Italian-Swiss) system (``pairing.clock``): not FIDE-approved."""

    code = "clock"
    key = "CLOCK"
    label = gettext_noop("Clock (Italian-Swiss)")
    name = gettext_noop("Clock (Italian-Swiss) system, not FIDE-approved")
    description = gettext_noop(
        "The players sit around a clock by pairing number; the highest scorer after the last "
        "pair picks the first compatible opponent who follows him."
    )
    note = gettext_noop(
        "The Clock system is not a FIDE-approved pairing system: a FIDE-rated event may use it "
        "only with the authorisation of the FIDE Qualification Commission (C.04.2)."
    )
    article = "C.04.3"
    option = "--clock"
    tournament_type = CLOCK_TOURNAMENT_TYPE
    tpns_frozen_from_round = 1  # the grid of Appendix A is built once, before round 1
    late_entries = False

    def recognises(self, text: str) -> bool:
        return is_clock_trf(text)

    def write(self, t: Tournament) -> str:
        # TRF-2026 has no code for it: 192 CUSTOM_SWISS and a comment (pairing.clock.trf)
        return mark_as_clock(write_trf(t))

    def pair(self, t: Tournament, *, explain: bool = False) -> RoundPairing:
        return pair_clock_round(t, explain=explain)


class DoubleSwissSystem(PairingSystem):
    """The FIDE Double-Swiss system (C.04.5): every round a match of two games, two TRF
    columns a match (``pairing.double_swiss``)."""

    code = "dswiss"
    key = "DOUBLE_SWISS"
    label = gettext_noop("FIDE Double-Swiss (C.04.5)")
    name = gettext_noop("FIDE Double-Swiss system (C.04.5)")
    description = gettext_noop(
        "Every pairing is a match of two games with alternating colours; the top score group "
        "takes the first valid set of upfloaters and is paired in identifier order (C.04.5)."
    )
    article = "C.04.5"
    option = "--double-swiss"
    tournament_type = DOUBLE_SWISS_CODE
    columns_per_round = 2
    unit = "match"
    units = "matches"
    planned_record = "142"

    def recognises(self, text: str) -> bool:
        return is_double_swiss(text)

    def read(self, text: str) -> Tournament:
        return read_double_swiss(text).tournament

    def write(self, t: Tournament) -> str:
        """The two-column file; the points column is the matches' (reading 1)."""
        players = tuple(replace(p, declared_points=None) for p in t.players)
        return write_double_swiss(build_matches(replace(t, players=players)))

    def next_round(self, t: Tournament) -> int:
        return build_matches(t).next_match_number()

    def planned_rounds(self, t: Tournament) -> int | None:
        return build_matches(t).total_matches

    def paired_rounds(self, t: Tournament) -> int:
        return build_matches(t).paired_matches()

    def replayable_rounds(self, t: Tournament) -> list[int]:
        return list(range(1, self.paired_rounds(t) + 1))

    def recorded_round(self, t: Tournament, k: int) -> RoundPairing:
        return recorded_match(build_matches(t), k)

    def state_before(self, t: Tournament, k: int) -> Tournament:
        return state_before_match(build_matches(t), k).tournament

    def pair(self, t: Tournament, *, explain: bool = False) -> RoundPairing:
        return pair_match(build_matches(t), explain=explain)

    def check(self, t: Tournament, pairing: RoundPairing) -> tuple[list[Text], list[Text]]:
        return check_match(build_matches(t), pairing)

    def scores(self, t: Tournament, before_round: int) -> dict[TPN, Points]:
        """Game points and the byes' match values before a match."""
        dt = build_matches(t)
        return {tpn: dt.score(tpn, before_round) for tpn in dt.tpns}

    def standings(
        self, t: Tournament, specs: Sequence[TieBreakSpec], rounds: int
    ) -> list[Ranked]:
        """Ranked by game points, the tie-breaks computed from the matches (Preface: a match
        with one game forfeited counts as played)."""
        dt = build_matches(t)
        context = MatchContext(dt, Rules(after_round=rounds))
        table = tiebreak_standings(t, specs, context=context)
        return _ranked(
            table, specs,
            score=lambda tpn: int(context.score[tpn] * 10),
            games=lambda tpn: sum(1 for m in dt.matches_of(tpn)[:rounds] if m.was_played),
        )


DUTCH_2026 = DutchSystem(
    RuleSet.DUTCH_2026,
    label=gettext_noop("FIDE Dutch (2026 rules)"),
    name=gettext_noop("FIDE Dutch system, 2026 rules (C.04.3)"),
    description=gettext_noop(
        "Each score group is paired top half against bottom half (C.04.3, the rules in force "
        "since 1 February 2026)."
    ),
)
DUTCH_2017 = DutchSystem(
    RuleSet.DUTCH_2017,
    label=gettext_noop("FIDE Dutch (2017 rules)"),
    name=gettext_noop("FIDE Dutch system, 2017 rules (C.04.3)"),
    description=gettext_noop(
        "Each score group is paired top half against bottom half (C.04.3, the 2017 rules)."
    ),
)
CLOCK = ClockSystem()
DOUBLE_SWISS = DoubleSwissSystem()

SYSTEMS: tuple[PairingSystem, ...] = (DUTCH_2026, DUTCH_2017, CLOCK, DOUBLE_SWISS)
"""Every system, the default first."""

_BY_CODE = {s.code: s for s in SYSTEMS}


def system(code: str) -> PairingSystem:
    """The system with that code; raise ``UnknownSystem``."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise UnknownSystem(code) from None


def dutch(rules: RuleSet) -> PairingSystem:
    """The Dutch system under a rule set."""
    return system(rules.value)


def system_of_file(text: str, rules: RuleSet | None = None) -> tuple[PairingSystem, Tournament]:
    """The system a TRF text says it is of, and the tournament read with it: the Double-Swiss
    or Clock marker, else the Dutch system under ``rules`` or the file's own (its ``192``
    record; 2026 when it says nothing). Raise ``TrfFormatError`` for a defect."""
    for candidate in (DOUBLE_SWISS, CLOCK):
        if candidate.recognises(text):
            return candidate, candidate.read(text)
    t = read_trf(text)
    return dutch(rules or t.rules), t


def system_of_option(option: str, rules: RuleSet | None = None) -> PairingSystem:
    """The system a command line option names (``--dutch``, ``--clock``, ``--double-swiss``);
    the Dutch system under ``rules`` (2026 when None)."""
    found = next(s for s in SYSTEMS if s.option == option)
    return dutch(rules or found.rules) if found.option == DUTCH_2026.option else found


def read_as(option: str, text: str, rules: RuleSet | None = None
            ) -> tuple[PairingSystem, Tournament]:
    """Read a text as a file of the system named by a command line option; a Dutch file is
    paired under ``rules`` or its own."""
    found = system_of_option(option)
    t = found.read(text)
    if found.option == DUTCH_2026.option:
        found = dutch(rules or t.rules)
    return found, t
