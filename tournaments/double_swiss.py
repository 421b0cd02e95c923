"""What the web app does differently for the FIDE Double-Swiss system (C.04.5).

A round is a match of two games with alternating colours: the row's White plays game 1 with
White and game 2 with Black (Art. 4.4). ``Game.result`` is game 1, ``Game.second_result``
game 2, each written from its own White (game 2's White is the row's Black), as on a
scoresheet. Scores are game points; byes are worth the tournament's *match* values
(``points_pairing_bye`` etc., Preface: byes apply only to matches). The engine sees each match
as two TRF columns (``pairing.double_swiss.trf``); the tie-breaks see each match as one round
(``pairing.double_swiss.tiebreaks``).
"""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _, gettext_noop

from pairing.double_swiss import pair_match, write_double_swiss
from pairing.double_swiss.model import DOUBLE_SWISS_CODE
from pairing.double_swiss.tiebreaks import MatchContext
from pairing.double_swiss.trf import build_matches
from pairing.model import (
    Color,
    ResultCode,
    RoundEntry,
    RoundPairing,
    Tournament as EngineTournament,
)
from tournaments.models import MATCH_GAME_RESULTS, RESULT_OF_CODES, Game, Result, Tournament

__all__ = [
    "export",
    "first_column",
    "import_trf",
    "match_entries",
    "manual_pairing_problems",
    "match_result",
    "pair_engine_state",
    "scores",
    "set_match_bye_values",
    "standings",
]

DUTCH_BYE_DEFAULTS = (10, 5, 10)


def set_match_bye_values(t: Tournament) -> None:
    """Give a Double-Swiss tournament still on the Dutch bye values the match values: the PAB
    a won game and a drawn one (Art. 1.4), a requested bye a drawn match, a full-point bye a
    match won 2-0 (and back when it leaves the Double-Swiss system)."""
    byes = (t.points_pairing_bye, t.points_half_bye, t.points_full_bye)
    match = (t.points_win + t.points_draw, 2 * t.points_draw, 2 * t.points_win)
    if t.is_double_swiss and byes == DUTCH_BYE_DEFAULTS:
        t.points_pairing_bye, t.points_half_bye, t.points_full_bye = match
    elif not t.is_double_swiss and byes == match:
        t.points_pairing_bye, t.points_half_bye, t.points_full_bye = DUTCH_BYE_DEFAULTS


def match_entries(game: Game, tpn_of: dict[int, int]) -> dict[int, tuple[RoundEntry, ...]]:
    """Return both columns of each player of a match row (a bye fills both with its code)."""
    if game.black_id is None:
        code = game.result_codes()[0]
        return {game.white_id: (RoundEntry(None, None, code),) * 2}
    (w1, b1), (w2, b2) = game.game_codes()
    white, black = tpn_of[game.white_id], tpn_of[game.black_id]
    return {
        game.white_id: (
            RoundEntry(black, Color.WHITE, w1), RoundEntry(black, Color.BLACK, w2),
        ),
        game.black_id: (
            RoundEntry(white, Color.BLACK, b1), RoundEntry(white, Color.WHITE, b2),
        ),
    }


def match_result(value: str, board: int | None, *, complete: bool) -> tuple[str, str]:
    """Read ``game1|game2`` as entered; refuse what a match cannot hold.

    Each game is a game result (½-0, 0-½ and 0-0 included, Preface), never an annulled game
    or a bye (byes apply only to matches). A game 2 without game 1 is refused; in a finished
    round both are needed.
    """
    from tournaments.services import ServiceError, labelled

    first, sep, second = value.partition("|")
    where = _("Board %(board)s") % {"board": board}
    if not sep:
        raise ServiceError(labelled(where, _("a match needs the results of its two games.")))
    for n, part in ((1, first), (2, second)):
        if part and part not in MATCH_GAME_RESULTS:
            raise ServiceError(labelled(
                _("Board %(board)s, game %(game)s") % {"board": board, "game": n},
                _("%(value)r is not a game result of a match.") % {"value": part},
            ))
    if second and not first:
        raise ServiceError(labelled(where, _("game 2 has a result but game 1 has none.")))
    if complete and not (first and second):
        raise ServiceError(labelled(where, _("a finished round needs both games' results.")))
    return first, second


def first_column(state: EngineTournament, k: int) -> int:
    """The first TRF column of round k: k, or 2k-1 when a round is a two-column match."""
    return 2 * k - 1 if state.tournament_type == DOUBLE_SWISS_CODE else k


def scores(state: EngineTournament, before_round: int) -> dict[int, int]:
    """Each TPN's score (game points and bye match values) before a match."""
    dt = build_matches(state)
    return {tpn: dt.score(tpn, before_round) for tpn in dt.tpns}


