"""What a tournament's games do to the players' FIDE ratings, and where each stands for a title
norm, read from the rounds the public sees (``queries.history``): the rules are
``pairing.rating``'s (B.02, B.01), this module only gathers each player's games.

A game counts once it has a result; a forfeit or an annulled game never does (B.02 5.1, B.01
1.4.2 c); a result corrected for rating only (C.04.2 Art. 4.3) counts as corrected. K is the
one the loaded FIDE list gives the player (its K of the event's rating type), else the one
8.3.3 gives from the rating and the birth year.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from pairing.outcomes import GameResult, Outcome
from pairing.rating import (
    FirstRating,
    Kind,
    NormResult,
    Participant,
    Performance,
    RatingChange,
    Record,
    Title,
    check_norm,
    development_coefficient,
    first_rating,
    large_swiss_exemption,
    performance,
    rating_change,
)
from pairing.rating.change import Coefficient
from pairing.rating.norms import MIN_GAMES, NormGame
from tournaments.models import Game, Player, RatingType, Result, Tournament

SCORE = {Outcome.WIN: Fraction(1), Outcome.DRAW: Fraction(1, 2), Outcome.LOSS: Fraction(0)}
"""A game's score for rating (B.02 8.3.2 b: 1, ½ or 0); forfeits have none (5.1)."""
UNPLAYED_WIN = {Outcome.FORFEIT_WIN, Outcome.PAIRING_ALLOCATED_BYE}
NORM_TITLES = (Title.GM, Title.IM, Title.WGM, Title.WIM)


@dataclass(frozen=True)
class RatedGame:
    """One game over the board with its result (a Double-Swiss match has two)."""

    round: int
    opponent: Player
    score: Fraction


@dataclass
class PlayerRating:
    """Everything the player card shows of ratings and norms."""

    player: Player
    games: list[RatedGame]
    change: RatingChange | None = None
    """For a rated player."""
    coefficient: Coefficient | None = None
    first: FirstRating | None = None
    """For an unrated player (8.2)."""
    performance: Performance | None = None
    norms: list[NormResult] = field(default_factory=list)

    @property
    def rows(self) -> list[tuple[RatedGame, object]]:
        """Each game with its ``GameChange`` (rated players) or None."""
        changes = self.change.games if self.change else [None] * len(self.games)
        return list(zip(self.games, changes, strict=True))


def kind(t: Tournament) -> Kind:
    return Kind(t.rating_type or RatingType.STANDARD)


def event_year(t: Tournament) -> int:
    return (t.start_date or date.today()).year


def _game_scores(game: Game, player_id: int) -> list[Fraction] | None:
    """The player's score in each game of the row for rating (two for a match), or None when a
    game of it is not rated: pending, forfeited, annulled, or a result no game has (½-0)."""
    if game.is_match:
        if not game.has_result:
            return None
        values = [game.result, game.second_result]  # game 2 from its White, this row's Black
    else:
        values = [game.rating_result or game.result]
    scores = []
    for i, value in enumerate(values):
        try:
            white, black = GameResult(value).outcomes
        except ValueError:  # pending
            return None
        if white not in SCORE or black not in SCORE or SCORE[white] + SCORE[black] != 1:
            return None
        has_white = (game.white_id == player_id) == (i == 0)
        scores.append(SCORE[white] if has_white else SCORE[black])
    return scores


def games_of(hist, player: Player, *, up_to: int | None = None) -> list[RatedGame]:
    """The player's games over the board with a result, round by round."""
    out = []
    for number, cell, _total in hist.running(player.pk):
        if up_to is not None and number > up_to:
            break
        game = getattr(cell, "game", None)
        if game is None or game.is_bye:
            continue
        scores = _game_scores(game, player.pk)
        if scores is None:
            continue
        out.extend(RatedGame(number, cell.opponent, score) for score in scores)
    return out


def _unplayed_wins(hist, player: Player) -> int:
    """Rounds the player won without playing: a forfeit or the pairing-allocated bye."""
    count = 0
    for _number, cell, _total in hist.running(player.pk):
        game = getattr(cell, "game", None)
        if game is None or game.is_match:
            continue
        outcomes = game.outcomes()
        if outcomes is not None:
            mine = outcomes[0] if game.white_id == player.pk else outcomes[1]
            count += mine in UNPLAYED_WIN
    return count


