"""The bbpPairings-compatible command line: options, output format and exit codes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pairing.cli import main
from pairing.errors import NoValidPairing, TrfFormatError
from pairing.model import Board, RoundPairing, RuleSet
from pairing.replay import recorded_round, state_before_round
from pairing.systems import DutchSystem
from pairing.trf import next_round_number, read_trf, write_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
SMALL = CORPUS / "dutch-2026" / "drv_p010_r05_i0062.trf"
needs_corpus = pytest.mark.skipif(not SMALL.is_file(), reason="no corpus")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_missing_file_is_a_file_access_error(tmp_path):
    code, _, err = run("--dutch", str(tmp_path / "nope.trf"), "-p")
    assert code == 5
    assert "nope.trf" in err


def test_invalid_trf_names_line_and_column(tmp_path):
    path = tmp_path / "bad.trf"
    path.write_text("012 x\n001    1 m    A                                 2x00\n")
    code, out, err = run("--dutch", str(path), "-p")
    assert code == 3
    assert out == ""
    assert "line 2, column 49" in err


def test_non_utf8_file_is_invalid_input_naming_line_and_byte(tmp_path):
    # Issue 28: the CLI said neither where nor which byte; it now says both on one line, as the
    # web app's upload does (the one decoder, ``pairing.trf.decode_file``).
    path = tmp_path / "latin.trf"
    path.write_bytes(b"012 Open\r\n022 Caf\xe9\r\n001    1\n")
    for action in ("-c", "-p"):
        code, out, err = run("--dutch", str(path), action)
        assert (code, out) == (3, "")
        assert err == f"{path}: line 2, byte 18: the file is not valid UTF-8 (byte 0xE9)\n"


def test_an_action_is_required(tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["--dutch", "x.trf"], stdout=io.StringIO(), stderr=io.StringIO())
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        main(["--dutch", "x.trf", "-p", "-c"])


def test_module_entry_point_runs(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pairing", "--dutch", str(tmp_path / "none.trf"), "-p"],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 5


# With a stand-in engine (a test double in place of the Dutch system's), the CLI's own logic:


@pytest.fixture
def stand_in_engine(monkeypatch):
    """Install a stand-in Dutch engine that answers with the rounds of a recorded file."""

    def install(full, *, fail=False, swap_round=None):
        calls = []

        def pair_round(system, t, *, explain=False):
            k = next_round_number(t)
            calls.append((k, system.rules, explain))
            if fail:
                raise NoValidPairing("no pairing satisfies C1-C3")
            recorded = recorded_round(full, k)
            boards = recorded.boards
            if k == swap_round:
                boards = (Board(boards[0].black, boards[0].white), *boards[1:])
            return RoundPairing(
                round=k, boards=boards, bye=recorded.bye,
                explanation=(f"round {k}", "bracket 1") if explain else (),
            )

        monkeypatch.setattr(DutchSystem, "pair", pair_round)
        return calls

    return install


@needs_corpus
def test_pair_writes_engine_format_in_board_order(tmp_path, stand_in_engine):
    full = read_trf(SMALL.read_text())
    calls = stand_in_engine(full)
    state = tmp_path / "round4.trf"
    state.write_text(write_trf(state_before_round(full, 4)))
    out_file = tmp_path / "pairs.txt"
    code, out, _ = run("--dutch", str(state), "-p", str(out_file))
    assert code == 0 and out == ""
    lines = out_file.read_text().splitlines()
    # bbpPairings v6.0.0's -p output for this state: the boards in board order (C.04.2 Art.
    # 3.6: 3 has 2.5 points; 2 and 9 have 2, their opponents 2 and 1; 5 has 1), not sorted
    # by the lower TPN (6 2, 4 3, 8 5, 10 9); the PAB last
    assert lines == ["5", "4 3", "6 2", "10 9", "8 5", "7 0"]
    assert calls == [(4, RuleSet.DUTCH_2026, False)]


@needs_corpus
def test_pair_to_stdout_with_explanation_and_rules(tmp_path, stand_in_engine):
    full = read_trf(SMALL.read_text())
    calls = stand_in_engine(full)
    state = tmp_path / "round1.trf"
    state.write_text(write_trf(state_before_round(full, 1)))
    code, out, _ = run("--dutch", str(state), "-p", "-l", "--rules", "2017")
    assert code == 0
    assert out.splitlines() == [*recorded_round(full, 1).engine_lines(), "round 1", "bracket 1"]
    assert calls == [(1, RuleSet.DUTCH_2017, True)]


@needs_corpus
def test_pair_without_legal_pairing_exits_1(tmp_path, stand_in_engine):
    full = read_trf(SMALL.read_text())
    stand_in_engine(full, fail=True)
    state = tmp_path / "round2.trf"
    state.write_text(write_trf(state_before_round(full, 2)))
    code, out, err = run("--dutch", str(state), "-p")
    assert code == 1 and out == ""
    assert "no valid pairing" in err


@needs_corpus
def test_check_of_identical_rounds_exits_0(stand_in_engine):
    full = read_trf(SMALL.read_text())
    calls = stand_in_engine(full)
    code, out, _ = run("--dutch", str(SMALL), "-c")
    assert code == 0
    assert out.splitlines() == ["5 of 5 rounds identical"]
    assert [k for k, _, _ in calls] == [1, 2, 3, 4, 5]


@needs_corpus
def test_check_reports_the_differing_round(stand_in_engine):
    full = read_trf(SMALL.read_text())
    stand_in_engine(full, swap_round=4)
    code, out, _ = run("--dutch", str(SMALL), "-c")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "round 4: colors differ"
    assert lines[1].startswith("  expected: ") and lines[2].startswith("  got:      ")
    assert lines[-1] == "4 of 5 rounds identical"


# With the real engine:


@needs_corpus
def test_real_engine_pairs_round_one(tmp_path):
    full = read_trf(SMALL.read_text())
    state = tmp_path / "round1.trf"
    state.write_text(write_trf(state_before_round(full, 1)))
    code, out, _ = run("--dutch", str(state), "-p")
    assert code == 0
    lines = out.splitlines()
    assert int(lines[0]) == len(lines) - 1
    seen = [int(x) for line in lines[1:] for x in line.split() if x != "0"]
    assert sorted(seen) == list(range(1, 11))


@needs_corpus
def test_real_engine_checks_a_file(tmp_path):
    code, out, _ = run("--dutch", str(SMALL), "-c", "-l", str(tmp_path / "why.txt"))
    assert code in (0, 1)
    assert out.splitlines()[-1].endswith("of 5 rounds identical")


TWO_PLAYERS = "".join(
    f"001 {tpn:>4} m    {name:<33} 2000 NED {'':>11} {'':10} {points:>4} {tpn:>4}  {entry}\n"
    for tpn, name, points, entry in ((1, "A", "1.0", "   2 w 1"), (2, "B", "0.0", "   1 b 0"))
)
HUGE = "9" * 5000  # more digits than Python converts to an int by default


@pytest.mark.parametrize(
    "text, where",
    [
        ("", "line 1, column 1: no player record"),
        ("012 Only a header\nXXR 5\nXXC white1\n", "no player record"),
        ("garbage\n\x7fmore garbage\n", "no player record"),
        ("012 Open\n".encode("utf-16-le").decode("utf-8"), "NUL character"),
        (TWO_PLAYERS + f"XXR {HUGE}\n", "line 3, column 5"),
        (TWO_PLAYERS + f"142 {HUGE}\n", "line 3, column 5"),
        (TWO_PLAYERS + f"XXZ {HUGE}\n", "line 3"),
        (TWO_PLAYERS + f"240 H {HUGE}\n", "line 3"),
        (TWO_PLAYERS + f"XXA {HUGE} 1.0\n", "line 3"),
        (TWO_PLAYERS + f"XXP 1 {HUGE}\n", "line 3"),
        (TWO_PLAYERS + f"260 {HUGE}\n", "line 3"),
        (TWO_PLAYERS + "XXR 1\n", "round 2 cannot be paired: the file plans 1 rounds"),
        (TWO_PLAYERS + "162  W 3.0    D 1.0\nBBW  2.0\n",
         "line 4, column 6: BBW gives the win 2.0 points, but line 3 (162) gives 3.0"),
    ],
)
def test_malformed_files_exit_3_with_a_message(tmp_path, text, where):
    # Issue 18: each of these once raised a traceback or paired a round with exit 0.
    path = tmp_path / "bad.trf"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("--dutch", str(path), "-p")
    assert (code, out) == (3, "")
    assert where in err and "Traceback" not in err


def test_point_systems_written_twice_must_agree():
    # TRF-2026 162 and bbpPairings' BB? lines may both state the point system (the edge files
    # of the corpus do); when they agree the file reads, else it names both lines.
    agreeing = TWO_PLAYERS + "162  W 1.0    D 0.5    P 0.0\nBBW  1.0\nBBD  0.5\nBBU  0.0\n"
    assert read_trf(agreeing).point_system.pairing_allocated_bye == 0
    with pytest.raises(TrfFormatError, match="BBU gives the pairing allocated bye 0.5 points, "
                       "but line 3 \\(162\\) gives 0.0"):
        read_trf(TWO_PLAYERS + "162  W 1.0    D 0.5    P 0.0\nBBU  0.5\n")
