"""The ``###`` lines the web app adds to a TRF file, written and read in this one place.

TRF has no record for some of what an arbiter did; the export says it in comment lines that
other programs skip (``###``), and the import reads back those it needs:

- a pairing made by hand, and why (C.04.2 Art. 4.4): ``### round 3: board 2 5-8 paired by
  hand (4.4.2 ...)``;
- a correction kept for rating only (Art. 4.3, notified late), or one made once the next round
  was paired;
- a game annulled (``0/0``): the file shows both players unpaired (``pairing.outcomes``), the
  line names the pair: ``### round 3: board 4 12-7 not played (annulled)``; the import makes
  the board again.
"""

from __future__ import annotations

import re

from pairing.outcomes import GameResult
from tournaments.models import AuditEntry, Game, Result, Tournament
from tournaments.services.corrections import Timing

NOT_PLAYED_LINE = "### round {round}: board {board} {white}-{black} not played (annulled)"
_NOT_PLAYED = re.compile(
    r"### round (?P<round>\d+): board (?P<board>\d+) (?P<white>\d+)-(?P<black>\d+) "
    r"not played \(annulled\)"
)


def notes(t: Tournament, rounds: int) -> list[str]:
    """Every ``###`` line of the tournament's rounds 1..``rounds``."""
    return [
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


def read_not_played(text: str) -> dict[int, list[tuple[int, int, int]]]:
    """The games annulled that a file's ``###`` lines name: (line number, White, Black) by
    round."""
    found: dict[int, list[tuple[int, int, int]]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _NOT_PLAYED.fullmatch(line.rstrip())
        if match:
            found.setdefault(int(match["round"]), []).append(
                (number, int(match["white"]), int(match["black"]))
            )
    return found


def manual_pairing_comments(t: Tournament, rounds: int) -> list[str]:
    """Return TRF ``###`` comment lines naming the rows paired by hand (issue 4), by round."""
    games = Game.objects.filter(
        round__tournament=t, round__number__lte=rounds
    ).exclude(manual="").select_related("round", "white", "black")
    lines = []
    for game in games.order_by("round__number", "board", "white__tpn"):
        if game.black_id is None:
            what = f"pairing-allocated bye to {game.white.tpn}"
        else:
            what = f"board {game.board} {game.white.tpn}-{game.black.tpn}"
        reason = " ".join(game.manual.split())
        lines.append(f"### round {game.round.number}: {what} paired by hand ({reason})")
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
        lines.append(
            f"### round {game.round.number}: board {game.board} for rating only "
            f"(Art. 4.3, notified late): {white}-{black} {result}"
        )
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
        lines.append(
            f"### round {entry.round_number + 1}: paired before board {before.get('board')} of "
            f"round {entry.round_number} was corrected (Art. 4.3, notified {when}): {change}"
        )
    return lines
