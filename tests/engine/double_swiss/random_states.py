"""Seeded random Double-Swiss states for comparing the engine with the literal reference.

``random_state(seed)`` plays 0-6 matches of a 5-13 player event: most matches paired by the
reference (so floats, upfloaters and repeated scoregroups look like real events), some by a
random legal pairing (odd histories), with draws, ½-0 and 0-0 games, single and double
forfeits, requested H and F byes, absences, late entries and withdrawals; then it returns the
state before the next match, with that match's pre-set byes.
"""

from __future__ import annotations

import random

from pairing.double_swiss.model import DOUBLE_SWISS_POINTS, DoubleSwissTournament
from pairing.double_swiss.trf import build_matches, state_before_match
from pairing.errors import NoValidPairing
from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament

from .reference import reference_pair_match

R = ResultCode
_GAMES = [  # (first player's result, second player's result), weights
    ((R.WIN, R.LOSS), 30), ((R.LOSS, R.WIN), 30), ((R.DRAW, R.DRAW), 25),
    ((R.DRAW, R.LOSS), 2), ((R.LOSS, R.DRAW), 2), ((R.LOSS, R.LOSS), 1),
    ((R.FORFEIT_WIN, R.FORFEIT_LOSS), 3), ((R.FORFEIT_LOSS, R.FORFEIT_WIN), 3),
    ((R.FORFEIT_LOSS, R.FORFEIT_LOSS), 1),
]


def _game(rng: random.Random) -> tuple[ResultCode, ResultCode]:
    results, weights = zip(*_GAMES, strict=True)
    return rng.choices(results, weights)[0]


def _build(players: list[Player], columns: dict[int, list[RoundEntry]], total: int,
           initial: Color) -> DoubleSwissTournament:
    built = tuple(
        Player(tpn=p.tpn, name=p.name, rating=p.rating, rounds=tuple(columns[p.tpn]))
        for p in players
    )
    t = Tournament(
        players=built, total_rounds=2 * total, initial_color=initial,
        point_system=DOUBLE_SWISS_POINTS, tournament_type="FIDE_DOUBLESWISS",
    )
    return build_matches(t)


def _random_pairing(rng: random.Random, dt: DoubleSwissTournament, tpns: list[int]):
    """A random legal pairing ([C1]) of the players, the PAB to a random player; or None."""
    k = dt.next_match_number()
    met = {
        p: {m.opponent for m in dt.matches_of(p)[: k - 1] if m.was_played} for p in tpns
    }
    for _ in range(50):
        order = tpns[:]
        rng.shuffle(order)
        bye = order.pop() if len(order) % 2 else None
        pairs = []
        ok = True
        while order:
            a = order.pop()
            options = [b for b in order if b not in met[a]]
            if not options:
                ok = False
                break
            b = rng.choice(options)
            order.remove(b)
            pairs.append((a, b) if rng.random() < 0.5 else (b, a))
        if ok:
            return pairs, bye
    return None


def random_state(seed: int) -> DoubleSwissTournament:
    """Return a random state before some match (see the module docstring)."""
    rng = random.Random(seed)
    n = rng.randint(5, 13)
    total = rng.randint(3, 7)
    k = rng.randint(1, total)
    initial = rng.choice([Color.WHITE, Color.BLACK])
    players = [Player(tpn=i, name=f"P{i}", rating=2400 - 10 * i) for i in range(1, n + 1)]
    late = {p: rng.randint(2, k) for p in range(1, n + 1) if k > 1 and rng.random() < 0.08}
    gone = {p: rng.randint(1, k) for p in range(1, n + 1) if rng.random() < 0.06}
    columns: dict[int, list[RoundEntry]] = {p: [] for p in range(1, n + 1)}
    for j in range(1, k + 1):
        to_pair = []
        for p in range(1, n + 1):
            code = None
            if p in late and j < late[p] or p in gone and j >= gone[p]:
                code = R.ZERO_POINT_BYE
            else:
                roll = rng.random()
                if roll < 0.04:
                    code = R.HALF_POINT_BYE
                elif roll < 0.06:
                    code = R.ZERO_POINT_BYE
                elif roll < 0.07:
                    code = R.FULL_POINT_BYE
            if code is None:
                to_pair.append(p)
            else:
                columns[p] += [RoundEntry(None, None, code)] * 2
        if j == k:
            break
        dt = state_before_match(_build(players, columns, total, initial), j)
        choice = None
        if rng.random() < 0.75:
            try:
                result = reference_pair_match(dt)
                choice = ([(b.white, b.black) for b in result.boards], result.bye)
            except NoValidPairing:
                choice = None
        if choice is None:
            choice = _random_pairing(rng, dt, to_pair)
        if choice is None:  # no legal pairing found: this state is the one to pair
            return dt
        pairs, bye = choice
        if bye is not None:
            columns[bye] += [RoundEntry(None, None, R.PAIRING_ALLOCATED_BYE)] * 2
        for white, black in pairs:
            for game, (w, b) in enumerate((_game(rng), _game(rng))):
                cw, cb = (Color.WHITE, Color.BLACK) if game == 0 else (Color.BLACK, Color.WHITE)
                columns[white].append(RoundEntry(black, cw, w))
                columns[black].append(RoundEntry(white, cb, b))
    final = _build(players, columns, total, initial)
    return state_before_match(final, k)
