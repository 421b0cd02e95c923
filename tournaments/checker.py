"""The public checker: re-pair every round of an uploaded TRF file and say where it differs.

The file's system decides the engine (``pairing.systems.system_of_file``): ``192
FIDE_DOUBLESWISS`` is the Double-Swiss system, the Clock marker the Clock system, anything else
the Dutch system under the file's rule set (2026 unless its ``192`` record says 2017) or the
one the visitor chose. Round k is paired from
the file's state before round k (``pairing.replay``) and compared with what the file recorded;
where they differ, the Dutch engine's explanation says why it paired as it did, and the file's
own pairing is checked against the absolute criteria. The check runs as a job of the task
queue, under a CPU-time cap (``tournaments.check_jobs``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_lazy as _

from pairing.checker import check_round
from pairing.dutch.explanation import RoundExplanation
from pairing.errors import PairingError, TrfFormatError
from pairing.model import RoundPairing, RuleSet, Tournament
from pairing.replay import COLORS_DIFFER, IDENTICAL, compare_rounds
from pairing.systems import PairingSystem, system_of_file
from tournaments import explain
from tournaments.sentences import engine_said, error_said, say

logger = logging.getLogger(__name__)

MAX_PLAYERS = 400
MAX_ROUNDS = 15

VERDICTS = {
    IDENTICAL: _("same pairing"),
    COLORS_DIFFER: _("same pairs, other colours"),
    "pairs": _("other pairs"),
    "error": _("the engine could not pair it"),
}


class Refused(Exception):
    """The file cannot be checked: said in one sentence (a bad line, too large)."""


@dataclass
class RoundCheck:
    """One round (or Double-Swiss match): the file's pairing against the rules'."""

    number: int
    verdict: str
    only_in_file: list[str] = field(default_factory=list)
    only_in_rules: list[str] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)
    """Pairs both have, with the colours the rules give."""
    error: str = ""
    """The engine's own message, in English only; else ``failure``."""
    failure: str = ""
    """Why the engine could not pair the round, in the reader's language."""
    violations: list[str] = field(default_factory=list)
    """What the file's pairing breaks among the absolute criteria (Dutch only)."""
    why: object | None = None
    """The Dutch explanation (``tournaments.explain.ArbiterView``), or None."""
    text: list[str] = field(default_factory=list)
    """The engine's explanation as text, for the systems without data."""

    @property
    def differs(self) -> bool:
        return self.verdict != IDENTICAL

    @property
    def verdict_text(self) -> str:
        return str(VERDICTS[self.verdict])


@dataclass
class Report:
    system: str
    name: str
    players: int
    unit: str
    """"round", or "match" for the Double-Swiss system."""
    rounds: list[RoundCheck]

    @property
    def identical(self) -> int:
        return sum(1 for r in self.rounds if not r.differs)


def _name_of(players) -> Callable[[int], str]:
    def anonymous(tpn: int) -> str:
        return gettext("player %(tpn)s") % {"tpn": tpn}

    names = {p.tpn: (p.name.strip() or anonymous(p.tpn)) for p in players}
    return lambda tpn: f"{names.get(tpn) or anonymous(tpn)} ({tpn})"


def _compare(k: int, expected: RoundPairing, got: RoundPairing, name) -> RoundCheck:
    verdict = compare_rounds(expected, got)
    check = RoundCheck(k, verdict)
    if verdict == IDENTICAL:
        return check
    want = {frozenset((b.white, b.black)): b for b in expected.boards}
    have = {frozenset((b.white, b.black)): b for b in got.boards}

    def board(b) -> str:
        return f"{name(b.white)} – {name(b.black)}"

    check.only_in_file = [board(b) for key, b in want.items() if key not in have]
    check.only_in_rules = [board(b) for key, b in have.items() if key not in want]
    check.colours = [
        board(b) for key, b in have.items() if key in want and want[key].white != b.white
    ]
    if expected.bye != got.bye:
        if expected.bye is not None:
            check.only_in_file.append(_bye(name(expected.bye)))
        if got.bye is not None:
            check.only_in_rules.append(_bye(name(got.bye)))
    return check


