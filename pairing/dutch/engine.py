"""The FIDE Dutch system (C.04.3), pairing one round as a sequence of weighted matchings.

The brackets are paired from the top score group down (Art. 1.9.2). Every pairing decision is
taken by a maximum weight matching over all the players still to pair, whose weights
(``pairing.dutch.weights``) rank the criteria of Art. 2 in priority order; players outside the
current bracket and the next score group keep weights that only ask for completion ([C4]), so a
decision that would leave the rest of the round unpairable is never taken. Within a bracket the
choices the criteria leave open are made in the order of the generation rules of Art. 3-4.

``RoundPairer`` names the steps after the articles they apply:

- ``outlook``: can the round be completed at all (Art. 1.9.1, [C1]-[C3]), and which score
  gets the pairing-allocated bye ([C5], [C9]);
- per bracket (``_Bracket``): ``weigh`` (the criteria as weights), ``choose_mdps`` (Art. 4.4,
  which MDPs are paired), ``pair_mdps`` (Art. 3.3.3), ``exchange`` (Art. 4.3.2, residents
  moved between S1 and S2), ``pair_s1_with_s2`` (Art. 4.2, transpositions), ``close``
  (downfloaters, Art. 1.4.1);
- ``repair_as_ppb``: under the 2017 rules (A.9) only the last bracket and the Penultimate
  Pairing Bracket must let the round be completed: any other bracket is matched with the next
  score group only (C.7), then the rest of the round is checked; if it cannot be completed the
  bracket is the PPB, paired again with completion weights over all the players still to pair,
  and its downfloaters and every lower player form the Collapsed Last Bracket. C.6 and
  C.16-C.19 weigh the score differences of A.8, and A.4.b gives a downfloat for every round
  not played.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Container, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, islice, repeat

from pairing.checker import ViolationKind, check_round
from pairing.dutch.colours import allocate_colours
from pairing.dutch.explanation import BracketReport, Choice, Downfloat, RoundExplanation, Unmet
from pairing.dutch.matchers import Matcher, MirroredMatcher, Outside, ScratchMatcher, WarmMatcher
from pairing.dutch.players import Float, PlayerState, build_players
from pairing.dutch.weights import Layout, PsdLayout, WeightMemo, compatibility
from pairing.errors import EngineFault, NoValidPairing
from pairing.matching import max_weight_matching
from pairing.model import Board, Color, RoundPairing, RuleSet, Tournament
from pairing.sleeping_pairs import SleepingPairs
from pairing.text import Text, gettext_noop
from pairing.trf import next_round_number

__all__ = ["explain_round", "pair_round"]

FAR_NEIGHBOURS = 16
"""Compatible neighbours per player whose completion pairs the matcher holds from the start.
Under the 2026 rules every other pair sleeps (``_far_pairs``) and wakes when the duals need
it, so no answer depends on this number; the 2017 round outlook and ``completable`` fall back
to every pair when these do not complete the round."""

NEXT_GROUP_PARTNERS = 4
"""Pairs within the next score group offered per player to a bracket's first matching."""

NEXT_CANDIDATES = 1
"""Members of each weight signature of the next score group the matcher holds a pair with,
per player of the bracket and the group (2026: the other pairs sleep, certified by the duals;
only the speed depends on this number)."""

S2_NEIGHBOURS = 4
"""S2 residents on each side of an S1 resident's counterpart offered to that matching."""