def pair_engine_state(state: EngineTournament, *, explain: bool = False) -> RoundPairing:
    """Pair the next match of the engine state (two columns per match)."""
    return pair_match(build_matches(state), explain=explain)


# What a match paired by hand breaks: shown in the request's language, stored in the audit trail
# in English when the arbiter accepts the warnings (``tournaments.audit`` translates them).
PAIRED_TWICE = gettext_noop("player %(tpn)s is paired twice")
NOT_DUE = gettext_noop("player %(tpn)s is not to be paired in match %(number)s")
LEFT_UNPAIRED = gettext_noop("player %(tpn)s is left without a pairing")
ALREADY_MET = gettext_noop("[C1] %(white)s and %(black)s have already played a match")
NO_PAB = gettext_noop("[C2] %(tpn)s may not receive the pairing-allocated bye")


def manual_pairing_problems(state: EngineTournament, pairing: RoundPairing
                            ) -> tuple[list[str], list[str]]:
    """Errors (a player paired twice, or not due) and rule breaks ([C1], [C2]) of a match
    paired by hand (C.04.5 Art. 2.1)."""
    from pairing.double_swiss.players import build_players
    from tournaments.services import Said

    dt = build_matches(state)
    k = pairing.round
    players = {p.tpn: p for p in build_players(dt, k)}
    errors: list[str] = []
    warnings: list[str] = []
    seen: list[int] = [tpn for b in pairing.boards for tpn in (b.white, b.black)]
    if pairing.bye is not None:
        seen.append(pairing.bye)
    for tpn in sorted({t for t in seen if seen.count(t) > 1}):
        errors.append(Said(PAIRED_TWICE, tpn=tpn))
    for tpn in sorted(set(seen) - set(players)):
        errors.append(Said(NOT_DUE, tpn=tpn, number=k))
    for tpn in sorted(set(players) - set(seen)):
        errors.append(Said(LEFT_UNPAIRED, tpn=tpn))
    for b in pairing.boards:
        if b.white in players and b.black in players[b.white].met:
            warnings.append(Said(ALREADY_MET, white=b.white, black=b.black))
    if pairing.bye in players and not players[pairing.bye].may_receive_pab:
        warnings.append(Said(NO_PAB, tpn=pairing.bye))
    return errors, warnings


def export(state: EngineTournament) -> str:
    """The tournament as a Double-Swiss TRF file (``192 FIDE_DOUBLESWISS``, two columns a
    match, ``162`` with the match values of the byes)."""
    players = tuple(replace(p, declared_points=None) for p in state.players)
    return write_double_swiss(build_matches(replace(state, players=players)))


def standings(t: Tournament, built, specs, after_round: int | None, standing_type) -> list:
    """Rank by game points, then the tie-breaks computed from the matches (Preface: a match
    with one game forfeited counts as played)."""
    from pairing.tiebreaks import format_value, standings as tiebreak_standings
    from pairing.tiebreaks.compute import Rules

    state = built.tournament
    dt = build_matches(state)
    last = built.rounds if after_round is None else max(0, min(after_round, built.rounds))
    context = MatchContext(dt, Rules(after_round=last))
    table = tiebreak_standings(state, specs, context=context)
    column = {spec.code: i for i, spec in enumerate(table.specs)}
    tied: dict[int, int] = {}
    for row in table.rows:
        tied[row.rank] = tied.get(row.rank, 0) + 1
    out = []
    for row in table.rows:
        size = tied[row.rank]
        played = dt.matches_of(row.tpn)[:last]
        out.append(
            standing_type(
                rank=row.rank,
                rank_label=str(row.rank) if size == 1 else f"{row.rank}-{row.rank + size - 1}",
                player=built.player_by_tpn[row.tpn],
                score=int(context.score[row.tpn] * 10),
                games=sum(1 for m in played if m.was_played),
                tiebreaks=tuple(
                    format_value(row.values[column[s.code]]) if s.code in column else "-"
                    for s in specs
                ),
            )
        )
    return out


def game_label(result: str) -> str:
    """A game result as pages show it (``½-0``)."""
    return Result(result).label if result else "…"


_GAME_RESULT = {
    codes: r for codes, r in RESULT_OF_CODES.items() if r in MATCH_GAME_RESULTS
}
_RATED = {
    ResultCode.WIN_UNRATED: ResultCode.WIN, ResultCode.DRAW_UNRATED: ResultCode.DRAW,
    ResultCode.LOSS_UNRATED: ResultCode.LOSS,
}


def _game_result(white: ResultCode, black: ResultCode) -> str:
    """A game's two TRF letters (its White's, its Black's) as a ``Result``."""
    return _GAME_RESULT[(_RATED.get(white, white), _RATED.get(black, black))]


