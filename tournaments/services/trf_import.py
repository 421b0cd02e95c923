"""A tournament created from a TRF file (every round in it), or players registered from one.

The file says its pairing system (``pairing.systems.system_of_file``): one column a round, or two
a round for the Double-Swiss system, whose rounds are matches. What each round entry becomes is
the outcome vocabulary's reading (``pairing.outcomes``): a ``Z`` without opponent a requested
zero-point bye, ``-`` or blank an absence; a game annulled comes back from its ``###`` line
(``tournaments.services.trf_notes``), and so do a late entry's arrival, a withdrawal, the rows
paired by hand, the corrections for rating only, and the board order of a round paired before a
correction. A requested bye or an announced absence in a round paired keeps its request, as
the web app keeps it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pairing.double_swiss.trf import build_matches
from pairing.errors import TrfFormatError
from pairing.model import Board, Color, RoundEntry, RoundPairing, Tournament as EngineTournament
from pairing.outcomes import GameResult, Outcome
from pairing.systems import PairingSystem, system_of_file
from pairing.tiebreaks import TieBreakSpecError, format_specs, tiebreak_records
from tournaments.models import (
    BYE_RESULTS,
    BYE_VALUES,
    GAME_RESULTS,
    MANUAL_NOTE_LENGTH,
    ByeRequest,
    Game,
    Player,
    Result,
    Round,
    Tournament,
)
from tournaments.report import report_fields
from tournaments.sentences import engine_said, labelled, quoted
from tournaments.services import trf_notes
from tournaments.services.engine_state import ABSENT
from tournaments.services.errors import ServiceError, refuse_rows
from tournaments.services.players import field_label, player_errors, register_players
from tournaments.services.tournament import create_tournament
from tournaments.services.write import audit


def import_trf(text: str, actor, **overrides) -> Tournament:
    """Create a tournament from a TRF file: header, players with their TPNs, and every round.

    A last column holding only requested byes and absences becomes the next round's requests.
    """
    system, state = _read(text)
    if state.accelerations:
        # Explicit per-player acceleration (250 / XXA); 192 ..._BAKU alone is supported below.
        raise ServiceError(
            labelled(_("TRF file"), _("accelerated pairings are not supported by the web app."))
        )
    if state.forbidden_pairs:
        raise ServiceError(
            labelled(_("TRF file"), _("forbidden pairs are not supported by the web app."))
        )
    if not state.players:
        raise ServiceError(labelled(_("TRF file"), _("no players.")))
    width = system.columns_per_round
    columns = max(len(p.rounds) for p in state.players)
    played_rounds = system.paired_rounds(state)
    total = system.planned_rounds(state) or max(-(-columns // width), 1)
    ps = state.point_system
    fields = {
        "name": state.name or _("Imported tournament"),
        "rounds": total,
        "pairing_system": system.code,
        "initial_color": state.initial_color.value if state.initial_color else "",
        "points_win": ps.win,
        "points_draw": ps.draw,
        "points_loss": ps.loss,
        "points_forfeit_win": ps.forfeit_win,
        "points_forfeit_loss": ps.forfeit_loss,
        "points_pairing_bye": ps.pairing_allocated_bye,
        "points_half_bye": ps.half_point_bye,
        "points_full_bye": ps.full_point_bye,
        "points_zero_bye": ps.zero_point_bye,
        "baku_acceleration": state.baku,
        "allow_full_point_bye": any(
            Outcome.of_entry(e) is Outcome.FULL_POINT_BYE for p in state.players for e in p.rounds
        ),
    }
    try:
        specs = tiebreak_records(state.other_records)
    except TieBreakSpecError as error:
        raise ServiceError(
            labelled(_("TRF file"), labelled(_("tie-breaks"), engine_said(error)))
        ) from error
    if specs is not None:
        fields["tiebreaks"] = format_specs(specs)
    report, round_dates = report_fields(state.other_records)
    fields.update(report)
    fields.update(overrides)
    tpns = sorted(p.tpn for p in state.players)
    if tpns != list(range(1, len(tpns) + 1)):
        raise ServiceError(labelled(
            _("TRF file"), _("pairing numbers must run from 1 to the number of players.")
        ))
    rows = trf_players(state)
    notes = trf_notes.read_notes(text)
    for tpn, data in zip(tpns, rows):
        data.update(_stays(state, notes, tpn, total, played_rounds))
    with transaction.atomic():
        t = create_tournament(actor, **fields)
        bye_values = ("points_pairing_bye", "points_half_bye", "points_full_bye")
        if any(getattr(t, key) != fields[key] for key in bye_values):
            for key in bye_values:  # the file's values, whatever the system's defaults
                setattr(t, key, fields[key])
            t.save()
        players = {
            tpn: Player(tournament=t, tpn=tpn, **data) for tpn, data in zip(tpns, rows)
        }
        Player.objects.bulk_create(players.values(), batch_size=500)
        for r in range(1, played_rounds + 1):
            _import_round(t, system, state, r, players, round_dates.get(r), notes)
        first = system.first_column(played_rounds + 1)
        for p in state.players:
            if len(p.rounds) >= first and p.rounds[first - 1].is_preset:
                kind = BYE_VALUES[Outcome.of_entry(p.rounds[first - 1])]
                if kind == Result.ABSENT and not players[p.tpn].plays_in(played_rounds + 1):
                    continue  # not arrived yet, or withdrawn: not a request
                ByeRequest.objects.create(
                    player=players[p.tpn], round_number=played_rounds + 1, kind=kind
                )
        if played_rounds:
            t.status = (
                Tournament.Status.FINISHED if played_rounds >= total else Tournament.Status.RUNNING
            )
            t.save(update_fields=["status"])
        audit(t, actor, "import TRF", article=system.article,
              after={"players": len(players), "rounds": played_rounds})
    return t


@dataclass(frozen=True)
class _Row:
    """One row of an imported round: a board (White, Black, the result of each game) or a
    player without opponent (Black None); what its ``###`` lines add to it."""

    white: int
    black: int | None
    result: str
    second_result: str = ""
    manual: str = ""
    rating_result: str = ""
    rating_colors_swapped: bool = False


