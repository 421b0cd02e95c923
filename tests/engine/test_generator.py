"""The random tournament generator (``pairing.generator``) and ``python -m pairing -g``."""

from __future__ import annotations

import io
import re

import pytest

from pairing.checker import check_round
from pairing.cli import main
from pairing.errors import ConfigurationError, NoValidPairing
from pairing.generator import (
    Configuration,
    configuration_of_model,
    generate,
    parse_configuration,
)
from pairing.model import ResultCode
from pairing.outcomes import Outcome
from pairing.systems import DUTCH_2017, DUTCH_2026, system_of_file

EVERYTHING = """\
# every kind of entry, 3/1/0 scoring
PlayersNumber=40
RoundsNumber=7
HighestRating=2500
LowestRating=1500
UnratedRate=8
DrawPercentage=40
ForfeitRate=8
HalfPointByeRate=5
ZeroPointByeRate=8
RetiredRate=10
LateEntryRate=10
ForbiddenPairs=3
PointsForWin=3
PointsForDraw=1
PointsForPAB=1
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_configuration_file_reads_every_key():
    config = parse_configuration(EVERYTHING)
    assert (config.players, config.rounds, config.draw_percentage) == (40, 7, 40)
    assert (config.forfeit_rate, config.late_entry_rate, config.forbidden_pairs) == (8, 10, 3)
    points = config.point_system
    assert (points.win, points.draw, points.pairing_allocated_bye, points.half_point_bye) == (
        30, 10, 10, 10)


@pytest.mark.parametrize(
    "text, message",
    [
        ("PlayersNumber=40\nRoundsNumber=x\n", "line 2: RoundsNumber: 'x' is not a valid value"),
        ("# comment\nPlayers=40\n", "line 2: unknown key 'Players'"),
        ("PlayersNumber 40\n", "line 1: expected Key=Value"),
        ("PointsForWin=0.25\n", "line 1: PointsForWin: '0.25' is not a valid value"),
        ("ForfeitRate=0.5\n", "ForfeitRate is one in N"),
        ("PlayersNumber=1\n", "PlayersNumber must be at least 2"),
        ("PointsForZPB=0.5\nPointsForForfeitLoss=0\n", "162 gives both one value"),
    ],
)
def test_configuration_defects_name_their_line(text, message):
    with pytest.raises(ConfigurationError) as exc:
        parse_configuration(text)
    assert message in str(exc.value)


def test_same_seed_same_tournament_other_seed_other_tournament():
    config = parse_configuration(EVERYTHING)
    first = DUTCH_2026.write(generate(config, DUTCH_2026, seed=11))
    assert DUTCH_2026.write(generate(config, DUTCH_2026, seed=11)) == first
    assert DUTCH_2026.write(generate(config, DUTCH_2026, seed=12)) != first


def test_generated_tournament_holds_every_kind_of_entry_and_replays_identically():
    config = parse_configuration(EVERYTHING)
    t = generate(config, DUTCH_2026, seed=3)
    system, read = system_of_file(DUTCH_2026.write(t))
    assert read.point_system == t.point_system and len(read.forbidden_pairs) == 3
    seen = {Outcome.of_entry(e) for p in read.players for e in p.rounds}
    assert {Outcome.HALF_POINT_BYE, Outcome.ZERO_POINT_BYE, Outcome.ABSENT, Outcome.FORFEIT_WIN,
            Outcome.FORFEIT_LOSS, Outcome.DRAW, Outcome.WIN} <= seen
    assert sum(p.rating is None for p in read.players) == 40 // 8
    absent = [[Outcome.of_entry(e) is Outcome.ABSENT for e in p.rounds] for p in read.players]
    late = [a for a in absent if a[0] and not a[-1]]
    withdrawn = [a for a in absent if a[-1] and not a[0]]
    assert len(late) == 4 and len(withdrawn) == 4
    for history in late:  # absent until arrival, then present (C.04.2 Art. 2.4)
        arrival = history.index(False)
        assert not any(history[arrival:])
    for k in system.replayable_rounds(read):
        state = system.state_before(read, k)
        recorded = system.recorded_round(read, k)
        assert check_round(state, recorded) == []
        assert system.pair(state) == recorded


def test_generated_file_passes_the_checker_from_the_command_line(tmp_path):
    config = tmp_path / "model.cfg"
    config.write_text(EVERYTHING)
    out = tmp_path / "random.trf"
    assert run("--dutch", "-g", str(config), "-o", str(out), "-s", "5") == (0, "", "")
    text = out.read_text()
    assert text.startswith("012 Random tournament, seed 5\n142 7\n")
    assert "162  W 3.0    D 1.0    P 1.0" in text and text.count("\nXXP ") == 3
    code, report, _ = run("--dutch", str(out), "-c")
    assert (code, report) == (0, "7 of 7 rounds identical\n")


def test_without_seed_one_is_drawn_and_written_so_the_file_can_be_made_again(tmp_path):
    config = tmp_path / "small.cfg"
    config.write_text("PlayersNumber=10\nRoundsNumber=3\nForfeitRate=5\n")
    first = tmp_path / "first.trf"
    assert run("--dutch", "-g", str(config), "-o", str(first))[0] == 0
    seed = re.match(r"012 Random tournament, seed (\d+)\n", first.read_text()).group(1)
    again = tmp_path / "again.trf"
    assert run("--dutch", "-g", str(config), "-o", str(again), "-s", seed)[0] == 0
    assert again.read_text() == first.read_text()


def test_without_configuration_one_is_drawn_from_the_seed(tmp_path):
    out = tmp_path / "drawn.trf"
    assert run("--dutch", "-g", "-o", str(out), "-s", "2") == (0, "", "")
    t = system_of_file(out.read_text())[1]
    assert 15 <= len(t.players) <= 215 and 5 <= t.total_rounds <= 15
    assert run("--dutch", str(out), "-c")[0] == 0


def test_model_file_keeps_its_players_rounds_and_point_system(tmp_path):
    model_config = parse_configuration(EVERYTHING)
    model = generate(model_config, DUTCH_2026, seed=8)
    config = configuration_of_model(model, 7)
    assert (config.players, config.rounds, config.point_system) == (40, 7, model.point_system)
    assert config.unrated_rate == 8 and 0 < config.draw_percentage <= 100
    path = tmp_path / "model.trf"
    path.write_text(DUTCH_2026.write(model))
    out = tmp_path / "again.trf"
    assert run("--dutch", str(path), "-g", "-o", str(out), "-s", "9") == (0, "", "")
    again = system_of_file(out.read_text())[1]
    assert [(p.tpn, p.name, p.rating) for p in again.players] == [
        (p.tpn, p.name, p.rating) for p in model.players]
    assert again.players != model.players  # played again


def test_2017_rules_are_written_in_the_file(tmp_path):
    out = tmp_path / "old.trf"
    config = tmp_path / "c.cfg"
    config.write_text("PlayersNumber=9\nRoundsNumber=3\n")
    assert run("--dutch", "-g", str(config), "-o", str(out), "-s", "1", "--rules", "2017")[0] == 0
    system, t = system_of_file(out.read_text())
    assert system is DUTCH_2017
    assert run("--dutch", str(out), "-c")[0] == 0


def test_a_round_without_legal_pairing_exits_1_naming_the_round(tmp_path):
    config = tmp_path / "two.cfg"
    config.write_text("PlayersNumber=2\nRoundsNumber=2\n")
    code, out, err = run("--dutch", "-g", str(config), "-o", str(tmp_path / "x.trf"), "-s", "1")
    assert (code, out) == (1, "")
    assert "round 2 of the generated tournament" in err
    with pytest.raises(NoValidPairing):
        generate(Configuration(players=2, rounds=2), DUTCH_2026, seed=1)


def test_a_bad_configuration_exits_3_naming_the_file_and_line(tmp_path):
    config = tmp_path / "bad.cfg"
    config.write_text("PlayersNumber=20\nDrawPercentage=lots\n")
    code, _, err = run("--dutch", "-g", str(config), "-o", str(tmp_path / "x.trf"))
    assert code == 3
    assert err == f"{config}: line 2: DrawPercentage: 'lots' is not a valid value\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["--dutch", "-g", "-s", "1"],  # no -o
        ["--dutch", "model.trf", "-g", "c.cfg", "-o", "x.trf"],  # model and configuration
        ["--dutch", "-p"],  # no file to pair
        ["--dutch", "a.trf", "-p", "-s", "3"],  # -s without -g
        ["--dutch", "-g", "-o", "x.trf", "-l"],
    ],
)
def test_options_that_do_not_go_together_are_refused(argv):
    with pytest.raises(SystemExit) as exc:
        main(argv, stdout=io.StringIO(), stderr=io.StringIO())
    assert exc.value.code == 2


def test_the_generator_plays_one_game_a_round(tmp_path):
    code, _, err = run("--double-swiss", "x", "-g", "-o", str(tmp_path / "x.trf"))
    assert code in (3, 5)  # the model cannot be read, or the system is refused
    from pairing.systems import DOUBLE_SWISS

    with pytest.raises(ValueError, match="one game a round"):
        generate(Configuration(players=4, rounds=1), DOUBLE_SWISS, seed=1)


def test_absences_are_written_as_the_corpus_writes_them():
    t = generate(parse_configuration(EVERYTHING), DUTCH_2026, seed=3)
    text = DUTCH_2026.write(t)
    assert "0000 - -" in text and "0000 - H" in text and "0000 - Z" in text
    assert not any(e.result is ResultCode.PAIRING_ALLOCATED_BYE and e.opponent is not None
                   for p in t.players for e in p.rounds)
