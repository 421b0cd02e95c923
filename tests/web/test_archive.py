"""An event moves between servers whole (issue 28, item 5): the event archive written, read back
into a new tournament (another database on CI's PostgreSQL pass), and compared field by field;
the TRF export and import keep what TRF can say."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, ByeRequest, Game, Player, Result, Round, Tournament
from tournaments.services import corrections, pairing_changes
from tournaments.services.archive import FORMAT, VERSION, event_data, export_event, kept_fields
from tournaments.services.archive_import import import_event

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

CYCLE = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]


def play(rnd: Round, arbiter, special: dict[int, str] = ()) -> Round:
    """Publish the round (a draft), give each board a result (``special``: by board number),
    finish it."""
    rnd.refresh_from_db()
    if rnd.state == Round.State.DRAFT:
        services.publish_round(rnd, arbiter)
    games = [g for g in rnd.games.order_by("board") if not g.is_bye]
    special = dict(special)
    services.set_results(rnd, arbiter, {
        g.pk: special.get(g.board, CYCLE[(g.board + rnd.number) % 3]) for g in games
    })
    return services.finish_round(rnd, arbiter)


def by_tpn(t: Tournament, tpn: int) -> Player:
    return t.players.get(tpn=tpn)


def finished_event(arbiter) -> Tournament:
    """A finished event with every special case: a time zone and a tie-break list; requested
    half- and zero-point byes; a pairing changed by hand; forfeits and a double forfeit; a
    late entry (TPNs reassigned); a withdrawal; a correction made while the next round ran
    (its board order stays as paired); a correction for rating only; a rating corrected."""
    t = make_tournament(
        arbiter, players=11, rounds=5, time_zone="America/Argentina/Buenos_Aires",
        tiebreaks="BH/C1\nSB\nWIN", place="Mar del Plata",
    )
    services.renumber_players(t, arbiter)
    services.request_bye(by_tpn(t, 10), arbiter, round_number=1, kind=ByeRequest.Kind.HALF)
    services.request_bye(by_tpn(t, 9), arbiter, round_number=2, kind=ByeRequest.Kind.ZERO)
    services.draw_initial_color(t, arbiter, rng=random.Random(5))
    rnd1 = services.pair_next_round(t, arbiter)
    text = pairing_changes.pairing_text(rnd1)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.swap_in_text(text, 1, 2))
    pairing_changes.change_pairing(
        rnd1, arbiter, boards=boards, bye=bye, note="organiser's seating", accept_warnings=True
    )
    play(rnd1, arbiter, {1: Result.WHITE_WINS_FORFEIT, 2: Result.BLACK_WINS_FORFEIT})
    play(services.pair_next_round(t, arbiter), arbiter, {3: Result.DOUBLE_FORFEIT})
    services.admit_late_entry(t, arbiter, arrival_round=3, name="Late, Comer", rating=2222)
    services.withdraw_player(by_tpn(t, 11), arbiter, from_round=4)
    rnd3 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd3, arbiter)
    game = Round.objects.get(tournament=t, number=2).games.get(board=1)
    corrections.correct_result(game, arbiter, result=Result.BLACK_WINS, reason="Black won")
    play(rnd3, arbiter)
    play(services.pair_next_round(t, arbiter), arbiter)
    game = Round.objects.get(tournament=t, number=3).games.get(board=2)
    corrections.correct_result(game, arbiter, result=Result.WHITE_WINS, reason="notified late")
    corrections.correct_rating(by_tpn(t, 4), arbiter, rating=2105, reason="FIDE list")
    play(services.pair_next_round(t, arbiter), arbiter)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_it_keeps_through_trf_what_trf_can_say(event, arbiter):
    """Late entry, withdrawal, requests, rows paired by hand, a correction for rating only, the
    board order of a round paired before a correction: the ``###`` lines carry them."""
    copy = services.import_trf(services.export_trf(event), arbiter)
    before, after = everything(event), everything(copy)

    def without_times(rows):
        return [{k: v for k, v in row.items() if k != "created_at"} for row in rows]

    def in_any_order(rows):
        return sorted((sorted(row.items(), key=str) for row in rows), key=str)

    assert without_times(after["players"]) == without_times(before["players"])
    assert in_any_order(after["games"]) == in_any_order(before["games"])
    assert in_any_order(without_times(after["requests"])) == in_any_order(
        without_times(before["requests"])
    )
    assert after["standings"] == before["standings"]


