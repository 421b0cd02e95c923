"""Random tournaments: standings never crash, and the values keep the relations the rules imply."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from hypothesis import given, settings, strategies as st

from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament
from pairing.tiebreaks import Context, TieBreakError, compute, parse_spec, parse_specs, standings

GAMES = [("1", "0"), ("=", "="), ("0", "1"), ("+", "-"), ("-", "+"), ("-", "-")]
ALONE = ["U", "H", "Z", "F"]
ALL_CODES = (
    "DE,BH/C1,BH,BH/M1,SB/C1,SB,PS,WIN,WON,BPG,BWG,REP,STD,FB,AOB,KS,ARO,TPR,PTP,APRO,APPO,"
    "RTNG,TPN,DE/P,BH/P"
)


@st.composite
def tournaments(draw):
    n = draw(st.integers(1, 9))
    rounds = draw(st.integers(0, 5))
    entries: dict[int, list[RoundEntry]] = {tpn: [] for tpn in range(1, n + 1)}
    for _ in range(rounds):
        order = draw(st.permutations(list(range(1, n + 1))))
        absent = set(draw(st.lists(st.sampled_from(order), max_size=2)))
        present = [tpn for tpn in order if tpn not in absent]
        for tpn in absent:
            entries[tpn].append(
                RoundEntry(None, None, ResultCode(draw(st.sampled_from(["H", "Z", "F"]))))
            )
        while len(present) >= 2:
            white, black = present.pop(), present.pop()
            rw, rb = draw(st.sampled_from(GAMES))
            entries[white].append(RoundEntry(black, Color.WHITE, ResultCode(rw)))
            entries[black].append(RoundEntry(white, Color.BLACK, ResultCode(rb)))
        if present:
            entries[present[0]].append(
                RoundEntry(None, None, ResultCode(draw(st.sampled_from(ALONE))))
            )
    ratings = draw(st.lists(st.one_of(st.none(), st.integers(1000, 2800)), min_size=n, max_size=n))
    players = tuple(
        Player(tpn=tpn, name=f"P{tpn}", rating=ratings[tpn - 1], rounds=tuple(entries[tpn]))
        for tpn in range(1, n + 1)
    )
    return Tournament(players=players)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_random_consistent_tournaments(t):
    specs = parse_specs(ALL_CODES)
    table = standings(t, specs)
    ctx = Context(t)
    rows = table.rows
    assert sorted(r.tpn for r in rows) == [p.tpn for p in t.players]
    assert all(a.points >= b.points for a, b in pairwise(rows))
    assert all(a.rank <= b.rank for a, b in pairwise(rows))
    for a, b in pairwise(rows):
        if a.rank == b.rank:
            assert a.shared and b.shared and a.points == b.points and a.values == b.values
        elif a.points == b.points:
            assert a.values != b.values  # something in the list separated them
    for tpn in ctx.records:
        bh = compute(ctx, parse_spec("BH"), tpn).value
        c1 = compute(ctx, parse_spec("BH/C1"), tpn).value
        m1 = compute(ctx, parse_spec("BH/M1"), tpn).value
        assert isinstance(bh, Fraction) and m1 <= c1 <= bh
        assert (
            compute(ctx, parse_spec("WON"), tpn).value <= compute(ctx, parse_spec("WIN"), tpn).value
        )
        assert (
            compute(ctx, parse_spec("BWG"), tpn).value <= compute(ctx, parse_spec("BPG"), tpn).value
        )
        # The adjusted score never falls below the real score (only zero/half byes become draws).
        assert ctx.adjusted[tpn] >= ctx.score[tpn]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.one_of(st.none(), st.integers(1, 7)),
                st.sampled_from([None, Color.WHITE, Color.BLACK]),
                st.sampled_from(list(ResultCode)),
            ),
            max_size=4,
        ),
        min_size=1,
        max_size=6,
    )
)
def test_random_garbage_gives_a_clear_error_or_a_table(rows):
    players = tuple(
        Player(tpn=i + 1, name=f"P{i + 1}", rounds=tuple(RoundEntry(*e) for e in row))
        for i, row in enumerate(rows)
    )
    try:
        standings(Tournament(players=players), parse_specs(ALL_CODES))
    except TieBreakError as exc:
        assert str(exc)
