"""Read-only queries behind the public pages and the REST API.

Only published and finished rounds are ever shown to the public; a draft round (paired, not yet
published) stays with the arbiters. Every function here reads the database in a fixed number of
queries, whatever the number of players or rounds, so that public lists do no N+1.
"""

from __future__ import annotations

import calendar
import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Count, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from pairing.model import Color, ResultCode, RoundEntry
from tournaments import live, pagecache, services, versioning
from tournaments.models import Game, Player, Result, Round, Tournament, pending_game
from tournaments.sentences import engine_said, labelled

log = logging.getLogger(__name__)

PUBLIC_STATES = (Round.State.PUBLISHED, Round.State.FINISHED)


TIEBREAK_NAMES = {
    "DE": _("Direct encounter"),
    "WIN": _("Number of wins"),
    "WON": _("Games won over the board"),
    "BPG": _("Games played with Black"),
    "BWG": _("Games won with Black"),
    "PS": _("Progressive scores"),
    "REP": _("Rounds one elected to play"),
    "STD": _("Standard points"),
    "TPN": _("Pairing number"),
    "BH": _("Buchholz"),
    "AOB": _("Average of opponents' Buchholz"),
    "FB": _("Fore Buchholz"),
    "SB": _("Sonneborn-Berger"),
    "KS": _("Koya"),
    "ARO": _("Average rating of opponents"),
    "TPR": _("Tournament performance rating"),
    "PTP": _("Perfect tournament performance"),
    "APRO": _("Average performance rating of opponents"),
    "APPO": _("Average perfect performance of opponents"),
    "RTNG": _("Rating"),
}
"""The names of C.07's tie-breaks in the page's language (the engine names them in English)."""


def tiebreak_name(spec) -> str:
    """A tie-break's name with its modifiers, in the page's language: 'Buchholz Cut-1'."""
    text = str(TIEBREAK_NAMES.get(spec.acronym.value, spec.name))
    if spec.cut:
        text += " " + _("Cut-%(n)d") % {"n": spec.cut}
    if spec.median:
        text += " " + _("Median-%(n)d") % {"n": spec.median}
    if spec.limit:
        text += " " + _("(limit %(n)+d half points)") % {"n": spec.limit}
    if spec.played:
        text += " " + _("(forfeits as played)")
    if spec.reverse:
        text += " " + _("(reverse order)")
    return text


def format_decimal(text: str) -> str:
    """A number written with a decimal point ('13.5', a tie-break value) as the page's language
    writes it ('13,5' in French); anything else as it is."""
    if isinstance(text, str) and _DECIMAL.fullmatch(text):
        return formats.number_format(Decimal(text), decimal_pos=len(text.split(".")[1]))
    return text


_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


# ---------------------------------------------------------------------------------------------
# Tournaments and rounds


def public_tournaments() -> QuerySet[Tournament]:
    """All tournaments, with their number of players and of rounds the public can see."""
    return Tournament.objects.annotate(
        player_count=Count("players", distinct=True),
        public_rounds=Count(
            "round_set", filter=Q(round_set__state__in=PUBLIC_STATES), distinct=True
        ),
    )


def public_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The rounds of a tournament the public may see (published or finished), in order."""
    return tournament.round_set.filter(state__in=PUBLIC_STATES).order_by("number")


def public_round_numbers(tournament: Tournament) -> list[int]:
    return list(public_rounds(tournament).values_list("number", flat=True))


def complete_public_rounds(tournament: Tournament) -> int:
    """How many rounds count in the standings: public rounds 1..n with every result in."""
    rows = public_rounds(tournament).annotate(
        pending=Count("games", filter=pending_game("games__"))  # a match waits for both games
    ).values_list("number", "pending")
    done = 0
    for number, pending in rows:
        if number != done + 1 or pending:
            break
        done = number
    return done


def pairing_rows(rnd: Round) -> list[Game]:
    """The games of a round as stored: boards in board order (C.04.2 Art. 3.6), then byes."""
    # Game's default ordering: board ascending with byes (no board) last, then TPN.
    return list(rnd.games.select_related("white", "black"))


# ---------------------------------------------------------------------------------------------
# What each player did in each public round


RESULT_SYMBOL = {
    ResultCode.WIN: "1",
    ResultCode.DRAW: "½",
    ResultCode.LOSS: "0",
    ResultCode.FORFEIT_WIN: "+",
    ResultCode.FORFEIT_LOSS: "−",
}

BYE_SHORT = {
    Result.PAIRING_BYE: pgettext_lazy("a pairing-allocated bye in a crosstable cell", "bye"),
    Result.HALF_BYE: "H",
    Result.FULL_BYE: "F",
    Result.ZERO_BYE: "Z",
    Result.ABSENT: "abs",
}


@dataclass(frozen=True)
class Cell:
    """One player's round: a game (opponent and colour), a bye, or nothing."""

    round: int
    game: Game | None
    opponent: Player | None
    colour: str
    """'w', 'b', or '' for a bye, an absence or an annulled game."""
    symbol: str
    """'1', '½', '0', '+', '−' for games; 'bye', 'H', 'F', 'Z', 'abs' for byes; '*' pending."""
    points: int | None
    """Tenths of a point, None while the result is pending."""

    @property
    def pending(self) -> bool:
        return self.points is None