def _stays(
    state: EngineTournament, notes: trf_notes.Notes, tpn: int, total: int, played: int
) -> dict:
    """The rounds a player arrives in and withdraws from, as the file's ``###`` lines say
    (a player the lines do not name plays every round); refused when the file shows the player
    paired in a round the line says they missed."""
    stays = {}
    for key, noted, first_missed, last_missed in (
        ("arrival_round", notes.arrival.get(tpn), 1, lambda n: n - 1),
        ("withdrawn_from_round", notes.withdrawal.get(tpn), None, lambda n: played),
    ):
        if noted is None:
            continue
        line, number = noted
        if not 1 <= number <= total + (key == "withdrawn_from_round"):
            raise _noted_wrong(line, _("round %(number)s is not a round of the tournament.")
                               % {"number": number})
        for r in range(first_missed or number, last_missed(number) + 1):
            outcome = Outcome.of_entry(_entry(state, tpn, r))
            if outcome.has_opponent or outcome is Outcome.PAIRING_ALLOCATED_BYE:
                raise _noted_wrong(line, _(
                    "player %(tpn)s is paired in round %(number)s, which this line says they "
                    "missed."
                ) % {"tpn": tpn, "number": r})
        stays[key] = number
    return stays


def _noted_wrong(line: int, message: str) -> ServiceError:
    return ServiceError(labelled(_("TRF file, line %(line)s") % {"line": line}, message))


def _import_round(
    t: Tournament, system: PairingSystem, state: EngineTournament, r: int, players: dict,
    date: datetime.date | None, notes: trf_notes.Notes,
) -> None:
    now = timezone.now()
    if date is not None:  # the round's date (TRF 132), at noon
        now = timezone.make_aware(datetime.datetime.combine(date, datetime.time(12)))
    rnd = Round.objects.create(
        tournament=t, number=r, state=Round.State.FINISHED, published_at=now, finished_at=now
    )
    if system.matches:
        rows = _match_rows(state, r)
    else:
        rows = _noted_rows(_game_rows(state, r, notes.not_played.get(r, ())), notes, r)
    rows = [  # a player not arrived yet, or withdrawn, has no row (an absence says it)
        row for row in rows
        if row.black is not None or row.result != Result.ABSENT
        or players[row.white].plays_in(r)
    ]
    boards = [row for row in rows if row.black is not None]
    order = system.board_order(
        _as_paired(state, notes.paired_before.get(r, ())),
        RoundPairing(r, tuple(Board(row.white, row.black) for row in boards)),
    )
    board_of = _boards_kept(order, notes.manual.get(r, ()))
    ByeRequest.objects.bulk_create(  # a bye or an absence in a round paired was requested
        ByeRequest(player=players[row.white], round_number=r, kind=row.result)
        for row in rows
        if row.black is None and row.result in _REQUESTED and players[row.white].plays_in(r)
    )
    Game.objects.bulk_create(
        Game(
            round=rnd, white=players[row.white], result=row.result,
            black=players[row.black] if row.black is not None else None,
            board=board_of[(row.white, row.black)] if row.black is not None else None,
            is_match=system.matches and row.black is not None,
            second_result=row.second_result, manual=row.manual,
            rating_result=row.rating_result, rating_colors_swapped=row.rating_colors_swapped,
        )
        for row in rows
    )


