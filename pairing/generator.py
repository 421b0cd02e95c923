"""Random tournaments paired round by round by this engine: what engines are tested with.

FIDE's endorsement procedure has pairing programs generate random tournaments and check each
other's pairings; JaVaFo and bbpPairings do it with ``-g``. The command line takes the same
syntax (``pairing.cli``)::

    python -m pairing --dutch -g [CONFIG] -o OUT.trf [-s SEED]
    python -m pairing --dutch MODEL.trf -g -o OUT.trf [-s SEED]

With ``CONFIG``, the tournament follows that configuration; with neither, a configuration is
drawn at random from the seed; with ``MODEL.trf``, the model's players, rounds and point
system are kept and its rates (draws, forfeits, byes) measured, and the rounds are paired and
played again. Every round is paired by this engine (``PairingSystem.pair``, under ``--rules``);
the results are drawn at random. The same seed and configuration always give the same file;
without ``-s`` a seed is drawn and written in the file's ``012`` line, so that any file can be
made again. The file is TRF-2026 that the checker (``-c``) and bbpPairings read.

The configuration file holds ``Key=Value`` lines (``#`` starts a comment), the keys of JaVaFo's
random tournament generator as bbpPairings reads them, and ours (marked +). A rate N means one
in N (0, the default, means none):

==================== ======= ==================================================================
key                  default meaning
==================== ======= ==================================================================
PlayersNumber        50      players
RoundsNumber         9       rounds (``142``)
HighestRating        2600    ratings are drawn uniformly between the lowest and the highest
LowestRating         1400
UnratedRate +        0       one player in N is unrated (the last pairing numbers)
DrawPercentage       30      draws among games played, at most what the Elo expectation allows
ForfeitRate          0       one game in N is forfeited (each side absent alike; both: ``-/-``)
HalfPointByeRate     0       one player in N requests a half-point bye (``H``) in one round but
                             the last
ZeroPointByeRate +   0       one player in N requests a zero-point bye (``Z``) in one round
RetiredRate          0       one player in N withdraws from a round on (C.04.2 Art. 3.2;
                             ``0000 - -`` from then on)
LateEntryRate +      0       one player in N joins late, in round 2 to the middle of the
                             event (C.04.2 Art. 2.4; ``0000 - -`` before)
ForbiddenPairs +     0       pairs of players who must not meet (``XXP``, as [C1] forbids)
PointsForWin         1.0     the point system (``162``): a win, also a forfeit win and a
                             full-point bye
PointsForDraw        0.5     a draw, also a half-point bye
PointsForLoss        0.0     a game lost
PointsForForfeitLoss 0.0     a forfeit lost, also a zero-point bye and an absence (TRF-2026
                             ``162`` gives both one value, ``A``)
PointsForZPB         0.0     the same value as PointsForForfeitLoss
PointsForPAB         win     the pairing-allocated bye
==================== ======= ==================================================================

Without a configuration, one is drawn from the seed (``random_configuration``): 15-215 players
and 5-15 rounds (at most a third of the field), as bbpPairings draws them, with every kind of
entry above, and a point system other than 1/½/0 one time in four.

>>> from pairing.systems import DUTCH_2026
>>> config = parse_configuration("PlayersNumber=12\\nRoundsNumber=4\\nPointsForWin=3\\n"
...                              "PointsForDraw=1\\nForfeitRate=10\\nHalfPointByeRate=4")
>>> t = generate(config, DUTCH_2026, seed=7)
>>> t.name, len(t.players), t.total_rounds, t.point_system.win
('Random tournament, seed 7', 12, 4, 30)
>>> [len(p.rounds) for p in t.players] == [4] * 12
True
>>> generate(config, DUTCH_2026, seed=7) == t
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from pairing.errors import ConfigurationError, NoValidPairing
from pairing.model import (
    TPN,
    Color,
    ForbiddenPairs,
    Player,
    Points,
    PointSystem,
    ResultCode,
    RoundEntry,
    Tournament,
)
from pairing.outcomes import GameResult, Outcome
from pairing.systems import PairingSystem

__all__ = [
    "Configuration",
    "configuration_of_model",
    "generate",
    "parse_configuration",
    "random_configuration",
]


@dataclass(frozen=True)
class Configuration:
    """What a random tournament is made of (the keys of the configuration file)."""

    players: int = field(default=50, metadata={"key": "PlayersNumber"})
    rounds: int = field(default=9, metadata={"key": "RoundsNumber"})
    highest_rating: int = field(default=2600, metadata={"key": "HighestRating"})
    lowest_rating: int = field(default=1400, metadata={"key": "LowestRating"})
    unrated_rate: float = field(default=0.0, metadata={"key": "UnratedRate"})
    draw_percentage: int = field(default=30, metadata={"key": "DrawPercentage"})
    forfeit_rate: float = field(default=0.0, metadata={"key": "ForfeitRate"})
    half_point_bye_rate: float = field(default=0.0, metadata={"key": "HalfPointByeRate"})
    zero_point_bye_rate: float = field(default=0.0, metadata={"key": "ZeroPointByeRate"})
    retired_rate: float = field(default=0.0, metadata={"key": "RetiredRate"})
    late_entry_rate: float = field(default=0.0, metadata={"key": "LateEntryRate"})
    forbidden_pairs: int = field(default=0, metadata={"key": "ForbiddenPairs"})
    point_system: PointSystem = PointSystem()


POINT_KEYS = ("PointsForWin", "PointsForDraw", "PointsForLoss", "PointsForForfeitLoss",
              "PointsForZPB", "PointsForPAB")


def _point_system(given: dict[str, Points]) -> PointSystem:
    """The point system the points keys give (tenths), each kind of entry as ``162`` reads it:
    a forfeit win and a full-point bye score a win, a half-point bye a draw, an absence a
    forfeit loss, the PAB a win unless given."""
    win = given.get("PointsForWin", 10)
    draw = given.get("PointsForDraw", 5)
    absent = given.get("PointsForForfeitLoss", given.get("PointsForZPB", 0))
    return PointSystem(
        win=win, draw=draw, loss=given.get("PointsForLoss", 0), forfeit_win=win,
        forfeit_loss=absent, pairing_allocated_bye=given.get("PointsForPAB", win),
        half_point_bye=draw, full_point_bye=win, zero_point_bye=absent,
    )


def _number_keys() -> dict[str, str]:
    return {f.metadata["key"]: f.name for f in fields(Configuration) if "key" in f.metadata}


def _parse_points(text: str) -> Points:
    value = Fraction(text) * 10
    if value.denominator != 1 or not 0 <= value <= 999:
        raise ValueError(text)
    return int(value)


def parse_configuration(text: str) -> Configuration:
    """Read a configuration file; raise ``ConfigurationError`` naming the line of a defect."""
    numbers = _number_keys()
    defaults = Configuration()
    values: dict[str, Any] = {}
    points: dict[str, Points] = {}
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = (part.strip() for part in line.partition("="))
        if not sep:
            raise ConfigurationError(line_no, f"expected Key=Value, found {line!r}")
        if key not in numbers and key not in POINT_KEYS:
            raise ConfigurationError(line_no, f"unknown key {key!r}")
        try:
            if key in POINT_KEYS:
                points[key] = _parse_points(value)
            else:
                name = numbers[key]
                values[name] = type(getattr(defaults, name))(value)
        except (ValueError, ArithmeticError):
            raise ConfigurationError(line_no, f"{key}: {value!r} is not a valid value") from None
    if "PointsForForfeitLoss" in points and "PointsForZPB" in points \
            and points["PointsForForfeitLoss"] != points["PointsForZPB"]:
        raise ConfigurationError(0, "PointsForForfeitLoss and PointsForZPB differ: TRF-2026 "
                                    "162 gives both one value (A)")
    config = Configuration(**values, point_system=_point_system(points))
    _check(config)
    return config


def _check(config: Configuration) -> None:
    """Refuse a configuration no tournament can follow (line 0: the file as a whole)."""
    problems = []
    if config.players < 2:
        problems.append("PlayersNumber must be at least 2")
    if config.rounds < 1:
        problems.append("RoundsNumber must be at least 1")
    if not 0 < config.lowest_rating <= config.highest_rating <= 9999:
        problems.append("ratings must satisfy 0 < LowestRating <= HighestRating <= 9999")
    if not 0 <= config.draw_percentage <= 100:
        problems.append("DrawPercentage must be between 0 and 100")
    for f in fields(Configuration):
        value = getattr(config, f.name)
        if f.name.endswith("_rate") and value != 0 and value < 1:
            problems.append(f"{f.metadata['key']} is one in N: N must be 0 (none) or at least 1")
    if config.forbidden_pairs < 0:
        problems.append("ForbiddenPairs must not be negative")
    if problems:
        raise ConfigurationError(0, "; ".join(problems))


POINT_SYSTEMS = (
    PointSystem(win=30, draw=10, loss=0, forfeit_win=30, pairing_allocated_bye=30,
                half_point_bye=10, full_point_bye=30),
    PointSystem(win=20, draw=10, loss=0, forfeit_win=20, pairing_allocated_bye=20,
                half_point_bye=10, full_point_bye=20),
    PointSystem(pairing_allocated_bye=5),
    PointSystem(win=30, draw=20, loss=10, forfeit_win=30, pairing_allocated_bye=30,
                half_point_bye=20, full_point_bye=30),
)
"""Point systems other than 1/½/0 that a drawn configuration may use: 3/1/0, 2/1/0, a PAB
worth a draw, 3/2/1."""


def random_configuration(
    rng: random.Random, players: tuple[int, int] = (15, 215), rounds: tuple[int, int] = (5, 15)
) -> Configuration:
    """A configuration drawn at random: the number of players and rounds in those ranges
    (rounds at most a third of the field), and every kind of entry the rules know: draws,
    forfeits, requested byes, withdrawals, late entries, unrated players, and a point system
    other than 1/½/0 one time in four."""
    n = rng.randint(*players)
    highest = rng.randint(2400, 2800)
    return Configuration(
        players=n,
        rounds=rng.randint(rounds[0], max(rounds[0], min(rounds[1], n // 3))),
        highest_rating=highest,
        lowest_rating=rng.randint(1000, highest - 100),
        unrated_rate=rng.choice((0, 0, rng.randint(4, 30))),
        draw_percentage=rng.randint(10, 50),
        forfeit_rate=rng.randint(6, 40),
        half_point_bye_rate=rng.randint(4, 40),
        zero_point_bye_rate=rng.randint(6, 60),
        retired_rate=rng.randint(10, 60),
        late_entry_rate=rng.randint(10, 60),
        point_system=rng.choice((PointSystem(),) * 12 + POINT_SYSTEMS),
    )


def configuration_of_model(model: Tournament, rounds: int) -> Configuration:
    """The configuration a recorded tournament follows: its size, rounds and point system, and
    the rates of its draws, forfeits, byes and withdrawals as measured."""
    n = len(model.players)
    entries = [e for p in model.players for e in p.rounds[:rounds]]
    games = [e for e in entries if e.opponent is not None]
    played = [e for e in games if e.game_was_played]
    draws = sum(1 for e in played if Outcome.of_entry(e) is Outcome.DRAW)

    def rate(count: int, among: int) -> float:
        return among / count if count else 0

    def players_with(code: ResultCode) -> int:
        return sum(1 for p in model.players
                   if any(e.opponent is None and e.result is code for e in p.rounds[:rounds]))

    ratings = [p.rating for p in model.players if p.rating]
    return Configuration(
        players=n,
        rounds=rounds,
        highest_rating=max(ratings, default=2600),
        lowest_rating=min(ratings, default=1400),
        unrated_rate=rate(n - len(ratings), n),
        draw_percentage=round(100 * draws / len(played)) if played else 0,
        forfeit_rate=rate((len(games) - len(played)) // 2, len(games) // 2),
        half_point_bye_rate=rate(players_with(ResultCode.HALF_POINT_BYE), n),
        zero_point_bye_rate=rate(players_with(ResultCode.ZERO_POINT_BYE), n),
        point_system=model.point_system,
    )


# The tournament -------------------------------------------------------------------------------


@dataclass
class _Plan:
    """Who is absent or on a requested bye in which round, drawn before round 1."""

    preset: dict[tuple[TPN, int], Outcome] = field(default_factory=dict)

    def add(self, tpn: TPN, rounds: range, outcome: Outcome) -> None:
        for k in rounds:
            self.preset[(tpn, k)] = outcome

    def present(self, tpn: TPN, k: int) -> bool:
        return (tpn, k) not in self.preset


def _count(players: int, rate: float) -> int:
    """How many of the players one in ``rate`` makes (bbpPairings rounds it down)."""
    return min(players, int(players / rate)) if rate else 0


def _players(config: Configuration, rng: random.Random) -> list[Player]:
    """The field in pairing-number order: rated players by rating, the unrated last."""
    unrated = _count(config.players, config.unrated_rate)
    ratings = sorted(
        (rng.randint(config.lowest_rating, config.highest_rating)
         for _ in range(config.players - unrated)),
        reverse=True,
    )
    rated: list[int | None] = list(ratings)
    return [
        Player(tpn=i + 1, name=f"Player {i + 1:04d}", rating=rating)
        for i, rating in enumerate(rated + [None] * unrated)
    ]


def _plan(config: Configuration, tpns: list[TPN], rng: random.Random) -> _Plan:
    """Draw the late entries, the withdrawals and the requested byes (C.04.2 Art. 2.4, 3.2,
    3.3): each of them is known before the round it falls in is paired."""
    plan = _Plan()
    last = config.rounds
    if last >= 2:
        movers = rng.sample(tpns, _count(len(tpns), config.late_entry_rate)
                            + _count(len(tpns), config.retired_rate))
        late = _count(len(tpns), config.late_entry_rate)
        for tpn in movers[:late]:
            arrival = rng.randint(2, max(2, (last + 1) // 2))
            plan.add(tpn, range(1, arrival), Outcome.ABSENT)
        for tpn in movers[late:]:
            plan.add(tpn, range(rng.randint(2, last), last + 1), Outcome.ABSENT)
    for rate, outcome, rounds in (
        (config.half_point_bye_rate, Outcome.HALF_POINT_BYE, last - 1),
        (config.zero_point_bye_rate, Outcome.ZERO_POINT_BYE, last),
    ):
        for tpn in rng.sample(tpns, _count(len(tpns), rate)):
            free = [k for k in range(1, rounds + 1) if plan.present(tpn, k)]
            if free:
                plan.add(tpn, range(k := rng.choice(free), k + 1), outcome)
    return plan


def _forbidden(config: Configuration, tpns: list[TPN], rng: random.Random
               ) -> tuple[ForbiddenPairs, ...]:
    """Pairs of players who must not meet, as a rematch must not ([C1]): e.g. one family."""
    pairs: set[frozenset[TPN]] = set()
    most = len(tpns) * (len(tpns) - 1) // 2
    while len(pairs) < min(config.forbidden_pairs, most):
        pairs.add(frozenset(rng.sample(tpns, 2)))
    return tuple(ForbiddenPairs(p) for p in sorted(pairs, key=sorted))


def _expected_score(rating: int, opponent: int) -> float:
    """The Elo expectation of a player against an opponent."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def _game(config: Configuration, white: int, black: int, rng: random.Random) -> GameResult:
    """Draw a board's result: a forfeit one game in ``ForfeitRate`` (each side absent alike),
    else a draw or a decisive game from the Elo expectation."""
    if config.forfeit_rate:
        absent = 1 - math.sqrt(1 - 1 / config.forfeit_rate)
        white_absent, black_absent = rng.random() < absent, rng.random() < absent
        if white_absent or black_absent:
            if white_absent and black_absent:
                return GameResult.DOUBLE_FORFEIT
            return GameResult.BLACK_WINS_FORFEIT if white_absent else GameResult.WHITE_WINS_FORFEIT
    expected = _expected_score(white, black)
    draw = min(config.draw_percentage / 100, 2 * min(expected, 1 - expected))
    roll = rng.random()
    if roll < draw:
        return GameResult.DRAW
    return GameResult.WHITE_WINS if roll < draw + expected - draw / 2 else GameResult.BLACK_WINS