def record(t: Tournament, player: Player, entry=None) -> Record:
    """What 8.3.3 reads of the player: the list's K when the FIDE list knows them."""
    k = getattr(entry, f"{kind(t).value}_k", None) if entry is not None else None
    return Record(player.rating or 0, k_from_list=k or None, birth_year=player.birth_year)


def norm_titles(player: Player) -> list[Title]:
    """The norms worth checking: titles above the one held (women's titles for women)."""
    held = player.title.upper()
    codes = [title.code for title in NORM_TITLES]
    rank = codes.index(held) if held in codes else len(codes)
    return [
        title for i, title in enumerate(NORM_TITLES)
        if i < rank and (not title.for_women or player.sex == Player.Sex.FEMALE)
    ]


def norms_apply(t: Tournament) -> bool:
    """Norms are made in standard events (B.01 0.5: rating means the standard rating) of at
    least 9 rounds (1.4.1)."""
    return kind(t) is Kind.STANDARD and t.rounds >= MIN_GAMES


def exemption(t: Tournament, hist):
    """1.4.3 d, read from the players' rounds; None when the event does not qualify."""
    rounds = len(hist.rounds)
    participants = []
    for pid, player in hist.players.items():
        played = {g.round for g in games_of(hist, player)}
        byes = sum(1 for _n, cell, _t in hist.running(pid) if getattr(cell, "game", None)
                   and cell.game.result == Result.PAIRING_BYE)
        participants.append(Participant(
            player.rating is not None, player.federation, player.title,
            rounds - len(played) - byes,
        ))
    return large_swiss_exemption(t.federation, participants)


def player_rating(t: Tournament, hist, player: Player, entry=None,
                  exempt=None) -> PlayerRating:
    """The player's rating change (or first rating), performance and norms so far."""
    games = games_of(hist, player)
    pairs = [(g.opponent.rating, g.score) for g in games]
    out = PlayerRating(player, games, performance=performance(pairs))
    if player.rating:
        out.coefficient = development_coefficient(
            record(t, player, entry), event_year(t), sum(1 for o, _ in pairs if o)
        )
        out.change = rating_change(player.rating, pairs, k=out.coefficient.k, kind=kind(t))
    else:
        out.first = first_rating(pairs)
    if norms_apply(t):
        norm_games = [
            NormGame(g.opponent.rating, g.opponent.title, g.opponent.federation, g.score)
            for g in games
        ]
        for title in norm_titles(player):
            out.norms.append(check_norm(
                title, player.federation, norm_games, rounds=t.rounds,
                unplayed_wins=_unplayed_wins(hist, player), exempt=exempt,
            ))
    return out


def fide_entry(t: Tournament, player: Player):
    """The player's entry in the loaded FIDE list, or None."""
    from tournaments.models import FidePlayer

    if not player.fide_id.isdigit():
        return None
    return FidePlayer.objects.filter(fide_id=int(player.fide_id)).first()


def card(t: Tournament, hist, player: Player) -> PlayerRating:
    """The player card's figures (three small queries: the list entry)."""
    exempt = exemption(t, hist) if norms_apply(t) else None
    return player_rating(t, hist, player, fide_entry(t, player), exempt)


def changes(t: Tournament, hist, *, up_to: int | None = None) -> dict[int, int | None]:
    """Each rated player's rating change over the rounds up to ``up_to`` (the standings'),
    by player id; None for an unrated player."""
    from tournaments.models import FidePlayer

    ids = [int(p.fide_id) for p in hist.players.values() if p.rating and p.fide_id.isdigit()]
    entries = {str(e.fide_id): e for e in FidePlayer.objects.filter(fide_id__in=ids)} if ids else {}
    out: dict[int, int | None] = {}
    year, kind_ = event_year(t), kind(t)
    for pk, player in hist.players.items():
        if not player.rating:
            out[pk] = None
            continue
        pairs = [(g.opponent.rating, g.score) for g in games_of(hist, player, up_to=up_to)]
        k = development_coefficient(
            record(t, player, entries.get(player.fide_id)), year, sum(1 for o, _ in pairs if o)
        ).k
        out[pk] = rating_change(player.rating, pairs, k=k, kind=kind_).total
    return out
