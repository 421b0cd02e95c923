"""Seeded random small tournament states, to compare pairing engines with the reference.

``random_state(seed)`` plays a few rounds of a random tournament (6-12 players) and returns the
state before the next round. Earlier rounds are paired by the reference itself or, now and
then, by a random legal-looking pairing (so that histories the Dutch rules would not produce
appear too); results are random, with draws, forfeits, requested byes and absences.
"""

from __future__ import annotations

import random
from dataclasses import replace

from pairing.errors import PairingError
from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament
from reference_dutch.reference import reference_pair_round

_GAME_RESULTS = (
    (ResultCode.WIN, ResultCode.LOSS),
    (ResultCode.DRAW, ResultCode.DRAW),
    (ResultCode.LOSS, ResultCode.WIN),
)


def _played(entries: list[list[RoundEntry]], a: int, b: int) -> bool:
    return any(e.opponent == b + 1 and e.game_was_played for e in entries[a])


def _random_pairing(
    rng: random.Random, present: list[int], entries: list[list[RoundEntry]]
) -> tuple[list[tuple[int, int]], int | None]:
    """Pair the present players at random, avoiding rematches when it is easy to."""
    order = present[:]
    rng.shuffle(order)
    bye = None
    if len(order) % 2:
        bye = order.pop()
    pairs = []
    while order:
        a = order.pop()
        fresh = [b for b in order if not _played(entries, a, b)]
        b = rng.choice(fresh or order)
        order.remove(b)
        pairs.append((a, b) if rng.random() < 0.5 else (b, a))
    return pairs, bye


def random_state(seed: int, *, max_players: int = 12, chaos: float = 0.25) -> Tournament:
    """Return a random tournament state before some round k >= 1 (deterministic per seed).

    ``chaos`` is the share of earlier rounds paired at random instead of by the reference.
    """
    rng = random.Random(seed)
    n = rng.randint(6, max_players)
    total = rng.randint(4, 7)
    k = rng.randint(1, total)
    ratings = sorted((rng.randint(1400, 2500) for _ in range(n)), reverse=True)
    entries: list[list[RoundEntry]] = [[] for _ in range(n)]
    base = Tournament(
        players=(),
        total_rounds=total,
        initial_color=rng.choice((Color.WHITE, Color.BLACK)),
    )
    late = {i for i in range(n) if rng.random() < 0.1}
    withdrawn = {i: rng.randint(2, total) for i in range(n) if rng.random() < 0.08}

    def state(r: int) -> Tournament:
        players = tuple(
            Player(tpn=i + 1, name=f"Player {i + 1}", rating=ratings[i], rounds=tuple(entries[i]))
            for i in range(n)
        )
        return replace(base, players=players)

    for r in range(1, k + 1):
        # Entries known before pairing: late entries, withdrawals, requested byes, absences.
        for i in range(n):
            if (i in late and r <= 2) or (i in withdrawn and r >= withdrawn[i]):
                entries[i].append(RoundEntry(None, None, ResultCode.ZERO_POINT_BYE))
            elif r > 1 and rng.random() < 0.06:
                code = rng.choice((ResultCode.HALF_POINT_BYE, ResultCode.ZERO_POINT_BYE))
                entries[i].append(RoundEntry(None, None, code))
        if r == k:
            break
        present = [i for i in range(n) if len(entries[i]) < r]
        if len(present) < 2:
            continue
        pairs: list[tuple[int, int]]
        bye: int | None
        try:
            if rng.random() < chaos:
                raise PairingError("random pairing for variety")
            pairing = reference_pair_round(state(r), r, effective_tpn=True)
            pairs = [(b.white - 1, b.black - 1) for b in pairing.boards]
            bye = pairing.bye - 1 if pairing.bye is not None else None
        except PairingError:
            pairs, bye = _random_pairing(rng, present, entries)
        for w, b in pairs:
            roll = rng.random()
            if roll < 0.05:  # forfeit
                ww, bb = (
                    (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS)
                    if rng.random() < 0.5
                    else (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN)
                )
            else:
                ww, bb = rng.choice(_GAME_RESULTS)
            entries[w].append(RoundEntry(b + 1, Color.WHITE, ww))
            entries[b].append(RoundEntry(w + 1, Color.BLACK, bb))
        if bye is not None:
            entries[bye].append(RoundEntry(None, None, ResultCode.PAIRING_ALLOCATED_BYE))
    return state(k)