_REQUESTED = BYE_RESULTS - {Result.PAIRING_BYE}
"""The rows without Black that a request makes (C.04.2 Art. 3.3)."""


def _as_paired(state: EngineTournament, corrected) -> EngineTournament:
    """The tournament as it was when a round was paired: each game corrected after that (its
    ``###`` line) with its result before the correction."""
    rounds = {p.tpn: list(p.rounds) for p in state.players}
    done = set()
    for line, k, white, black, result in corrected:
        if frozenset((white, black)) in done:
            continue  # corrected twice: the first line has the result as paired
        done.add(frozenset((white, black)))
        if result not in GAME_RESULTS or white not in rounds or black not in rounds or not (
            len(rounds[white]) >= k and len(rounds[black]) >= k
        ):
            raise _noted_wrong(line, _("this is not a game of round %(number)s.") % {"number": k})
        first, second = GameResult(result).outcomes
        rounds[white][k - 1] = first.entry(black, Color.WHITE)
        rounds[black][k - 1] = second.entry(white, Color.BLACK)
    if not done:
        return state
    return replace(state, players=tuple(
        replace(p, rounds=tuple(rounds[p.tpn])) for p in state.players
    ))


def _boards_kept(order: list[tuple[int, int]], manual) -> dict[tuple[int, int], int]:
    """Board numbers: those of the rows paired by hand as their ``###`` lines say, the others
    in board order (C.04.2 Art. 3.6) on the boards left."""
    pinned = {
        (white, black): board for _line, board, white, black, _note in manual
        if board is not None and (white, black) in order and 0 < board <= len(order)
    }
    if len(set(pinned.values())) < len(pinned):
        pinned = {}  # two rows on one board: the lines do not describe this round
    free = iter(n for n in range(1, len(order) + 1) if n not in pinned.values())
    return {pair: pinned.get(pair) or next(free) for pair in order}


def _noted_rows(rows: list[_Row], notes: trf_notes.Notes, r: int) -> list[_Row]:
    """The rows of round r with what the ``###`` lines say of them: paired by hand, corrected
    for rating only."""
    by_pair = {(row.white, row.black): n for n, row in enumerate(rows)}
    for line, _board, white, black, note in notes.manual.get(r, ()):
        n = by_pair.get((white, black))
        if n is None:
            raise _noted_wrong(line, _not_in_round(r))
        rows[n] = replace(rows[n], manual=note[: MANUAL_NOTE_LENGTH + 20])
    for line, white, black, result in notes.rating_only.get(r, ()):
        swapped = (white, black) not in by_pair
        n = by_pair.get((black, white) if swapped else (white, black))
        if n is None or result not in GAME_RESULTS:
            raise _noted_wrong(line, _not_in_round(r))
        if swapped:  # rated with the colours exchanged (Art. 4.3.2)
            result = GameResult(result).with_colours_exchanged.value
        rows[n] = replace(
            rows[n], rating_colors_swapped=swapped,
            rating_result="" if result == rows[n].result else result,
        )
    return rows


def _not_in_round(r: int) -> str:
    return _("this row is not in round %(number)s of the file.") % {"number": r}


def _entry(state: EngineTournament, tpn: int, column: int) -> RoundEntry:
    rounds = state.player(tpn).rounds
    return rounds[column - 1] if len(rounds) >= column else ABSENT


