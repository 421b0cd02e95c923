"""The ``###`` lines the web app adds to a TRF file, written and read in this one place.

TRF has no record for some of what an arbiter did; the export says it in comment lines that
other programs skip (``###``), and the import reads back those it needs:

- a pairing made by hand, and why (C.04.2 Art. 4.4): ``### round 3: board 2 5-8 paired by
  hand (4.4.2 ...)``;
- a correction kept for rating only (Art. 4.3, notified late), or one made once the next round
  was paired;
- a game annulled (``0/0``): the file shows both players unpaired (``pairing.outcomes``), the
  line names the pair: ``### round 3: board 4 12-7 not played (annulled)``; the import makes
  the board again;
- a late entry and a withdrawal (C.04.2 Art. 2.4, 3.2), which TRF-2026 has no record for: the
  file shows the rounds missed as absences, the line says why (``### player 9, late entry:
  paired from round 3 ...``).

The import (``read_notes``) reads back each of them: a late entry arrives and a withdrawal
takes effect in their rounds, the rows paired by hand keep their note and board, a correction
for rating only is kept for rating only, and a round paired before a correction keeps the
board order it was published in (its pairing used the data before the correction).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pairing.outcomes import GameResult
from tournaments.models import AuditEntry, Game, Result, Tournament
from tournaments.services.corrections import Timing

NOT_PLAYED_LINE = "### round {round}: board {board} {white}-{black} not played (annulled)"
_NOT_PLAYED = re.compile(
    r"### round (?P<round>\d+): board (?P<board>\d+) (?P<white>\d+)-(?P<black>\d+) "
    r"not played \(annulled\)"
)


MANUAL_LINE = "### round {round}: {what} paired by hand ({reason})"
MANUAL_BOARD = "board {board} {white}-{black}"
MANUAL_BYE = "pairing-allocated bye to {white}"
_MANUAL = re.compile(
    r"### round (?P<round>\d+): (?:board (?P<board>\d+) (?P<white>\d+)-(?P<black>\d+)|"
    r"pairing-allocated bye to (?P<bye>\d+)) paired by hand \((?P<reason>.*)\)"
)
RATING_ONLY_LINE = (
    "### round {round}: board {board} for rating only (Art. 4.3, notified late): "
    "{white}-{black} {result}"
)
_RATING_ONLY = re.compile(
    r"### round (?P<round>\d+): board (?P<board>\d+) for rating only \(Art\. 4\.3, notified "
    r"late\): (?P<white>\d+)-(?P<black>\d+) (?P<result>\S+)"
)
CORRECTED_LINE = (
    "### round {round}: paired before board {board} of round {corrected} was corrected "
    "(Art. 4.3, notified {when}): {change}"
)
_CORRECTED = re.compile(
    r"### round (?P<round>\d+): paired before board \S+ of round (?P<corrected>\d+) was "
    r"corrected \(Art\. 4\.3, notified [^)]*\): (?P<white>\d+)-(?P<black>\d+) (?P<result>\S+) "
    r"corrected to .*"
)
LATE_ENTRY_LINE = "### player {tpn}, late entry: paired from round {round} (C.04.2 Art. 2.4)"
_LATE_ENTRY = re.compile(
    r"### player (?P<tpn>\d+), late entry: paired from round (?P<round>\d+)(?: \(.*\))?"
)
WITHDRAWAL_LINE = "### player {tpn}, withdrawn: not paired from round {round} (C.04.2 Art. 3.2)"
_WITHDRAWAL = re.compile(
    r"### player (?P<tpn>\d+), withdrawn: not paired from round (?P<round>\d+)(?: \(.*\))?"
)


@dataclass
class Notes:
    """What a file's ``###`` lines say, each with its line number, by round (or by player)."""

    not_played: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    """Games annulled: (line, White, Black)."""
    manual: dict[int, list[tuple[int, int | None, int, int | None, str]]] = field(
        default_factory=dict
    )
    """Rows paired by hand: (line, board or None, White, Black or None, the note)."""
    rating_only: dict[int, list[tuple[int, int, int, str]]] = field(default_factory=dict)
    """Corrections for rating only: (line, White, Black, result), as rated."""
    paired_before: dict[int, list[tuple[int, int, int, int, str]]] = field(default_factory=dict)
    """Rounds paired before a correction of an earlier one: (line, that round, White, Black,
    the result before the correction), by the round paired."""
    arrival: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Late entries: (line, the round of arrival) by TPN."""
    withdrawal: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Withdrawals: (line, the first round not paired) by TPN."""


