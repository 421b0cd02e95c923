"""The public checker page: a TRF file re-paired round by round (by a job of the task queue:
tests/web/test_checker_jobs.py), nothing of the events stored, never a 500."""

from __future__ import annotations

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from pairing.model import Player as EnginePlayer, Tournament as EngineTournament
from pairing.trf import write_trf
from tournaments import checker, services
from tournaments.models import AuditEntry, Game, Player, Round, Tournament
from tournaments.services import pairing_changes

from .conftest import make_tournament
from .test_clock import clock_event, play as play_clock
from .test_double_swiss import play as play_match
from .test_explain import played
from .test_public import text_of

pytestmark = pytest.mark.django_db

URL = "/check/"


def upload(client, content: bytes | str, name: str = "event.trf", **fields):
    if isinstance(content, str):
        content = content.encode()
    return client.post(URL, {"file": SimpleUploadedFile(name, content), **fields}, follow=True)


def counts() -> tuple[int, ...]:
    return (
        Tournament.objects.count(), Player.objects.count(), Round.objects.count(),
        Game.objects.count(), AuditEntry.objects.count(),
    )


def test_the_page_offers_the_form_to_anyone(client, arbiter):
    page = client.get(URL)
    assert page.status_code == 200
    assert 'enctype="multipart/form-data"' in page.content.decode()
    assert reverse("check") in client.get("/").content.decode()


def test_a_file_paired_by_the_rules_is_identical_round_by_round(client, arbiter):
    t = played(arbiter, played_rounds=3)
    trf = services.export_trf(t)
    before = counts()

    page = upload(client, trf)

    text = text_of(page)
    assert "3 of 3 rounds as the rules pair them" in text
    assert "FIDE Dutch system, 2026 rules" in text
    assert "Round 1 : same pairing." in text and "Round 3 : same pairing." in text
    assert counts() == before  # nothing stored


def test_a_pairing_made_by_hand_is_shown_with_the_rules_and_why(client, arbiter):
    t = played(arbiter, played_rounds=1)
    rnd = services.pair_next_round(t, arbiter)
    text = pairing_changes.pairing_text(rnd)
    (white1, black1), (white2, _) = pairing_changes.parse_pairing(text)[0][:2]
    boards, bye = pairing_changes.parse_pairing(pairing_changes.swap_in_text(text, white1, white2))
    pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=bye, accept_warnings=True)
    services.publish_round(rnd, arbiter)
    games = [g for g in rnd.games.order_by("board") if g.board is not None]
    services.set_results(rnd, arbiter, {g.pk: "1-0" for g in games})
    services.finish_round(rnd, arbiter)

    page = upload(client, services.export_trf(t))

    text = text_of(page)
    assert "1 of 2 rounds as the rules pair them" in text
    assert "Round 2: other pairs" in text
    by_tpn = {p.tpn: p.name for p in t.players.all()}
    section = text.split("Round 2: other pairs")[1]
    assert "In the file only:" in section and "By the rules instead:" in section
    rules_part = section.split("By the rules instead:")[1]
    assert f"{by_tpn[white1]} ({white1}) – {by_tpn[black1]} ({black1})" in rules_part
    assert "Why the rules pair round 2 so" in section
    assert '<table class="list why-pairs">' in page.content.decode()


def test_the_rules_can_be_chosen(client, arbiter):
    t = played(arbiter, played_rounds=2)
    page = upload(client, services.export_trf(t), rules="2017")
    assert "FIDE Dutch system, 2017 rules" in text_of(page)


def test_a_clock_file_is_checked_by_the_clock_system(client, arbiter):
    t = clock_event(arbiter, players=8, rounds=4)
    services.draw_initial_color(t, arbiter, random.Random(2))
    for _ in range(2):
        play_clock(services.pair_next_round(t, arbiter), arbiter, random.Random(3))

    text = text_of(upload(client, services.export_trf(t)))

    assert "Clock (Italian-Swiss) system" in text
    assert "2 of 2 rounds as the rules pair them" in text


