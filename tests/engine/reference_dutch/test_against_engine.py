"""The engine (pairing.dutch.pair_round) against the literal reference, on random small states.

The states come from ``random_states.random_state(seed)``: 6-12 players, random histories with
draws, forfeits, requested byes, absences, late entries and withdrawals. The reference is run
with ``effective_tpn=True`` (docs/INTERPRETATIONS.md I-10), the reading of Art. 5.2.5 the corpus
follows.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace

import pytest

from pairing.checker import check_round
from pairing.errors import NoValidPairing, PairingError
from pairing.model import RuleSet
from pairing.replay import compare_rounds, pairing_lines
from reference_dutch.random_states import random_state
from reference_dutch.reference import reference_pair_round
from reference_dutch.reference2017 import reference_pair_round_2017

ENGINE_MISSING = importlib.util.find_spec("pairing.dutch") is None
pytestmark = pytest.mark.skipif(
    ENGINE_MISSING, reason="pairing.dutch (the fast engine) does not exist yet"
)

SEEDS = range(300)
SEEDS_2017 = range(150)
CHAOS = 0.8
"""Share of random earlier rounds in the 'chaos' states (unusual colour and float histories)."""
CHAOS_SEEDS = [*range(10000, 10400), 10659, 10855, 10932]


def _reference_2017(t):
    # I-34: both follow the literal A.4.b (any round not played is a downfloat).
    return reference_pair_round_2017(
        replace(t, rules=RuleSet.DUTCH_2017), effective_tpn=True, unplayed_downfloat=True
    )


def _reference_2026(t):
    return reference_pair_round(t, effective_tpn=True)


# Known disagreements, each explained in docs/INTERPRETATIONS.md (strict: the test says when one
# disappears).
KNOWN = {
    (10659, CHAOS): (
        "I-36: player 11 (WWWW, colour difference +4) meets a topscorer; the reference counts "
        "the resulting +3 under [C10], the engine only counts a difference pushed past 2"
    ),
    (10932, CHAOS): "I-36: the same with player 4 (WWWW) against topscorer 8",
}

def _case(seed: int, rules: RuleSet, chaos: float = 0.25):
    known = KNOWN.get((seed, chaos if chaos == CHAOS else rules))
    label = f"chaos{seed}" if chaos == CHAOS else f"{seed}-{rules.value}"
    marks = [pytest.mark.xfail(reason=known, strict=True)] if known else []
    return pytest.param(seed, rules, chaos, id=label, marks=marks)


CASES = (
    [_case(s, RuleSet.DUTCH_2026) for s in SEEDS]
    + [_case(s, RuleSet.DUTCH_2017) for s in SEEDS_2017]
    + [_case(s, RuleSet.DUTCH_2026, CHAOS) for s in CHAOS_SEEDS]
)


@pytest.mark.parametrize("seed, rules, chaos", CASES)
def test_engine_agrees_with_the_reference_on_a_random_state(seed, rules, chaos):
    from pairing.dutch import pair_round

    t = random_state(seed, chaos=chaos)
    reference = _reference_2017 if rules is RuleSet.DUTCH_2017 else _reference_2026
    try:
        expected = reference(t)
    except NoValidPairing:
        # The reference found no round-pairing complying with [C1]-[C3] (1.9.3). The engine
        # may refuse too, or answer (bbpPairings then gives the PAB to a player [C2] forbids,
        # I-24), but what it answers cannot be legal.
        try:
            got = pair_round(t, rules=rules)
        except PairingError:
            return
        assert check_round(t, got, rules=rules), f"engine found a legal pairing: {got}"
        return
    got = pair_round(t, rules=rules)
    verdict = compare_rounds(expected, got)
    assert verdict == "identical", (
        f"seed {seed} (chaos {chaos}): {verdict}\n  reference: {pairing_lines(expected)}\n"
        f"  engine:    {pairing_lines(got)}"
    )


def test_random_states_are_varied():
    """The seeds cover byes, several round numbers and player counts (the test is not empty)."""
    states = [random_state(seed) for seed in SEEDS]
    rounds = {max(len(p.rounds) for p in t.players) for t in states}
    sizes = {len(t.players) for t in states}
    with_pab = sum(
        any(e.result.value == "U" for p in t.players for e in p.rounds) for t in states
    )
    assert len(rounds) >= 5 and len(sizes) >= 6 and with_pab > 50
