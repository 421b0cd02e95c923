"""The engine against the brute-force search of ``brute_force.py`` on random small tournaments:
the same pairs, in the same order, the same colours and the same bye in every round, and no
pairing in the same states.

``CLOCK_RANDOM_TOURNAMENTS`` sets how many tournaments (default 300, about 1400 rounds).
"""

from __future__ import annotations

import os
import random

import pytest

from pairing.clock import pair_clock_round
from pairing.clock.explanation import Backtrack, DeadEnd
from pairing.errors import NoValidPairing

from .random_events import random_tournament

TOURNAMENTS = int(os.environ.get("CLOCK_RANDOM_TOURNAMENTS", "300"))


def test_the_engine_agrees_with_the_brute_force_search_on_every_round():
    rounds = unpairable = backtracked = shortcut = 0
    for seed in range(TOURNAMENTS):
        for state in random_tournament(random.Random(seed)):
            rounds += 1
            where = f"seed {seed}, {len(state.tournament.players)} players"
            if state.pairs is None:
                with pytest.raises(NoValidPairing):
                    pair_clock_round(state.tournament)
                unpairable += 1
                continue
            got = pair_clock_round(state.tournament, explain=True)
            pairing = got.round_pairing()
            assert [(b.white, b.black) for b in pairing.boards] == list(state.pairs), where
            assert pairing.bye == state.bye, where
            backtracked += any(isinstance(e, Backtrack) for e in got.events)
            shortcut += any(isinstance(e, DeadEnd) for e in got.events)
    # the sample must reach the hard parts: states without pairing, backtracking, and the
    # engine's shortcut through a start already exhausted (which the brute force does not take)
    assert rounds > 4 * TOURNAMENTS
    assert unpairable > TOURNAMENTS // 10
    assert backtracked > TOURNAMENTS // 4
    assert shortcut > TOURNAMENTS // 20
