"""Issue 13: the upload pages under hypothesis. Whatever file arrives at ``players/upload/`` or
``import/``, the answer is a redirect with a message (the test client raises on any exception,
so a 500 fails the test), and a refused file writes nothing."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.web.conftest import make_tournament
from tournaments import services
from tournaments.models import AuditEntry, Game, Player, Round, Tournament

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Cells that have broken uploads before: long names, control characters, quotes, superscript
# and full-width digits, line breaks of every kind.
TRICKY = st.sampled_from(
    ["", "Ann", '"', '""', ",", "\r", "\n", "\r\n", "\x00", "\t", "\x0b", "\u2028", "²³",
     "１２", "99999", "-1", "2100", "GM", "GERM", "SUI", "m", "w", "x" * 120, "=1+1", "é", "\ufeff"]
)
CELL = st.one_of(TRICKY, st.text(max_size=12), st.integers(-5, 100_000).map(str))
HEADER = st.lists(
    st.sampled_from(["name", "rating", "title", "federation", "fide_id", "sex", "birth_year",
                     "elo", "unknown", " Name "]),
    min_size=1, max_size=5,
)


PLAUSIBLE = {
    "name": st.from_regex(r"[A-Z][a-z]{1,8}, [A-Z][a-z]{1,6}", fullmatch=True).map(
        lambda name: f'"{name}"'
    ),
    "rating": st.integers(1000, 2800).map(str),
    "title": st.sampled_from(["", "GM", "IM", "FM", "WGM"]),
    "federation": st.sampled_from(["", "SUI", "GER", "IND"]),
    "fide_id": st.integers(1, 99_999_999).map(str),
    "sex": st.sampled_from(["", "m", "w"]),
    "birth_year": st.integers(1930, 2015).map(str),
}


@st.composite
def csv_files(draw) -> bytes:
    """A players CSV: mostly well-formed (so that uploads succeed too), with tricky cells."""
    if draw(st.booleans()):
        header = draw(HEADER)
        rows = draw(st.lists(st.lists(CELL, max_size=len(header) + 1), max_size=6))
    else:
        header = ["name", *draw(st.lists(st.sampled_from(list(PLAUSIBLE)[1:]), unique=True))]
        rows = draw(
            st.lists(
                st.tuples(*(st.one_of(*[PLAUSIBLE[key]] * 4, TRICKY) for key in header)),
                min_size=1, max_size=6,
            )
        )
    sep = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = sep.join([",".join(header), *(",".join(row) for row in rows)])
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "cp1252", "utf-16"]))
    return text.encode(encoding, errors="replace")


def counts() -> tuple[int, ...]:
    return (
        Tournament.objects.count(), Player.objects.count(), Round.objects.count(),
        Game.objects.count(), AuditEntry.objects.count(),
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@FUZZ
@given(payload=st.one_of(csv_files(), csv_files(), st.binary(max_size=300)), latin1=st.booleans())
def test_players_upload_never_fails_and_a_refusal_writes_nothing(client, arbiter, payload, latin1):
    client.force_login(arbiter)
    t = Tournament.objects.filter(name="Fuzz Club").first() or services.create_tournament(
        arbiter, name="Fuzz Club", rounds=5
    )
    before = counts()
    data = {"file": SimpleUploadedFile("players.csv", payload)}
    if latin1:
        data["encoding"] = "latin-1"
    response = client.post(reverse("arbiter-players-upload", args=[t.pk]), data, follow=True)
    assert response.redirect_chain[0][1] == 302
    shown = messages_of(response)
    added = [m for m in shown if m.endswith((" players added.", " player added."))]
    if added:
        count = int(added[0].split()[0])
        assert counts()[1] == before[1] + count
        for player in t.players.all():
            player.full_clean(exclude=["tournament"], validate_constraints=False)
        assert sorted(t.players.values_list("tpn", flat=True)) == list(
            range(1, t.players.count() + 1)
        )
    else:
        assert shown, "a refusal says why"
        assert counts() == before


@st.composite
def damaged_trf(draw, base: str) -> bytes:
    """A TRF file written by the app, then damaged: characters inserted, lines cut or doubled."""
    lines = base.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["insert", "cut", "double", "drop", "replace"]))
        line = lines[i]
        at = draw(st.integers(0, len(line)))
        if action == "insert":
            lines[i] = line[:at] + draw(st.one_of(TRICKY, st.text(max_size=4))) + line[at:]
        elif action == "cut":
            lines[i] = line[:at]
        elif action == "double":
            lines.insert(i, line)
        elif action == "drop":
            del lines[i]
            if not lines:
                lines = [""]
        else:
            lines[i] = line[:at] + draw(st.text(max_size=6)) + line[at + 6:]
    sep = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return sep.join(lines).encode("utf-8", errors="replace")


@pytest.fixture
def played_trf(arbiter) -> str:
    """The TRF export of a tournament with two finished rounds."""
    import random

    from tournaments.models import Result

    t = make_tournament(arbiter, players=7, rounds=4)
    services.draw_initial_color(t, arbiter, rng=random.Random(2))
    for _ in range(2):
        rnd = services.pair_next_round(t, arbiter)
        services.publish_round(rnd, arbiter)
        services.set_results(
            rnd, arbiter, {g.pk: Result.DRAW for g in rnd.games.all() if not g.is_bye}
        )
        services.finish_round(rnd, arbiter)
    return services.export_trf(t)


@FUZZ
@given(data=st.data())
def test_trf_import_never_fails_and_a_refusal_writes_nothing(client, staff, played_trf, data):
    client.force_login(staff)
    payload = data.draw(st.one_of(damaged_trf(played_trf), st.binary(max_size=200)))
    before = counts()
    response = client.post(
        reverse("arbiter-tournament-import"),
        {"file": SimpleUploadedFile("t.trf", payload)},
        follow=True,
    )
    assert response.redirect_chain[0][1] == 302
    target = response.redirect_chain[0][0]
    if target == reverse("arbiter-tournament-create"):
        assert messages_of(response), "a refusal says why"
        assert counts() == before
    else:
        assert counts()[0] == before[0] + 1
        imported = Tournament.objects.order_by("-pk").first()
        assert target == reverse("arbiter-tournament", args=[imported.pk])
        for player in imported.players.all():
            player.full_clean(exclude=["tournament"], validate_constraints=False)
