"""The two-column Double-Swiss TRF format: values read, defects named by line and column,
and write(read(x)) == x."""

from __future__ import annotations

import pytest

from pairing.double_swiss import read_double_swiss, state_before_match, write_double_swiss
from pairing.double_swiss.trf import recorded_match
from pairing.errors import TrfFormatError
from pairing.model import Board, ResultCode

from .builders import event
from .test_double_swiss_cli import record

HEAD = [
    "012 Test", "142 4", "152 W",
    "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.5    H 1.0    F 2.0",
    "192 FIDE_DOUBLESWISS",
]


def text(*records: str, head: list[str] = HEAD) -> str:
    return "\n".join([*head, *records]) + "\n"


def with_points(line: str, points: str) -> str:
    return line[:80] + points.rjust(4) + line[84:]


def test_a_match_is_two_columns_with_game_and_bye_values():
    t = text(
        with_points(record(1, "0002 w =", "0002 b 0"), "0.5"),
        with_points(record(2, "0001 b 0", "0001 w 0"), "0.0"),  # ½-0 and 0-0
        with_points(record(3, "0000 - U", "0000 - U"), "1.5"),
    )
    dt = read_double_swiss(t)
    assert [dt.score(p) for p in (1, 2, 3)] == [5, 0, 15]
    assert dt.total_matches == 2 and dt.point_system.half_point_bye == 10
    assert recorded_match(dt, 1).boards == (Board(1, 2),) and recorded_match(dt, 1).bye == 3
    assert write_double_swiss(dt) == t


@pytest.mark.parametrize(
    ("records", "where"),
    [
        ((record(1, "0002 w 1", "0002 w 0"), record(2, "0001 b 0", "0001 b 1")),
         "line 6, column 107: match 1: the colours of the two games do not alternate"),
        ((record(1, "0000 - H", "0000 - Z"), record(2)),
         "line 6, column 109: match 1: a bye or absence fills both columns"),
        ((record(1, "0002 w 1", "0000 - Z"), record(2, "0001 b 0", "0000 - Z")),
         "line 6, column 92: match 1: one game has no opponent"),
        ((record(1, "0002 w 1", "0002 b 1"), record(2, "0001 b =", "0001 w 0")),
         "line 6, column 99: match 1: opponent 2: game 1 has an inconsistent result"),
        ((record(1, "0002 w 1"), record(2, "0001 b 0")),
         "line 6, column 102: match 1: game 2 column missing"),
        ((with_points(record(1, "0002 w 1", "0002 b ="), "2.0"),
          record(2, "0001 b 0", "0001 w =")),
         "line 6, column 81: points 2.0 do not match the results (1.5)"),
    ],
)
def test_defects_are_named_by_line_and_column(records, where):
    with pytest.raises(TrfFormatError) as exc:
        read_double_swiss(text(*records))
    assert where in str(exc.value)


def test_a_file_without_the_192_record_is_refused():
    with pytest.raises(TrfFormatError, match="192 FIDE_DOUBLESWISS"):
        read_double_swiss(text(record(1), head=HEAD[:-1]))


def test_an_unknown_162_symbol_is_refused():
    head = [*HEAD[:3], "162  W 1.0    Q 0.5", HEAD[-1]]
    with pytest.raises(TrfFormatError, match="line 4, column 15: 162: unknown symbol 'Q'"):
        read_double_swiss(text(record(1), head=head))


def test_the_pab_defaults_to_a_win_and_a_draw():
    dt = read_double_swiss(text(record(1), head=[*HEAD[:3], "162  W 3.0    D 1.0", HEAD[-1]]))
    assert dt.point_system.pairing_allocated_bye == 40


def test_built_events_are_written_back_and_read_again():
    dt = event(5, ["1-2 1h, 3-4 +-, 5 U", "1-3 dd, 2-5 z=, 4 H"], preset={1: "Z"})
    again = read_double_swiss(write_double_swiss(dt))
    assert again.matches == dt.matches


def test_the_state_before_a_match_keeps_its_preset_byes_only():
    dt = event(4, ["1-2 ==, 3-4 ==", "1-3 ==, 2 H, 4 Z"])
    before = state_before_match(dt, 2)
    assert before.next_match_number() == 2
    assert [len(before.matches_of(p)) for p in (1, 2, 3, 4)] == [1, 2, 1, 2]
    assert before.matches_of(2)[1].bye is ResultCode.HALF_POINT_BYE