def test_it_refuses_a_trf_line_that_contradicts_the_file(event, arbiter):
    text = services.export_trf(event).replace(
        "late entry: paired from round 3", "late entry: paired from round 4"
    )
    number = text.splitlines().index(
        next(line for line in text.splitlines() if "late entry" in line)
    ) + 1
    with pytest.raises(services.ServiceError, match=(
        f"line {number}: player 9 is paired in round 3, which this line says they missed"
    )):
        services.import_trf(text, arbiter)


def rows(model, queryset, **references) -> list[dict]:
    """Each row's kept fields, with its references as the callables given make them."""
    return [
        {**{f.name: getattr(row, f.attname) for f in kept_fields(model)},
         **{key: name(row) for key, name in references.items()}}
        for row in queryset
    ]


def tpn_of(player: Player | None):
    return None if player is None else player.tpn


def everything(t: Tournament) -> dict:
    """What an event is, without its ids: settings, players, rounds and their rows in the order
    written, requests, the audit trail (ids of players in it as TPNs), standings."""
    games = Game.objects.filter(round__tournament=t).select_related("round", "white", "black")
    entries = AuditEntry.objects.filter(tournament=t).select_related("actor", "player")
    tpn = {str(p.pk): p.tpn for p in t.players.all()}
    audit = rows(AuditEntry, entries.order_by("at", "pk"), actor=lambda e: e.actor.username,
                 player=lambda e: tpn_of(e.player))
    for entry in audit:  # a renumbering stores TPNs by player id
        if entry["action"] == "renumber players":
            entry["before"] = {tpn[k]: v for k, v in entry["before"].items()}
            entry["after"] = {tpn[k]: v for k, v in entry["after"].items()}
    rounds = rows(Round, t.round_set.order_by("number"))
    for rnd in rounds:
        data = rnd["explanation_data"]
        if data and "players" in data:
            data["players"] = {k: tpn[str(v)] for k, v in data["players"].items()}
    return {
        "tournament": rows(Tournament, [t])[0],
        "players": rows(Player, t.players.order_by("tpn")),
        "rounds": rounds,
        "games": rows(Game, games.order_by("pk"), round=lambda g: g.round.number,
                      white=lambda g: g.white.tpn, black=lambda g: tpn_of(g.black)),
        "requests": rows(ByeRequest, ByeRequest.objects.filter(player__tournament=t).order_by(
            "pk"), player=lambda r: r.player.tpn),
        "audit": audit,
        "standings": [
            (s.rank_label, s.player.tpn, s.score, s.games, s.tiebreaks)
            for s in services.standings(t)
        ],
    }


@pytest.fixture
def event(arbiter):
    return finished_event(arbiter)


def test_it_round_trips_a_finished_event_with_every_special_case(event, arbiter, staff):
    before = everything(event)
    kinds = {g["result"] for g in before["games"]}
    assert {Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT,
            Result.HALF_BYE, Result.ZERO_BYE} <= kinds, kinds
    assert any(g["manual"] for g in before["games"])
    assert any(g["rating_result"] for g in before["games"])
    assert any(p["arrival_round"] == 3 for p in before["players"])
    assert any(p["withdrawn_from_round"] == 4 for p in before["players"])
    actions = [e["action"] for e in before["audit"]]
    assert {"renumber players", "correct result", "correct result (rating only)",
            "correct rating", "manual pairing (draft)", "admit late entry", "withdraw"} <= set(
        actions
    )
    assert before["tournament"]["time_zone"] == "America/Argentina/Buenos_Aires"
    copy = import_event(export_event(event), staff)
    assert copy.pk != event.pk and set(copy.arbiters.all()) == {staff}
    after = everything(copy)
    imported = after["audit"].pop()
    assert imported["action"] == "import event" and imported["actor"] == "staff"
    for part in before:
        assert after[part] == before[part], part


def test_it_moves_an_event_to_an_empty_server_with_the_commands(event, tmp_path, capsys):
    before = everything(event)
    path = tmp_path / "event.json"
    call_command("export_event", str(event.pk), "-o", str(path))
    Game.objects.all().delete()  # the new server has nothing of the event
    Tournament.objects.all().delete()
    User.objects.all().delete()  # the new server knows none of the authors
    User.objects.create_user("newcomer")
    capsys.readouterr()
    call_command("import_event", str(path), "--owner", "newcomer")
    copy = Tournament.objects.get(pk=int(capsys.readouterr().out))
    after = everything(copy)
    assert after["audit"].pop()["actor"] == "newcomer"
    assert after == before
    author = User.objects.get(username="arbiter")  # named the author of the entries; no more
    assert not author.is_active and not author.has_usable_password()
    assert list(copy.arbiters.all()) == [User.objects.get(username="newcomer")]


