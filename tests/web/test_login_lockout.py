"""Login lockouts (django-axes) by user name and client address, behind a reverse proxy and
without one (issue 28 item 1): an outsider cannot lock the arbiter out, one address
brute-forcing a user name is stopped, and X-Forwarded-For is read only from trusted proxies."""

from __future__ import annotations

import pytest
from axes.helpers import get_client_ip_address
from django.test import RequestFactory
from django.urls import reverse

from config.settings import client_address_settings

PROXY = "10.0.0.2"  # the reverse proxy, as gunicorn sees it
OUTSIDER = "198.51.100.7"
ARBITER_MACHINE = "203.0.113.20"
WRONG = {"username": "arbiter", "password": "wrong"}
RIGHT = {"username": "arbiter", "password": "arbiter-pass-123"}


@pytest.fixture
def behind_one_proxy(settings):
    for name, value in client_address_settings(1).items():
        setattr(settings, name, value)


def through_proxy(client, path, data, address, forwarded_for=""):
    """POST as the README's nginx passes it on: X-Forwarded-For is what the client sent, if
    anything, followed by the client's address ($proxy_add_x_forwarded_for)."""
    header = f"{forwarded_for}, {address}" if forwarded_for else address
    return client.post(path, data, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=header)


def lock_out(client, path, address, **extra):
    for _ in range(5):
        response = through_proxy(client, path, WRONG, address, **extra)
    assert response.status_code == 429
    return response


@pytest.mark.django_db
def test_an_outsider_behind_the_proxy_does_not_lock_the_arbiter_out(
    client, arbiter, behind_one_proxy
):
    login = reverse("login")
    lock_out(client, login, OUTSIDER)
    response = through_proxy(client, login, RIGHT, ARBITER_MACHINE)
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(arbiter.pk)


@pytest.mark.django_db
def test_one_address_brute_forcing_through_the_proxy_is_stopped_even_with_the_password(
    client, arbiter, behind_one_proxy
):
    login = reverse("login")
    lock_out(client, login, OUTSIDER)
    assert through_proxy(client, login, RIGHT, OUTSIDER).status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_forged_header_behind_the_proxy_neither_evades_nor_lands_on_another_address(
    client, arbiter, behind_one_proxy
):
    login = reverse("login")
    # The outsider writes a new X-Forwarded-For each time: nginx appends the real address.
    for i in range(5):
        response = through_proxy(client, login, WRONG, OUTSIDER, forwarded_for=f"192.0.2.{i}")
    assert response.status_code == 429
    # ... nor can the outsider pass for the arbiter's machine.
    lock_out(client, login, OUTSIDER, forwarded_for=ARBITER_MACHINE)
    assert through_proxy(client, login, RIGHT, ARBITER_MACHINE).status_code == 302


@pytest.mark.django_db
def test_failures_on_the_admin_login_count_toward_the_same_lock(client, arbiter, behind_one_proxy):
    arbiter.is_staff = True
    arbiter.save()
    admin_login = reverse("admin:login")
    for _ in range(4):
        assert through_proxy(client, admin_login, WRONG, OUTSIDER).status_code == 200
    assert through_proxy(client, reverse("login"), WRONG, OUTSIDER).status_code == 429
    response = through_proxy(client, admin_login, RIGHT, OUTSIDER)
    assert response.status_code == 429 and "Too many failed logins" in response.content.decode()
    assert through_proxy(client, admin_login, RIGHT, ARBITER_MACHINE).status_code == 302


@pytest.mark.django_db
def test_without_a_configured_proxy_the_header_is_ignored(client, arbiter, settings):
    for name, value in client_address_settings(0).items():
        setattr(settings, name, value)
    login = reverse("login")
    # One connection's address, a different X-Forwarded-For each time: one count, one lock.
    for i in range(5):
        response = client.post(
            login, WRONG, REMOTE_ADDR=OUTSIDER, HTTP_X_FORWARDED_FOR=f"192.0.2.{i}"
        )
    assert response.status_code == 429
    forged = client.post(login, RIGHT, REMOTE_ADDR=OUTSIDER, HTTP_X_FORWARDED_FOR=ARBITER_MACHINE)
    assert forged.status_code == 429
    assert client.post(login, RIGHT, REMOTE_ADDR=ARBITER_MACHINE).status_code == 302


@pytest.mark.parametrize(
    ("proxies", "meta", "address"),
    [
        (0, {"REMOTE_ADDR": OUTSIDER, "HTTP_X_FORWARDED_FOR": "192.0.2.1"}, OUTSIDER),
        (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": OUTSIDER}, OUTSIDER),
        (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"192.0.2.1, {OUTSIDER}"}, OUTSIDER),
        # A CDN then nginx: the CDN appended the client, nginx the CDN.
        (2, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"{OUTSIDER}, 192.0.2.9"}, OUTSIDER),
        (2, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"1.1.1.1, {OUTSIDER}, 192.0.2.9"},
         OUTSIDER),
    ],
)
def test_the_client_address_is_counted_from_the_right_past_the_trusted_proxies(
    settings, proxies, meta, address
):
    for name, value in client_address_settings(proxies).items():
        setattr(settings, name, value)
    request = RequestFactory().post("/accounts/login/", **meta)
    assert get_client_ip_address(request) == address


def test_trusted_proxies_is_read_from_the_environment(tmp_path):
    from tests.web.test_deploy_settings import KEY, SETUP, run_python

    done = run_python(
        SETUP + "print(settings.AXES_IPWARE_PROXY_COUNT, "
        "settings.AXES_IPWARE_META_PRECEDENCE_ORDER)",
        tmp_path, DEBUG="0", SECRET_KEY=KEY, TRUSTED_PROXIES="1",
    )
    assert done.stdout == "0 ('HTTP_X_FORWARDED_FOR',)\n", done.stderr
    done = run_python(SETUP, tmp_path, DEBUG="0", SECRET_KEY=KEY, TRUSTED_PROXIES="-1")
    assert done.returncode == 1 and "TRUSTED_PROXIES must be 0 or more" in done.stderr