# The reasons the explanation keeps (stored with a round, translated when shown).
INCOMPATIBLE = gettext_noop("already met, or the same absolute colour preference ([C1], [C3])")
"""Kept for the explanations stored before the three reasons below told it apart."""
MET_BEFORE = gettext_noop("already met ([C1])")
MET_BEFORE_2017 = gettext_noop("already met (C.1)")
PROHIBITED_PAIR = gettext_noop("a prohibited pairing")
SAME_ABSOLUTE_COLOUR = gettext_noop("the same absolute colour preference ([C3])")
SAME_ABSOLUTE_COLOUR_2017 = gettext_noop("the same absolute colour preference (C.3)")
WORSE = gettext_noop("the quality criteria [C4]-[C21] are better met without that pair")
"""Kept for the explanations stored before the reasons below named the criterion."""
# Why a compatible candidate was passed over: the criterion of highest priority that the best
# round-pairing with that pair meets less well (``RoundPairer._worse``), in each rule set's
# numbering (2026, then 2017), and the reasons that are no criterion.
COMPLETION = gettext_noop("with that pair the round-pairing could not be completed ([C4])")
COMPLETION_2017 = gettext_noop("with that pair the round-pairing could not be completed (C.4)")
PAB = gettext_noop(
    "with that pair the pairing-allocated bye would go to a player who may not receive it or "
    "to a higher score ([C2], [C5])"
)
PAB_2017 = gettext_noop(
    "with that pair the pairing-allocated bye would go to a player who may not receive it (C.2)"
)
FEWER_DOWNFLOATERS = gettext_noop("there are fewer downfloaters without that pair ([C6])")
FEWER_DOWNFLOATERS_2017 = gettext_noop("there are fewer downfloaters without that pair (C.5)")
LOWER_DOWNFLOATERS = gettext_noop("the downfloaters have lower scores without that pair ([C7])")
LOWER_PSD_2017 = gettext_noop("the bracket's PSD is lower without that pair (C.6)")
NEXT_BRACKET = gettext_noop("the next bracket is better paired without that pair ([C8])")
NEXT_BRACKET_2017 = gettext_noop("the following bracket is better paired without that pair (C.7)")
BYE_UNPLAYED = gettext_noop(
    "the pairing-allocated bye goes to a player with fewer unplayed games without that pair "
    "([C9])"
)
BEYOND_TWO = gettext_noop(
    "fewer topscorers or opponents get a colour difference beyond +2 or -2 without that pair "
    "([C10])"
)
BEYOND_TWO_2017 = gettext_noop(
    "fewer topscorers or opponents get a colour difference beyond +2 or -2 without that pair "
    "(C.8)"
)
THREE_IN_A_ROW = gettext_noop(
    "fewer topscorers or opponents get the same colour three times in a row without that pair "
    "([C11])"
)
THREE_IN_A_ROW_2017 = gettext_noop(
    "fewer topscorers or opponents get the same colour three times in a row without that pair "
    "(C.9)"
)
COLOURS = gettext_noop("the colour preferences are better met without that pair ([C12])")
COLOURS_2017 = gettext_noop("the colour preferences are better met without that pair (C.10)")
STRONG_COLOURS = gettext_noop(
    "the strong colour preferences are better met without that pair ([C13])"
)
STRONG_COLOURS_2017 = gettext_noop(
    "the strong colour preferences are better met without that pair (C.11)"
)
DOWN_AGAIN = gettext_noop(
    "fewer players downfloat again after a downfloat the previous round without that pair "
    "([C14])"
)
DOWN_AGAIN_2017 = gettext_noop(
    "fewer players downfloat again after a downfloat the previous round without that pair "
    "(C.12)"
)
UP_AGAIN = gettext_noop(
    "fewer players upfloat again after an upfloat the previous round without that pair ([C15])"
)
UP_AGAIN_2017 = gettext_noop(
    "fewer players upfloat again after an upfloat the previous round without that pair (C.13)"
)
DOWN_AGAIN_2 = gettext_noop(
    "fewer players downfloat again after a downfloat two rounds before without that pair "
    "([C16])"
)
DOWN_AGAIN_2_2017 = gettext_noop(
    "fewer players downfloat again after a downfloat two rounds before without that pair "
    "(C.14)"
)
UP_AGAIN_2 = gettext_noop(
    "fewer players upfloat again after an upfloat two rounds before without that pair ([C17])"
)
UP_AGAIN_2_2017 = gettext_noop(
    "fewer players upfloat again after an upfloat two rounds before without that pair (C.15)"
)
DOWN_DIFFERENCES = gettext_noop(
    "the score differences of players who downfloat again after a downfloat the previous "
    "round are smaller without that pair ([C18])"
)
DOWN_DIFFERENCES_2017 = gettext_noop(
    "the score differences of players who downfloat again after a downfloat the previous "
    "round are smaller without that pair (C.16)"
)
UP_DIFFERENCES = gettext_noop(
    "the score differences of players who upfloat again after an upfloat the previous round "
    "are smaller without that pair ([C19])"
)
UP_DIFFERENCES_2017 = gettext_noop(
    "the score differences of players who upfloat again after an upfloat the previous round "
    "are smaller without that pair (C.17)"
)
DOWN_DIFFERENCES_2 = gettext_noop(
    "the score differences of players who downfloat again after a downfloat two rounds before "
    "are smaller without that pair ([C20])"
)
DOWN_DIFFERENCES_2_2017 = gettext_noop(
    "the score differences of players who downfloat again after a downfloat two rounds before "
    "are smaller without that pair (C.18)"
)
UP_DIFFERENCES_2 = gettext_noop(
    "the score differences of players who upfloat again after an upfloat two rounds before "
    "are smaller without that pair ([C21])"
)
UP_DIFFERENCES_2_2017 = gettext_noop(
    "the score differences of players who upfloat again after an upfloat two rounds before "
    "are smaller without that pair (C.19)"
)
EARLIER_IN_ORDER = gettext_noop(
    "with that pair the criteria are met as well, but the pairing kept comes earlier in the "
    "order in which the rules generate the candidates (Art. 4.2-4.4)"
)
EARLIER_IN_ORDER_2017 = gettext_noop(
    "with that pair the criteria are met as well, but the pairing kept comes earlier in the "
    "order in which the rules generate the candidates (D.1-D.3)"
)
NEEDS_EXCHANGE = gettext_noop(
    "with that pair S1 could not all meet S2: every transposition comes before an exchange "
    "(Art. 3.6.1, 4.2-4.3)"
)
NEEDS_EXCHANGE_2017 = gettext_noop(
    "with that pair S1 could not all meet S2: every transposition comes before an exchange "
    "(B.6, D.1-D.2)"
)
NOT_DETERMINED = gettext_noop(
    "ruled out by a criterion of [C4]-[C21] or by the order of Art. 4.2-4.4; which one was "
    "not determined"
)
NOT_DETERMINED_2017 = gettext_noop(
    "ruled out by a criterion of C.4-C.19 or by the order of D.1-D.3; which one was not "
    "determined"
)
NOT_LOOKED_FOR = gettext_noop(
    "ruled out by a criterion of [C4]-[C21] or by the order of Art. 4.2-4.4; which one was "
    "not looked for, the round passing over more candidates than the explanation examines"
)
NOT_LOOKED_FOR_2017 = gettext_noop(
    "ruled out by a criterion of C.4-C.19 or by the order of D.1-D.3; which one was not "
    "looked for, the round passing over more candidates than the explanation examines"
)
FIELD_REASONS: dict[RuleSet, tuple[str | None, ...]] = {
    # one reason for each field of ``Layout.fields`` (None: a field the rule set leaves
    # empty); the first field is told apart by ``_worse`` (completion or PAB)
    RuleSet.DUTCH_2026: (
        COMPLETION, FEWER_DOWNFLOATERS, LOWER_DOWNFLOATERS, NEXT_BRACKET, NEXT_BRACKET,
        BYE_UNPLAYED, BEYOND_TWO, THREE_IN_A_ROW, COLOURS, STRONG_COLOURS, DOWN_AGAIN,
        UP_AGAIN, DOWN_AGAIN_2, UP_AGAIN_2, DOWN_DIFFERENCES, UP_DIFFERENCES,
        DOWN_DIFFERENCES_2, UP_DIFFERENCES_2, EARLIER_IN_ORDER,
    ),
    RuleSet.DUTCH_2017: (
        COMPLETION_2017, FEWER_DOWNFLOATERS_2017, LOWER_PSD_2017, NEXT_BRACKET_2017,
        NEXT_BRACKET_2017, None, BEYOND_TWO_2017, THREE_IN_A_ROW_2017, COLOURS_2017,
        STRONG_COLOURS_2017, DOWN_AGAIN_2017, UP_AGAIN_2017, DOWN_AGAIN_2_2017,
        UP_AGAIN_2_2017, DOWN_DIFFERENCES_2017, UP_DIFFERENCES_2017, DOWN_DIFFERENCES_2_2017,
        UP_DIFFERENCES_2_2017, EARLIER_IN_ORDER_2017,
    ),
}
OTHER_REASONS: dict[RuleSet, dict[str, str]] = {
    RuleSet.DUTCH_2026: {
        "pab": PAB, "exchange": NEEDS_EXCHANGE, "undetermined": NOT_DETERMINED,
        "limit": NOT_LOOKED_FOR,
    },
    RuleSet.DUTCH_2017: {
        "pab": PAB_2017, "exchange": NEEDS_EXCHANGE_2017, "undetermined": NOT_DETERMINED_2017,
        "limit": NOT_LOOKED_FOR_2017,
    },
}
TRIAL_SCALE = 1200
"""A round of n players solves at most (TRIAL_SCALE // n) ** 2 matchings to explain the
candidates passed over whose best pairing the tight edges do not give (``_worse``): a solve
costs more than the square of n (about 15 ms at 500 players, 80 ms at 2000, measured on the
corpus and a synthetic round), so a round of more than TRIAL_SCALE players solves none.  The
candidates left say that the rule was not looked for."""
TIGHT_PLAYERS = 2500
"""A round of more players asks nothing of the tight edges either (``_worse``): in its large
brackets the searches cost a quarter of the round (5000 players: 174 -> 216 s CPU and more,
under load); its candidates passed over say that the rule was not looked for."""
NO_PLAYER = gettext_noop("no player to pair")
NO_CRITERION_DECIDES = gettext_noop(
    "no criterion can tell the pairs apart: S1[i] meets S2[i] (Art. 4.2)"
)
BYE_LOWEST = gettext_noop(
    "the lowest score among the players who may receive it ([C2], [C5]); "
    "the last bracket's downfloater (Art. 1.9.1)"
)
BYE_LOWEST_POSSIBLE = gettext_noop(
    "the lowest score that still lets everyone else be paired ([C4], [C5]); "
    "the last bracket's downfloater (Art. 1.9.1)"
)
UNMET_COLOUR = gettext_noop("colour preference not granted")
UNMET_STRONG_COLOUR = gettext_noop("strong or absolute colour preference not granted")
UNMET_DOWN_AGAIN = gettext_noop("downfloat again after a downfloat in the previous round")
UNMET_UP_AGAIN = gettext_noop("upfloat again after an upfloat in the previous round")
DOWN_NO_RESIDENT = gettext_noop("no resident could be paired with you (Art. 4.4, [C6]-[C7])")
DOWN_ODD = gettext_noop("the group had an odd number of players to pair")
DOWN_NOT_EVERYONE = gettext_noop("the group could not pair everyone ([C1]-[C8])")
# Why a round cannot be paired (the web app says it in the reader's language).
NO_ROUND_PAIRING = gettext_noop(
    "no round-pairing complies with the absolute criteria [C1]-[C3] (Art. 1.9.3)"
)
BYE_TO_BARRED = gettext_noop(
    "every round-pairing leaves the pairing-allocated bye to a player who may not receive it "
    "([C2], Art. 1.9.3)"
)
LEFT_UNPAIRED = gettext_noop("players left unpaired after the last bracket (Art. 1.9.3)")
VIOLATION_NO_PAIRING = gettext_noop("%(violation)s (Art. 1.9.3)")
AND_ALSO = gettext_noop("%(first)s; %(second)s")
# What a long pairing is doing (the web app's pairing job shows it to the arbiter).
PAIRING_SCORE_GROUP = gettext_noop("pairing score group %(number)s of %(count)s")
"""Two of the rules a faulty pairing breaks (``EngineFault``), one after the other."""


def pair_round(
    t: Tournament, *, rules: RuleSet | None = None, explain: bool = False
) -> RoundPairing:
    """Pair the next round of a tournament under the FIDE Dutch system (C.04.3)."""
    pairing, explanation = explain_round(t, rules=rules, criteria=explain)
    if explain:
        return RoundPairing(pairing.round, pairing.boards, pairing.bye, tuple(explanation.lines()))
    return pairing


def explain_round(
    t: Tournament, *, rules: RuleSet | None = None,
    progress: Callable[[Text], None] | None = None, criteria: bool = True,
) -> tuple[RoundPairing, RoundExplanation]:
    """Pair the next round and say why, bracket by bracket (``RoundExplanation``);
    ``progress`` is told which score group is being paired.  With ``criteria`` False a
    compatible candidate passed over keeps the general reason (``WORSE``) instead of the
    criterion that applies, which costs searches and solves: for a caller that reads only
    the pairing."""
    rules = rules or t.rules
    k = next_round_number(t)
    players = build_players(t, k, rules)
    if not players:
        return RoundPairing(round=k, boards=()), RoundExplanation(k, note=NO_PLAYER)
    with _cyclic_gc_paused():
        players.sort(key=lambda p: (-p.score, p.rank_index))  # Art. 1.2
        direct = None
        if _without_history(players):
            direct = _pair_without_history(players, _prohibited_pairs(t, k), rules)
        if direct is not None:
            pairs, brackets, note = direct
        else:
            pairer = RoundPairer(t, k, rules, players, progress=progress, criteria=criteria)
            pairs, brackets, note = pairer.pair(), pairer.reports, ""
    boards = []
    bye = None
    for u, v in pairs:
        if u == v:
            bye = players[u].tpn
        else:
            boards.append(allocate_colours(t, players[u], players[v]))
    boards.sort(key=lambda b: (min(b.white, b.black), b.white))
    pairing = RoundPairing(round=k, boards=tuple(boards), bye=bye)
    _refuse_what_the_rules_forbid(t, pairing, rules)
    by_tpn = {p.tpn: p for p in players}
    explanation = RoundExplanation(
        round=k, brackets=tuple(brackets), bye=bye,
        bye_reason=_bye_reason(by_tpn[bye], players) if bye is not None else "",
        unmet=_criteria_not_met(by_tpn, boards, bye), note=note,
        scores={p.tpn: p.score for p in players},
    )
    return pairing, explanation


