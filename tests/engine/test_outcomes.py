"""The outcome vocabulary (``pairing.outcomes``): each kind to a TRF entry and back, the points
rule, and what a board's result gives each side."""

from __future__ import annotations

import pytest

from pairing.model import Color, Player, PointSystem, ResultCode, RoundEntry, Tournament
from pairing.outcomes import GameResult, Outcome
from pairing.trf import read_trf, write_trf

ODD_POINTS = PointSystem(
    win=30, draw=10, loss=1, forfeit_win=25, forfeit_loss=-5, pairing_allocated_bye=20,
    half_point_bye=12, full_point_bye=28, zero_point_bye=2,
)
"""Every kind scores something of its own, so that a wrong rule shows."""


@pytest.mark.parametrize("outcome", [o for o in Outcome if o is not Outcome.NOT_PLAYED])
def test_each_outcome_is_read_back_from_its_entry(outcome):
    entry = outcome.entry(7, Color.WHITE) if outcome.has_opponent else outcome.entry()
    assert Outcome.of_entry(entry) is outcome


def test_an_annulled_game_leaves_its_players_unpaired():
    # the pair is named by a ``###`` line of the web app (tournaments.services.trf_notes)
    assert Outcome.of_entry(Outcome.NOT_PLAYED.entry()) is Outcome.ABSENT
    assert GameResult.NOT_PLAYED.entries(1, 2) == (Outcome.ABSENT.entry(), Outcome.ABSENT.entry())


@pytest.mark.parametrize("outcome, expected", [
    (Outcome.WIN, 30), (Outcome.DRAW, 10), (Outcome.LOSS, 1), (Outcome.FORFEIT_WIN, 25),
    (Outcome.FORFEIT_LOSS, -5), (Outcome.PAIRING_ALLOCATED_BYE, 20),
    (Outcome.HALF_POINT_BYE, 12), (Outcome.FULL_POINT_BYE, 28), (Outcome.ZERO_POINT_BYE, 2),
    (Outcome.ABSENT, 2), (Outcome.NOT_PLAYED, 2),
])
def test_the_points_of_each_outcome(outcome, expected):
    assert outcome.points(ODD_POINTS) == expected


@pytest.mark.parametrize("result", list(GameResult))
def test_each_game_result_is_its_two_outcomes(result):
    white, black = result.outcomes
    assert GameResult.of_outcomes(white, black) is result
    assert result.with_colours_exchanged.outcomes == (black, white)
    if result is not GameResult.NOT_PLAYED:
        w, b = result.entries(3, 8)
        assert (w.opponent, w.color, b.opponent, b.color) == (8, Color.WHITE, 3, Color.BLACK)
        assert (Outcome.of_entry(w), Outcome.of_entry(b)) == (white, black)


def test_a_game_of_less_than_one_move_is_read_as_its_result_and_is_not_rated():
    entry = RoundEntry(4, Color.BLACK, ResultCode.WIN_UNRATED)
    assert Outcome.of_entry(entry) is Outcome.WIN
    assert not Outcome.rated_entry(entry)
    assert Outcome.rated_entry(Outcome.WIN.entry(4, Color.BLACK))


def test_a_trf_file_keeps_a_requested_zero_point_bye_apart_from_an_absence():
    players = (
        Player(1, "Alpha", rounds=(Outcome.ZERO_POINT_BYE.entry(),)),
        Player(2, "Beta", rounds=(Outcome.ABSENT.entry(),)),
        Player(3, "Gamma", rounds=(Outcome.PAIRING_ALLOCATED_BYE.entry(),)),
    )
    text = write_trf(Tournament(players, total_rounds=3))
    assert "0000 - Z" in text and "0000 - -" in text
    read = read_trf(text)
    assert [Outcome.of_entry(p.rounds[0]) for p in read.players] == [
        Outcome.ZERO_POINT_BYE, Outcome.ABSENT, Outcome.PAIRING_ALLOCATED_BYE,
    ]
    assert write_trf(read) == text
    # the same to the rules: neither is paired, both score the zero-point bye's points
    assert read.players[0].rounds[0] == read.players[1].rounds[0]