def test_a_double_swiss_file_is_checked_match_by_match(client, arbiter):
    t = make_tournament(arbiter, players=10, rounds=4, pairing_system="dswiss")
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    for _ in range(2):
        play_match(services.pair_next_round(t, arbiter), arbiter, random.Random(4))

    text = text_of(upload(client, services.export_trf(t)))

    assert "FIDE Double-Swiss system (C.04.5)" in text
    assert "2 of 2 matches as the rules pair them" in text
    assert "Match 1 : same pairing." in text


def test_a_bad_file_gets_the_readers_line_and_column(client, arbiter):
    t = played(arbiter, played_rounds=1)
    lines = services.export_trf(t).splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("001"))
    lines[row] = lines[row][:84] + "9.9" + lines[row][87:]  # the points column, over the maximum

    page = upload(client, "\n".join(lines))

    assert page.status_code == 200
    text = text_of(page)
    assert "This is not a TRF file the engine reads: line" in text
    assert f"line {row + 1}, column" in text


def test_a_text_that_is_not_trf_is_refused_plainly(client, arbiter):
    text = text_of(upload(client, "name,rating\nAnn,2000\n"))
    assert "This is not a TRF file the engine reads" in text or "no player" in text.lower()


def engine_file(players: int, rounds: int = 0) -> str:
    """A TRF file of ``players`` players and ``rounds`` rounds of 1-2, 3-4, ... every round."""
    from pairing.model import Color, ResultCode, RoundEntry

    def entries(tpn: int) -> tuple:
        other = tpn + 1 if tpn % 2 else tpn - 1
        if other > players:
            return (RoundEntry(None, None, ResultCode.ZERO_POINT_BYE),) * rounds
        colour = Color.WHITE if tpn % 2 else Color.BLACK
        return (RoundEntry(other, colour, ResultCode.DRAW),) * rounds

    people = tuple(
        EnginePlayer(tpn=i, name=f"P{i}", rating=2000, rounds=entries(i))
        for i in range(1, players + 1)
    )
    return write_trf(EngineTournament(players=people, total_rounds=max(rounds, 1) + 1))


def test_too_many_players_are_refused_with_a_clear_message(client, arbiter):
    text = text_of(upload(client, engine_file(checker.MAX_PLAYERS + 1)))
    assert f"The file has {checker.MAX_PLAYERS + 1} players; the checker takes up to" in text


def test_too_many_rounds_are_refused_with_a_clear_message(client, arbiter):
    text = text_of(upload(client, engine_file(4, checker.MAX_ROUNDS + 1)))
    assert f"The file has {checker.MAX_ROUNDS + 1} paired rounds; the checker takes up to" in text


def test_a_file_over_2_mb_is_refused(client, arbiter):
    text = text_of(upload(client, b"012 big\n" + b"x" * 2_100_000))
    assert "The file is larger than 2 MB." in text


FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def mutated(draw, files: list[str]) -> bytes:
    text = draw(st.sampled_from(files))
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        how = draw(st.sampled_from(["char", "cut", "drop", "dup", "swap"]))
        if how == "char" and line:
            j = draw(st.integers(0, len(line) - 1))
            c = draw(st.sampled_from(list("0123456789 -+=wbWB.X\tHUFZ")))
            lines[i] = line[:j] + c + line[j + 1:]
        elif how == "cut":
            lines[i] = line[: draw(st.integers(0, len(line)))]
        elif how == "drop":
            del lines[i]
            if not lines:
                lines = [""]
        elif how == "dup":
            lines.insert(i, line)
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines).encode()


def test_mutated_files_never_break_the_page(client, arbiter):
    dutch = played(arbiter, players=7, rounds=3, played_rounds=2)
    ds = make_tournament(arbiter, players=6, rounds=3, pairing_system="dswiss")
    services.draw_initial_color(ds, arbiter, rng=random.Random(1))
    play_match(services.pair_next_round(ds, arbiter), arbiter, random.Random(4))
    base_files = [services.export_trf(dutch), services.export_trf(ds)]

    @FUZZ
    @given(st.one_of(mutated(base_files), st.binary(max_size=300)))
    def check(content):
        response = upload(client, content)  # the test client raises on an exception (a 500)
        assert response.status_code == 200

    check()