def _refuse_what_the_rules_forbid(t: Tournament, pairing: RoundPairing, rules: RuleSet) -> None:
    """The round goes through the checker's predicates before it is answered: a PAB that
    [C2] forbids means no legal pairing exists; any other violation is a fault of the engine,
    raised, never printed as a pairing."""
    violations = check_round(t, pairing, rules=rules)
    if not violations:
        return
    if all(v.kind is ViolationKind.PAB_NOT_ALLOWED for v in violations):
        raise NoValidPairing(Text(VIOLATION_NO_PAIRING, violation=violations[0].text))
    fault = violations[0].text
    for violation in violations[1:]:
        fault = Text(AND_ALSO, first=fault, second=violation.text)
    raise EngineFault(fault)


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a round is paired.

    The matchings allocate hundreds of thousands of small containers (edges, heap entries)
    that live until the round is paired, and every full collection scans them all: 10-15 %
    of a 1000-player round.  Reference counting still frees them; the few cycles left wait
    for the next collection after the round.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _first_compatible(ok_row: bytearray, candidates: Iterable[int], count: int) -> list[int]:
    """The first ``count`` candidates that may meet the player whose row of ``ok`` is given."""
    return list(islice((j for j in candidates if ok_row[j]), count))


def _prohibited_pairs(t: Tournament, k: int) -> frozenset[frozenset[int]]:
    """The prohibited pairings of round k (TRF 260/XXP), as pairs of TPNs: like [C1], an
    absolute criterion."""
    return frozenset(
        frozenset((a, b))
        for fp in t.forbidden_pairs
        if fp.applies_to(k)
        for a in fp.tpns
        for b in fp.tpns
        if a != b
    )


def _without_history(players: list[PlayerState]) -> bool:
    """Whether no quality criterion can tell any two pairs apart: one score group, no game,
    float, colour or opponent behind anyone, everyone may take the PAB.  Prohibited pairings
    may remain: they make some pairs illegal, as [C1] does, and weigh nothing."""
    first = players[0].score
    return all(
        p.score == first and not p.colors and p.preference is None and not p.met
        and p.played_games == 0 and p.float1 is Float.NONE and p.float2 is Float.NONE
        and p.eligible_for_bye
        for p in players
    )


def _pair_without_history(
    players: list[PlayerState], prohibited: frozenset[frozenset[int]],
    rules: RuleSet = RuleSet.DUTCH_2026,
) -> tuple[list[tuple[int, int]], list[BracketReport], str] | None:
    """Pair one bracket in which every legal pair meets every criterion (typically round 1),
    or None when its S1 and S2 cannot be paired without an exchange.

    Every legal pairing that pairs all of S1 then complies with [C1]-[C21] equally, so the
    pairing is the first legal candidate of the generation order (Art. 4.2; 2017: D.1):
    S1 holds the first MaxPairs players, and its players, in order, meet the first S2 player
    that leaves the rest of S1 a legal S2 opponent each.  With no prohibited pairing among
    them, S1[i] meets S2[i].  With an odd number of players the S2 player left over receives
    the PAB ([C5] and [C9] cannot choose: all equal).  All transpositions come before any
    exchange (Art. 3.6.1 with 4.2-4.3; 2017: B.6 with D.1-D.2), so when no transposition
    pairs all of S1 the bracket needs the whole generation order: None.
    """
    n = len(players)
    half = n // 2
    tpn = [p.tpn for p in players]
    vertex = {t: v for v, t in enumerate(tpn)}
    apart: set[tuple[int, int]] = set()
    for pair in prohibited:
        ends = sorted(vertex[t] for t in pair if t in vertex)
        if len(ends) == 2:
            apart.add((ends[0], ends[1]))
    s2_of = _first_legal_transposition(n, apart)
    if s2_of is None:
        return None
    pairs = list(enumerate(s2_of))
    choices = []
    candidates = list(range(half, n))  # S2 in order, the players not yet paired
    left = set(range(n))  # the players not yet paired
    for u, v in pairs:
        passed = tuple(
            (tpn[c],
             PROHIBITED_PAIR if (u, c) in apart else _stranding(left - {u, c}, apart, rules))
            for c in candidates[:candidates.index(v)]
        )
        candidates.remove(v)
        left -= {u, v}
        choices.append(Choice(tpn[u], tpn[v], passed))
    report = BracketReport(
        score=players[0].score, residents=tuple(tpn),
        s1=tuple(tpn[:half]), s2=tuple(tpn[half:]), choices=tuple(choices),
        downfloats=tuple(Downfloat(tpn[v], players[v].score, DOWN_ODD) for v in candidates),
    )
    pairs.extend((v, v) for v in candidates)  # odd: the one left over has the PAB
    note = NO_CRITERION_DECIDES if s2_of == list(range(half, 2 * half)) else ""
    return pairs, [report], note


def _stranding(left: set[int], apart: set[tuple[int, int]], rules: RuleSet) -> str:
    """Why an S1 player of a bracket with no history passed over a legal S2 player: with that
    pair (and the pairs before it) the other players can all be paired ([C4]; odd: one left
    over for the PAB), but S1 no longer with S2 alone: that needs an exchange, and every
    transposition comes first (Art. 3.6.1, 4.2-4.3); or they cannot, and the round-pairing
    could not be completed."""
    count = len(left)
    barred: dict[int, int] = dict.fromkeys(left, 0)
    for a, b in apart:
        if a in left and b in left:
            barred[a] += 1
            barred[b] += 1
    # Dirac: a graph of 3 or more vertices in which each has at least half of them as
    # neighbours has a Hamiltonian cycle, hence a matching that leaves at most one single
    complete = count < 2 or (
        count >= 3 and all(count - 1 - d >= count / 2 for d in barred.values())
    )
    if not complete:
        order = sorted(left)
        edges = [
            (i, j, 1)
            for i in range(count)
            for j in range(i + 1, count)
            if (order[i], order[j]) not in apart
        ]
        mate = max_weight_matching(count, edges, max_cardinality=True)
        complete = sum(1 for x in mate if x < 0) <= 1
    if complete:
        return OTHER_REASONS[rules]["exchange"]
    return FIELD_REASONS[rules][0] or OTHER_REASONS[rules]["undetermined"]


def _first_legal_transposition(n: int, apart: set[tuple[int, int]]) -> list[int] | None:
    """The opponent in S2 of each S1 player (S1 the first n // 2 vertices, S2 the others)
    in the first transposition of S2 in which no pair is in ``apart`` (Art. 4.2; 2017:
    D.1, lexicographic order), or None when there is none.

    Each S1 player in turn takes the first S2 player that keeps a legal opponent for each
    S1 player after it: a matching of the rest of S1 into S2, kept up to date with
    augmenting paths (each choice moves one S2 player's opponent at most).
    """
    half = n // 2
    mate = [-1] * half  # S1 vertex -> its S2 opponent in a legal matching of all S1
    owner: dict[int, int] = {}  # S2 vertex -> its S1 opponent in that matching
    for i in range(half):
        if (i, half + i) not in apart:
            mate[i] = half + i
            owner[half + i] = i
    free = {j for j in range(half, n) if j not in owner}
    taken = [False] * n  # pairs of the transposition, made final

    def augment(source: int) -> bool:
        """Give the S1 vertex ``source`` an opponent, moving others along an alternating
        path (breadth first, through S2 players not taken)."""
        parent: dict[int, int] = {}  # S2 vertex -> the S1 vertex it was reached from
        queue = [source]
        for x in queue:
            end = next((j for j in free if (x, j) not in apart), None)
            if end is None:
                for j in range(half, n):
                    if (
                        not taken[j] and j not in free and j not in parent
                        and (x, j) not in apart
                    ):
                        parent[j] = x
                        queue.append(owner[j])
                continue
            free.discard(end)
            while True:  # flip the path from end back to source
                owner[end] = x
                end, mate[x] = mate[x], end
                if x == source:
                    return True
                x = parent[end]
        return False

    for i in range(half):
        if mate[i] < 0 and not augment(i):
            return None
    order = list(range(half, n))  # S2 players not yet taken, in order
    for i in range(half):
        for j in order:
            if (i, j) in apart:
                continue
            current = mate[i]
            if j == current:
                break
            # Try i-j: i's current opponent becomes free, j's (if any) looks for another.
            other = owner.get(j)
            mate[i], owner[j] = j, i
            del owner[current]
            free.add(current)
            taken[i] = taken[j] = True
            if other is None:
                free.discard(j)
                break
            if augment(other):
                break
            taken[i] = taken[j] = False
            free.discard(current)
            mate[i], owner[j], owner[current], mate[other] = current, other, i, j
        else:
            raise AssertionError("an S1 player lost its legal opponent")
        taken[i] = taken[j] = True
        order.remove(j)
    return mate