def _said(lines) -> list[str]:
    """The engine's explanation lines in the reader's language."""
    return [say(line) for line in lines]


def _bye(player: str) -> str:
    return gettext("%(player)s: pairing-allocated bye") % {"player": player}


def _failed(k: int, error: Exception) -> RoundCheck:
    if isinstance(error, PairingError):
        said = error_said(error)
        if said is not None:
            return RoundCheck(k, "error", failure=said)
        return RoundCheck(k, "error", error=str(error))
    logger.exception("checker: the engine failed on round %s", k)
    return RoundCheck(
        k, "error", failure=gettext("the engine failed (%(error)s); please report the file")
        % {"error": type(error).__name__}
    )


def _refuse_if_too_big(players: int, rounds: int, units: str) -> None:
    """Bound the work (a large file would take minutes): say so instead of timing out."""
    if players > MAX_PLAYERS:
        raise Refused(
            gettext(
                "The file has %(players)s players; the checker takes up to %(max)s. Check larger "
                "events on the command line (python -m pairing --dutch FILE -c)."
            ) % {"players": players, "max": MAX_PLAYERS}
        )
    if rounds > MAX_ROUNDS:
        if units == "matches":
            message = gettext(
                "The file has %(rounds)s paired matches; the checker takes up to %(max)s. Check "
                "longer events on the command line (python -m pairing --dutch FILE -c)."
            )
        else:
            message = gettext(
                "The file has %(rounds)s paired rounds; the checker takes up to %(max)s. Check "
                "longer events on the command line (python -m pairing --dutch FILE -c)."
            )
        raise Refused(message % {"rounds": rounds, "max": MAX_ROUNDS})


def read(text: str, rules: RuleSet | None = None) -> tuple[PairingSystem, Tournament]:
    """The file's system and tournament, or ``Refused``: a file the engine cannot read, or one
    too large to check. Reading is quick (linear in the file); the view refuses such a file at
    once, before it queues the check."""
    try:
        system, t = system_of_file(text, rules)
    except TrfFormatError as error:
        raise Refused(
            gettext("This is not a TRF file the engine reads: %(error)s.")
            % {"error": engine_said(error)}
        ) from None
    _refuse_if_too_big(len(t.players), system.paired_rounds(t), system.units)
    return system, t


def check(text: str, rules: RuleSet | None = None) -> Report:
    """Re-pair every round of a TRF text; raise ``Refused`` for a file that cannot be checked."""
    system, t = read(text, rules)
    name = _name_of(t.players)
    checks = []
    for k in system.replayable_rounds(t):  # a round in which nobody was paired: nothing to do
        try:
            checks.append(_round(system, t, k, name))
        except Exception as error:  # noqa: BLE001 - a round that cannot be paired is reported
            checks.append(_failed(k, error))
    return Report(gettext(system.name), t.name, len(t.players), system.unit, checks)


def _round(system: PairingSystem, t, k: int, name) -> RoundCheck:
    expected = system.recorded_round(t, k)
    before = system.state_before(t, k)
    got, data = system.pair_explained(before)
    check = _compare(k, expected, got, name)
    if not check.differs:
        return check
    if "brackets" not in data:  # the engine's lines (Clock, Double-Swiss)
        check.text = _said(got.explanation)
        return check
    check.violations = [  # the Dutch explanation: what the file's pairing breaks, and why
        say(v.text) + (f" ({', '.join(name(t) for t in v.tpns)})" if v.tpns else "")
        for v in check_round(before, expected, rules=system.rules)
    ]
    players = {p.tpn: p for p in before.players}
    names = explain.Stored(RoundExplanation.from_dict(data), players).name
    named = RoundExplanation.from_dict(explain.with_names(data, names))
    check.why = explain.view_of(explain.Stored(named, players))
    return check
