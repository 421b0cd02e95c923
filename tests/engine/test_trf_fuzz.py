"""Fuzzing the TRF reader: any text either loads or raises TrfFormatError, nothing else."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from pairing.errors import TrfFormatError
from pairing.model import Tournament
from pairing.trf import player_points, read_trf, write_trf

CORPUS = Path(
    os.environ.get("PAIRING_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)

def _player(tpn, sex, title, name, rating, fed, fide_id, birth, points, *entries):
    head = (
        f"001 {tpn:>4} {sex}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide_id:>11} {birth:<10} "
        f"{points:>4} {tpn:>4}"
    )
    return head + "".join(f"  {e}" for e in entries)


SEED_FILE = "\n".join(
    [
        "012 Fuzz seed",
        _player(1, "m", "GM", "Alpha, Anna", "2406", "NED", "12345678", "1990/01/01", "2.0",
                "   4 w 1", "   3 b =", "0000 - H"),
        _player(2, "w", "WIM", "Beta, Bert", "2376", "GER", "", "", "1.0",
                "0000 - U", "   4 b 0", "   3 w 0"),
        _player(3, " ", "", "Gamma, Gus", "2354", "", "", "", "2.5",
                "   5 b 1", "   1 w =", "   2 b 1"),
        _player(4, " ", "", "Delta, Dora", "", "", "", "", "1.0",
                "   1 b 0", "   2 w 1", "0000 - Z"),
        _player(5, " ", "", "Epsilon, Eve", "", "", "", "", "0.0",
                "   3 w 0", "0000 - -", "   6 w -"),
        _player(6, " ", "", "Zeta, Zed", "", "", "", "", "1.0",
                "0000 - Z", "0000 - Z", "   5 b +"),
        "XXR 5",
        "XXC white1",
        "162  W 1.0    D 0.5",
        "250      01.0 001 002 0001 0002",
        "260   1   5    1    2",
        "XXP 3 4",
        "240 H 004    1    2",
        "XXZ 3",
        "192 FIDE_DUTCH_2025",
    ]
) + "\n"

EXTRA_LINES = [
    "XXS W=3 D=1 PAB=2",
    "XXA    1  1.0  0.5",
    "BBW  2.0",
    "BBU  1.0",
    "142 7",
    "152 B",
    "092 FIDE_DUTCH_2017",
    "240 Z 003    5",
    "013 Team       1    2",
    "### comment",
    "",
]


def _seed_lines() -> list[str]:
    lines = SEED_FILE.splitlines() + EXTRA_LINES
    small = sorted(CORPUS.glob("dutch-*/drv_p01*.trf"))[:2]
    small += sorted(CORPUS.glob("dutch-*/gen_p007*.trf"))[:1]
    for path in small:
        lines += path.read_text(encoding="utf-8").splitlines()
    return lines


SEED_LINES = _seed_lines()
ALPHABET = " 0123456789.-+=wbWBHFUZLDXhfuzld#\t\r\n\x00é\u2028\ufeff"


def assert_reads_or_rejects(text: str) -> None:
    try:
        result = read_trf(text)
    except TrfFormatError as error:
        assert error.line >= 0 and error.column >= 0
        assert str(error).startswith(f"line {error.line}, column {error.column}: ")
        return
    assert isinstance(result, Tournament)
    # whatever loads must also write and load back to the same tournament; a blank points
    # column is written as the sum of the results (engines need it)
    expected = replace(
        result,
        players=tuple(
            p if p.declared_points is not None
            else replace(p, declared_points=player_points(result, p))
            for p in result.players
        ),
    )
    assert read_trf(write_trf(result)) == expected


def test_seed_file_loads():
    t = read_trf(SEED_FILE)
    assert len(t.players) == 6
    assert read_trf(write_trf(t)) == t


@st.composite
def mutated_line(draw: st.DrawFn) -> str:
    line = draw(st.sampled_from(SEED_LINES))
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "truncate", "extend"]))
        pos = draw(st.integers(0, max(len(line), 1)))
        char = draw(st.sampled_from(ALPHABET))
        if kind == "replace":
            line = line[:pos] + char + line[pos + 1 :]
        elif kind == "insert":
            line = line[:pos] + char + line[pos:]
        elif kind == "delete":
            line = line[:pos] + line[pos + 1 :]
        elif kind == "truncate":
            line = line[:pos]
        else:
            line = line + draw(st.text(ALPHABET, max_size=12))
    return line


FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(mutated_line(), max_size=12), st.sampled_from(["\n", "\r", "\r\n"]))
def test_mutated_corpus_lines(lines, newline):
    assert_reads_or_rejects(newline.join(lines))


@FUZZ
@given(st.data())
def test_seed_file_with_one_mutated_line(data):
    lines = SEED_FILE.splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    lines[index] = data.draw(mutated_line())
    if data.draw(st.booleans()):
        lines.insert(data.draw(st.integers(0, len(lines))), data.draw(st.sampled_from(SEED_LINES)))
    assert_reads_or_rejects("\n".join(lines))


@FUZZ
@given(st.text(ALPHABET, max_size=300))
def test_random_text(text):
    assert_reads_or_rejects(text)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(blob):
    assert_reads_or_rejects(blob.decode("utf-8", errors="replace"))
    assert_reads_or_rejects(blob.decode("latin-1"))


@FUZZ
@given(st.lists(st.sampled_from(SEED_LINES), max_size=20))
def test_shuffled_real_lines(lines):
    assert_reads_or_rejects("\n".join(lines))


CLI_FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
])


@CLI_FUZZ
@given(st.data())
def test_the_command_line_never_fails_unexpectedly(tmp_path, data):
    # Issue 18: a generator of malformed files found tracebacks and wrong successes. Whatever
    # the file, pairing it answers 0 (paired), 1 (no legal pairing) or 3 (invalid input,
    # naming the line and column): never 2 (an internal error) and never a traceback.
    import io

    from pairing.cli import main

    lines = SEED_FILE.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(lines) - 1))
        lines[index] = data.draw(mutated_line())
    path = tmp_path / "fuzz.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["--dutch", str(path), "-p"], stdout=out, stderr=err)
    assert code in (0, 1, 3), err.getvalue()
    if code == 3:
        assert "line " in err.getvalue() or "round " in err.getvalue(), err.getvalue()
