"""The weight memo of the Dutch engine is exact: a remembered weight is the weight computed afresh.

The engine is run with a memo that never answers from memory (every weight is computed by
``Layout.weight``) but checks each new weight against the one it holds for the same key; and
each attribute of a player is changed in turn, so a weight signature that missed an attribute
read by ``Layout.weight`` fails here.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import fields, replace
from pathlib import Path

import pytest

import pairing.dutch.engine as engine
from pairing.dutch import pair_round
from pairing.dutch.players import Float, PlayerState, build_players
from pairing.dutch.weights import Layout, PsdLayout, WeightMemo, weight_signature
from pairing.model import Color, RuleSet
from pairing.replay import state_before_round
from pairing.trf import read_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
FILES = [("dutch-2026", "drv_p059_r10_i0012.trf"), ("dutch-2017", "drv_p074_r11_i0064.trf")]


class _Checked(dict):
    """Finds nothing (so the engine computes every weight) and checks what it is given."""

    repeats = 0

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, weight):
        if key in self:
            assert self[key] == weight, f"memo key {key}: {self[key]} != {weight}"
            _Checked.repeats += 1
        super().__setitem__(key, weight)


class _CheckingMemo(WeightMemo):
    def __init__(self, players):
        super().__init__(players)
        self.weights = _Checked()

    def bracket(self, psd):
        if psd is not self.psd:
            self.psd = psd
            self.weights = _Checked()
        return self.weights


def _states(corpus: str, name: str):
    path = CORPUS / corpus / name
    if not path.is_file():
        pytest.skip("no corpus")
    t = read_trf(path.read_text(encoding="utf-8"))
    for k in range(2, t.total_rounds + 1):
        yield k, state_before_round(t, k)


@pytest.mark.parametrize(("corpus", "name"), FILES)
def test_engine_weights_equal_per_signature(monkeypatch, corpus, name):
    monkeypatch.setattr(engine, "WeightMemo", _CheckingMemo)
    _Checked.repeats = 0
    for _, state in _states(corpus, name):
        pair_round(state)
    assert _Checked.repeats > 1000  # the memo would have answered these


FLAGS = [(True, False, True, False), (False, True, False, True)]
"""in_current, in_next, completion, final_next: a pair in the bracket, one in the next group."""


def _other_values(p: PlayerState, scores: list[int], rounds: int) -> dict[str, tuple]:
    """Other values for each attribute of a player, read by ``Layout.weight`` or not."""
    return {
        "tpn": (p.tpn + 1000,),
        "rank_index": (p.rank_index + 1,),
        "score": tuple(scores),
        "colors": ((), (Color.WHITE, Color.WHITE)),
        "preference": (Color.WHITE, Color.BLACK, None),
        "absolute": (False, True),
        "strong": (False, True),
        "imbalance": (0, 1, 2, 3),
        "repeated": (Color.WHITE, Color.BLACK, None),
        "eligible_for_bye": (False, True),
        "played_games": tuple(range(rounds + 1)),
        "float1": tuple(Float),
        "float2": tuple(Float),
        "met": (frozenset(), frozenset({p.tpn + 1000})),
        "topscorer": (False, True),
    }


@pytest.mark.parametrize(("corpus", "name"), FILES)
def test_signature_covers_what_the_weight_reads(corpus, name):
    """Change one attribute of a player at a time: whenever the signature stays the same, so
    does every weight of the player, as the higher and as the lower of a pair."""
    rules = RuleSet.DUTCH_2017 if corpus == "dutch-2017" else RuleSet.DUTCH_2026
    for k, state in _states(corpus, name):
        rounds = k - 1
        players = build_players(state, k, rules)
        layout = Layout.for_players(players, rounds, rules)
        scores = sorted({p.score for p in players})
        # every score twice: room for every difference a pair of these scores can have
        # (and the following bracket's PSD of 2017 C.7, which reads the scores too)
        every_score = [p.score for p in players] + scores
        psd = PsdLayout.for_scores(
            every_score, scores[0], PsdLayout.for_scores(every_score, scores[0])
        )
        unplayed_rank = {u: u + 1 for u in range(rounds + 1)}

        def weight(
            hi: PlayerState, lo: PlayerState, bye_score: int, flags: tuple,
            layout: Layout = layout, psd: PsdLayout = psd,
            unplayed_rank: dict[int, int] = unplayed_rank,
        ) -> int:
            cur, nxt, completion, final_next = flags
            return layout.weight(
                hi, lo, in_current=cur, in_next=nxt,
                bye_candidate_higher=hi.eligible_for_bye and hi.score <= bye_score,
                bye_candidate_lower=lo.eligible_for_bye and lo.score <= bye_score,
                c9_active=True, bye_score=bye_score, unplayed_rank=unplayed_rank,
                completion=completion, final_next=final_next,
                psd=psd if rules is RuleSet.DUTCH_2017 else None,
            )

        for p in players[::10]:
            values = _other_values(p, scores, rounds)
            assert set(values) == {f.name for f in fields(PlayerState)}
            for attribute, others in values.items():
                for value in others:
                    q = replace(p, **{attribute: value})
                    if weight_signature(q) != weight_signature(p):
                        continue
                    for o in (o for o in players if o is not p):
                        # the caller passes the higher ranked player first (Art. 1.2)
                        pairs = [(p, o, q, o)] if o.score <= p.score else [(o, p, o, q)]
                        for (hi, lo, hi2, lo2), flags in itertools.product(pairs, FLAGS):
                            assert weight(hi, lo, p.score, flags) == weight(
                                hi2, lo2, p.score, flags
                            ), (k, p.tpn, attribute, value, o.tpn, flags)