def test_it_writes_the_format_and_its_version(event):
    data = json.loads(export_event(event))
    assert (data["format"], data["version"]) == (FORMAT, VERSION)
    assert data["tournament"]["time_zone"] == "America/Argentina/Buenos_Aires"
    assert data == {**event_data(event), "exported_at": data["exported_at"]}


def test_it_keeps_every_reference_of_the_rows_it_writes():
    # A new reference between rows must be written by id, or the import cannot rebuild it.
    expected = {
        Player: {"tournament"}, Round: {"tournament"}, Game: {"round", "white", "black"},
        ByeRequest: {"player"}, AuditEntry: {"tournament", "actor", "player"},
    }
    for model, names in expected.items():
        assert {f.name for f in model._meta.concrete_fields if f.is_relation} == names, model


def archive_of(event, **changes) -> str:
    data = json.loads(export_event(event))
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "swiss-event-archive",\n "version": 1,\n "players": [}', "line 3, column"),
        ("[1, 2]", "not an event archive"),
        ('{"format": "swiss-event-archive", "version": "1"}', "whole number"),
    ],
)
def test_it_refuses_what_is_not_an_archive(db, staff, text, message):
    with pytest.raises(services.ServiceError, match=message):
        import_event(text, staff)
    assert not Tournament.objects.exists()


def test_it_refuses_a_newer_format_version_and_says_what_to_do(event, staff):
    count = Tournament.objects.count()
    with pytest.raises(services.ServiceError, match="version 2.*up to 1: update this server"):
        import_event(archive_of(event, version=VERSION + 1), staff)
    assert Tournament.objects.count() == count


def test_it_refuses_a_bad_row_naming_where_it_is_and_keeps_nothing(event, staff):
    data = json.loads(export_event(event))
    data["rounds"][1]["games"][0]["white"] = 9999
    with pytest.raises(services.ServiceError, match=r"rounds\[1\]\.games\[0\].*player 9999"):
        import_event(json.dumps(data), staff)
    data = json.loads(export_event(event))
    data["players"][2]["rating"] = "strong"
    with pytest.raises(services.ServiceError, match=r"players\[2\]: rating"):
        import_event(json.dumps(data), staff)
    data = json.loads(export_event(event))
    data["players"][3]["tpn"] = data["players"][4]["tpn"]
    with pytest.raises(services.ServiceError, match="clash"):
        import_event(json.dumps(data), staff)
    data = json.loads(export_event(event))
    data["audit"][0]["mood"] = "fine"
    with pytest.raises(services.ServiceError, match=r"audit\[0\]: unknown field “mood”"):
        import_event(json.dumps(data), staff)
    assert Tournament.objects.count() == 1


def test_it_refuses_a_file_that_is_not_utf8_naming_line_and_byte(db, tmp_path, staff):
    path = tmp_path / "event.json"
    path.write_bytes(b'{\n "format": "caf\xe9"}')
    with pytest.raises(CommandError, match="line 2, byte 18: not UTF-8"):
        call_command("import_event", str(path), "--owner", "staff")


def test_it_lets_the_arbiter_download_the_archive_from_the_dashboard(
    event, client, arbiter, other_arbiter
):
    url = reverse("arbiter-export-event", args=[event.pk])
    client.force_login(other_arbiter)
    assert client.get(url).status_code == 403
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-tournament", args=[event.pk])).content.decode()
    assert url in page
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="test-open-event.json"'
    assert json.loads(response.content)["tournament"]["name"] == "Test Open"


def test_it_lets_staff_import_an_archive_from_the_new_tournament_page(
    event, client, staff, arbiter
):
    text = export_event(event).encode()
    upload = {"archive-file": _file(text)}
    client.force_login(arbiter)  # not staff
    assert client.post(reverse("arbiter-event-import"), upload).status_code == 403
    client.force_login(staff)
    assert reverse("arbiter-event-import").encode() in client.get(
        reverse("arbiter-tournament-create")
    ).content
    response = client.post(reverse("arbiter-event-import"), {"archive-file": _file(text)})
    copy = Tournament.objects.exclude(pk=event.pk).get()
    assert response.status_code == 302 and response.url == reverse("arbiter-tournament",
                                                                   args=[copy.pk])
    assert everything(copy)["games"] == everything(event)["games"]
    bad = client.post(reverse("arbiter-event-import"),
                      {"archive-file": _file(archive_of(event, version=2).encode())}, follow=True)
    assert "update this server" in bad.content.decode()
    assert Tournament.objects.count() == 2


def _file(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("event.json", content, content_type="application/json")