def import_trf(text: str, actor, **overrides) -> Tournament:
    """Create a Double-Swiss tournament from a two-column TRF file: players, every match as a
    finished round, the next match's requested byes."""
    from django.db import transaction
    from django.utils import timezone

    from pairing.double_swiss import read_double_swiss
    from pairing.errors import TrfFormatError
    from tournaments import services
    from tournaments.models import ByeRequest, Player, Round

    try:
        dt = read_double_swiss(text)
    except TrfFormatError as error:
        raise services.ServiceError(
            services.labelled(_("TRF file"), services.engine_said(error))
        ) from error
    state = dt.tournament
    if not state.players:
        raise services.ServiceError(services.labelled(_("TRF file"), _("no players.")))
    ps = state.point_system
    played = dt.paired_matches()
    byes = {
        "points_pairing_bye": ps.pairing_allocated_bye, "points_half_bye": ps.half_point_bye,
        "points_full_bye": ps.full_point_bye, "points_zero_bye": ps.zero_point_bye,
    }
    fields = {
        "name": state.name or "Imported tournament",
        "rounds": dt.total_matches or max(played, 1),
        "pairing_system": Tournament.PairingSystem.DOUBLE_SWISS,
        "initial_color": state.initial_color.value if state.initial_color else "",
        "points_win": ps.win, "points_draw": ps.draw, "points_loss": ps.loss,
        "points_forfeit_win": ps.forfeit_win, "points_forfeit_loss": ps.forfeit_loss,
        **byes,
        "allow_full_point_bye": any(
            m.bye is ResultCode.FULL_POINT_BYE for own in dt.matches for m in own
        ),
        **overrides,
    }
    rows = services._trf_players(state)
    with transaction.atomic():
        t = services.create_tournament(actor, **fields)
        for key in byes:  # the file's match values, whatever they are
            setattr(t, key, fields[key])
        t.save()
        players = {
            p.tpn: Player(tournament=t, tpn=p.tpn, **data)
            for p, data in zip(sorted(state.players, key=lambda p: p.tpn), rows, strict=True)
        }
        Player.objects.bulk_create(players.values(), batch_size=500)
        now = timezone.now()
        for k in range(1, played + 1):
            rnd = Round.objects.create(
                tournament=t, number=k, state=Round.State.FINISHED, published_at=now,
                finished_at=now,
            )
            score = {tpn: dt.score(tpn, k) for tpn in dt.tpns}
            games, boards = [], []
            for tpn in dt.tpns:
                own = dt.matches_of(tpn)
                match = own[k - 1] if len(own) >= k else None
                if match is None or match.opponent is None:
                    code = match.bye if match is not None else ResultCode.ZERO_POINT_BYE
                    games.append(Game(round=rnd, white=players[tpn],
                                      result=services._IMPORT_BYES[code]))
                elif match.color is Color.WHITE or (match.color is None and tpn < match.opponent):
                    boards.append((tpn, match))
            boards.sort(key=lambda b: _board_key(b[0], b[1].opponent, score))
            for n, (tpn, match) in enumerate(boards, start=1):
                (g1, g2), (o1, o2) = match.games, match.opponent_games
                games.append(Game(
                    round=rnd, board=n, white=players[tpn], black=players[match.opponent],
                    is_match=True, result=_game_result(g1, o1), second_result=_game_result(o2, g2),
                ))
            Game.objects.bulk_create(games)
        for tpn in dt.tpns:
            own = dt.matches_of(tpn)
            if len(own) > played and own[played].is_preset:
                kind = {
                    ResultCode.HALF_POINT_BYE: ByeRequest.Kind.HALF,
                    ResultCode.FULL_POINT_BYE: ByeRequest.Kind.FULL,
                    ResultCode.ZERO_POINT_BYE: ByeRequest.Kind.ABSENT,
                }[own[played].bye]
                ByeRequest.objects.create(player=players[tpn], round_number=played + 1,
                                          kind=kind)
        if played:
            t.status = (
                Tournament.Status.FINISHED if played >= t.rounds else Tournament.Status.RUNNING
            )
            t.save(update_fields=["status"])
        services._audit(t, actor, "import TRF", article="C.04.5",
                        after={"players": len(players), "rounds": played})
    return t


def _board_key(a: int, b: int, score: dict[int, int]) -> tuple[int, int, int]:
    """C.04.2 Art. 3.6: the higher-ranked player's score, the sum of scores, his TPN."""
    hrp = min((a, b), key=lambda tpn: (-score[tpn], tpn))
    return (-score[hrp], -(score[a] + score[b]), hrp)
