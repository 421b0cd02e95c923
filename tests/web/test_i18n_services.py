"""The services' messages in French (issue 20): every kind of refusal the domain layer gives a
person is French when the request is, keeps the FIDE article it cites, and stays English for an
English request; the audit trail stores English and is read in the reader's language."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from pairing.checker import ARTICLE
from pairing.text import Text
from tests.web.conftest import make_tournament
from tests.web.test_corrections import board1, play_round, start
from tests.web.test_i18n import FR, english_left, visible_text
from tournaments import audit, fide_list, queries, sentences, services
from tournaments.models import (
    MANUAL_NOTE_LENGTH,
    AuditEntry,
    Game,
    Player,
    Result,
    Round,
    Tournament,
)
from tournaments.services import (
    ServiceError,
    bulk,
    corrections,
    pairing_changes,
    players,
    rounds,
    trf_import,
)

pytestmark = pytest.mark.django_db

NOBODY = SimpleNamespace(name="", place="")
CSV_CODES = tuple(sorted(set(services.CSV_COLUMNS) | set(services.CSV_COLUMNS.values()),
                         key=len, reverse=True))


def french_left(text: str, strip=()) -> list[str]:
    """English words left in ``text`` once the data are taken out: the players' and
    tournaments' names, and what the case says is not the services' (an engine's sentence, a
    column code the file must use)."""
    for data in [*strip, *Player.objects.values_list("name", flat=True)]:
        if data:
            text = text.replace(str(data), " ")
    text = re.sub(r"\bPlayer [A-Z]\b", " ", text.replace("Test Open", " "))  # make_tournament's
    return english_left(text, NOBODY)


def cites(text: str, article: str) -> bool:
    """Whether ``text`` cites ``article`` ('C.04.2 Art. 4.3'; French writes 'art.')."""
    return article.lower() in text.lower()


CASES = []


def case(english: str, *articles: str):
    """Register a refusal: ``english`` is a part of its English message, ``articles`` what it
    cites. The function builds the situation and returns the call refused (or the call and a
    function giving the texts to take out: an engine's sentences, codes)."""

    def register(build):
        CASES.append(pytest.param(build, english, articles, id=build.__name__))
        return build

    return register


def pab_round(arbiter):
    """Seven players: round 1 published with a pairing-allocated bye."""
    t = start(arbiter, players=7)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return t, rnd


def played(arbiter, count: int, **kwargs):
    t = start(arbiter, **kwargs)
    for _ in range(count):
        play_round(t, arbiter)
    return t


def dswiss(arbiter):
    t = make_tournament(arbiter, players=8, rounds=5, pairing_system="dswiss")
    services.draw_initial_color(t, arbiter, random.Random(1))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return t, rnd


def a_board(rnd: Round) -> Game:
    return rnd.games.select_related("white", "black").filter(board__isnull=False).first()


# ---------------------------------------------------------------------------------------------
# tournaments.services


@case("error(s), nothing was saved")
def csv_rows_refused(arbiter):
    t = make_tournament(arbiter, players=0)
    text = "name,rating,federation\nDupont,abc,SUI\nKeller,2100,SUI,extra\n\"Rossi\nLia\",1,SUI\n"
    return lambda: services.import_players_csv(t, arbiter, text), lambda: CSV_CODES


@case("was removed meanwhile")
def player_removed_meanwhile(arbiter):
    t = make_tournament(arbiter, players=3)
    player = t.players.get(tpn=3)
    services.remove_player(t.players.get(tpn=3), arbiter)
    return lambda: services.withdraw_player(player, arbiter)


@case("was changed meanwhile by someone else")
def settings_changed_meanwhile(arbiter):
    t = make_tournament(arbiter, players=2, place="Genève")
    field = str(t._meta.get_field("place").verbose_name)
    return (lambda: services.update_tournament(t, arbiter, loaded={"place": "Sion"}, place="Bulle"),
            lambda: [field, "Genève", "Sion"])


@case("has been paired: the pairing system is fixed")
def pairing_system_fixed(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.update_tournament(t, arbiter, pairing_system="2017")


@case("Baku acceleration", "C.04.7")
def baku_fixed(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.update_tournament(t, arbiter, baku_acceleration=True)


@case("has already been paired")
def fewer_rounds_than_paired(arbiter):
    t = played(arbiter, 2)
    return lambda: services.update_tournament(t, arbiter, rounds=1)


@case("Unknown player field(s)")
def unknown_player_field(arbiter):
    t = make_tournament(arbiter, players=0)
    return lambda: services.add_player(t, arbiter, name="Dupont", colour="w"), lambda: ["colour"]


@case("A player needs a name")
def player_without_a_name(arbiter):
    t = make_tournament(arbiter, players=0)
    label = str(Player._meta.get_field("name").verbose_name)
    return lambda: services.add_player(t, arbiter, name="  "), lambda: [label]


@case("at most 3 players")
def too_many_players(arbiter, monkeypatch):
    monkeypatch.setattr(players, "MAX_PLAYERS", 3)
    t = make_tournament(arbiter, players=3)
    return lambda: services.add_player(t, arbiter, name="Dupont")


@case("admit the player as a late entry", "C.04.2 Art. 2.4")
def registration_after_round_1(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.add_player(t, arbiter, name="Dupont")


@case("a rating is changed only by a correction", "C.04.2 Art. 4.3.3")
def rating_after_round_4(arbiter):
    t = played(arbiter, 3)
    services.pair_next_round(t, arbiter)
    player = t.players.get(tpn=1)
    return lambda: services.update_player(player, arbiter, rating=2000)


@case("withdraw the player instead")
def removal_after_round_1(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.remove_player(t.players.get(tpn=1), arbiter)


@case("TPNs can no longer change", "C.04.2 Art. 2.3")
def renumbering_after_round_4(arbiter):
    t = played(arbiter, 3)
    services.pair_next_round(t, arbiter)
    return lambda: services.renumber_players(t, arbiter)


@case("the initial colour is final")
def colour_drawn_again(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.draw_initial_color(t, arbiter)


@case("the player can arrive in round 2 at the earliest")
def late_entry_too_early(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.admit_late_entry(t, arbiter, arrival_round=1, name="Dupont")


@case("The tournament has only 5 rounds")
def late_entry_after_the_last_round(arbiter):
    t = start(arbiter)
    return lambda: services.admit_late_entry(t, arbiter, arrival_round=9, name="Dupont")


@case("on its grid before round 1 (Appendix A)")
def clock_late_entry(arbiter):
    t = make_tournament(arbiter, players=8, pairing_system="clock")
    services.draw_initial_color(t, arbiter, random.Random(1))
    services.pair_next_round(t, arbiter)
    return lambda: services.admit_late_entry(t, arbiter, arrival_round=2, name="Dupont")


@case("a withdrawal takes effect from round 2 at the earliest")
def withdrawal_too_early(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.withdraw_player(t.players.get(tpn=1), arbiter, from_round=1)


@case("withdrew before round 1")
def withdrawn_twice(arbiter):
    t = start(arbiter)
    services.withdraw_player(t.players.get(tpn=8), arbiter, from_round=1)
    services.pair_next_round(t, arbiter)
    return lambda: services.withdraw_player(t.players.get(tpn=8), arbiter)


@case("has not withdrawn")
def reinstated_without_withdrawal(arbiter):
    t = start(arbiter)
    return lambda: services.reinstate_player(t.players.get(tpn=1), arbiter)


@case("was already left out of round 1")
def reinstated_too_late(arbiter):
    t = start(arbiter)
    services.withdraw_player(t.players.get(tpn=8), arbiter, from_round=1)
    services.pair_next_round(t, arbiter)
    return lambda: services.reinstate_player(t.players.get(tpn=8), arbiter)


@case("Unknown kind of bye")
def unknown_bye(arbiter):
    t = start(arbiter)
    return lambda: services.request_bye(t.players.get(tpn=1), arbiter, round_number=1, kind="Q")


@case("Round 1 is already paired")
def bye_for_a_paired_round(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.request_bye(t.players.get(tpn=1), arbiter, round_number=1, kind="H")


@case("The tournament has only 5 rounds")
def bye_after_the_last_round(arbiter):
    t = start(arbiter)
    return lambda: services.request_bye(t.players.get(tpn=1), arbiter, round_number=6, kind="H")


@case("does not allow full-point byes")
def full_point_bye_not_allowed(arbiter):
    t = start(arbiter)
    return lambda: services.request_bye(t.players.get(tpn=1), arbiter, round_number=1, kind="F")


@case("is not due to play in round 3")
def bye_of_a_withdrawn_player(arbiter):
    t = start(arbiter)
    services.withdraw_player(t.players.get(tpn=1), arbiter, from_round=2)
    return lambda: services.request_bye(t.players.get(tpn=1), arbiter, round_number=3, kind="H")


@case("This bye was already cancelled")
def bye_cancelled_twice(arbiter):
    t = start(arbiter)
    request = services.request_bye(t.players.get(tpn=1), arbiter, round_number=2, kind="H")
    services.cancel_bye(request, arbiter)
    return lambda: services.cancel_bye(request, arbiter)


@case("Round 1 is already paired")
def bye_cancelled_too_late(arbiter):
    t = start(arbiter)
    request = services.request_bye(t.players.get(tpn=1), arbiter, round_number=1, kind="H")
    services.pair_next_round(t, arbiter)
    return lambda: services.cancel_bye(request, arbiter)


@case("TPNs are not numbered 1 to N")
def tpns_with_a_gap(arbiter):
    t = start(arbiter)
    t.players.filter(tpn=8).update(tpn=20)
    return lambda: services.pair_next_round(t, arbiter)


@case("Round 1 has missing results")
def engine_state_with_missing_results(arbiter):
    t = start(arbiter)
    services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: services.build_engine_state(t, pairing_round=2)


@case("does not cover the players due to play")
def engine_pairing_incomplete(arbiter):
    from pairing.model import Board, RoundPairing

    t = start(arbiter)
    state = services.engine_state(t, pairing_round=1)
    return lambda: rounds.check_pairing(t, RoundPairing(1, (Board(1, 2),), None), state, 1)


@case("is a draft: publish or unpair it first")
def pairing_over_a_draft(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: services.pair_next_round(t, arbiter)


@case("has missing results (board")
def pairing_with_missing_results(arbiter):
    t = start(arbiter)
    services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: services.pair_next_round(t, arbiter)


@case("is not finished: finish it first")
def pairing_before_the_finish(arbiter):
    t = start(arbiter)
    play_round(t, arbiter, finish=False)
    return lambda: services.pair_next_round(t, arbiter)


@case("rounds have been paired")
def pairing_after_the_last_round(arbiter):
    t = played(arbiter, 2, players=4, rounds=2)
    return lambda: services.pair_next_round(t, arbiter)


@case("player(s) to pair in round 1")
def pairing_one_player(arbiter):
    t = start(arbiter, players=1)
    return lambda: services.pair_next_round(t, arbiter)


@case("The engine cannot pair round 2")
def engine_cannot_pair(arbiter):
    t = played(arbiter, 1, players=2, rounds=3)
    return lambda: services.pair_next_round(t, arbiter)


@case("was changed meanwhile (unpaired or paired again")
def round_gone_meanwhile(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    services.unpair_round(Round.objects.get(pk=rnd.pk), arbiter)
    return lambda: services.publish_round(rnd, arbiter)


@case("is published: it cannot be unpaired")
def unpairing_a_published_round(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: services.unpair_round(rnd, arbiter)


@case("is already published")
def publishing_twice(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: services.publish_round(rnd, arbiter)


@case("Round 1 is draft (not published)")
def unpublishing_a_draft(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    return lambda: services.unpublish_round(rnd, arbiter)


@case("it stays published; change the pairing", "C.04.2 Art. 4.4")
def unpublishing_with_results(arbiter):
    t = start(arbiter)
    rnd = play_round(t, arbiter, finish=False)
    return lambda: services.unpublish_round(rnd, arbiter)


@case("is not published yet")
def results_in_a_draft(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    return lambda: services.set_results(rnd, arbiter, {a_board(rnd).pk: Result.DRAW})


@case("is a correction", "C.04.2 Art. 4.3")
def results_after_the_next_pairing(arbiter):
    t = played(arbiter, 1)
    services.pair_next_round(t, arbiter)
    rnd = t.round_set.get(number=1)
    return lambda: services.set_results(rnd, arbiter, {a_board(rnd).pk: Result.DRAW})


@case("is not in round 1")
def result_of_another_game(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: services.set_results(rnd, arbiter, {987654: Result.DRAW})


@case("has a bye: there is no result to enter")
def result_of_a_bye(arbiter):
    t, rnd = pab_round(arbiter)
    bye = rnd.games.get(result=Result.PAIRING_BYE)
    return lambda: services.set_results(rnd, arbiter, {bye.pk: Result.DRAW})


@case("is not a game result")
def result_not_a_result(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: services.set_results(rnd, arbiter, {a_board(rnd).pk: "2-0"})


@case("Round 1 is draft (not published)")
def finishing_a_draft(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    return lambda: services.finish_round(rnd, arbiter)


@case("has missing results (board")
def finishing_with_missing_results(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: services.finish_round(rnd, arbiter)


@case("Federation: ")
def tournament_field_invalid(arbiter):
    label = str(Tournament._meta.get_field("federation").verbose_name).capitalize()
    return (lambda: services.create_tournament(arbiter, name="X", rounds=5, federation="SUIX"),
            lambda: [label])


@case("Tie-breaks:")
def unknown_tiebreak(arbiter):
    return lambda: services.create_tournament(arbiter, name="X", rounds=5, tiebreaks="BH,NOPE")


def _trf(arbiter, players: int = 4, rounds: int = 0) -> str:
    t = played(arbiter, rounds, players=players, rounds=5) if rounds else make_tournament(
        arbiter, players=players)
    return services.export_trf(t)


@case("accelerated pairings are not supported")
def trf_with_accelerations(arbiter):
    line = "250 " + "    " + " " + " 1.0" + " " + "  1" + " " + "  2" + " " + "   1" + " " + "   2"
    text = _trf(arbiter).replace("001", line + "\n001", 1)
    return lambda: services.import_trf(text, arbiter)


@case("forbidden pairs are not supported")
def trf_with_forbidden_pairs(arbiter):
    text = _trf(arbiter) + "XXP 1 2\n"
    return lambda: services.import_trf(text, arbiter)


def _read_as(monkeypatch, change):
    """Let the TRF reader return what ``change`` makes of the file it read: a state its own
    checks would refuse (they come first), to reach the web app's refusal behind them."""
    read = trf_import._read

    def changed(text):
        system, state = read(text)
        return system, change(state)

    monkeypatch.setattr(trf_import, "_read", changed)


@case("TRF file: no players")
def trf_without_players(arbiter, monkeypatch):
    from dataclasses import replace

    _read_as(monkeypatch, lambda state: replace(state, players=()))
    text = _trf(arbiter)
    return lambda: services.import_trf(text, arbiter)


@case("pairing numbers must run from 1")
def trf_with_a_gap_in_the_numbers(arbiter, monkeypatch):
    from dataclasses import replace

    _read_as(monkeypatch, lambda state: replace(
        state, players=(*state.players[:-1], replace(state.players[-1], tpn=9))))
    text = _trf(arbiter)
    return lambda: services.import_trf(text, arbiter)


@case("is not supported by the web app")
def trf_with_an_unsupported_result(arbiter):
    import re

    text = _trf(arbiter, rounds=1)  # a game of less than one move (W/L): not rated, no result
    unrated = {"1": "W", "0": "L", "=": "D"}
    text = re.sub(r"(?m)^(001.{88}[ \d]{4} [wb] )([10=])", lambda m: m[1] + unrated[m[2]], text)
    return lambda: services.import_trf(text, arbiter)


@case("TRF file:")
def trf_unreadable(arbiter):
    return lambda: services.import_trf("001 ceci ne se lit pas\n", arbiter)


@case("it holds rounds; import it as a new tournament")
def trf_players_with_rounds(arbiter):
    text = _trf(arbiter, rounds=1)
    t = make_tournament(arbiter, players=0)
    return lambda: services.import_players_trf(t, arbiter, text)


@case("TRF file: no players")
def trf_players_without_players(arbiter, monkeypatch):
    from dataclasses import replace

    _read_as(monkeypatch, lambda state: replace(state, players=()))
    text = _trf(arbiter)
    t = make_tournament(arbiter, players=0)
    return lambda: services.import_players_trf(t, arbiter, text)


@case("error(s), nothing was saved")
def trf_players_with_bad_fields(arbiter):
    from tournaments.models import ascii_letters

    lines = _trf(arbiter).splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("001    1"))
    lines[i] = lines[i][:53] + "S1I" + lines[i][56:]
    t = make_tournament(arbiter, players=0)
    label = str(Player._meta.get_field("federation").verbose_name)
    return (lambda: services.import_players_trf(t, arbiter, "\n".join(lines) + "\n"),
            lambda: [label, str(ascii_letters.message)])


@case("(a quote left open?)")
def csv_header_quote_open(arbiter):
    t = make_tournament(arbiter, players=0)
    return lambda: services.import_players_csv(t, arbiter, '"name')


@case("empty, or no header line")
def csv_empty(arbiter):
    t = make_tournament(arbiter, players=0)
    return lambda: services.import_players_csv(t, arbiter, "\n")


@case("unknown column 'colour'")
def csv_unknown_column(arbiter):
    t = make_tournament(arbiter, players=0)
    return (lambda: services.import_players_csv(t, arbiter, "name,colour\nDupont,w\n"),
            lambda: [*CSV_CODES, "colour"])


@case("two columns for rating")
def csv_two_columns(arbiter):
    t = make_tournament(arbiter, players=0)
    return (lambda: services.import_players_csv(t, arbiter, "name,rating,elo\nDupont,1,2\n"),
            lambda: CSV_CODES)


@case("a 'name' column is required")
def csv_without_names(arbiter):
    t = make_tournament(arbiter, players=0)
    return (lambda: services.import_players_csv(t, arbiter, "rating\n2000\n"),
            lambda: CSV_CODES)


@case("CSV file: no players")
def csv_without_players(arbiter):
    t = make_tournament(arbiter, players=0)
    return lambda: services.import_players_csv(t, arbiter, "name\n")


# ---------------------------------------------------------------------------------------------
# tournaments.services.corrections and pairing_changes


@case("is a draft: change its pairing")
def correction_in_a_draft(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    return lambda: corrections.correct_result(board1(rnd), arbiter, result="0-1", reason="sheet")


@case("is a draft paired with the old data", "C.04.2 Art. 4.3")
def correction_under_a_draft(arbiter):
    t = played(arbiter, 1)
    services.pair_next_round(t, arbiter)
    game = board1(t.round_set.get(number=1))
    return lambda: corrections.correct_result(game, arbiter, result="0-1", reason="sheet")


@case("was re-paired meanwhile: nothing was saved")
def correction_of_a_game_gone(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    game = board1(rnd)
    services.unpair_round(rnd, arbiter)
    return lambda: corrections.correct_result(game, arbiter, result="0-1", reason="sheet")


@case("was changed meanwhile by someone else; it now reads")
def correction_of_a_game_changed(arbiter):
    t = played(arbiter, 1)
    game = board1(t.round_set.get(number=1))
    return lambda: corrections.correct_result(game, arbiter, result="0-1", reason="sheet",
                                              loaded="stale")


@case("Give the reason for the correction")
def correction_without_reason(arbiter):
    t = played(arbiter, 1)
    game = board1(t.round_set.get(number=1))
    return lambda: corrections.correct_result(game, arbiter, result="0-1", reason=" ")


@case("has a bye: there is no game result to correct")
def correction_of_a_bye(arbiter):
    t, rnd = pab_round(arbiter)
    bye = rnd.games.get(result=Result.PAIRING_BYE)
    return lambda: corrections.correct_result(bye, arbiter, result="0-1", reason="sheet")


@case("is a Double-Swiss match: correct its two games")
def correction_of_a_match(arbiter):
    t, rnd = dswiss(arbiter)
    return lambda: corrections.correct_result(a_board(rnd), arbiter, result="0-1", reason="x")


@case("is not a game result")
def correction_to_no_result(arbiter):
    t = played(arbiter, 1)
    game = board1(t.round_set.get(number=1))
    return lambda: corrections.correct_result(game, arbiter, result="2-0", reason="sheet")


@case("for rating")
def correction_for_rating_unchanged(arbiter):
    t = played(arbiter, 2)
    game = board1(t.round_set.get(number=1))
    return lambda: corrections.correct_result(game, arbiter, result=game.result, reason="x")


@case("already has the result")
def correction_to_the_same_result(arbiter):
    t = played(arbiter, 1)
    game = board1(t.round_set.get(number=1))
    return lambda: corrections.correct_result(game, arbiter, result=game.result, reason="x")


@case("has a bye: no colours to correct")
def colours_of_a_bye(arbiter):
    t, rnd = pab_round(arbiter)
    bye = rnd.games.get(result=Result.PAIRING_BYE)
    return lambda: corrections.correct_colours(bye, arbiter, reason="sheet")


@case("is a Double-Swiss match: correct its two games")
def colours_of_a_match(arbiter):
    t, rnd = dswiss(arbiter)
    return lambda: corrections.correct_colours(a_board(rnd), arbiter, reason="sheet")


@case("its colours do not count", "C.04.2 Art. 3.4")
def colours_of_a_forfeit(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    game = board1(rnd)
    services.set_results(rnd, arbiter, {game.pk: Result.WHITE_WINS_FORFEIT})
    return lambda: corrections.correct_colours(board1(rnd), arbiter, reason="sheet")


@case("is not a rating")
def rating_out_of_range(arbiter):
    t = start(arbiter)
    player = t.players.get(tpn=1)
    return lambda: corrections.correct_rating(player, arbiter, rating=5000, reason="list")


@case("rating was changed meanwhile by someone else")
def rating_changed_meanwhile(arbiter):
    t = start(arbiter)
    player = t.players.get(tpn=1)
    return lambda: corrections.correct_rating(player, arbiter, rating=2000, reason="list",
                                              loaded="1")


@case("already has the rating")
def rating_unchanged(arbiter):
    t = start(arbiter)
    player = t.players.get(tpn=1)
    return lambda: corrections.correct_rating(player, arbiter, rating=player.rating, reason="x")


@case("a second pairing-allocated bye")
def pairing_text_with_two_byes(arbiter):
    return lambda: pairing_changes.parse_pairing("1 - 2\n3 bye\n4 bye")


@case("write 'white TPN - black TPN' or 'TPN bye'")
def pairing_text_unreadable(arbiter):
    return (lambda: pairing_changes.parse_pairing("1 - 2\nDupont against Keller"),
            lambda: ["« numéro bye »"])  # the word the line must use


@case("is not in the pairing")
def swap_of_a_player_not_paired(arbiter):
    return lambda: pairing_changes.swap_in_text("1 - 2\n3 - 4", 1, 9)


def _published_change(arbiter, code: str, note: str = "agreed", played_before: int = 0):
    t = played(arbiter, played_before)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(rnd))
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=bye,
                                              reason_code=code, note=note)


@case("is about the final round", "Art. 4.4.5")
def final_round_reason_in_round_1(arbiter):
    return _published_change(arbiter, "4.4.5")


@case("no late entry arrives in round 2", "Art. 4.4.4")
def late_entry_reason_without_one(arbiter):
    return _published_change(arbiter, "4.4.4", played_before=1)


@case("pairs two players who already met", "Art. 4.4.1")
def players_met_reason_in_round_1(arbiter):
    return _published_change(arbiter, "4.4.1")


@case("was changed meanwhile by someone else: nothing was saved")
def pairing_changed_meanwhile(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(rnd))
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=bye,
                                              loaded="1 - 2")


@case("is finished: its pairing cannot change")
def pairing_of_a_finished_round(arbiter):
    t = played(arbiter, 1)
    rnd = t.round_set.get(number=1)
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=[(1, 2)], bye=None)


@case("Published pairings change only for a reason", "C.04.2 Art. 4.4")
def published_change_without_reason(arbiter):
    return _published_change(arbiter, "")


@case("Say what happened")
def published_change_without_note(arbiter):
    return _published_change(arbiter, "4.4.2", note="")


@case("The pairing is incomplete")
def incomplete_pairing(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=[(1, 2)], bye=None)


@case("The pairing is incomplete")
def incomplete_match_pairing(arbiter):
    t = make_tournament(arbiter, players=8, rounds=5, pairing_system="dswiss")
    services.draw_initial_color(t, arbiter, random.Random(1))
    rnd = services.pair_next_round(t, arbiter)
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=[(1, 2), (1, 3)], bye=None)


@case("The pairing breaks rules; accept the warnings")
def pairing_breaking_colour_rules(arbiter):
    t = played(arbiter, 2)
    rnd = services.pair_next_round(t, arbiter)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(rnd))
    flipped = [(b, w) for w, b in boards]  # every colour the other way: absolute rules break
    with translation.override("fr"):
        warnings = pairing_changes.preview_pairing(rnd, flipped, bye).warnings
        said = [sentences.say(w) for w in warnings]
    assert any("C.04.1 art. 7 (règle absolue des couleurs)" in w for w in said), said
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=flipped, bye=bye)


@case("The pairing breaks rules; accept the warnings", "C.04.3 Art. 2.1.1")
def pairing_of_players_who_met(arbiter):
    t = played(arbiter, 2)
    rnd = services.pair_next_round(t, arbiter)
    first = t.round_set.get(number=1)
    again, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(first))
    with translation.override("fr"):  # the checker's warnings (C1: they already played)
        warnings = pairing_changes.preview_pairing(rnd, again, bye).warnings
        said = [sentences.say(w) for w in warnings]
    assert any("C.04.3 art. 2.1.1 [C1]" in w for w in said), said
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=again, bye=bye)


@case("already has a result: it cannot be re-paired")
def repairing_a_board_with_a_result(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(rnd))
    services.set_results(rnd, arbiter, {board1(rnd).pk: Result.DRAW})
    (a, b), (c, d) = boards[0], boards[1]
    swapped = [(a, d), (c, b), *boards[2:]]
    return lambda: pairing_changes.change_pairing(
        rnd, arbiter, boards=swapped, bye=bye, reason_code="4.4.2", note="rules",
        accept_warnings=True)


@case("The note is longer than")
def pairing_note_too_long(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(rnd))
    return lambda: pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=bye,
                                              note="x" * (MANUAL_NOTE_LENGTH + 1))


@case("is published: it cannot be re-paired")
def repairing_a_published_round(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: pairing_changes.repair_draft(rnd, arbiter)


@case("Unknown choice")
def leaving_a_draft_unknown(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    return lambda: pairing_changes.leave_draft(rnd, arbiter, player=t.players.get(tpn=1), kind="?")


@case("enter a forfeit, or change the pairing", "C.04.2 Art. 4.4")
def leaving_a_published_round(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: pairing_changes.leave_draft(rnd, arbiter, player=t.players.get(tpn=1), kind="H")


@case("is not due to play in round 1")
def leaving_a_draft_one_is_not_in(arbiter):
    t = start(arbiter)
    late = services.admit_late_entry(t, arbiter, arrival_round=3, name="Dupont")
    rnd = services.pair_next_round(t, arbiter)
    return lambda: pairing_changes.leave_draft(rnd, arbiter, player=late, kind="H")


# ---------------------------------------------------------------------------------------------
# tournaments.services.bulk, double_swiss; tournaments.fide_list


@case("Tick at least one player")
def bulk_without_players(arbiter):
    t = start(arbiter)
    return lambda: bulk.apply_to_players(t, arbiter, [], action="H", round_number=1)


@case("removed meanwhile; nothing was done")
def bulk_with_a_player_gone(arbiter):
    t = start(arbiter)
    ghost = Player(pk=987654, name="Dupont, Marie", tpn=99)
    return lambda: bulk.apply_to_players(t, arbiter, [ghost], action="H", round_number=1)


@case("Nothing was done for anyone")
def bulk_refused_for_one(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: bulk.apply_to_players(t, arbiter, t.players.all(), action="H", round_number=1)


@case("Unknown action")
def bulk_unknown_action(arbiter):
    t = start(arbiter)
    return lambda: bulk.apply_to_players(t, arbiter, t.players.all(), action="?", round_number=1)


@case("Unknown choice")
def bulk_leave_unknown(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    return lambda: bulk.leave_draft_many(rnd, arbiter, players=t.players.all(), kind="?")


@case("enter forfeits, or change the pairing", "C.04.2 Art. 4.4")
def bulk_leave_published(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    return lambda: bulk.leave_draft_many(rnd, arbiter, players=t.players.all(), kind="H")


@case("is not due to play in round 1")
def bulk_leave_one_not_in(arbiter):
    t = start(arbiter)
    late = services.admit_late_entry(t, arbiter, arrival_round=3, name="Dupont")
    rnd = services.pair_next_round(t, arbiter)
    return lambda: bulk.leave_draft_many(rnd, arbiter, players=[late], kind="H")


@case("a match needs the results of its two games")
def match_with_one_result(arbiter):
    t, rnd = dswiss(arbiter)
    return lambda: services.set_results(rnd, arbiter, {a_board(rnd).pk: "1-0"})


@case("is not a game result of a match")
def match_with_a_bye_as_game(arbiter):
    t, rnd = dswiss(arbiter)
    return lambda: services.set_results(rnd, arbiter, {a_board(rnd).pk: "H|1-0"})


@case("game 2 has a result but game 1 has none")
def match_game_2_only(arbiter):
    t, rnd = dswiss(arbiter)
    return lambda: services.set_results(rnd, arbiter, {a_board(rnd).pk: "|1-0"})


@case("a finished round needs both games' results")
def match_emptied_when_finished(arbiter):
    t, rnd = dswiss(arbiter)
    services.set_results(rnd, arbiter, {g.pk: "1-0|1-0" for g in rnd.games.exclude(black=None)})
    services.finish_round(rnd, arbiter)
    return lambda: services.set_results(rnd, arbiter, {a_board(rnd).pk: "1-0|"})


@case("TRF file:")
def match_file_unreadable(arbiter):
    return lambda: services.import_trf("192 FIDE_DOUBLESWISS\n001 nonsense\n", arbiter)


@case("TRF file: no players")
def match_file_without_players(arbiter):
    return lambda: services.import_trf("012 Empty\n192 FIDE_DOUBLESWISS\n", arbiter)


@case("ratings are corrected one by one", "C.04.2 Art. 4.3.3")
def fide_refresh_after_round_1(arbiter):
    t = start(arbiter)
    services.pair_next_round(t, arbiter)
    return lambda: fide_list.refresh_players(t, arbiter)


@case("Tie-breaks:")
def tiebreaks_that_cannot_be_explained(arbiter, monkeypatch):
    import pairing.tiebreaks

    def cannot(*args, **kwargs):
        raise pairing.tiebreaks.TieBreakInputError("the data cannot be ranked")

    monkeypatch.setattr(pairing.tiebreaks, "explain", cannot)
    t = played(arbiter, 1)
    player = t.players.get(tpn=1)
    return lambda: queries.player_tiebreaks(t, player)


# ---------------------------------------------------------------------------------------------


def _refused(refuse) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        refuse()
    return caught.value


def _text(error: ServiceError) -> str:
    return " ".join([str(error), *error.details])


@pytest.mark.parametrize("build, english, articles", CASES)
def test_each_refusal_is_french_for_a_french_request(arbiter, monkeypatch, build, english,
                                                     articles):
    made = build(arbiter, monkeypatch) if "monkeypatch" in build.__code__.co_varnames else (
        build(arbiter))
    refuse, strip = made if isinstance(made, tuple) else (made, lambda: [])
    with translation.override("fr"):
        french = _refused(refuse)
        stripped = list(strip())
    with translation.override("en"):
        in_english = _refused(refuse)
    cause = french.__cause__
    if cause is not None and not isinstance(cause, ServiceError):
        with translation.override("fr"):
            said = sentences.error_said(cause)
        if said is None:  # a sentence the engine or a library wrote in English only
            stripped.append(str(cause))
        else:  # the engine's reason, said in French too
            assert said in str(french)
    assert english in str(in_english)
    assert _text(french) != _text(in_english)
    assert french_left(_text(french), stripped) == [], _text(french)
    for article in filter(None, articles):
        assert cites(str(in_english), article) and cites(str(french), article), str(french)


# ---------------------------------------------------------------------------------------------
# What the person reads besides refusals: outcomes, refused boards, previews


def test_a_correction_says_its_timing_and_effect_in_french_and_stores_english(arbiter):
    t = played(arbiter, 1)
    game = board1(t.round_set.get(number=1))
    with translation.override("fr"):
        outcome = corrections.correct_result(game, arbiter, result="0-1", reason="feuille")
    assert outcome.message.startswith("Signalée avant l’appariement suivant : ")
    assert french_left(outcome.message) == []
    entry = AuditEntry.objects.get(action="correct result")
    assert entry.reason == "feuille [before the next pairing]"
    assert corrections.Timing.RATING_ONLY.label == "after the end of the next round"
    with translation.override("fr"):
        assert corrections.Timing.RATING_ONLY.label == "après la fin de la ronde suivante"


def test_a_rating_correction_says_what_the_tpns_do_in_french(arbiter):
    t = played(arbiter, 1)
    player = t.players.get(tpn=3)
    with translation.override("fr"):
        effect = sentences.say(
            corrections.correct_rating(player, arbiter, rating=1500, reason="liste")
        )
    assert "C.04.2 art. 2.3" in effect and french_left(effect) == []
    entry = AuditEntry.objects.get(action="correct rating")
    assert entry.reason.startswith("liste [TPNs recomputed from the corrected initial order")


def test_a_board_changed_meanwhile_is_refused_in_french(arbiter):
    t = start(arbiter)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    game = a_board(rnd)
    services.set_results(rnd, arbiter, {game.pk: Result.DRAW})
    with translation.override("fr"):
        saved = services.set_results(rnd, arbiter, {game.pk: Result.WHITE_WINS}, seen={})
        gone = services.set_results(rnd, arbiter, {987654: Result.WHITE_WINS}, seen={})
    assert saved.saved == 0 and "modifié entre-temps" in saved.refused[0]
    assert "C.04.2 art. 4.4" in gone.refused[0]
    assert french_left(" ".join(saved.refused + gone.refused)) == []


def test_the_labels_the_forms_offer_are_french(arbiter):
    with translation.override("fr"):
        labels = [str(label) for _, label in pairing_changes.PAIRING_CHANGE_REASONS]
        labels += [str(label) for _, label in pairing_changes.DRAFT_LEAVE_KINDS]
        labels += [str(label) for label in bulk.BULK_ACTIONS.values()]
        labels += [str(effect) for effect in corrections.TIMING_EFFECT.values()]
    assert french_left(" ".join(labels)) == []
    assert any("art. 4.3" in label for label in labels)


def test_a_trf_file_names_the_rating_type_in_english_whatever_the_language(arbiter):
    t = make_tournament(arbiter, players=2, rating_type="rapid", event_type="Open")
    with translation.override("fr"):
        text = services.export_trf(t)
    assert "092 Open (Rapid)" in text


# ---------------------------------------------------------------------------------------------
# Through the pages


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_french_arbiter_reads_the_refusals_in_french(client, arbiter):
    t = start(arbiter)
    client.force_login(arbiter)
    pair = reverse("arbiter-pair", args=[t.pk])
    client.post(pair, **FR)
    french = messages_of(client.post(pair, follow=True, **FR))
    assert "La ronde 1 est un brouillon : publiez-la ou annulez d’abord son appariement." in french
    english = messages_of(client.post(pair, follow=True, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Round 1 is a draft: publish or unpair it first." in english
    colour = messages_of(client.post(reverse("arbiter-draw-colour", args=[t.pk]), follow=True,
                                     **FR))
    assert "La ronde 1 a été appariée : la couleur initiale est définitive." in colour


def test_a_french_upload_lists_every_row_in_french(client, arbiter):
    t = make_tournament(arbiter, players=0)
    client.force_login(arbiter)
    upload = SimpleUploadedFile("players.csv", b"name,rating\nDupont,abc\nKeller,x\n")
    response = client.post(reverse("arbiter-players-upload", args=[t.pk]), {"file": upload},
                           follow=True, **FR)
    shown = messages_of(response)
    assert any(m.startswith("Fichier CSV : 2 erreurs, rien n’a été enregistré.") for m in shown)
    assert "Fichier CSV, ligne 2 : rating 'abc' n’est pas un nombre." in shown


def test_the_audit_trail_is_read_in_french(client, arbiter):
    t = played(arbiter, 2, players=7)
    player = t.players.get(tpn=2)
    with translation.override("fr"):  # a French arbiter's changes
        services.admit_late_entry(t, arbiter, arrival_round=4, name="Dupont, Marie")
        services.withdraw_player(t.players.get(tpn=7), arbiter, from_round=4)
        services.request_bye(player, arbiter, round_number=4, kind="H")
        game = board1(t.round_set.get(number=2))
        corrections.correct_result(game, arbiter, result="1/2-1/2", reason="feuille")
        corrections.correct_rating(t.players.get(tpn=4), arbiter, rating=1500, reason="liste")
        rnd = services.pair_next_round(t, arbiter)
        # round 2 again: players who met, some with a colour for the third time in a row
        again, bye = pairing_changes.parse_pairing(
            pairing_changes.pairing_text(t.round_set.get(number=2)))
        pairing_changes.change_pairing(rnd, arbiter, boards=again, bye=bye, note="essai",
                                   accept_warnings=True)
        services.update_tournament(t, arbiter, allow_full_point_bye=True, rating_type="rapid")
    for entry in AuditEntry.objects.all():  # what is stored stays English
        assert not re.search(r"ronde|exemption|Signalée|Numéros|règle|avert", entry.reason), (
            entry.reason)
        assert not re.search(r"Exemption|Blancs|Noirs", str(entry.before) + str(entry.after))
    stored = AuditEntry.objects.get(action="manual pairing (draft)").reason
    assert stored.startswith("essai | warnings accepted: ") and "(absolute colour rule)" in stored
    assert "C.04.3 Art. 2.1.1 [C1]: " in stored
    assert AuditEntry.objects.get(action="correct rating").reason.startswith(
        "liste [TPNs recomputed from the corrected initial order")
    client.force_login(arbiter)
    url = reverse("arbiter-audit", args=[t.pk])
    french = client.get(url, **FR).content.decode()
    text = visible_text(french)
    assert "Journal des modifications" in text and "correction d’un résultat" in text
    assert "feuille [avant l’appariement suivant]" in text
    assert "règle absolue des couleurs" in text and "avertissements acceptés" in text
    assert "Exemption demandée d’un demi-point" in text or "Exemption d’un demi-point" in text
    assert "exemption d’un point permise" in text and "Rapide" in text
    assert "C.04.3 art. 2.1" in text  # the checker's warnings too
    assert french_left(text, ["arbiter", t.time_zone]) == []
    english = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Audit trail" in english and "feuille [before the next pairing]" in english
    assert "warnings accepted" in english and "correct result" in english


def test_stored_sentences_are_said_in_french_and_the_arbiters_words_kept():
    def stored(text):
        return text.as_data()  # as the write path keeps it (tournaments.services.write)

    late = sentences.listed([
        Text(players.ADMITTED_INTO_PAIRED_ROUND, number=3),
        Text(players.HALF_POINT_BYES_MISSED, rounds="1, 2"),
    ])
    colour = Text(
        pairing_changes.COLOUR_RULE_BROKEN, article=Text(ARTICLE, document="C.04.1", number="6"),
        tpn=5, what=Text(pairing_changes.COLOUR_DIFFERENCE["White"], difference=3),
    )
    with translation.override("fr"):
        assert audit.shown(stored(late)) == (
            "admis à la ronde 3, déjà appariée : pas encore sur un échiquier ; "
            "exemptions d’un demi-point pour les rondes manquées : 1, 2")
        assert audit.shown(stored(sentences.noted(
            "the board: 3", Text(corrections.Timing.BEFORE_NEXT_PAIRING.value)
        ))) == "the board: 3 [avant l’appariement suivant]"
        assert audit.shown(stored(sentences.about(
            "Dupont, Marie", Text("Requested half-point bye")
        ))) == "Dupont, Marie : Exemption demandée d’un demi-point"
        assert audit.action_label("correct result (rating only)") == (
            "correction d’un résultat (pour l’Elo seulement)")
        assert audit.action_label("something new") == "something new"
        assert audit.shown(pairing_changes.MANUAL_DRAFT) == "manuel (brouillon)"
        assert audit.shown("the arbiter's words: 3 [as written]") == (
            "the arbiter's words: 3 [as written]")
        assert audit.shown(stored(colour)) == (
            "C.04.1 art. 6 (règle absolue des couleurs) : 5 aurait une différence de couleurs "
            "de +3 avec les Blancs")
    assert str(colour) == (
        "C.04.1 Art. 6 (absolute colour rule): 5 would have a colour difference of +3 with White")


def test_a_pairing_made_by_hand_is_checked_in_french_on_its_page(client, arbiter):
    t = played(arbiter, 2)
    rnd = services.pair_next_round(t, arbiter)
    again = pairing_changes.pairing_text(t.round_set.get(number=2))  # players who met, colours
    client.force_login(arbiter)
    url = reverse("arbiter-pairing", args=[t.pk, rnd.number])
    data = {"text": again, "loaded": pairing_changes.pairing_text(rnd), "action": "preview"}
    french = visible_text(client.post(url, data, **FR).content.decode())
    assert re.search(r"C\.04\.3 art\. 2\.1\.1 \[C1\] : \d+ et \d+ se sont déjà rencontrés", french)
    assert "règle absolue des couleurs" in french
    warnings = french[french.index("C.04.3 art. 2.1.1"):]
    assert french_left(warnings, ["arbiter"]) == [], warnings
    english = visible_text(client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "C.04.3 Art. 2.1.1 [C1]" in english and "absolute colour rule" in english


def test_a_correction_page_says_why_it_cannot_correct_in_french(client, arbiter):
    t = played(arbiter, 1)
    services.pair_next_round(t, arbiter)  # round 2, a draft paired with the old data
    game = board1(t.round_set.get(number=1))
    client.force_login(arbiter)
    url = reverse("arbiter-game-correct", args=[t.pk, 1, game.pk])
    french = visible_text(client.get(url, **FR).content.decode())
    assert ("La ronde 2 est un brouillon apparié avec les anciennes données : annulez son "
            "appariement, corrigez le résultat, puis appariez de nouveau (C.04.2 art. 4.3"
            ) in french
    english = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Round 2 is a draft paired with the old data" in english
