"""Issue 13, finding 6: what the app writes into files cannot be read as formulas or records."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from pairing.trf import read_trf
from tests.web.conftest import make_tournament
from tournaments import services
from tournaments.models import Player, Tournament
from tournaments.views_corrections import csv_cell

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://evil.example/","x")'


def test_audit_csv_neutralises_formula_prefixes(client, arbiter):
    t = services.create_tournament(arbiter, name="Club", rounds=5)
    for name in (HYPERLINK, "+SUM(A1)", "-2+3", "@cmd", "Plain, Name"):
        services.add_player(t, arbiter, name=name)
    client.force_login(arbiter)
    response = client.get(reverse("arbiter-audit-csv", args=[t.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    players = [row["player"] for row in rows if row["action"] == "add player"]
    assert sorted(players) == sorted(
        ["'" + HYPERLINK, "'+SUM(A1)", "'-2+3", "'@cmd", "Plain, Name"]
    )
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())


def test_csv_cell_covers_tab_and_carriage_return():
    assert [csv_cell(v) for v in ("\tx", "\rx", "ok", 3, "")] == ["'\tx", "'\rx", "ok", 3, ""]


def test_trf_export_never_writes_a_line_break_from_a_field(client, arbiter):
    t = make_tournament(arbiter, players=4)
    # Rows written before the models refused control characters (validation bypassed here).
    Tournament.objects.filter(pk=t.pk).update(name="Open\r\nXXC black1\r\nXXP 1 2")
    Player.objects.filter(tournament=t, tpn=2).update(
        name="Two\nlines\u2028here", federation="A\rB"
    )
    client.force_login(arbiter)
    text = client.get(reverse("arbiter-export-trf", args=[t.pk])).content.decode()
    lines = text.split("\n")
    assert lines[0] == "012 Open XXC black1 XXP 1 2"
    assert not any(line.startswith(("XXC", "XXP")) for line in lines)
    assert "\r" not in text and "\u2028" not in text
    state = read_trf(text)
    assert len(state.players) == 4 and not state.forbidden_pairs
    assert state.players[1].name == "Two lines here"


def test_a_multi_line_note_becomes_a_one_line_manual_label(arbiter):
    import random

    from tournaments.services import pairing_changes

    t = make_tournament(arbiter, players=6)
    services.draw_initial_color(t, arbiter, rng=random.Random(1))
    rnd = services.pair_next_round(t, arbiter)
    text = pairing_changes.pairing_text(rnd)
    first, second = text.splitlines()[:2]
    boards, bye = pairing_changes.parse_pairing(
        pairing_changes.swap_in_text(text, int(first.split(" - ")[0]), int(second.split(" - ")[0]))
    )
    pairing_changes.change_pairing(
        rnd, arbiter, boards=boards, bye=bye, note="swap\r\nXXC black1\u2028x", accept_warnings=True
    )
    labels = {g.manual for g in rnd.games.all() if g.manual}
    assert labels == {"swap XXC black1 x"}
    for game in rnd.games.all():
        game.full_clean()