def _cell(tournament: Tournament, game: Game, player_id: int, tpn_of: dict[int, int]) -> Cell:
    as_white = game.white_id == player_id
    number = game.round.number
    if game.is_bye:
        codes = game.result_codes()
        assert codes is not None  # a bye always has its result
        points = tournament.point_system.points_for(RoundEntry(None, None, codes[0]))
        return Cell(number, game, None, "", BYE_SHORT.get(game.result, game.result), points)
    opponent = game.black if as_white else game.white
    colour = "w" if as_white else "b"
    if game.is_match:
        return _match_cell(tournament, game, as_white, opponent, colour)
    codes = game.result_codes()
    if codes is None:
        return Cell(number, game, opponent, colour, "*", None)
    code = codes[0] if as_white else codes[1]
    if game.result == Result.NOT_PLAYED:
        points = tournament.point_system.points_for(RoundEntry(None, None, code))
        return Cell(number, game, opponent, "", "0/0", points)
    entry = RoundEntry(
        tpn_of[opponent.pk], Color.WHITE if as_white else Color.BLACK, code
    )
    points = tournament.point_system.points_for(entry)
    return Cell(number, game, opponent, colour, RESULT_SYMBOL.get(code, code.value), points)


def _match_cell(tournament: Tournament, game: Game, as_white: bool, opponent: Player,
                colour: str) -> Cell:
    """A Double-Swiss match: both games' symbols (``1 ½``), game points summed; the colour is
    the player's in game 1 (C.04.5 Art. 1.6, 4.4)."""
    number = game.round.number
    if not game.has_result:
        return Cell(number, game, opponent, colour, "* *", None)
    (w1, b1), (w2, b2) = game.game_codes()
    mine = (w1, w2) if as_white else (b1, b2)
    points = sum(tournament.point_system.points_for(RoundEntry(0, None, c)) for c in mine)
    return Cell(number, game, opponent, colour, " ".join(RESULT_SYMBOL[c] for c in mine), points)


@dataclass(frozen=True)
class History:
    """Every public round of every player of a tournament, read in two queries."""

    rounds: list[int]
    players: dict[int, Player]
    cells: dict[int, dict[int, Cell]]
    """Player id -> round number -> cell (no key: not paired that round)."""

    def cell(self, player_id: int, number: int) -> Cell | None:
        return self.cells[player_id].get(number)

    def score_before(self, player_id: int, number: int) -> int:
        """Points in tenths from the public rounds before round ``number`` (pending count 0)."""
        return sum(
            c.points or 0 for r, c in self.cells[player_id].items() if r < number
        )

    def running(self, player_id: int) -> list[tuple[int, Cell | None, int]]:
        """(round, cell, score after that round) for every public round."""
        total = 0
        rows = []
        for number in self.rounds:
            cell = self.cells[player_id].get(number)
            if cell is not None and cell.points is not None:
                total += cell.points
            rows.append((number, cell, total))
        return rows


def history(tournament: Tournament, *, version: Version | None = None) -> History:
    """Every public round of every player, computed once per version of the tournament."""
    if version is None:
        version = tournament_version(tournament.pk)
    if version is None:
        return _history(tournament)
    # Kept in this process only: for 1000 players and 9 rounds it is computed in 0.23-0.29 s,
    # but pickled in 0.16-0.25 s and unpickled in 0.28-0.31 s (model instances).
    return pagecache.computed(
        f"history:{version.etag_seed}", lambda: _history(tournament), shared=False
    )


def _history(tournament: Tournament) -> History:
    players = {p.pk: p for p in tournament.players.order_by("tpn")}
    tpn_of = {pk: p.tpn for pk, p in players.items()}
    rounds = {r.pk: r for r in tournament.round_set.filter(state__in=PUBLIC_STATES)}
    games = Game.objects.filter(round_id__in=rounds)
    cells: dict[int, dict[int, Cell]] = {pk: {} for pk in players}
    numbers: set[int] = set()
    for game in games:
        # Attach the rounds and players read above rather than joining them again per game.
        game.round = rounds[game.round_id]
        game.white = players[game.white_id]
        if game.black_id is not None:
            game.black = players[game.black_id]
        numbers.add(game.round.number)
        for pid in (game.white_id, game.black_id):
            if pid is not None:
                cells[pid][game.round.number] = _cell(tournament, game, pid, tpn_of)
    return History(sorted(numbers), players, cells)


