"""Replay a recorded tournament round by round (the procedure of the corpus README)."""

from __future__ import annotations

from dataclasses import replace

from pairing.model import Board, Color, ResultCode, RoundEntry, RoundPairing, Tournament
from pairing.trf import last_paired_round

__all__ = [
    "state_before_round",
    "recorded_round",
    "played_rounds",
    "paired_rounds",
    "replayable_rounds",
    "compare_rounds",
    "pairing_lines",
]

_ABSENT = RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)


def played_rounds(t: Tournament) -> int:
    """Return the number of round columns in the file (the longest player record)."""
    return max((len(p.rounds) for p in t.players), default=0)


def paired_rounds(t: Tournament) -> int:
    """Return the number of rounds already paired (a column of pre-set byes only is not one)."""
    return last_paired_round(t.players)


def replayable_rounds(t: Tournament) -> list[int]:
    """The rounds 1..paired_rounds(t) in which someone was paired: a round in which everyone
    was absent or on a requested bye has no pairing to reproduce (its state, a column of
    pre-set byes for every player, is a decided round to the engine, which pairs the next
    one: ``next_round_number``)."""
    rounds = []
    for k in range(1, paired_rounds(t) + 1):
        if any(len(p.rounds) >= k and p.rounds[k - 1].was_paired for p in t.players):
            rounds.append(k)
    return rounds


def state_before_round(t: Tournament, k: int) -> Tournament:
    """Return the tournament as it stood before round k was paired.

    Rounds 1..k-1 are kept (a missing entry is an absence), in round k only the requested byes
    and absences (``RoundEntry.is_preset``), and the points column is recomputed.
    """
    if k < 1:
        raise ValueError(f"round {k} does not exist")
    players = []
    for player in t.players:
        history = list(player.rounds[: k - 1])
        history += [_ABSENT] * (k - 1 - len(history))
        if len(player.rounds) >= k and player.rounds[k - 1].is_preset:
            history.append(player.rounds[k - 1])
        points = sum(t.point_system.points_for(e) for e in history)
        players.append(replace(player, rounds=tuple(history), declared_points=points))
    return replace(t, players=tuple(players))


def recorded_round(t: Tournament, k: int) -> RoundPairing:
    """Return what column k recorded: each pair with White first, and the PAB player.

    A round the file declares (``XXR``/``142``) but never paired, as in an event that stopped
    early, has no record: asking for it is an error, not an empty pairing.
    """
    if k < 1:
        raise ValueError(f"round {k} does not exist")
    if k > paired_rounds(t):
        raise ValueError(f"round {k} was never paired (the file records {paired_rounds(t)})")
    boards = []
    bye = None
    for player in t.players:
        if len(player.rounds) < k:
            continue
        entry = player.rounds[k - 1]
        if entry.result is ResultCode.PAIRING_ALLOCATED_BYE and entry.opponent is None:
            bye = player.tpn if bye is None else min(bye, player.tpn)
        elif entry.opponent is not None:
            if entry.color is Color.WHITE:
                boards.append(Board(player.tpn, entry.opponent))
            elif entry.color is None and player.tpn < entry.opponent:
                boards.append(Board(player.tpn, entry.opponent))
    boards.sort(key=lambda b: (min(b.white, b.black), b.white))
    return RoundPairing(round=k, boards=tuple(boards), bye=bye)


IDENTICAL = "identical"
COLORS_DIFFER = "colors"
PAIRS_DIFFER = "pairs"


def compare_rounds(expected: RoundPairing, got: RoundPairing) -> str:
    """Classify an engine's round against the recorded one: identical, colours or pairs differ."""
    if expected.bye != got.bye:
        return PAIRS_DIFFER
    want = {(b.white, b.black) for b in expected.boards}
    have = {(b.white, b.black) for b in got.boards}
    if want == have and len(got.boards) == len(have):
        return IDENTICAL
    same_pairs = {frozenset(p) for p in want} == {frozenset(p) for p in have}
    if same_pairs and len(got.boards) == len(have):
        return COLORS_DIFFER
    return PAIRS_DIFFER


def pairing_lines(pairing: RoundPairing) -> list[str]:
    """Return the pairs as ``white black`` lines sorted by the lower TPN, the bye last."""
    boards = sorted(pairing.boards, key=lambda b: (min(b.white, b.black), b.white))
    lines = [f"{b.white} {b.black}" for b in boards]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return lines