def _bye_reason(player: PlayerState, players: list[PlayerState]) -> str:
    """Why the PAB went to this player, in the words of the rules."""
    lowest = min(p.score for p in players if p.eligible_for_bye)
    if player.score == lowest:
        return BYE_LOWEST
    return BYE_LOWEST_POSSIBLE


def _criteria_not_met(
    players: dict[int, PlayerState], boards: list[Board], bye: int | None
) -> tuple[Unmet, ...]:
    """The quality criteria the round does not fully meet ([C12]-[C15])."""
    no_colour, no_strong, down_again, up_again = [], [], [], []
    for board in boards:
        for tpn, colour in ((board.white, Color.WHITE), (board.black, Color.BLACK)):
            p = players[tpn]
            if p.preference is not None and p.preference is not colour:
                no_colour.append(tpn)
                if p.strong or p.absolute:
                    no_strong.append(tpn)
        w, b = players[board.white], players[board.black]
        if w.score != b.score:
            high, low = (w, b) if w.score > b.score else (b, w)
            if high.float1 is Float.DOWN:
                down_again.append(high.tpn)
            if low.float1 is Float.UP:
                up_again.append(low.tpn)
    if bye is not None and players[bye].float1 is Float.DOWN:
        down_again.append(bye)
    return tuple(
        Unmet(criterion, what, tuple(sorted(tpns)))
        for criterion, what, tpns in (
            ("[C12]", UNMET_COLOUR, no_colour),
            ("[C13]", UNMET_STRONG_COLOUR, no_strong),
            ("[C14]", UNMET_DOWN_AGAIN, down_again),
            ("[C15]", UNMET_UP_AGAIN, up_again),
        )
        if tpns
    )


@dataclass
class _Bracket:
    """The bracket being paired (Art. 1.3.2): vertices of its MDPs, then of its residents,
    then of the next score group (whose pairs [C8] weighs)."""

    vertices: list[int]
    size: int
    """How many of ``vertices`` belong to the bracket itself (MDPs and residents)."""
    mdps: int
    first_resident: int
    """Vertex of the first resident; every vertex before it is paired or an MDP."""
    next_first: int
    """Vertex of the first player of the next score group."""
    completion: bool
    """Its weights ask for the completion of the round ([C4]; 2017: the PPB and the last)."""
    final_next: bool = False
    """2017: the next score group is the last one."""
    ppb: bool = False
    """2017 A.9: the bracket paired again as the PPB (every lower player is its next group)."""
    psd: PsdLayout | None = None
    weights: dict[tuple[int, int], int] = field(default_factory=dict)
    """The weight of each pair of the bracket, by positions (lower, higher) in ``vertices``;
    the generation order reads and changes them."""
    remainder: list[int] = field(default_factory=list)
    """Positions of the residents not paired with an MDP (Art. 3.3.3)."""
    exchanges: int = 0
    s1: list[int] = field(default_factory=list)
    """Vertices of the remainder's S1 and S2 once the exchanges are made (Art. 3.3, 4.3)."""
    s2: list[int] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    terms_for: int | None = None
    """The number of remainder pairs whose Art. 4.3.2 terms the matcher already holds
    (``weigh``; None: it holds the bare weights)."""
    s1_s2_only: bool = False
    """The matcher holds no pair of the remainder but those of S1 with S2 (``exchange``)."""

    def w(self, li: int, si: int) -> int:
        return self.weights.get((li, si), 0)

    @cached_property
    def position(self) -> dict[int, int]:
        """The position of each vertex in ``vertices``."""
        return {v: i for i, v in enumerate(self.vertices)}

    def holds(self, vertex: int) -> bool:
        """Whether a vertex is a resident of this bracket."""
        return self.first_resident <= vertex < self.next_first