# ---------------------------------------------------------------------------------------------
# Standings and crosstable


@dataclass(frozen=True)
class StandingRow:
    number: int
    """Row number (the crosstable refers to opponents by it)."""
    rank: int
    rank_label: str
    player: Player
    points: int
    games: int
    tiebreaks: tuple = ()
    """Values of the tournament's tie-breaks, in the order of ``Standings.tiebreak_names``."""


@dataclass(frozen=True)
class Standings:
    after_round: int
    """Last round counted: public and with all its results in (0 before that)."""
    tiebreak_names: tuple[str, ...]
    rows: list[StandingRow]


def public_standings(
    tournament: Tournament, *, after_round: int | None = None, version: Version | None = None
) -> Standings:
    """Standings over the public rounds only (a draft round never counts).

    The ranking is ``services.standings``; when its rows carry tie-break values (attribute
    ``tiebreaks``, with ``tiebreak_names`` on the service) they are passed on as columns.
    The result is cached by the tournament's version (``version``, when the caller has read it),
    the one whose change last could change the standings: a result in a round that does not
    count yet computes nothing again (issue 26).
    """
    if version is None:
        version = tournament_version(tournament.pk)
    if version is None:
        return _public_standings(tournament, after_round)
    key = f"standings:{version.standings_seed or version.etag_seed}:{after_round}"
    return pagecache.computed(key, lambda: _public_standings(tournament, after_round))


def _public_standings(tournament: Tournament, after_round: int | None) -> Standings:
    last = complete_public_rounds(tournament)
    if after_round is not None:
        last = max(0, min(after_round, last))
    rows = services.standings(tournament, after_round=last)
    names = tuple(getattr(services, "tiebreak_names", lambda t: ())(tournament))
    return Standings(
        last,
        names,
        [
            StandingRow(
                i,
                s.rank,
                s.rank_label,
                s.player,
                s.score,
                s.games,
                tuple(getattr(s, "tiebreaks", ())),
            )
            for i, s in enumerate(rows, start=1)
        ],
    )


def refresh(tournament_id: int) -> None:
    """Compute the rounds' history and the standings of a tournament's current version, so
    that the first visitor after a change finds them ready (``pagecache.refresh_soon``); then
    tell the open pages of that version (``live.publish``): they fetch a version computed,
    whatever the number of changes made meanwhile (issue 26)."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return
    version = tournament_version(t.pk)
    if version is None:  # deleted meanwhile
        return
    try:
        history(t, version=version)
        public_standings(t, version=version)
    except services.ServiceError:
        pass  # the pages say why the tournament cannot be ranked
    finally:
        if version.number is not None:
            live.publish(t.pk, version.number)


def tell_uncomputed() -> None:
    """When a process ends (a management command, a server worker recycled): tell the open
    pages of the changes whose computation will not run (``pagecache`` computes in daemon
    threads), so that they fetch the last version themselves."""
    for tournament_id in pagecache.waiting():
        try:
            version = tournament_version(tournament_id)
            if version is not None and version.number is not None:
                live.publish(tournament_id, version.number)
        except Exception:  # the process is ending: say it, and let it end
            log.warning("cannot tell the open pages of tournament %s", tournament_id,
                        exc_info=True)


@dataclass(frozen=True)
class CrossRow:
    row: StandingRow
    cells: list[tuple[Cell | None, int | None]]
    """Per public round: the cell and the opponent's row number (None for byes)."""


def crosstable(
    tournament: Tournament, *, version: Version | None = None
) -> tuple[Standings, list[int], list[CrossRow]]:
    standing = public_standings(tournament, version=version)
    hist = history(tournament, version=version)
    number_of = {r.player.pk: r.number for r in standing.rows}
    table = []
    for row in standing.rows:
        cells = []
        for number in hist.rounds:
            cell = hist.cell(row.player.pk, number)
            opponent = number_of.get(cell.opponent.pk) if cell and cell.opponent else None
            cells.append((cell, opponent))
        table.append(CrossRow(row, cells))
    return standing, hist.rounds, table


# ---------------------------------------------------------------------------------------------
# Versions for conditional GET


