"""A round in which no criterion can tell pairs apart is paired directly (Art. 4.2, first
candidate); the direct pairing must be what the whole matching machinery gives."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import pairing.dutch.engine as engine
from pairing.dutch import pair_round
from pairing.dutch.players import build_players
from pairing.errors import NoValidPairing
from pairing.model import Color, ForbiddenPairs, Player, RoundPairing, RuleSet, Tournament
from pairing.replay import state_before_round
from pairing.trf import read_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
FILES = sorted(
    p for d in ("dutch-2026", "dutch-2017") for p in (CORPUS / d).glob("*_p0[0-4]*.trf")
)[::7]


def _general(state):  # type: ignore[no-untyped-def]
    saved = engine._without_history
    engine._without_history = lambda *args: False
    try:
        return pair_round(state)
    finally:
        engine._without_history = saved


@pytest.mark.skipif(not FILES, reason="no corpus")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_direct_first_round_equals_the_matchings(path: Path) -> None:
    state = state_before_round(read_trf(path.read_text()), 1)
    direct, general = pair_round(state), _general(state)
    assert (direct.boards, direct.bye) == (general.boards, general.bye)


def test_later_rounds_do_not_take_the_direct_pairing(monkeypatch) -> None:
    path = CORPUS / "dutch-2026" / "drv_p010_r05_i0062.trf"
    if not path.is_file():
        pytest.skip("no corpus")
    state = state_before_round(read_trf(path.read_text()), 2)
    monkeypatch.setattr(engine, "_pair_without_history", None)  # would fail if called
    assert pair_round(state).boards


def test_odd_first_round_gives_the_pab_to_the_last_player() -> None:
    lines = ["012 Odd", "XXR 5"]
    for tpn in range(1, 8):
        name = f"Player {tpn}".ljust(33)
        lines.append(
            f"001 {tpn:4d} m    {name} {2400 - tpn:4d} NED {tpn:11d} 2000/01/01  0.0 {tpn:4d}"
        )
    state = read_trf("\n".join(lines) + "\n")
    result = pair_round(state)
    assert result.bye == 7
    assert sorted((min(b.white, b.black), max(b.white, b.black)) for b in result.boards) == [
        (1, 4), (2, 5), (3, 6)
    ]


def _first_round(count: int, prohibited: list[tuple[int, ...]], rules: RuleSet) -> Tournament:
    return Tournament(
        players=tuple(Player(tpn=i, name=f"P{i}", rating=2400 - i) for i in range(1, count + 1)),
        total_rounds=9, rules=rules, initial_color=Color.WHITE,
        forbidden_pairs=tuple(ForbiddenPairs(frozenset(tpns)) for tpns in prohibited),
    )


def _pairs(result: RoundPairing) -> tuple[list[tuple[int, int]], int | None]:
    return sorted((min(b.white, b.black), max(b.white, b.black)) for b in result.boards), result.bye


@pytest.mark.parametrize("rules", [RuleSet.DUTCH_2017, RuleSet.DUTCH_2026])
def test_a_prohibited_pairing_takes_the_first_legal_transposition(monkeypatch, rules) -> None:
    # 1-5 and 3-7 prohibited: 1 meets 6 (the first legal S2 player that leaves 2, 3, 4 a legal
    # opponent each), 2 meets 5, 3 meets 8 (7 prohibited), 4 meets 7; 9 left over has the PAB
    state = _first_round(9, [(1, 5), (3, 7)], rules)
    general = _pairs(_general(state))
    monkeypatch.setattr(engine, "RoundPairer", None)  # would fail if called
    direct, explanation = engine.explain_round(state)
    assert _pairs(direct) == general == ([(1, 6), (2, 5), (3, 8), (4, 7)], 9)
    assert explanation.brackets[0].choices[0].passed_over == ((5, engine.PROHIBITED_PAIR),)


def test_a_transposition_that_strands_a_later_s1_player_is_passed_over() -> None:
    # 2-4 prohibited: 1 meeting 3 would leave 2 only 4, so 1 passes over 3 and meets 4
    state = _first_round(4, [(2, 4)], RuleSet.DUTCH_2017)
    direct, explanation = engine.explain_round(state)
    assert _pairs(direct) == _pairs(_general(state)) == ([(1, 4), (2, 3)], None)
    # with 1-3 the round-pairing cannot be completed (2017: C.4, in the rule set's numbering)
    assert explanation.brackets[0].choices[0].passed_over == ((3, engine.COMPLETION_2017),)


@pytest.mark.parametrize("rules, reason", [
    (RuleSet.DUTCH_2026, engine.NEEDS_EXCHANGE), (RuleSet.DUTCH_2017, engine.NEEDS_EXCHANGE_2017),
])
def test_a_candidate_that_would_need_an_exchange_is_passed_over_for_the_order(
    rules, reason
) -> None:
    # 2-5 and 2-6 prohibited: 1 meeting 4 would leave 2 no S2 opponent; the round could still
    # be completed (2-3, 5-6), but only by an exchange, and every transposition comes first
    state = _first_round(6, [(2, 5), (2, 6)], rules)
    direct, explanation = engine.explain_round(state)
    assert _pairs(direct) == _pairs(_general(state)) == ([(1, 5), (2, 4), (3, 6)], None)
    assert explanation.brackets[0].choices[0].passed_over == ((4, reason),)


def test_a_bracket_that_needs_an_exchange_takes_the_generation_order() -> None:
    # 1 may meet no S2 player: no transposition pairs S1 with S2, an exchange is needed
    state = _first_round(6, [(1, 4), (1, 5), (1, 6)], RuleSet.DUTCH_2017)
    players = build_players(state, 1, state.rules)
    assert engine._pair_without_history(players, engine._prohibited_pairs(state, 1)) is None
    assert _pairs(pair_round(state)) == _pairs(_general(state))


@pytest.mark.parametrize("seed", range(40))
def test_random_prohibitions_give_what_the_matchings_give(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(2, 30)
    density = rng.choice([0.02, 0.05, 0.1, 0.2, 0.4])
    prohibited = [
        (a, b) for a in range(1, count + 1) for b in range(a + 1, count + 1)
        if rng.random() < density
    ]
    if count >= 3 and rng.random() < 0.3:
        prohibited.append(tuple(rng.sample(range(1, count + 1), 3)))
    state = _first_round(count, prohibited, rng.choice([RuleSet.DUTCH_2017, RuleSet.DUTCH_2026]))
    try:
        direct = _pairs(pair_round(state))
    except NoValidPairing:
        with pytest.raises(NoValidPairing):
            _general(state)
        return
    assert direct == _pairs(_general(state))
