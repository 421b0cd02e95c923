"""Issue 26, item 1: results entry that scales. A round of any size is saved from the browser
(pages of boards, each a form; a script posts only the boards changed), "Finish round" on its
own, and quick entry from the result slips ("25 1", Enter), with the same optimistic-concurrency
guarantees as the whole-round form."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.web.conftest import make_tournament
from tests.web.pages import form_data
from tests.web.test_stale_pages import boards, client_of, messages_of, published_round
from tools.bench_results import published_round as published_big_round
from tournaments import services, views_results
from tournaments.forms_results import RESULT_CHOICES, QuickEntryForm
from tournaments.models import RESULT_KEYS, AuditEntry, Result, Round, typed_result

pytestmark = pytest.mark.django_db


def quick_url(t, number=1) -> str:
    return reverse("arbiter-quick-entry", args=[t.pk, number])


def round_url(t, number=1, page=1) -> str:
    url = reverse("arbiter-round", args=[t.pk, number])
    return f"{url}?page={page}" if page > 1 else url


def big_round(arbiter, players: int) -> tuple:
    """A tournament of ``players`` and its first round published, in a few inserts."""
    return published_big_round(arbiter, players)


# The vocabulary: one table, beside the result labels.


def test_typed_results_are_the_keys_or_the_results_as_written():
    assert [typed_result(k) for k in ("1", "0", "=", "+", "-", "--", "x", "X")] == [
        Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.WHITE_WINS_FORFEIT,
        Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT, Result.NOT_PLAYED, Result.NOT_PLAYED,
    ]
    assert typed_result("½-½") == typed_result("1/2-1/2") == Result.DRAW
    assert typed_result("−/+") == Result.BLACK_WINS_FORFEIT  # the labels' true minus
    assert typed_result("0-½") == Result.WHITE_ZERO_BLACK_HALF  # a match game's result
    assert typed_result("2") is typed_result("1-1") is typed_result("") is None


def test_each_choice_of_the_results_form_starts_with_its_typed_key():
    for value, label in RESULT_CHOICES[1:]:
        key = str(label)[0]
        if value == Result.DOUBLE_FORFEIT:
            key = "--"  # "-" picks -/+, a second "-" -/-
        assert Result(RESULT_KEYS[key].value) == value


@pytest.mark.parametrize(("typed", "read"), [
    ("25 1", (25, "1-0")),
    ("26=", (26, "1/2-1/2")),
    (" 27   0-1 ", (27, "0-1")),
    ("28 +", (28, "+/-")),
    ("29 -", (29, "-/+")),
    ("30 --", (30, "-/-")),
    ("4 1 =", (4, "1-0|1/2-1/2")),  # a Double-Swiss match: its two games
])
def test_quick_entry_reads_a_board_and_its_result(typed, read):
    form = QuickEntryForm({"entry": typed})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["entry"] == read


@pytest.mark.parametrize(("typed", "why"), [
    ("1-0", "is not a result"),  # no board: 1 and "-0"
    ("b25 1", "type the board's number"),
    ("25 9", "'9' is not a result"),
    ("25", "'' is not a result"),
    ("25 1 0 =", "is not a result"),
])
def test_quick_entry_names_what_it_cannot_read(typed, why):
    form = QuickEntryForm({"entry": typed})
    assert not form.is_valid()
    assert why in form.errors["entry"][0]


# Quick entry through the views.


def test_quick_entry_without_a_script_stores_the_board_and_says_what_was_stored(arbiter):
    t, rnd = published_round(arbiter)
    game = boards(rnd)[1]
    response = client_of(arbiter).post(
        quick_url(t), {"round": rnd.pk, "entry": f"{game.board} ="}, follow=True
    )
    assert response.redirect_chain[-1][0] == round_url(t) + "#quick-entry"
    said = f"Board {game.board}: ½-½ {game.white.name}–{game.black.name}"
    assert said in messages_of(response)
    game.refresh_from_db()
    assert game.result == Result.DRAW
    entry = AuditEntry.objects.get(action="enter result")
    assert (entry.before, entry.after) == ("", Result.DRAW)


def test_quick_entry_refuses_an_unknown_board_and_a_change_of_an_entered_result(arbiter):
    t, rnd = published_round(arbiter)
    client = client_of(arbiter)
    game = boards(rnd)[0]
    response = client.post(quick_url(t), {"round": rnd.pk, "entry": "99 1"}, follow=True)
    assert "Round 1 has no board 99." in messages_of(response)
    client.post(quick_url(t), {"round": rnd.pk, "entry": "1 1"})
    response = client.post(quick_url(t), {"round": rnd.pk, "entry": "1 0"}, follow=True)
    refusal = [m for m in messages_of(response) if m.startswith("Board 1 ")]
    assert len(refusal) == 1
    assert "already holds 1-0" in refusal[0] and "0-1 not saved" in refusal[0]
    assert "correction (C.04.2 Art. 4.3)" in refusal[0]
    response = client.post(quick_url(t), {"round": rnd.pk, "entry": "1 1-0"}, follow=True)
    assert any("nothing changed" in m for m in messages_of(response))
    game.refresh_from_db()
    assert game.result == Result.WHITE_WINS
    assert AuditEntry.objects.filter(action__in=["enter result", "change result"]).count() == 1


def test_quick_entry_with_a_script_answers_in_json_and_stays(arbiter):
    t, rnd = published_round(arbiter)
    game = boards(rnd)[2]
    client = client_of(arbiter)
    json = {"HTTP_ACCEPT": "application/json"}
    answer = client.post(quick_url(t), {"round": rnd.pk, "entry": f"{game.board} +"}, **json)
    assert answer.status_code == 200
    assert answer.json() == {
        "ok": True, "message": f"Board 3: +/− (Black forfeits) {game.white.name}–"
        f"{game.black.name}", "game": game.pk, "result": "+/-", "second_result": "",
    }
    refused = client.post(quick_url(t), {"round": rnd.pk, "entry": "3 =x"}, **json)
    assert refused.status_code == 400 and refused.json()["ok"] is False
    assert "'=x' is not a result" in refused.json()["message"]


def test_quick_entry_is_for_arbiters_and_published_rounds(arbiter, other_arbiter):
    t, rnd = published_round(arbiter)
    response = client_of(other_arbiter).post(quick_url(t), {"round": rnd.pk, "entry": "1 1"})
    assert response.status_code == 403
    rnd.state = Round.State.DRAFT
    rnd.save()
    response = client_of(arbiter).post(quick_url(t), {"round": rnd.pk, "entry": "1 1"},
                                       follow=True)
    assert "Round 1 is not published yet." in messages_of(response)
    assert not boards(rnd)[0].result


def test_quick_entry_of_a_double_swiss_match_takes_both_games(arbiter):
    t = make_tournament(arbiter, players=6, rounds=5, pairing_system="dswiss")
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    client = client_of(arbiter)
    response = client.post(quick_url(t), {"round": rnd.pk, "entry": f"{game.board} 1"},
                           follow=True)
    assert any("two games" in m for m in messages_of(response))
    client.post(quick_url(t), {"round": rnd.pk, "entry": f"{game.board} 1 ½-0"})
    game.refresh_from_db()
    assert (game.result, game.second_result) == (Result.WHITE_WINS, Result.WHITE_HALF_BLACK_ZERO)


def quick_entry_queries(arbiter, players, django_assert_max_num_queries, limit):
    t, rnd = big_round(arbiter, players)
    client = client_of(arbiter)
    client.get(round_url(t))  # the session and the user are read once before
    with django_assert_max_num_queries(limit) as queries:
        response = client.post(quick_url(t), {"round": rnd.pk, "entry": f"{players // 2} 1"},
                               HTTP_ACCEPT="application/json")
    assert response.json()["ok"]
    return len(queries)


def test_quick_entry_takes_a_fixed_number_of_queries_whatever_the_size(
    arbiter, django_assert_max_num_queries
):
    small = quick_entry_queries(arbiter, 20, django_assert_max_num_queries, 17)
    large = quick_entry_queries(arbiter, 1000, django_assert_max_num_queries, 17)
    assert small == large


def test_a_whole_round_is_saved_in_a_fixed_number_of_queries(
    arbiter, django_assert_max_num_queries
):
    t, rnd = big_round(arbiter, 600)
    results = {g.pk: (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)[g.board % 3]
               for g in rnd.games.all()}
    # the lock and version, the games, whether another board waits (the standings), 3 updates...
    with django_assert_max_num_queries(16):
        saved = services.set_results(rnd, arbiter, results, seen={})
    assert saved.saved == 300
    assert AuditEntry.objects.filter(action="enter result").count() == 300
    assert not rnd.games.filter(result="").exists()


# Pages of boards and the results form.


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(views_results, "BOARDS_PER_PAGE", 2)


def test_the_round_page_shows_a_page_of_boards_and_links_the_others(arbiter, small_pages):
    t, rnd = published_round(arbiter)  # 5 boards: pages of 2
    client = client_of(arbiter)
    page = client.get(round_url(t, page=2)).content.decode()
    ids = [g.pk for g in boards(rnd)]
    assert f'name="g{ids[2]}"' in page and f'name="g{ids[3]}"' in page
    assert f'name="g{ids[1]}"' not in page and f'name="g{ids[4]}"' not in page
    assert "Boards 1–2" in page and "Boards 5–5" in page and 'aria-current="page"' in page
    assert reverse("arbiter-round-finish", args=[t.pk, 1]) in page  # Finish round on its own
    assert reverse("arbiter-quick-entry", args=[t.pk, 1]) in page


def test_the_engines_explanation_of_a_round_of_several_pages_is_a_page_of_its_own(
    arbiter, small_pages
):
    """The explanation covers the whole round (megabytes at 5000 players): each page of boards
    links to it, none carries it."""
    t, _ = published_round(arbiter)
    client = client_of(arbiter)
    explained = reverse("arbiter-round-explanation", args=[t.pk, 1])
    for number in (1, 2):
        page = client.get(round_url(t, page=number)).content.decode()
        assert '<section class="why-bracket">' not in page and "As text" not in page
        assert f'href="{explained}"' in page
    page = client.get(explained).content.decode()
    assert '<details id="explanation">' in page and '<section class="why-bracket">' in page
    assert "As text" in page and reverse("arbiter-round", args=[t.pk, 1]) in page


def test_a_page_saved_goes_on_to_the_next_and_leaves_the_other_pages_alone(arbiter, small_pages):
    t, rnd = published_round(arbiter)
    client = client_of(arbiter)
    games = boards(rnd)
    services.set_results(rnd, arbiter, {games[0].pk: Result.DRAW})
    data = form_data(client.get(round_url(t, page=2)).content.decode())
    data[f"g{games[2].pk}"] = data[f"g{games[3].pk}"] = Result.BLACK_WINS
    response = client.post(round_url(t, page=2), {**data, "next_page": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == round_url(t, page=3)
    assert "2 results saved." in messages_of(response)
    assert [g.result for g in boards(rnd)] == [Result.DRAW, "", "0-1", "0-1", ""]


def test_a_post_of_the_changed_boards_only_keeps_the_stale_page_check(arbiter, other_arbiter):
    """What the page's script sends: only the boards changed, each with what the page showed."""
    t, rnd = published_round(arbiter)
    t.arbiters.add(other_arbiter)
    games = boards(rnd)
    x, y = client_of(arbiter), client_of(other_arbiter)
    y.get(round_url(t))  # Y loads the page: every board pending
    x.post(quick_url(t), {"round": rnd.pk, "entry": "1 1"})  # X enters board 1 meanwhile
    response = y.post(round_url(t), {
        f"g{games[0].pk}": Result.DRAW, f"was_g{games[0].pk}": "",
        f"g{games[4].pk}": Result.BLACK_WINS, f"was_g{games[4].pk}": "",
    }, follow=True)
    assert "1 result saved." in messages_of(response)
    assert any(m.startswith("Board 1 ") and "now holds 1-0" in m for m in messages_of(response))
    assert [g.result for g in boards(rnd)] == ["1-0", "", "", "", "0-1"]