@dataclass(frozen=True)
class Version:
    etag_seed: str
    last_modified: datetime | None
    number: int | None = None
    """The tournament's version number (``tournaments.versioning``); None for the site's."""
    standings_seed: str | None = None
    """The key of the version whose change last could change the standings (None: the
    site's)."""

    def http_last_modified(self) -> int | None:
        """Seconds since the epoch for Last-Modified, or None during the second of the change.

        HTTP dates have a one-second resolution: a Last-Modified sent during the very second of
        a change could hide a second change in that same second from If-Modified-Since.
        """
        if self.last_modified is None:
            return None
        stamp = calendar.timegm(self.last_modified.utctimetuple())
        now = calendar.timegm(timezone.now().utctimetuple())
        return stamp if stamp < now else None

    def etag(self, *variant: str) -> str:
        """A quoted strong ETag for one representation (variant: path, query, format...)."""
        text = "|".join((self.etag_seed, *variant))
        return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


MAX_ID = 2**63 - 1
"""The largest id a row can have (a 64-bit primary key)."""


def tournament_version(tournament_pk: int, *, at_least: int | None = None) -> Version | None:
    """What changes whenever anything of one tournament changes (``tournaments.versioning``):
    one query, none while this process's copy is fresh. None if there is no such tournament."""
    if not 0 < tournament_pk <= MAX_ID:
        return None  # no row has it, and the database refuses to look (an integer overflow)
    current = versioning.current(tournament_pk, at_least=at_least)
    if current is None:
        return None
    return Version(current.key, current.changed_at, current.number, current.standings_key)


def site_version() -> Version:
    """The version of the list of all tournaments, in one query."""
    site = versioning.site()
    return Version(site.key, site.changed_at)


# ---------------------------------------------------------------------------------------------
# How one player's tie-breaks were computed (issue 5)


@dataclass(frozen=True)
class TieBreakLine:
    """One element of a tie-break value: an opponent's score or rating, or a dummy's."""

    round: int
    value: str
    opponent: Player | None
    """None when a dummy opponent stands in (C.07 Art. 16.4) or for per-round values."""
    dummy: bool
    cut: bool
    vur: bool
    basis: str
    """For Sonneborn-Berger: the opponent's (or dummy's) score the product was made of."""
    note: str


@dataclass(frozen=True)
class TieBreakSection:
    code: str
    name: str
    value: str
    lines: list[TieBreakLine]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class PlayerTieBreaks:
    after_round: int
    """Last round counted: the same rounds as the public standings."""
    player: Player
    points: str
    adjusted: str
    """The score the player's opponents use (Art. 16.3)."""
    sections: list[TieBreakSection]
    dropped: list[tuple[str, str]]
    """(code, reason) of the tournament's tie-breaks that were not used."""


def player_tiebreaks(
    tournament: Tournament, player: Player, *, after_round: int | None = None
) -> PlayerTieBreaks:
    """Every tie-break value of ``player`` with what it was computed from.

    Counts the same rounds as :func:`public_standings`: public rounds 1..n with all results in,
    up to ``after_round``. Raises ``services.ServiceError`` when the data cannot be ranked.
    """
    from dataclasses import replace

    from pairing.tiebreaks import Acronym, TieBreakError, explain, format_value

    last = complete_public_rounds(tournament)
    if after_round is not None:
        last = max(0, min(after_round, last))
    specs = services.tiebreak_specs(tournament)
    built = services.build_engine_state(tournament)
    state = built.tournament
    last = min(last, built.rounds)
    if last < built.rounds:
        cut = tuple(replace(p, rounds=p.rounds[:last]) for p in state.players)
        state = replace(state, players=cut)
    try:
        info = explain(state, specs, player.tpn)
    except TieBreakError as error:
        raise services.ServiceError(
            labelled(_("Tie-breaks"), engine_said(error))
        ) from error
    by_tpn = built.player_by_tpn
    sections = []
    for b in info.breakdowns:
        # Art. 9.1: a Sonneborn-Berger element is the opponent's score times the points scored.
        product = b.spec.acronym is Acronym.SB
        lines = [
            TieBreakLine(
                round=e.round,
                value=format_value(e.value),
                opponent=by_tpn.get(e.opponent) if e.opponent is not None else None,
                dummy=e.dummy,
                cut=e.cut,
                vur=e.vur,
                basis=format_value(e.basis) if product and e.basis is not None else "",
                note=e.note,
            )
            for e in b.elements
        ]
        sections.append(
            TieBreakSection(b.spec.code, tiebreak_name(b.spec), format_value(b.value), lines,
                            b.notes)
        )
    return PlayerTieBreaks(
        last,
        player,
        format_value(info.points),
        format_value(info.adjusted),
        sections,
        [(spec.code, reason) for spec, reason in info.dropped],
    )
