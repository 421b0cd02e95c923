"""The tournament as the engine sees it: ``pairing.model.Tournament``, built from the rows.

Every complete round becomes a column of TRF round entries (a Double-Swiss match two columns);
the round about to be paired holds what is known before pairing (requested byes, absences).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from pairing.model import (
    Player as EnginePlayer,
    RoundEntry,
    Tournament as EngineTournament,
)
from pairing.outcomes import GameResult, Outcome
from tournaments.models import BYE_OUTCOMES, ByeRequest, Game, Player, Result, Round, Tournament
from tournaments.services import double_swiss
from tournaments.services.errors import ServiceError
from tournaments.services.tiebreak_list import tiebreak_names


def _entries(game: Game, tpn_of: dict[int, int]) -> dict[int, RoundEntry]:
    """Return the round entry of each player of a row (pending games give nothing)."""
    if game.black_id is None:
        return {game.white_id: BYE_OUTCOMES[game.result].entry()}
    if game.result == Result.PENDING:
        return {}
    white, black = GameResult(game.result).entries(tpn_of[game.white_id], tpn_of[game.black_id])
    return {game.white_id: white, game.black_id: black}


ABSENT = Outcome.ABSENT.entry()
"""The round of a player not paired in it: absent, withdrawn, or not yet arrived."""

_NOT_ON_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(text: str) -> str:
    """Return the text with every control character or line break made a space: a TRF field
    never starts a record of its own, whatever older rows hold (the models refuse them now)."""
    return _NOT_ON_ONE_LINE.sub(" ", text)


@dataclass(frozen=True)
class EngineState:
    """The engine value plus the map between database players and TPNs."""

    tournament: EngineTournament
    player_by_tpn: dict[int, Player]
    rounds: int
    """Number of complete rounds included."""


def complete_rounds(t: Tournament) -> list[Round]:
    """Return the rounds whose results are all known, from round 1 up to the first gap."""
    rounds = []
    # Without the rounds' explanations (megabytes of JSON each in a big event, unused here).
    for rnd in t.round_set.light().order_by("number").prefetch_related("games"):
        if any(not g.has_result for g in rnd.games.all()):
            break
        rounds.append(rnd)
    return rounds


def build_engine_state(t: Tournament, *, pairing_round: int | None = None) -> EngineState:
    """Return the engine's Tournament value of ``t``.

    It holds every complete round (all results known). With ``pairing_round`` = k, column k also
    holds what is known before pairing round k: requested byes, and absences of players who have
    withdrawn or not yet arrived.
    """
    players = list(t.players.order_by("tpn"))
    tpn_of = {p.pk: p.tpn for p in players}
    if [p.tpn for p in players] != list(range(1, len(players) + 1)):
        raise ServiceError(_("TPNs are not numbered 1 to N; renumber the players."))
    rounds = complete_rounds(t)
    if pairing_round is not None:
        # Only the rounds before k: a paired round k is re-checked against its own past.
        rounds = [rnd for rnd in rounds if rnd.number < pairing_round]
    if pairing_round is not None and len(rounds) != pairing_round - 1:
        raise ServiceError(
            _("Round %(number)s has missing results.") % {"number": len(rounds) + 1}
        )
    # A Double-Swiss round is a match: two columns, one per game (pairing.double_swiss.trf).
    width = t.system.columns_per_round
    entries: dict[int, list[RoundEntry]] = {p.pk: [] for p in players}
    for rnd in rounds:
        by_player: dict[int, tuple[RoundEntry, ...]] = {}
        for game in rnd.games.all():
            if game.is_match:
                by_player.update(double_swiss.match_entries(game, tpn_of))
            else:
                by_player.update(
                    {pk: (e,) * width for pk, e in _entries(game, tpn_of).items()}
                )
        for p in players:
            entries[p.pk] += by_player.get(p.pk, (ABSENT,) * width)
    if pairing_round is not None:
        requests = {
            r.player_id: r.kind
            for r in ByeRequest.objects.filter(player__tournament=t, round_number=pairing_round)
        }
        for p in players:
            if p.pk in requests and p.takes_request(pairing_round):
                entries[p.pk] += [BYE_OUTCOMES[requests[p.pk]].entry()] * width
            elif not p.plays_in(pairing_round):
                entries[p.pk] += [ABSENT] * width
    engine_players = tuple(
        EnginePlayer(
            tpn=p.tpn,
            name=one_line(p.name),
            rating=p.rating,
            title=one_line(p.title),
            sex=one_line(p.sex),
            federation=one_line(p.federation),
            fide_id=one_line(p.fide_id),
            birth=str(p.birth_year) if p.birth_year else "",
            rounds=tuple(entries[p.pk]),
        )
        for p in players
    )
    value = EngineTournament(
        players=engine_players,
        total_rounds=t.rounds * width,
        initial_color=t.engine_initial_color,
        rules=t.system.rules,
        point_system=t.point_system,
        baku=t.baku_acceleration,
        tournament_type=t.system.tournament_type,
        name=one_line(t.name),
        other_records=(("202", ",".join(tiebreak_names(t))),) if t.tiebreaks.strip() else (),
    )
    return EngineState(value, {p.tpn: p for p in players}, len(rounds))


def engine_state(tournament: Tournament, *, pairing_round: int | None = None) -> EngineTournament:
    """Return the engine's ``Tournament`` value (see ``build_engine_state``)."""
    return build_engine_state(tournament, pairing_round=pairing_round).tournament