def test_a_board_paired_again_meanwhile_is_reported_not_dropped(arbiter):
    t, rnd = published_round(arbiter)
    response = client_of(arbiter).post(
        round_url(t), {"g999999": Result.DRAW, "was_g999999": ""}, follow=True
    )
    assert any("paired again meanwhile" in m for m in messages_of(response))


def test_finish_round_on_its_own(arbiter):
    t, rnd = published_round(arbiter)
    client = client_of(arbiter)
    finish = reverse("arbiter-round-finish", args=[t.pk, 1])
    response = client.post(finish, {"round": rnd.pk}, follow=True)
    assert any(m.startswith("Round 1 has missing results") for m in messages_of(response))
    services.set_results(rnd, arbiter, {g.pk: Result.DRAW for g in boards(rnd)})
    response = client.post(finish, {"round": rnd.pk}, follow=True)
    assert "Round 1 finished." in messages_of(response)
    rnd.refresh_from_db()
    assert rnd.state == Round.State.FINISHED


def test_a_2000_player_round_is_saved_through_the_form_and_finished(arbiter):
    """Issue 26's first done-when: every game of a 2000-player event's round goes through the
    browser's own form posts (a page of boards each, as the page has them), the last page with
    "Save and finish round"; every game is stored and the round finished."""
    t, rnd = big_round(arbiter, 2000)
    client = client_of(arbiter)
    url = round_url(t)
    posts = 0
    while True:
        page = client.get(url).content.decode()
        data = form_data(page)
        assert len(data) <= 1000 - 3  # under Django's limit, with the token and a button
        for name in data:
            if name.startswith("g"):
                data[name] = Result.WHITE_WINS
        last = 'name="next_page"' not in page
        response = client.post(url, {**data, "finish" if last else "next_page": "1"})
        posts += 1
        assert response.status_code == 302
        if last:
            break
        url = response["Location"]
    assert posts == 5
    assert response["Location"] == reverse("arbiter-tournament", args=[t.pk])
    assert rnd.games.filter(result=Result.WHITE_WINS).count() == 1000
    rnd.refresh_from_db()
    assert rnd.state == Round.State.FINISHED
