"""The public registration page of an event (issue 27, section 3): opened and closed by its
arbiters, the FIDE ID looked up in the list, entries waiting for approval, a confirmation by
e-mail, no double entries, a trap for robots and a rate limit."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

from tools.fide_bench import txt_text
from tournaments import fide_list, services
from tournaments.models import AuditEntry, RegistrationEntry
from tournaments.services import registration

from .conftest import make_tournament

pytestmark = pytest.mark.django_db

ANNA = {"name": "Muster, Anna", "fide_id": "", "federation": "SUI", "birth_year": "1990",
        "email": "anna@example.org"}


@pytest.fixture(autouse=True)
def _no_posts_counted():
    """The rate limit counts in the cache, which outlives a test."""
    cache.clear()


@pytest.fixture
def event(arbiter):
    t = services.create_tournament(arbiter, name="Spring Open", rounds=5)
    registration.set_registration_open(t, arbiter, True)
    return t


def send(client, t, **fields):
    return client.post(reverse("public-register", args=[t.pk]), {**ANNA, **fields}, follow=True)


def shown(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_it_is_opened_and_closed_by_an_arbiter(client, arbiter, other_arbiter):
    t = services.create_tournament(arbiter, name="Spring Open", rounds=5)
    page = client.get(reverse("public-register", args=[t.pk])).content.decode()
    assert "Registration for this event is closed." in page and 'name="email"' not in page
    assert not send(client, t).context["t"].entries.exists()
    client.force_login(arbiter)
    client.post(reverse("arbiter-entries-open", args=[t.pk]), {"open": "1"})
    t.refresh_from_db()
    assert t.registration_open
    client.logout()
    page = client.get(reverse("public-register", args=[t.pk])).content.decode()
    assert 'name="email"' in page and "csrfmiddlewaretoken" in page and 'class="trap"' in page
    assert AuditEntry.objects.filter(tournament=t, action="open registration").exists()
    client.force_login(other_arbiter)
    response = client.post(reverse("arbiter-entries-open", args=[t.pk]), {"open": "0"})
    assert response.status_code == 403
    registration.set_registration_open(t, arbiter, False)
    with pytest.raises(services.ServiceError, match="Registration for this event is closed"):
        registration.submit_entry(t, **ANNA)


def test_an_entry_waits_for_approval_and_is_confirmed_by_mail(
    client, event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = send(client, event)
    assert any("waits for the arbiter's approval" in m for m in shown(response))
    entry = RegistrationEntry.objects.get()
    assert (entry.name, entry.state, entry.birth_year) == ("Muster, Anna", "waiting", 1990)
    assert not event.players.exists()
    (message,) = mail.outbox
    assert message.to == ["anna@example.org"] and "Spring Open" in message.subject
    assert "waits for the arbiter's approval" in message.body


def test_the_confirmation_is_in_the_language_of_the_page(
    client, event, django_capture_on_commit_callbacks
):
    client.cookies["django_language"] = "fr"
    with django_capture_on_commit_callbacks(execute=True):
        send(client, event)
    (message,) = mail.outbox
    assert message.subject == "Inscription reçue : Spring Open"


def test_the_arbiter_approves_or_rejects_entries(
    client, arbiter, event, django_capture_on_commit_callbacks
):
    send(client, event)
    send(client, event, name="Beispiel, Bruno", email="bruno@example.org", birth_year="1985")
    anna, bruno = RegistrationEntry.objects.order_by("pk")
    mail.outbox.clear()
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-entries", args=[event.pk])).content.decode()
    assert "Muster, Anna" in page and "bruno@example.org" in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("arbiter-entry-decide", args=[event.pk, anna.pk]),
                    {"decision": "approve"})
        client.post(reverse("arbiter-entry-decide", args=[event.pk, bruno.pk]),
                    {"decision": "reject"})
    anna.refresh_from_db()
    bruno.refresh_from_db()
    assert (anna.state, bruno.state) == ("approved", "rejected")
    player = event.players.get()
    assert (player.name, player.federation, player.birth_year, anna.player) == (
        "Muster, Anna", "SUI", 1990, player
    )
    assert [m.to for m in mail.outbox] == [["anna@example.org"], ["bruno@example.org"]]
    assert "approved" in mail.outbox[0].body and "did not accept" in mail.outbox[1].body
    actions = set(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert {"approve entry", "reject entry", "add player"} <= actions
    response = client.post(reverse("arbiter-entry-decide", args=[event.pk, anna.pk]),
                           {"decision": "approve"}, follow=True)
    assert "was approved already" in " ".join(shown(response))
    assert event.players.count() == 1


def test_an_entry_approved_after_round_1_is_a_late_entry(client, arbiter):
    t = make_tournament(arbiter, players=6)
    services.pair_next_round(t, arbiter)
    registration.set_registration_open(t, arbiter, True)
    send(client, t)
    entry = RegistrationEntry.objects.get()
    player = registration.approve_entry(entry, arbiter, arrival_round=2)
    assert player.arrival_round == 2
    assert AuditEntry.objects.filter(tournament=t, action="admit late entry").exists()


def test_double_entries_are_refused_with_a_clear_message(client, arbiter, event):
    send(client, event, fide_id="20612345")
    response = send(client, event, name="Someone, Else", fide_id="20612345")
    assert any("FIDE ID 20612345 is registered in this event already" in m
               for m in shown(response))
    response = send(client, event, name="MUSTER,  anna", fide_id="")
    assert any("born in 1990, is registered in this event already" in m
               for m in shown(response))
    services.add_player(event, arbiter, name="Çelik, Ali", birth_year=2001)
    response = send(client, event, name="Celik, Ali", birth_year="2001", email="a@b.org")
    assert any("is registered in this event already" in m for m in shown(response))
    assert RegistrationEntry.objects.count() == 1
    # A rejected entry does not stand in the way of a new one.
    registration.reject_entry(RegistrationEntry.objects.get(), arbiter)
    send(client, event, fide_id="20612345")
    assert RegistrationEntry.objects.filter(state="waiting").count() == 1


def test_the_fide_id_is_looked_up_in_the_list(client, event, tmp_path):
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(txt_text([
        {"fide_id": 1503014, "name": "Carlsen, Magnus", "fed": "NOR", "sex": "M",
         "title": "GM", "std": 2823, "born": 1990},
    ]).encode())
    fide_list.import_list(path)
    response = send(client, event, name="magnus", federation="", birth_year="1991",
                    fide_id="1503014")
    entry = RegistrationEntry.objects.get()
    assert (entry.name, entry.federation, entry.birth_year) == ("Carlsen, Magnus", "NOR", 1990)
    player = registration.approve_entry(entry, None)
    assert (player.rating, player.title, player.sex) == (2823, "GM", "m")
    response = send(client, event, fide_id="999999999")
    assert any("999999999 is not in FIDE's rating list" in m for m in shown(response))


def test_a_robot_filling_the_trap_is_answered_but_not_entered(
    client, event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = send(client, event, website="http://spam.example")
    assert response.status_code == 200 and not RegistrationEntry.objects.exists()
    assert not mail.outbox


def test_too_many_entries_from_one_address_are_refused(client, event, settings):
    settings.REGISTRATION_POSTS_PER_HOUR = 2
    send(client, event)
    send(client, event, name="Two, Player", email="two@example.org")
    response = client.post(reverse("public-register", args=[event.pk]),
                           {**ANNA, "name": "Three, Player"})
    assert response.status_code == 429
    assert RegistrationEntry.objects.count() == 2


def test_the_mail_backend_is_the_console_unless_configured():
    from config import settings as site

    assert site.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