def _game_rows(state: EngineTournament, r: int, annulled) -> list[_Row]:
    """The rows of round r of a file with one column a round."""
    rows = []
    not_played = set()
    for line, white, black in annulled:  # the ###-line of a game annulled (trf_notes)
        if not all(
            0 < tpn <= len(state.players) and Outcome.of_entry(_entry(state, tpn, r))
            is Outcome.ABSENT for tpn in (white, black)
        ):
            raise ServiceError(labelled(
                _("TRF file, line %(line)s") % {"line": line},
                _("players %(first)s and %(second)s are not both unpaired in round %(number)s.")
                % {"first": white, "second": black, "number": r},
            ))
        rows.append(_Row(white, black, Result.NOT_PLAYED))
        not_played |= {white, black}
    for p in state.players:
        if p.tpn in not_played:
            continue
        entry = _entry(state, p.tpn, r)
        outcome = Outcome.of_entry(entry)
        if not outcome.has_opponent:
            rows.append(_Row(p.tpn, None, BYE_VALUES[outcome]))
            continue
        if not (entry.color is Color.WHITE or (entry.color is None and p.tpn < entry.opponent)):
            continue  # the row is White's
        other = _entry(state, entry.opponent, r)
        result = _game_result(entry, other, GAME_RESULTS)
        if result is None:
            raise ServiceError(labelled(
                _("TRF file"),
                _(
                    "round %(number)s, players %(first)s and %(second)s: result %(result)s is not "
                    "supported by the web app."
                ) % {
                    "number": r, "first": p.tpn, "second": entry.opponent,
                    "result": f"{entry.result.value}/{other.result.value}",
                },
            ))
        rows.append(_Row(p.tpn, entry.opponent, result))
    return rows


def _game_result(white: RoundEntry, black: RoundEntry, allowed) -> str | None:
    """The result of a game from its two entries, if the web app stores it: games that lasted
    less than one move (``W``, ``D``, ``L``) are not rated and have no result of their own."""
    if not (Outcome.rated_entry(white) and Outcome.rated_entry(black)):
        return None
    result = GameResult.of_outcomes(Outcome.of_entry(white), Outcome.of_entry(black)).value
    return result if result in allowed else None


def _match_rows(state: EngineTournament, k: int) -> list[_Row]:
    """The rows of match k of a Double-Swiss file (two columns a match): a game of less than
    one move counts as its result, as the matches count it."""
    dt = build_matches(state)
    rows = []
    for tpn in dt.tpns:
        own = dt.matches_of(tpn)
        match = own[k - 1] if len(own) >= k else None
        if match is None or match.opponent is None:
            first = _entry(state, tpn, 2 * k - 1)
            rows.append(_Row(tpn, None, BYE_VALUES[Outcome.of_entry(first)]))
        elif match.color is Color.WHITE or (match.color is None and tpn < match.opponent):
            (g1, g2), (o1, o2) = match.games, match.opponent_games
            game_1, game_2 = (
                GameResult.of_outcomes(
                    Outcome.of_entry(RoundEntry(0, None, white)),
                    Outcome.of_entry(RoundEntry(0, None, black)),
                ).value
                for white, black in ((g1, o1), (o2, g2))  # game 2: the row's Black has White
            )
            rows.append(_Row(tpn, match.opponent, game_1, game_2))
    return rows


def _read(text: str) -> tuple[PairingSystem, EngineTournament]:
    try:
        return system_of_file(text)
    except TrfFormatError as error:
        raise ServiceError(labelled(_("TRF file"), engine_said(error))) from error


def trf_players(state: EngineTournament) -> list[dict]:
    """Return the players of a read TRF file as player fields, or refuse with every error."""
    rows, errors = [], []
    for p in sorted(state.players, key=lambda p: p.tpn):
        birth = p.birth[:4]
        data, problems = player_errors(
            {
                "name": p.name, "rating": p.rating, "title": p.title,
                "federation": p.federation, "fide_id": p.fide_id,
                "sex": p.sex if p.sex in ("m", "w") else "",
                "birth_year": int(birth) if birth.isascii() and birth.isdigit() else None,
            }
        )
        rows.append(data)
        errors += [
            labelled(
                _("Player %(tpn)s (%(name)s), %(field)s")
                % {"tpn": p.tpn, "name": quoted(p.name), "field": field_label(key)},
                " ".join(messages),
            )
            for key, messages in problems.items()
        ]
    refuse_rows(_("TRF file"), errors)
    return rows


def import_players_trf(tournament: Tournament, actor, text: str) -> list[Player]:
    """Register the players of a TRF file (no rounds) before round 1; TPNs follow Art. 2.2."""
    _system, state = _read(text)
    if any(p.rounds for p in state.players):
        raise ServiceError(labelled(
            _("TRF file"), _("it holds rounds; import it as a new tournament instead.")
        ))
    if not state.players:
        raise ServiceError(labelled(_("TRF file"), _("no players.")))
    return register_players(tournament, actor, trf_players(state))
