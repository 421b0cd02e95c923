"""What the server log (stderr) says about refused requests (issue 28 item 4): one line each,
with the reason, and no traceback; a server error keeps its traceback."""

from __future__ import annotations

import io
import logging

import pytest
from django.urls import reverse

from tests.web.conftest import make_tournament


@pytest.fixture
def server_log():
    """The text written by the settings' stderr handler (its filters included)."""
    handler = next(h for h in logging.getLogger("django").handlers if h.name == "stderr")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


@pytest.mark.django_db
def test_a_403_is_logged_on_one_line_with_its_reason(client, arbiter, other_arbiter, server_log):
    tournament = make_tournament(arbiter, players=2)
    client.force_login(other_arbiter)
    url = reverse("arbiter-tournament", args=[tournament.pk])
    assert client.get(url).status_code == 403
    lines = server_log.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].endswith(
        f"WARNING django.request: Forbidden (Permission denied): {url}: "
        "You are not an arbiter of this tournament."
    )


@pytest.mark.django_db
def test_a_suspicious_host_is_logged_on_one_line(client, server_log):
    # The login page: never served from the public pages' cache, which answers before the host
    # is read.
    assert client.get(reverse("login"), HTTP_HOST="evil.example").status_code == 400
    lines = server_log.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "ERROR django.security.DisallowedHost: Invalid HTTP_HOST header: 'evil.example'" in (
        lines[0]
    )


@pytest.mark.django_db
def test_a_server_error_keeps_its_traceback(client, arbiter, server_log, monkeypatch):
    from tournaments import views_arbiter

    def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(views_arbiter, "readable", broken)
    client.raise_request_exception = False
    tournament = make_tournament(arbiter, players=2)
    client.force_login(arbiter)
    assert client.get(reverse("arbiter-tournament", args=[tournament.pk])).status_code == 500
    log = server_log.getvalue()
    assert "ERROR django.request: Internal Server Error" in log
    assert "Traceback (most recent call last)" in log and "RuntimeError: the disk is full" in log