def generate(
    config: Configuration, system: PairingSystem, seed: int,
    *, players: Sequence[Player] | None = None,
) -> Tournament:
    """A tournament of ``config`` whose every round this engine paired (``system``), with
    results drawn at random from ``seed``; ``players`` (a model's) instead of drawn ones.

    Raise ``NoValidPairing`` naming the round when a round cannot be paired, and ValueError
    for a system whose rounds are matches of two games."""
    if system.matches:
        raise ValueError(f"the generator plays one game a round, not the {system.name}")
    rng = random.Random(seed)
    field_ = [replace(p, rounds=(), declared_points=None, rank=None) for p in players] \
        if players is not None else _players(config, rng)
    tpns = [p.tpn for p in field_]
    t = Tournament(
        players=tuple(field_),
        total_rounds=config.rounds,
        initial_color=rng.choice((Color.WHITE, Color.BLACK)),
        rules=system.rules,
        point_system=config.point_system,
        name=f"Random tournament, seed {seed}",
        tournament_type=system.tournament_type,
        forbidden_pairs=_forbidden(config, tpns, rng),
    )
    plan = _plan(config, tpns, rng)
    strength = {p.tpn: p.rating or config.lowest_rating for p in field_}
    columns: dict[TPN, list[RoundEntry]] = {tpn: [] for tpn in tpns}
    for k in range(1, config.rounds + 1):
        for tpn in tpns:
            if not plan.present(tpn, k):
                columns[tpn].append(plan.preset[(tpn, k)].entry())
        t = _with_columns(t, columns)
        try:
            pairing = system.pair(t)
        except NoValidPairing as exc:
            raise NoValidPairing(f"round {k} of the generated tournament: {exc}") from None
        for board in pairing.boards:
            result = _game(config, strength[board.white], strength[board.black], rng)
            white, black = result.entries(board.white, board.black)
            columns[board.white].append(white)
            columns[board.black].append(black)
        if pairing.bye is not None:
            columns[pairing.bye].append(Outcome.PAIRING_ALLOCATED_BYE.entry())
        for tpn in tpns:
            if len(columns[tpn]) < k:  # present, yet left unpaired: not by this engine
                raise NoValidPairing(f"round {k}: player {tpn} was not paired")
    return _with_columns(t, columns)


def _with_columns(t: Tournament, columns: dict[TPN, list[RoundEntry]]) -> Tournament:
    return replace(t, players=tuple(replace(p, rounds=tuple(columns[p.tpn])) for p in t.players))
