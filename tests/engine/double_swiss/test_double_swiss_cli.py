"""``python -m pairing --double-swiss FILE``: output and exit codes as ``--dutch``."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from pairing.cli import main
from pairing.double_swiss import (
    read_double_swiss,
    recorded_match,
    state_before_match,
    write_double_swiss,
)

from .test_double_swiss_corpus import FOLDER, _need_corpus

FILE = FOLDER / "dsw_p07_r6_s14.trf"
UNPAIRABLE = FOLDER / "unpairable" / "dsw_p06_r5_s43_m05.trf"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_pairing_the_next_match_prints_the_pairs_white_in_game_1_first(tmp_path):
    _need_corpus()
    dt = read_double_swiss(FILE.read_text())
    path = tmp_path / "before5.trf"
    path.write_text(write_double_swiss(state_before_match(dt, 5)))
    code, out, err = run("--double-swiss", str(path), "-p")
    assert code == 0, err
    lines = out.splitlines()
    expected = recorded_match(dt, 5)
    assert int(lines[0]) == len(lines) - 1
    got_pairs = {tuple(map(int, line.split())) for line in lines[1:]}
    want = {(b.white, b.black) for b in expected.boards}
    if expected.bye:
        want.add((expected.bye, 0))
    assert got_pairs == want
    if expected.bye:
        assert lines[-1] == f"{expected.bye} 0"


def test_pairs_go_to_a_file_and_the_explanation_names_the_articles(tmp_path):
    _need_corpus()
    dt = read_double_swiss(FILE.read_text())
    path = tmp_path / "before6.trf"
    path.write_text(write_double_swiss(state_before_match(dt, 6)))
    out_file = tmp_path / "pairs.txt"
    code, out, _ = run("--double-swiss", str(path), "-p", str(out_file), "-l")
    assert code == 0
    assert out_file.read_text().splitlines()[0] == "3"
    assert "match 6 (last round: no [C7], [C8])" in out
    assert "Art. 3.6" in out and "Art. 4.3." in out


def test_checking_a_finished_file_replays_every_match():
    _need_corpus()
    code, out, _ = run("--double-swiss", str(FILE), "-c")
    assert (code, out.splitlines()[-1]) == (0, "6 of 6 matches identical")


def test_no_legal_pairing_exits_1():
    _need_corpus()
    code, out, err = run("--double-swiss", str(UNPAIRABLE), "-p")
    assert code == 1 and out == ""
    assert "no valid pairing" in err


def test_a_finished_event_has_no_next_match_to_pair():
    _need_corpus()
    code, _, err = run("--double-swiss", str(FILE), "-p")
    assert code == 3
    assert "plans 6 matches" in err


def record(tpn: int, *entries: str) -> str:
    """A 001 record with the round columns at 92, 102, ..."""
    head = f"001 {tpn:>4} m    {'Player ' + str(tpn):<33} 2000 {'':3} {'':>11} {'':10}  0.0     "
    return head + "".join(f"  {e}" for e in entries)


def test_invalid_input_names_line_and_column(tmp_path):
    path = tmp_path / "bad.trf"
    lines = [
        "012 x", "142 4", "192 FIDE_DOUBLESWISS",
        record(1, "0002 w 1", "0003 b 0"),
        record(2, "0001 b 0", "0001 w 1"),
        record(3, "0000 - Z", "0000 - Z"),
    ]
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("--double-swiss", str(path), "-p")
    assert code == 3 and out == ""
    assert "line 4, column 102: match 1: the two games name two opponents" in err


def test_a_dutch_file_is_not_a_double_swiss_file():
    _need_corpus()
    dutch = next((FOLDER.parent / "dutch-2026").glob("*.trf"))
    code, _, err = run("--double-swiss", str(dutch), "-p")
    assert code == 3
    assert "192 FIDE_DOUBLESWISS" in err


def test_missing_file_is_a_file_access_error(tmp_path):
    code, _, err = run("--double-swiss", str(tmp_path / "nope.trf"), "-p")
    assert code == 5 and "nope.trf" in err


def test_rules_option_is_refused():
    with pytest.raises(SystemExit) as exc:
        run("--double-swiss", "x.trf", "-p", "--rules", "2017")
    assert exc.value.code == 2


def test_the_module_runs_as_a_program():
    _need_corpus()
    done = subprocess.run(
        [sys.executable, "-m", "pairing", "--double-swiss", str(UNPAIRABLE), "-p"],
        capture_output=True, text=True,
    )
    assert done.returncode == 1