class RoundPairer:
    """Pairs one round, bracket by bracket from the top score group (Art. 1.9.2)."""

    def __init__(
        self, t: Tournament, k: int, rules: RuleSet, players: list[PlayerState],
        progress: Callable[[Text], None] | None = None, criteria: bool = True,
    ):
        self.t, self.k, self.rules, self.players = t, k, rules, players
        self.criteria = criteria
        """Whether a candidate passed over is told the criterion that applies (``_worse``)."""
        self.progress = progress
        self.n = n = len(players)
        self.rules_2017 = rules is RuleSet.DUTCH_2017
        self.played_rounds = k - 1
        self.layout = Layout.for_players(players, self.played_rounds, rules)
        self.memo = WeightMemo(players)
        self.forbidden = _prohibited_pairs(t, k)
        self.ok = compatibility(players, forbidden=self.forbidden)
        self.near = self._near_pairs()
        self.top_score = players[0].score
        self.odd = n % 2 == 1
        # Within a bracket, the generation order changes weights only below bit 3S+1 (Art.
        # 3-4): pairs whose slack is far above that after a bracket's first matching cannot
        # become tight, and the matcher keeps them aside (it checks that they stay covered).
        self.warm: WarmMatcher | MirroredMatcher
        """The brackets' matcher: warm solves, questions asked of the tight edges."""
        self.m: Matcher
        margin = 1 << (3 * self.layout.size_bits + 4)
        if self.rules_2017:
            # The round outlook is one matching of everyone, solved from scratch.  The
            # brackets are solved warm as in 2026, but their matchings need not be perfect
            # (A.9: only the PPB and the last bracket must let the round be completed; C.7:
            # the others look at the next score group only): a maximum weight matching is
            # half of a perfect one of the graph and its mirror image (``MirroredMatcher``).
            self.m = ScratchMatcher(n)
            self.warm = self.mirrored = MirroredMatcher(n, margin=margin)
        else:
            self.m = self.warm = WarmMatcher(n, margin=margin)
        # The PAB score ([C5]) and whether [C9] applies: set by the round outlook.
        self.bye_score: int | None = None if self.rules_2017 else 0
        self.c9 = False
        self.unplayed_rank: dict[int, int] = {}
        self.matched = [False] * n
        self.result: list[tuple[int, int]] = []
        self.reports: list[BracketReport] = []
        self.trials_left = (TRIAL_SCALE // n) ** 2
        """Candidates passed over that ``_worse`` may still try."""
        self.reasons = FIELD_REASONS[rules]
        self.other_reasons = OTHER_REASONS[rules]

    # -- the graph ---------------------------------------------------------------------------

    def _near_pairs(self) -> set[tuple[int, int]]:
        """Outside the bracket and the next score group, an edge only says "these two could
        still be paired" ([C4]): each player's FAR_NEIGHBOURS nearest compatible players above
        and below in the pairing order, the pairs the matcher starts with (2026: the others
        sleep, certified by the duals)."""
        ok, n = self.ok, self.n
        near: set[tuple[int, int]] = set()
        for i in range(n):
            near.update((i, j) for j in _first_compatible(ok[i], range(i + 1, n), FAR_NEIGHBOURS))
            near.update(
                (j, i) for j in _first_compatible(ok[i], range(i - 1, -1, -1), FAR_NEIGHBOURS)
            )
        return near

    def may_take_pab(self, p: PlayerState) -> bool:
        """[C2], and [C5] once the PAB score is known."""
        return p.eligible_for_bye and (self.bye_score is None or p.score <= self.bye_score)

    def weight(
        self, hi: int, lo: int, cur: bool, nxt: bool, completion: bool = True,
        final_next: bool = False, psd: PsdLayout | None = None,
    ) -> int:
        """The weight of the pair hi-lo (hi ranked higher), 0 when they may not meet."""
        if not self.ok[hi][lo]:
            return 0
        return self._pair_weight(hi, lo, cur, nxt, completion, final_next, psd, self.c9)

    def _pair_weight(
        self, hi: int, lo: int, cur: bool, nxt: bool, completion: bool = True,
        final_next: bool = False, psd: PsdLayout | None = None, c9: bool = False,
    ) -> int:
        """``weight`` of two players who may meet, with [C9] as given."""
        signature = self.memo.signature
        # unplayed_rank follows from bye_score, fixed before the first bracket
        key = (signature[hi], signature[lo], cur, nxt, completion, final_next, c9,
               self.bye_score)
        weights = self.memo.bracket(psd)
        w = weights.get(key)
        if w is None:
            players = self.players
            w = weights[key] = self.layout.weight(
                players[hi], players[lo], in_current=cur, in_next=nxt,
                bye_candidate_higher=self.may_take_pab(players[hi]),
                bye_candidate_lower=self.may_take_pab(players[lo]),
                c9_active=c9, bye_score=self.bye_score or 0,
                unplayed_rank=self.unplayed_rank, completion=completion,
                final_next=final_next, psd=psd,
            )
        return w

    # -- sleeping pairs (2026: ``DynamicMatcher.sleep``) -----------------------------------

    def _sleeping_pairs(
        self, part: list[int], weight_of: Callable[[int, int, int, int], int | None]
    ) -> SleepingPairs:
        """The pairs of the players whose ``part`` is not -1, in classes of one weight
        signature and one part: ``weight_of(hi, lo, part of hi, part of lo)`` is the weight of
        a pair of two members (hi ranked higher), whose weights only depend on those."""
        signature = self.memo.signature
        ids: dict[tuple[int, int], int] = {}
        cls: list[int] = []
        reps: list[int] = []
        for v in range(self.n):
            if part[v] < 0:
                cls.append(-1)
                continue
            key = (signature[v], part[v])
            c = ids.get(key)
            if c is None:
                c = ids[key] = len(reps)
                reps.append(v)
            cls.append(c)
        cls.extend([-1] * (self.n % 2))  # the PAB vertex
        return SleepingPairs(
            cls, lambda a, b: weight_of(reps[a], reps[b], part[reps[a]], part[reps[b]]),
            self.ok,
        )

    def _far_pairs(self, part: list[int]) -> SleepingPairs:
        """Every pair of players still to pair: outside the current bracket and the next
        score group (part 3), the completion weights of the round outlook ([C4], [C5])."""
        def weight_of(hi: int, lo: int, p_hi: int, p_lo: int) -> int | None:
            if p_hi < 3 and p_lo < 3:  # the bracket's: its next score group's pairs
                return self._pair_weight(hi, lo, False, True, c9=self.c9) if p_lo == 2 else None
            return self._pair_weight(hi, lo, False, False) or None
        return self._sleeping_pairs(part, weight_of)

    def completion_weights(self, pairs: list[tuple[int, int]]) -> list[tuple[int, int, int | None]]:
        """The weights of pairs outside any bracket ([C4], [C5])."""
        return [(i, j, self.weight(j, i, False, False) or None) for j, i in pairs]

    # -- Art. 1.9: the round outlook ---------------------------------------------------------

    def outlook(self) -> None:
        """Art. 1.9.1: a complete round-pairing must exist ([C1]-[C3], [C4]); the PAB goes to
        the lowest score that allows it ([C5]), and [C9] applies when the top bracket can
        float no one but the PAB assignee."""
        n, players = self.n, self.players
        mate = self._whole_round(sorted(self.near))
        if not self._complete(mate):
            # the sparse graph may miss a long edge: decide on all the compatible pairs
            self.near = {(j, i) for i in range(n) for j in range(i) if self.ok[i][j]}
            mate = self._whole_round(sorted(self.near))
        if not self._complete(mate):
            if sum(1 for v in range(n) if mate[v] == v) > 1:
                raise NoValidPairing(Text(NO_ROUND_PAIRING))
            raise NoValidPairing(Text(BYE_TO_BARRED))
        if self.odd and not self.rules_2017:
            bye_score = self.bye_score = next(players[v].score for v in range(n) if mate[v] == v)
            # the pairs held, near ones and those the outlook's weights woke, take the
            # completion weights; every other pair sleeps with its own
            held = self.near.union(self.m.woken()) if isinstance(self.m, WarmMatcher) else self.near
            self.m.set_many(self.completion_weights(sorted(held)))
            self._sleep(self._far_pairs([3] * n))
            top = self.top_score
            if bye_score >= top:
                self.c9 = all(players[mate[v]].score >= top for v in range(n)
                              if players[v].score >= top)
            # [C9]: among the players on the PAB score, the more unplayed games a player has,
            # the more their being paired weighs (rank: last position in the ascending order)
            counts = sorted(self.played_rounds - p.played_games for p in players
                            if p.score == bye_score)
            for rank, unplayed in enumerate(counts):
                self.unplayed_rank[unplayed] = rank
        if self.odd and self.rules_2017:
            self.bye_score = None
        if self.rules_2017:
            self.m = self.mirrored

    def _whole_round(self, pairs: list[tuple[int, int]]) -> list[int]:
        """A maximum weight matching of everyone: pairs first those who may not take the PAB,
        then (2026, odd) leaves out the lowest score possible ([C5])."""
        if self.odd and not self.rules_2017:
            layout, players = self.layout, self.players
            S, G = layout.size_bits, layout.groups_bits
            edges: list[tuple[int, int, int | None]] = []
            for j, i in pairs:
                a, b = players[i], players[j]
                w = 1 + (not a.eligible_for_bye) + (not b.eligible_for_bye)
                w = (w << G) | (layout.group_shift[a.score] + layout.group_shift[b.score])
                w = (w << S) | (a.score >= self.top_score)
                edges.append((i, j, w))
            self.m.set_many(edges)
            self._sleep(self._sleeping_pairs([0] * self.n, self._outlook_weight))
        else:
            self.m.set_many(self.completion_weights(pairs))
            self._sleep(self._far_pairs([3] * self.n))
        return self.m.compute()

    def _outlook_weight(self, hi: int, lo: int, p_hi: int, p_lo: int) -> int:
        """The weight of a pair in the odd round's outlook (``_whole_round``)."""
        layout, a, b = self.layout, self.players[lo], self.players[hi]
        w = 1 + (not a.eligible_for_bye) + (not b.eligible_for_bye)
        w = (w << layout.groups_bits) | (layout.group_shift[a.score] + layout.group_shift[b.score])
        return (w << layout.size_bits) | (a.score >= self.top_score)

    def _sleep(self, pairs: SleepingPairs) -> None:
        """Let the 2026 matcher keep these pairs asleep (the 2017 ones hold every pair)."""
        if isinstance(self.m, WarmMatcher):
            self.m.sleep(pairs)

    def _complete(self, mate: list[int]) -> bool:
        """Art. 1.9.1: everyone paired but at most one player, who may receive the PAB ([C2]).
        The weights pair first the players who may not, so a maximum weight matching leaves
        such a player out only when no round-pairing can avoid it."""
        left = [v for v in range(self.n) if mate[v] == v]
        return len(left) <= 1 and all(self.players[v].eligible_for_bye for v in left)

    def completable(self, vertices: list[int]) -> bool:
        """Whether these players can all be paired, at most one taking the PAB (C.1-C.3).

        A complete pairing among each player's nearest compatible players is one among all
        of them: only when those do not give one is every compatible pair asked."""
        return self._completable(vertices, FAR_NEIGHBOURS) or self._completable(vertices, None)

    def _completable(self, vertices: list[int], nearest: int | None) -> bool:
        """``completable`` with each player's pairs to their ``nearest`` compatible players
        above and below (None: all of them)."""
        ok, count = self.ok, len(vertices)
        if nearest is None:
            edges = [
                (i, j, 1)
                for i in range(count)
                for j in range(i + 1, count)
                if ok[vertices[i]][vertices[j]]
            ]
        else:
            pairs: set[tuple[int, int]] = set()
            for i, v in enumerate(vertices):
                row = ok[v]
                below = (j for j in range(i + 1, count) if row[vertices[j]])
                pairs.update((i, j) for j in islice(below, nearest))
                above = (j for j in range(i - 1, -1, -1) if row[vertices[j]])
                pairs.update((j, i) for j in islice(above, nearest))
            edges = [(i, j, 1) for i, j in sorted(pairs)]
        if count % 2:
            edges += [(i, count, 1) for i in range(count)
                      if self.players[vertices[i]].eligible_for_bye]
            count += 1
        return all(x >= 0 for x in max_weight_matching(count, edges))

    # -- the brackets, top down (Art. 1.9.2) -------------------------------------------------

    def pair(self) -> list[tuple[int, int]]:
        """Return the pairs as vertex pairs (a vertex paired with itself has the PAB)."""
        self.outlook()
        n, players = self.n, self.players
        carried: list[int] = []  # the MDPs, then the residents of the next bracket
        group_start = 0
        while group_start < n and players[group_start].score >= self.top_score:
            carried.append(group_start)
            group_start += 1
        mdps = first_resident = 0
        ppb = False  # 2017 A.9: the bracket is paired again as the Penultimate Pairing Bracket
        scores = sorted({p.score for p in players}, reverse=True)  # the score groups (Art. 1.3)
        while len(carried) > 1 or group_start < n:
            saved = self._save(carried, group_start)
            bracket, group_start = self._form(carried, group_start, mdps, first_resident, ppb)
            if self.progress is not None:  # the residents' score group
                score = players[bracket.vertices[min(bracket.mdps, bracket.size - 1)]].score
                self.progress(Text(PAIRING_SCORE_GROUP, number=scores.index(score) + 1,
                                   count=len(scores)))
            self.weigh(bracket, ppb)
            self.m.compute()
            self.choose_mdps(bracket)
            self.pair_mdps(bracket)
            self.exchange(bracket)
            self.pair_s1_with_s2(bracket)
            if not bracket.completion and not self.completable(
                [v for v in range(n) if v not in self.m.fixed]
            ):
                # 2017 A.9: the downfloaters cannot be paired with the lower players: this
                # bracket is the PPB; pair it again so that the round can be completed (C.4)
                carried, group_start = self._restore(saved)
                ppb = True
                continue
            carried, mdps = self.close(bracket, repaired_as_ppb=ppb)
            ppb = False
            first_resident = bracket.next_first
        for v in carried:
            self.result.append((v, v))
        return self.result

    def _save(self, carried: list[int], group_start: int) -> tuple:
        """What a 2017 bracket changes, to pair it again as the PPB (A.9)."""
        if not self.rules_2017:
            return ()
        return (carried[:], group_start, self.mirrored.snapshot(), self.matched[:],
                len(self.result))

    def _restore(self, saved: tuple) -> tuple[list[int], int]:
        carried, group_start, matching, self.matched, kept = saved
        self.mirrored.restore(matching)
        del self.result[kept:]
        return carried, group_start

    def _form(
        self, carried: list[int], group_start: int, mdps: int, first_resident: int, ppb: bool
    ) -> tuple[_Bracket, int]:
        """The bracket: the MDPs and residents carried down, then the next score group (in
        the 2017 PPB, every lower player: the collapsed score group)."""
        players, n = self.players, self.n
        vertices = carried[:]
        size = len(vertices)
        next_group_start = group_start
        while group_start < n and (
            ppb or players[group_start].score >= players[next_group_start].score
        ):
            vertices.append(group_start)
            group_start += 1
        if size == len(vertices) and mdps == size:
            raise NoValidPairing(Text(LEFT_UNPAIRED))
        # 2017 A.9: only the last bracket and the PPB must let the round be completed; any
        # other bracket is paired looking at itself and the next score group only (C.7)
        completion = not self.rules_2017 or ppb or size == len(vertices)
        bracket = _Bracket(
            vertices=vertices, size=size, mdps=mdps, first_resident=first_resident,
            next_first=first_resident + (size - mdps), completion=completion,
            final_next=self.rules_2017 and not completion and group_start == n, ppb=ppb,
        )
        if self.rules_2017:
            self.mirrored.clear()  # finalized pairs are kept in fixed
            # C.6 differences; like bbpPairings, a downfloater's difference is counted from
            # the lowest score among the players in the matching (the next score group's)
            scores = [players[v].score for v in vertices]
            lowest = min(scores)
            # C.7 (not for the PPB or the last bracket): the following bracket's PSD, of
            # this bracket's downfloaters and the next score group
            following = None if completion else PsdLayout.for_scores(scores, lowest)
            bracket.psd = PsdLayout.for_scores(scores[:size], lowest, following)
        return bracket, group_start

    def weigh(self, b: _Bracket, ppb: bool) -> None:
        """Base weights: pairs in this bracket ([C6]-[C7]) and in the next score group
        ([C8]), every pair of them but those of two MDPs (already weighed in the bracket
        above); then suggestions for the first solve."""
        vertices, signature, ok = b.vertices, self.memo.signature, self.ok
        his: list[int] = []
        los: list[int] = []
        ws: list[int] = []
        # 2026: the pairs of the next score group sleep (``_far_pairs``) but a few per player
        sleeping = isinstance(self.m, WarmMatcher)
        # Art. 4.3.2: with no MDP, the remainder is the whole bracket and its pairs take the
        # exchange terms from the first solve (``exchange``), for the number of remainder
        # pairs a bracket of this size usually has; a solve that finds another number sets
        # them again.  The terms only order the optimal matchings of the bare weights.
        gains: list[int] = []
        if sleeping and not b.mdps:
            b.terms_for = b.size // 2
            gains = [self._exchange_term(p, b.terms_for) << 1 for p in range(b.size)]
        for li in range(b.mdps, b.size if sleeping else len(vertices)):
            lo = vertices[li]
            cur, nxt = li < b.size, li >= b.size and not ppb
            compatible_with_lo = ok[lo]
            by_signature: dict[int, int] = {}  # the weight is the same for equal signatures
            for si in range(li):
                hi = vertices[si]
                if not compatible_with_lo[hi]:
                    continue
                w = by_signature.get(signature[hi])
                if w is None:
                    w = by_signature[signature[hi]] = self.weight(
                        hi, lo, cur, nxt, completion=b.completion, final_next=b.final_next,
                        psd=b.psd,
                    )
                if cur:
                    b.weights[(li, si)] = w
                if w:
                    his.append(hi)
                    los.append(lo)
                    ws.append(w + gains[si] if gains and cur else w)
        if sleeping:
            for hi, lo in self._next_candidates(b):
                w = self.weight(hi, lo, False, True)
                if w:
                    his.append(hi)
                    los.append(lo)
                    ws.append(w)
        self.m.replace_region(vertices, vertices[:b.mdps], his, los, ws)
        if sleeping:
            part = [-1 if v in self.m.fixed else 3 for v in range(self.n)]
            for x, v in enumerate(vertices):
                part[v] = 0 if x < b.mdps else 1 if x < b.size else 2
            self._sleep(self._far_pairs(part))
        self._suggest(b, self.warm)

    def _next_candidates(self, b: _Bracket) -> list[tuple[int, int]]:
        """The pairs with a player of the next score group the matcher holds from the start
        (the others sleep): for each player of the bracket and the group, the first
        compatible member of each weight signature in the group; for each player of the
        group, its next compatible ones (as ``_suggest`` offers them)."""
        vertices, ok, signature = b.vertices, self.ok, self.memo.signature
        group = vertices[b.size:]
        by_signature: dict[int, list[int]] = {}
        for v in group:
            by_signature.setdefault(signature[v], []).append(v)
        pairs: set[tuple[int, int]] = set()
        for u in vertices:
            row = ok[u]
            for members in by_signature.values():
                for v in _first_compatible(row, (x for x in members if x != u), NEXT_CANDIDATES):
                    pairs.add((u, v) if u < v else (v, u))
        for li, v in enumerate(group, b.size):
            for u in _first_compatible(ok[v], vertices[li + 1:], NEXT_GROUP_PARTNERS):
                pairs.add((v, u))
        return sorted(pairs)

    def _suggest(self, b: _Bracket, warm: WarmMatcher | MirroredMatcher) -> None:
        """Pairs the bracket's first solve is likely to use."""
        vertices, ok, size, mdps = b.vertices, self.ok, b.size, b.mdps
        # The heaviest pairs of a player of the next score group lead to this bracket ([C8]
        # counts a higher score); the pairs the matching mostly needs are within the group:
        # offer the matcher a few of those, each player's next compatible ones.
        warm.suggest([
            (v, u)
            for li, v in enumerate(vertices[size:], size)
            for u in _first_compatible(ok[v], vertices[li + 1:], NEXT_GROUP_PARTNERS)
        ])
        # Within the bracket most pairs tie on the criteria, and the heaviest pairs of each
        # resident, drawn among the ties, rarely form the structure an optimal pairing has:
        # S1 players against S2 players (Art. 3.3.1).  Offer each S1 resident the S2
        # residents around its counterpart in the original order (Art. 4.2): with them the
        # first solve of a bracket needs no second round of certification.
        half = (size - mdps) // 2
        warm.suggest([
            (vertices[i], vertices[j])
            for i in range(mdps, mdps + half)
            for j in range(i + half - S2_NEIGHBOURS, i + half + S2_NEIGHBOURS + 1)
            if mdps + half <= j < size and ok[vertices[i]][vertices[j]]
        ])

    def choose_mdps(self, b: _Bracket) -> None:
        """Art. 4.4 / 3.2.2: which MDPs are paired, top down ([C7] pairs the highest scores):
        of MDPs with one score, the first ones an optimal matching can pair in the bracket."""
        m, players, vertices = self.m, self.players, b.vertices
        residents = range(b.mdps, b.size)
        i = 0
        while i < b.mdps:
            score = players[vertices[i]].score
            group = [x for x in range(i, b.mdps) if players[vertices[x]].score == score]
            remaining = len(group)
            can_pair = sum(1 for x in group if b.holds(m.mate[vertices[x]]))
            for x in group:
                v = vertices[x]
                if not can_pair:
                    break
                if remaining <= can_pair:
                    self.matched[v] = True
                    continue
                remaining -= 1
                if not b.holds(m.mate[v]):
                    for r in residents:
                        if b.w(r, x):
                            m.set(v, vertices[r], b.w(r, x) | 1)
                    m.compute()
                if b.holds(m.mate[v]):
                    self.matched[v] = True
                    can_pair -= 1
                    for r in residents:
                        if b.w(r, x):
                            m.set(v, vertices[r], (b.w(r, x) | (b.size - b.mdps)) + 1)
            i += len(group)

    def pair_mdps(self, b: _Bracket) -> None:
        """Art. 3.3.3 / 4.2: each paired MDP, in order, meets the highest resident possible."""
        vertices = b.vertices
        for x in range(b.mdps):
            v = vertices[x]
            if not self.matched[v]:
                continue
            order = [r for r in range(b.mdps, b.size) if not self.matched[vertices[r]]]
            # the weights as choose_mdps left them: they keep this MDP paired (Art. 4.4)
            opponent = self.take_first_partner(
                v, [(vertices[r], self.m.get(v, vertices[r])) for r in order if b.w(r, x)]
            )
            self.matched[opponent] = True
            # (explained before the pair is final: _worse tries the candidates passed over)
            b.choices.append(self._choice(b, v, opponent, [vertices[r] for r in order]))
            self.m.finalize(v, opponent)
        # The remainder (Art. 3.3.3): residents not paired with an MDP.
        mate = self.m.mate
        b.remainder = [x for x in range(b.mdps, b.size) if mate[vertices[x]] >= b.first_resident]

    def take_first_partner(self, v: int, candidates: list[tuple[int, int]]) -> int:
        """Art. 4.2 (and 3.3.3 for an MDP): v meets the first of the candidates (vertex and
        weight, in the order of preference) that a maximum weight matching allows."""
        if self.m.first_optimal_partner(v, [u for u, _ in candidates]) is not None:
            return self.m.mate[v]
        count = len(candidates)
        return self.m.reweigh(v, {u: w + count - i for i, (u, w) in enumerate(candidates)})[v]

    def _choice(self, b: _Bracket, v: int, opponent: int, order: list[int]) -> Choice:
        """The explanation of one choice: the candidates before the opponent, and why each
        was passed over."""
        players, ok = self.players, self.ok
        passed = []
        for u in order:
            if u == opponent:
                break
            if not ok[v][u]:
                why = self._incompatible(players[v], players[u])
            else:
                why = self._worse(b, v, u)
            passed.append((players[u].tpn, why))
        return Choice(players[v].tpn, players[opponent].tpn, tuple(passed))

    def _worse(self, b: _Bracket, v: int, u: int) -> str:
        """Why v, which may meet u, did not: the field of highest priority (``Layout.fields``)
        in which the best round-pairing where v meets u falls short of the optimum, v's
        choice (Art. 2.4: a quality criterion; the last field: the generation order).

        That round-pairing is one warm solve of the matcher with u and v taken out
        (``Matcher.with_pair``), from the optimum it holds; the two matchings differ on a
        few alternating cycles, whose pairs are weighed field by field.  Each pair's fields
        are found again from the players, and checked against the weight the matcher holds.
        """
        other = self.other_reasons
        if not self.criteria:
            return WORSE
        if not self.m.get(v, u):
            return self.reasons[-1]  # the generation order took the pair out (Art. 4.3.2)
        # the tight edges first: a path of them gives the matching with no solve
        if self.n > TIGHT_PLAYERS:
            return other["limit"]
        changes = self.m.with_pair(v, u, solve=False)
        if changes is None:
            if self.trials_left <= 0:
                return other["limit"]
            self.trials_left -= 1
            changes = self.m.with_pair(v, u, solve=True)
            if changes is None:
                return other["undetermined"]
        old = {(x, y) if x < y else (y, x) for x, (y, _) in changes.items() if y >= 0}
        new = {(x, y) if x < y else (y, x) for x, (_, y) in changes.items() if y >= 0}
        sums: list[int] = []
        loss = 0
        room = 1 << (3 * self.layout.size_bits + 1)  # the generation order's bits
        pairs_lost = 0
        for edges, sign in ((old, 1), (new, -1)):
            for x, y in edges:
                if x == y:
                    continue  # single (the PAB): no pair, no weight
                fields = self._edge_fields(b, x, y)
                held = self.m.get(x, y)
                if fields is None:
                    return other["undetermined"]
                packed = 0
                for width, value in fields:
                    packed = (packed << width) + value
                if abs(held - packed) >= room:
                    return other["undetermined"]  # not the weight the pair was given
                loss += sign * held
                pairs_lost += sign * (fields[0][1] > 0)
                if not sums:
                    sums = [0] * len(fields)
                for i, (_, value) in enumerate(fields):
                    sums[i] += sign * value
        if loss <= 0:
            return other["undetermined"]  # an optimal matching has the pair after all
        field = next((i for i, d in enumerate(sums) if d), len(self.reasons) - 1)
        if field < len(sums) and sums[field] < 0:
            return other["undetermined"]
        if field == 0 and pairs_lost <= 0:
            return other["pab"]  # the same pairs: those who may not take the PAB ([C2], [C5])
        return self.reasons[field] or other["undetermined"]

    def _edge_fields(self, b: _Bracket, x: int, y: int) -> list[tuple[int, int]] | None:
        """The fields of the weight the bracket gave the pair x-y (``weigh``; outside it:
        the round outlook's completion weights), or None for a pair of two MDPs (weighed by
        the bracket above)."""
        players = self.players
        position = b.position
        px, py = position.get(x), position.get(y)
        if px is not None and py is not None:
            si, li = (px, py) if px < py else (py, px)
            if li < b.mdps:
                return None
            hi, lo = b.vertices[si], b.vertices[li]
            cur, nxt = li < b.size, li >= b.size and not b.ppb
            completion, final_next, psd, c9 = b.completion, b.final_next, b.psd, self.c9
        elif self.rules_2017:
            return None  # (the 2017 brackets' matchings hold their region only)
        else:
            hi, lo = (x, y) if x < y else (y, x)
            cur = nxt = final_next = c9 = False
            completion, psd = True, None
        return self.layout.fields(
            players[hi], players[lo], in_current=cur, in_next=nxt,
            bye_candidate_higher=self.may_take_pab(players[hi]),
            bye_candidate_lower=self.may_take_pab(players[lo]),
            c9_active=c9, bye_score=self.bye_score or 0, unplayed_rank=self.unplayed_rank,
            completion=completion, final_next=final_next, psd=psd,
        )

    def _incompatible(self, a: PlayerState, b: PlayerState) -> str:
        """Which absolute criterion keeps two players apart (``compatible`` said one does)."""
        old_rules = self.rules is RuleSet.DUTCH_2017  # the rule set's own numbering
        if b.tpn in a.met:
            return MET_BEFORE_2017 if old_rules else MET_BEFORE
        if frozenset((a.tpn, b.tpn)) in self.forbidden:
            return PROHIBITED_PAIR
        return SAME_ABSOLUTE_COLOUR_2017 if old_rules else SAME_ABSOLUTE_COLOUR

    # -- Art. 4.3.2 and 4.2: the remainder ---------------------------------------------------

    def _s1_type(self, b: _Bracket, x: int) -> bool:
        """Whether the resident at position x is paired with a lower resident (is in S1)."""
        v = b.vertices[x]
        return v < self.m.mate[v] < b.next_first

    def _exchange_term(self, s_pos: int, rpairs: int) -> int:
        """Art. 4.3.2: the fewest exchanges, then the smallest BSN differences: what a pair
        of the remainder gains when its higher player is at position s_pos (doubled in the
        weight), with rpairs pairs in the remainder."""
        return ((s_pos < rpairs) << (2 * self.layout.size_bits)) - s_pos

    def exchange(self, b: _Bracket) -> None:
        """Art. 4.3.2: the fewest resident-exchanges between S1 and S2, then the smallest
        differences of BSNs: the lowest possible players of S1 move to S2, the highest
        possible of S2 to S1."""
        m, vertices, remainder = self.m, b.vertices, b.remainder
        mate = m.mate
        rpairs = sum(1 for x in remainder if mate[vertices[x]] < vertices[x])

        def term(s_pos: int) -> int:
            return self._exchange_term(s_pos, rpairs)

        def ew(si: int, li: int, s_pos: int) -> int:
            w = b.w(li, si)
            return w + (term(s_pos) << 1) if w else 0

        # An optimal matching that already pairs each of the first rpairs players with a
        # lower one needs no exchange and has the smallest BSN sum: the terms would change
        # nothing, and the S1-S2 pairs keep their bare weights (see pair_s1_with_s2).  When
        # the matcher holds the terms already (``weigh``), its optimum is the one they give.
        if b.terms_for != rpairs and (
            b.terms_for is not None or not all(self._s1_type(b, x) for x in remainder[:rpairs])
        ) and not (b.terms_for is None and self._no_exchange_needed(b, rpairs)):
            # A pair's weight gains twice the term of its higher player (``ew``); raising
            # each player's doubled dual by twice that gain, where positive, keeps every
            # pair feasible and the optimal S1-S2 pairs tight: only the others are re-paired.
            self.warm.raise_duals({
                vertices[x]: term(p) << 2 for p, x in enumerate(remainder) if term(p) > 0
            })
            get = b.weights.get
            us: list[int] = []
            vs: list[int] = []
            ws: list[int | None] = []
            for a_pos, a in enumerate(remainder):
                gain = term(a_pos) << 1  # as ``ew``, written out
                later = remainder[a_pos + 1:]
                us.extend(repeat(vertices[a], len(later)))
                vs.extend(map(vertices.__getitem__, later))
                ws.extend(w + gain if w else None for w in (get((c, a), 0) for c in later))
            m.set_lists(us, vs, ws)
            m.compute()
        b.exchanges = sum(1 for x in remainder[:rpairs] if not self._s1_type(b, x))
        self._move_s1_down(b, rpairs, ew)
        self._move_s2_up(b, rpairs, ew)

    def _no_exchange_needed(self, b: _Bracket, rpairs: int) -> bool:
        """Whether an optimal matching pairs each of the first rpairs remainder players with
        one of the others (no exchange), asked with no terms: the matcher keeps only those
        pairs of the remainder (as ``pair_s1_with_s2`` does) and solves; if the matching
        keeps the weight of the optimum and pairs all of them so, it is one (the matcher
        holds it), and the terms would choose no other S1.  Else the pairs taken out come back
        with the terms (``exchange``).  Only the warm matcher, whose optimum is perfect."""
        if not isinstance(self.m, WarmMatcher):
            return False
        if self.m.dynamic.waiting():
            self.m.compute()  # (the weight of an optimum)
        before = self._matching_weight()
        self._keep_s1_s2_pairs(b, [p < rpairs for p in range(len(b.remainder))])
        self.m.compute()
        if self._matching_weight() != before or not all(
            self._s1_type(b, x) for x in b.remainder[:rpairs]
        ):
            return False
        b.s1_s2_only = True
        return True

    def _matching_weight(self) -> int:
        """The weight of the matching the matcher holds (its pairs not yet final)."""
        get, fixed = self.m.get, self.m.fixed
        return sum(get(v, u) for v, u in enumerate(self.m.mate) if v < u and v not in fixed)

    def _pair_in_optimum(
        self, b: _Bracket, x: int, p_pos: int, partners: Container[int], step: int, ew
    ) -> None:
        """Let x meet one of the partners if an optimal matching allows it, asked of the tight
        edges first, else by moving x's pairs with the lower remainder players by step (-1:
        away from them, +1: towards them) and solving."""
        v = b.vertices[x]
        if self.m.pair_with_any(v, partners) is not None:
            return
        for y in b.remainder[p_pos + 1:]:
            w = ew(x, y, p_pos)
            if w:
                self.m.set(v, b.vertices[y], w + step)
        self.m.compute()

    def _move_s1_down(self, b: _Bracket, rpairs: int, ew) -> None:
        """Art. 4.3.2: move the lowest possible players of S1 to S2."""
        vertices, remainder = b.vertices, b.remainder
        left = b.exchanges
        p_pos = rpairs
        while p_pos > 0 and left:
            p_pos -= 1
            x = remainder[p_pos]
            v = vertices[x]
            if self._s1_type(b, x):
                # can an optimal matching pair x with anyone but a lower remainder player?
                lower = {vertices[y] for y in remainder[p_pos + 1:]}
                self._pair_in_optimum(b, x, p_pos, Outside(lower), -1, ew)
            moved = not self._s1_type(b, x)
            left -= moved
            for y in remainder[p_pos + 1:]:
                if moved:
                    b.weights[(y, x)] = 0
                self.m.set(v, vertices[y], ew(x, y, p_pos))

    def _move_s2_up(self, b: _Bracket, rpairs: int, ew) -> None:
        """Art. 4.3.2: move the highest possible players of S2 to S1."""
        vertices, remainder = b.vertices, b.remainder
        left = b.exchanges
        for p_pos in range(rpairs, len(remainder)):
            if left <= 1:
                break
            x = remainder[p_pos]
            v = vertices[x]
            already = self._s1_type(b, x)
            if not already:
                # can an optimal matching pair x with a lower remainder player?
                lower = {vertices[y] for y in remainder[p_pos + 1:]}
                self._pair_in_optimum(b, x, p_pos, lower, +1, ew)
            if self._s1_type(b, x):
                left -= 1
                for y in remainder[:p_pos]:
                    b.weights[(x, y)] = 0
                    self.m.set(v, vertices[y], 0)
                for y in range(b.size, len(vertices)):
                    b.weights[(y, x)] = 0
                    self.m.set(v, vertices[y], 0)
            if not already:
                for y in remainder[p_pos + 1:]:
                    self.m.set(v, vertices[y], ew(x, y, p_pos))

    def pair_s1_with_s2(self, b: _Bracket) -> None:
        """Art. 4.2: each S1 player in order takes the first S2 player the criteria allow.

        S1 and S2 of the remainder are fixed by now: only S1-S2 pairs stay possible.  These
        keep their Art. 4.3.2 terms: as a term depends on the S1 player only, it adds the same
        to every matching that pairs all of S1 in the bracket, as every optimal one does
        ([C6]), so the optimal matchings stay those of the bare weights.
        """
        vertices, remainder, weights = b.vertices, b.remainder, b.weights
        in_s1 = [self._s1_type(b, x) for x in remainder]
        if not b.s1_s2_only:
            self._keep_s1_s2_pairs(b, in_s1)
            self.m.compute()
        b.s2 = [vertices[y] for y, s1 in zip(remainder, in_s1) if not s1]
        s2 = set(b.s2)
        in_s2 = [y for y, s1 in zip(remainder, in_s1) if not s1]
        for x, s1 in zip(remainder, in_s1):
            if not s1:
                continue
            v = vertices[x]
            b.s1.append(v)
            order = [y for y in in_s2 if y > x and not self.matched[vertices[y]]]
            opponent = self.take_first_partner(
                v, [(vertices[y], w) for y in order if (w := weights.get((y, x), 0))]
            )
            self.matched[v] = self.matched[opponent] = True
            b.choices.append(self._choice(
                b, v, opponent, [vertices[y] for y in order if vertices[y] in s2]
            ))
            self.m.finalize(v, opponent)

    def _keep_s1_s2_pairs(self, b: _Bracket, in_s1: list[bool]) -> None:
        """Take out every pair of the remainder but those of an S1 player with a lower S2
        player (``in_s1``: whether each remainder player is in S1)."""
        vertices, remainder = b.vertices, b.remainder
        us: list[int] = []
        vs: list[int] = []
        for a_pos, a in enumerate(remainder):
            later = remainder[a_pos + 1:]
            if in_s1[a_pos]:  # an S1 player keeps its pairs with S2
                later = list(compress(later, in_s1[a_pos + 1:]))
            us.extend(repeat(vertices[a], len(later)))
            vs.extend(map(vertices.__getitem__, later))
        # (the weights of these pairs are not read again: only S1-S2 pairs are)
        self.m.set_lists(us, vs, [None] * len(us))

    # -- closing a bracket -------------------------------------------------------------------

    def close(self, b: _Bracket, repaired_as_ppb: bool) -> tuple[list[int], int]:
        """Keep the bracket's pairs; the players left unpaired move down (Art. 1.4.1).
        Return the next bracket's MDPs and residents, and how many MDPs come first."""
        players, mate = self.players, self.m.mate
        carried: list[int] = []
        new_mdps = 0
        # [C9]: the next bracket downfloats exactly one player, who will end up receiving the
        # PAB. Its residents score no more than the PAB score (the assignee may be one of its
        # MDPs, I-37) and the matching pairs none of its players below them.
        next_score = players[b.vertices[b.size]].score if len(b.vertices) > b.size else None
        self.c9 = bool(
            self.odd and self.bye_score is not None and next_score is not None
            and self.bye_score >= next_score
        )
        for idx, v in enumerate(b.vertices):
            if idx < b.size and self.matched[v]:
                if v < mate[v]:
                    self.result.append((v, mate[v]))
            else:
                carried.append(v)
                if idx < b.size:
                    new_mdps += 1
                if self.c9 and players[mate[v]].score < next_score:
                    self.c9 = False
        self.reports.append(self._report(b, carried[:new_mdps], repaired_as_ppb))
        return carried, new_mdps

    def _report(self, b: _Bracket, downfloaters: list[int], repaired_as_ppb: bool) -> BracketReport:
        """The bracket as the explanation tells it."""
        players, vertices = self.players, b.vertices
        tpn = [p.tpn for p in players]
        residents = vertices[b.mdps:b.size]
        mdps = set(vertices[:b.mdps])
        paired_mdps = [v for v in vertices[:b.mdps] if self.matched[v]]
        odd = (b.size - b.mdps) % 2
        downfloats = []
        for v in downfloaters:
            if v in mdps:
                reason = DOWN_NO_RESIDENT
            elif odd and len(downfloaters) == 1:
                reason = DOWN_ODD
            else:
                reason = DOWN_NOT_EVERYONE
            downfloats.append(Downfloat(tpn[v], players[v].score, reason))
        return BracketReport(
            score=players[residents[0]].score if residents else players[vertices[0]].score,
            residents=tuple(tpn[v] for v in residents),
            mdps=tuple((tpn[v], players[v].score) for v in vertices[:b.mdps]),
            # a heterogeneous bracket: the paired MDPs are S1 and the residents S2 (Art. 3.3.1),
            # then the remainder has S1 and S2 of its own
            s1=tuple(tpn[v] for v in (paired_mdps or b.s1)),
            s2=tuple(tpn[v] for v in (residents if paired_mdps else b.s2)),
            remainder_s1=tuple(tpn[v] for v in b.s1) if paired_mdps else (),
            remainder_s2=tuple(tpn[v] for v in b.s2) if paired_mdps else (),
            limbo=tuple(tpn[v] for v in vertices[:b.mdps] if not self.matched[v]),
            exchanges=b.exchanges, choices=tuple(b.choices), downfloats=tuple(downfloats),
            repaired_as_ppb=repaired_as_ppb,
        )
