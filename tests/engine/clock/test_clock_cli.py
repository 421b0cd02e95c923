"""``python -m pairing --clock FILE``: the output and exit codes of ``--dutch``."""

from __future__ import annotations

import io

import pytest

from pairing.cli import main
from pairing.clock import mark_as_clock
from pairing.trf import write_trf

from .builders import game, tournament
from .test_clock_rules import backtracking_state


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def clock_file(tmp_path):
    path = tmp_path / "clock.trf"
    path.write_text(mark_as_clock(write_trf(backtracking_state())))
    return path


def test_pair_writes_pairs_white_first_and_the_bye_last(clock_file, tmp_path):
    code, out, _ = run("--clock", str(clock_file), "-p")
    assert (code, out) == (0, "3\n2 5\n4 1\n3 0\n")
    target = tmp_path / "out.txt"
    assert run("--clock", str(clock_file), "-p", str(target))[0] == 0
    assert target.read_text() == out


def test_l_explains_who_picked_whom_and_each_backtrack(clock_file):
    code, out, _ = run("--clock", str(clock_file), "-p", "-l")
    assert code == 0
    assert "backtrack: pair 2 <PN-3 (#2), PN-2 (#3)> undone" in out
    assert "passes over PN-2 (#3): temporarily incompatible" in out
    assert "picker PN-5 (#5), 2.0 points (first highest scorer after pivot 0)" in out


def test_c_repairs_a_finished_file(tmp_path):
    # round 2: <PN-1 #1, PN-4 #4>, both White once: PN-1 repeats White; <PN-2 #3, PN-3 #2> alike
    t = tournament(4, [[game(1, 3), game(4, 2)], [game(1, 4), game(2, 3)]], total_rounds=3)
    path = tmp_path / "done.trf"
    path.write_text(mark_as_clock(write_trf(t)))
    code, out, _ = run("--clock", str(path), "-c")
    assert (code, out) == (0, "2 of 2 rounds identical\n")
    t = tournament(4, [[game(1, 3), game(4, 2)], [game(4, 1), game(2, 3)]], total_rounds=3)
    path.write_text(mark_as_clock(write_trf(t)))
    code, out, _ = run("--clock", str(path), "-c")
    assert code == 1 and "round 2: colors differ" in out


def test_no_legal_pairing_exits_1(tmp_path):
    rounds = [[game(1, 3), game(4, 2)], [game(1, 2), game(3, 4)], [game(4, 1), game(2, 3)]]
    path = tmp_path / "stuck.trf"
    path.write_text(mark_as_clock(write_trf(tournament(4, rounds, total_rounds=5))))
    code, out, err = run("--clock", str(path), "-p")
    assert (code, out) == (1, "")
    assert "no valid pairing exists" in err


def test_invalid_input_exits_3_and_a_missing_file_5(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text("012 x\n001    1 m    A                                 2x00\n")
    assert run("--clock", str(bad), "-p")[0] == 3
    assert run("--clock", str(tmp_path / "none.trf"), "-p")[0] == 5


def test_a_file_without_the_master_colour_cannot_be_paired(tmp_path):
    path = tmp_path / "nocolour.trf"
    path.write_text("012 x\n001    1 m    A                                 2000\n"
                    "001    2 m    B                                 1900\n")
    code, _, err = run("--clock", str(path), "-p")
    assert code == 3 and "master colour" in err


def test_dutch_and_clock_are_exclusive_and_rules_belong_to_dutch(clock_file):
    with pytest.raises(SystemExit):
        main(["--dutch", str(clock_file), "--clock", str(clock_file), "-p"],
             stdout=io.StringIO(), stderr=io.StringIO())
    with pytest.raises(SystemExit):
        main(["--clock", str(clock_file), "-p", "--rules", "2017"],
             stdout=io.StringIO(), stderr=io.StringIO())