def read_notes(text: str) -> Notes:
    """Every ``###`` line of a file that the import reads back (others are comments)."""
    found = Notes()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip()
        if not line.startswith("###"):
            continue
        if match := _NOT_PLAYED.fullmatch(line):
            found.not_played.setdefault(int(match["round"]), []).append(
                (number, int(match["white"]), int(match["black"]))
            )
        elif match := _MANUAL.fullmatch(line):
            bye = match["bye"]
            found.manual.setdefault(int(match["round"]), []).append((
                number, None if bye else int(match["board"]), int(bye or match["white"]),
                None if bye else int(match["black"]), match["reason"],
            ))
        elif match := _RATING_ONLY.fullmatch(line):
            found.rating_only.setdefault(int(match["round"]), []).append(
                (number, int(match["white"]), int(match["black"]), match["result"])
            )
        elif match := _CORRECTED.fullmatch(line):
            found.paired_before.setdefault(int(match["round"]), []).append((
                number, int(match["corrected"]), int(match["white"]), int(match["black"]),
                match["result"],
            ))
        elif match := _LATE_ENTRY.fullmatch(line):
            found.arrival[int(match["tpn"])] = (number, int(match["round"]))
        elif match := _WITHDRAWAL.fullmatch(line):
            found.withdrawal[int(match["tpn"])] = (number, int(match["round"]))
    return found


def notes(t: Tournament, rounds: int) -> list[str]:
    """Every ``###`` line of the tournament's rounds 1..``rounds``, and of its players."""
    return [
        *player_notes(t),
        *not_played_notes(t, rounds),
        *manual_pairing_comments(t, rounds),
        *corrected_after_next_pairing_comments(t, rounds),
    ]


def not_played_notes(t: Tournament, rounds: int) -> list[str]:
    """A line for each game annulled (``0/0``): the file itself shows both players unpaired."""
    games = Game.objects.filter(
        round__tournament=t, round__number__lte=rounds, result=Result.NOT_PLAYED
    ).select_related("round", "white", "black")
    return [
        NOT_PLAYED_LINE.format(
            round=g.round.number, board=g.board, white=g.white.tpn, black=g.black.tpn
        )
        for g in games.order_by("round__number", "board")
    ]


def player_notes(t: Tournament) -> list[str]:
    """A line for each late entry and each withdrawal: the file shows only absences."""
    lines = []
    for player in t.players.order_by("tpn"):
        if player.arrival_round > 1:
            lines.append(LATE_ENTRY_LINE.format(tpn=player.tpn, round=player.arrival_round))
        if player.withdrawn_from_round is not None:
            lines.append(WITHDRAWAL_LINE.format(tpn=player.tpn, round=player.withdrawn_from_round))
    return lines


def manual_pairing_comments(t: Tournament, rounds: int) -> list[str]:
    """Return TRF ``###`` comment lines naming the rows paired by hand (issue 4), by round."""
    games = Game.objects.filter(
        round__tournament=t, round__number__lte=rounds
    ).exclude(manual="").select_related("round", "white", "black")
    lines = []
    for game in games.order_by("round__number", "board", "white__tpn"):
        if game.black_id is None:
            what = MANUAL_BYE.format(white=game.white.tpn)
        else:
            what = MANUAL_BOARD.format(board=game.board, white=game.white.tpn, black=game.black.tpn)
        reason = " ".join(game.manual.split())
        lines.append(MANUAL_LINE.format(round=game.round.number, what=what, reason=reason))
    late = Game.objects.filter(round__tournament=t, round__number__lte=rounds).exclude(
        rating_result="", rating_colors_swapped=False
    ).select_related("round", "white", "black")
    for game in late.order_by("round__number", "board"):
        # C.04.2 Art. 4.3: notified after the end of the next round, for rating only.
        white, black = game.white.tpn, game.black.tpn
        if game.rating_colors_swapped:
            white, black = black, white
        result = game.rating_result or game.result
        if game.rating_colors_swapped:
            result = GameResult(result).with_colours_exchanged.value
        lines.append(RATING_ONLY_LINE.format(
            round=game.round.number, board=game.board, white=white, black=black, result=result
        ))
    return lines


def corrected_after_next_pairing_comments(t: Tournament, rounds: int) -> list[str]:
    """Return a ``###`` line for each correction of round k notified once round k+1 was paired
    (C.04.2 Art. 4.3): the file holds the corrected round k, but round k+1 was paired from the
    old data, and a checker re-pairing it must be told why it differs."""
    when = Timing.NEXT_ROUND_RUNNING.value
    entries = AuditEntry.objects.filter(
        tournament=t,
        action__in=("correct result", "correct colours"),
        round_number__lt=rounds,
        reason__endswith=f"[{when}]",
    ).order_by("at", "pk")
    lines = []
    for entry in entries:
        before, after = entry.before or {}, entry.after or {}

        def row(data: dict) -> str:
            return f"{data.get('white_tpn', '?')}-{data.get('black_tpn', '?')} {data['result']}"

        change = f"{row(before)} corrected to "
        change += row(after) if entry.action == "correct colours" else after["result"]
        lines.append(CORRECTED_LINE.format(
            round=entry.round_number + 1, board=before.get("board"),
            corrected=entry.round_number, when=when, change=change,
        ))
    return lines
