"""The engine against the literal brute-force reference on seeded random states.

``random_states.random_state(seed)``: 5-13 players, up to 7 matches, odd results, forfeits of
every kind, byes, late entries, withdrawals; about one state in sixteen has no legal pairing.
Both must give the same pairs, colours and bye, or both find no legal pairing.
"""

from __future__ import annotations

import pytest

from pairing.double_swiss import explain_match, pair_match
from pairing.errors import NoValidPairing
from pairing.replay import pairing_lines

from .random_states import random_state
from .reference import reference_pair_match

SEEDS = range(250)


def _answer(pair, dt):
    try:
        result = pair(dt)
    except NoValidPairing:
        return "no legal pairing"
    return pairing_lines(result)


@pytest.mark.parametrize("seed", SEEDS)
def test_engine_agrees_with_the_reference(seed):
    dt = random_state(seed)
    assert _answer(pair_match, dt) == _answer(reference_pair_match, dt)


def test_the_random_states_reach_the_rules_that_matter():
    """The comparison is only worth something if the states exercise [C6]-[C8] and Art. 4."""
    seen: set[str] = set()
    for seed in SEEDS:
        try:
            _, explanation = explain_match(random_state(seed))
        except NoValidPairing:
            seen.add("unpairable")
            continue
        for b in explanation.brackets:
            if b.c6:
                seen.add("c6")
            if b.c7:
                seen.add("c7")
            if b.c8:
                seen.add("c8")
            if b.sets_examined > 1:
                seen.add("several sets")
            if len(b.upfloaters) >= 2:
                seen.add("two upfloaters")
        if explanation.pab and explanation.pab.passed_over:
            seen.add("3.4.1")
        seen |= {c.article for c in explanation.colours}
    assert seen >= {
        "unpairable", "c6", "c7", "c8", "several sets", "two upfloaters", "3.4.1",
        "4.3.1", "4.3.2", "4.3.3", "4.3.4", "4.3.5",
    }
