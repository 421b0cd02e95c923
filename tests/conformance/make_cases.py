"""Regenerate tests/conformance/cases from the corpus: one small state per situation.

Each case is the state before a recorded round (``<name>.trf``, written by ``write_trf`` with a
``###`` header naming its source) and what bbpPairings paired (``<name>.expected``, engine
output format, the boards in board order as bbpPairings writes them: C.04.2 Art. 3.6).
Run: ``python tests/conformance/make_cases.py [CORPUS]``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from pairing.model import ResultCode, RuleSet, Tournament
from pairing.replay import paired_rounds, recorded_round, state_before_round
from pairing.systems import dutch
from pairing.trf import read_trf, write_pairings, write_trf

HERE = Path(__file__).resolve().parent / "cases"
MAX_PLAYERS = 40

Situation = Callable[[Tournament, Tournament, int], bool]


def _column(t: Tournament, k: int) -> list[ResultCode]:
    return [p.rounds[k - 1].result for p in t.players if len(p.rounds) >= k]


def _has_preset(t: Tournament, k: int, code: ResultCode) -> bool:
    return any(
        len(p.rounds) >= k and p.rounds[k - 1].is_preset and p.rounds[k - 1].result is code
        for p in t.players
    )


def _late_entry(t: Tournament, k: int) -> bool:
    return any(
        len(p.rounds) >= k
        and p.rounds[k - 1].was_paired
        and all(e.result is ResultCode.ZERO_POINT_BYE for e in p.rounds[: k - 1])
        and k > 2
        for p in t.players
    )


_Z, _H, _FW = ResultCode.ZERO_POINT_BYE, ResultCode.HALF_POINT_BYE, ResultCode.FORFEIT_WIN


def _bye(t: Tournament, k: int) -> bool:
    return recorded_round(t, k).bye is not None


def _big(t: Tournament) -> bool:
    return len(t.players) >= 20


def _unrated(t: Tournament) -> int:
    return sum(p.rating is None for p in t.players)


SITUATIONS: dict[str, tuple[str, Situation]] = {
    "round1_white1": ("dutch-2026", lambda t, s, k: k == 1 and t.initial_color.value == "w"),
    "round1_black1": ("dutch-2026", lambda t, s, k: k == 1 and t.initial_color.value == "b"),
    "pab_odd_players": ("dutch-2026", lambda t, s, k: k > 2 and _bye(t, k)),
    "absent_players": ("dutch-2026", lambda t, s, k: k > 1 and _has_preset(t, k, _Z)),
    "half_point_byes": ("dutch-2026", lambda t, s, k: k > 1 and _has_preset(t, k, _H)),
    "late_entry": ("dutch-2026", lambda t, s, k: _late_entry(t, k)),
    "after_forfeits": ("dutch-2026", lambda t, s, k: k > 2 and _FW in _column(t, k - 1)),
    "last_round": ("dutch-2026", lambda t, s, k: k == t.total_rounds and _big(t)),
    "points_3_1_0": ("dutch-2026", lambda t, s, k: t.point_system.win == 30 and k == 3),
    "unrated_players": ("dutch-2026", lambda t, s, k: k == 2 and _unrated(t) > 3),
    "baku_informative": ("dutch-2026", lambda t, s, k: t.baku and k == 3),
    "rules2017_round1": ("dutch-2017", lambda t, s, k: k == 1),
    "rules2017_pab": ("dutch-2017", lambda t, s, k: k > 2 and _bye(t, k)),
    "rules2017_last_round": ("dutch-2017", lambda t, s, k: k == t.total_rounds and _big(t)),
}


# Rounds that once went wrong in the engine: (corpus directory, file, round, what went wrong).
REGRESSIONS: dict[str, tuple[str, str, int, str]] = {
    "kept_blossom_parity": (
        "dutch-2026", "drv_p026_r09_i0054.trf", 9,
        (
            "a blossom kept single for a warm run was left with odd duals by the dissolution"
            " of a blossom around it (matcher: odd slack between S-vertices)"
        ),
    ),
    "second_pab_worth_half": (
        "dutch-2026", "edg_p011_r08_s1082.trf", 4,
        "a PAB worth less than a win was given to a player who already had one ([C2])",
    ),
    "c7_following_psd": (
        "dutch-2017", "gen_p035_r09_i0146.trf", 7,
        (
            "the downfloater was chosen to avoid a repeated float before the following"
            " bracket's PSD (2017 C.7 ranks above C.12)"
        ),
    ),
}


def published(t: Tournament, k: int) -> str:
    """Round k as bbpPairings wrote it: engine output, the boards in board order."""
    state = state_before_round(t, k)
    return write_pairings(dutch(t.rules).published(state, recorded_round(t, k)))


def find_case(
    corpus: Path, directory: str, situation: Situation, used: set[str]
) -> tuple[Path, Tournament, int]:
    """Return the first small (file, tournament, round) in a situation, preferring unused files."""
    paths = sorted((corpus / directory).glob("*.trf"))
    for path in [p for p in paths if p.name not in used] + [p for p in paths if p.name in used]:
        t = read_trf(path.read_text(encoding="utf-8"))
        wants_baku = situation is SITUATIONS["baku_informative"][1]
        if len(t.players) > MAX_PLAYERS or t.baku != wants_baku:
            continue
        for k in range(1, paired_rounds(t) + 1):
            if situation(t, state_before_round(t, k), k):
                return path, t, k
    raise LookupError(f"no case in {directory}")


def main(argv: list[str]) -> int:
    """Write every case."""
    corpus = Path(argv[0]) if argv else Path(__file__).resolve().parents[3] / "shared" / "corpus"
    HERE.mkdir(exist_ok=True)
    used: set[str] = set()
    for name, (directory, situation) in SITUATIONS.items():
        path, t, k = find_case(corpus, directory, situation, used)
        used.add(path.name)
        rules = "2017" if t.rules is RuleSet.DUTCH_2017 else "2026"
        case = f"dutch_{rules}_{name.removeprefix('rules2017_')}"
        source = f"{directory}/{path.name}, state before round {k}"
        header = f"### source: {source}; paired by bbpPairings\n"
        (HERE / f"{case}.trf").write_text(header + write_trf(state_before_round(t, k)))
        (HERE / f"{case}.expected").write_text(published(t, k))
        print(f"{case}: {directory}/{path.name} round {k}")
    for name, (directory, file, k, reason) in REGRESSIONS.items():
        t = read_trf((corpus / directory / file).read_text(encoding="utf-8"))
        rules = "2017" if t.rules is RuleSet.DUTCH_2017 else "2026"
        case = f"dutch_{rules}_{name}"
        header = (
            f"### source: {directory}/{file}, state before round {k}; paired by bbpPairings\n"
            f"### regression: {reason}\n"
        )
        (HERE / f"{case}.trf").write_text(header + write_trf(state_before_round(t, k)))
        (HERE / f"{case}.expected").write_text(published(t, k))
        print(f"{case}: {directory}/{file} round {k} (regression)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
