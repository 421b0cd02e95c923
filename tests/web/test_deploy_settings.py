"""Issue 13, findings 4, 5 and 7: secure by default, errors logged to stderr, throttled logins.

The settings are read in a fresh Python process, with the environment a server would have.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
KEY = "k3y-for-the-tests-only-Zq8vW2xR5tY9uP1oL4mN7bV0cX3zA6sD"
SETTINGS_VARIABLES = (
    "DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "SECURE_COOKIES", "LOG_LEVEL",
    "CSRF_TRUSTED_ORIGINS", "SECURE_HSTS_SECONDS", "TRUSTED_PROXIES",
    "DJANGO_ALLOW_ASYNC_UNSAFE",  # set by the browser test for its own process
)


def run_python(code: str, tmp_path, **env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    clean.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}",
    )
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True,
        timeout=120,
    )


SETUP = "import django; django.setup(); from django.conf import settings; "


def test_without_settings_debug_is_off_and_a_key_is_required(tmp_path):
    done = run_python(SETUP, tmp_path)
    assert done.returncode == 1
    assert "SECRET_KEY must be set when DEBUG is off" in done.stderr


@pytest.mark.parametrize("key", ["", "   ", "\t"])
def test_a_blank_secret_key_is_refused_even_in_development(tmp_path, key):
    done = run_python(SETUP, tmp_path, SECRET_KEY=key, DEBUG="1")
    assert done.returncode == 1 and "SECRET_KEY is blank" in done.stderr


def test_production_settings_pass_the_deployment_checklist(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={
            **{k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES},
            "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0", "SECRET_KEY": KEY,
            "ALLOWED_HOSTS": "chess.example.org",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        },
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
    values = run_python(
        SETUP + "print(settings.DEBUG, settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS,"
        " settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)",
        tmp_path, DEBUG="0", SECRET_KEY=KEY,
    )
    assert values.stdout.split() == ["False", "True", "31536000", "True", "True"]


def test_production_settings_hash_passwords_with_djangos_strong_default(tmp_path):
    # The test settings use a fast hasher (config/settings_test.py); production must not.
    done = run_python(
        SETUP + "from django.contrib.auth.hashers import get_hasher; h = get_hasher(); "
        "print(h.algorithm, h.iterations)",
        tmp_path, DEBUG="0", SECRET_KEY=KEY,
    )
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    assert done.stdout.split() == ["pbkdf2_sha256", str(PBKDF2PasswordHasher.iterations)]
    assert PBKDF2PasswordHasher.iterations >= 1_000_000


def test_a_500_is_logged_to_stderr_with_its_traceback(tmp_path):
    # The database file is empty (not migrated): the home page fails with a real 500.
    done = run_python(
        SETUP + "from django.test import Client; "
        "print(Client(raise_request_exception=False).get('/', secure=True).status_code)",
        tmp_path, DEBUG="0", SECRET_KEY=KEY, ALLOWED_HOSTS="testserver",
    )
    assert done.stdout.strip() == "500"
    assert "ERROR django.request: Internal Server Error: /" in done.stderr
    assert "Traceback (most recent call last)" in done.stderr
    assert "no such table" in done.stderr


def test_warnings_are_logged_and_info_is_not(tmp_path):
    done = run_python(
        SETUP + "import logging; logging.getLogger('tournaments').info('quiet'); "
        "logging.getLogger('tournaments').warning('heard')",
        tmp_path, DEBUG="0", SECRET_KEY=KEY,
    )
    assert "WARNING tournaments: heard" in done.stderr and "quiet" not in done.stderr


# ---------------------------------------------------------------------------------------------
# Login throttling (django-axes)


@pytest.mark.django_db
def test_logins_are_locked_after_five_failures_then_refused_even_with_the_password(
    client, arbiter, other_arbiter
):
    login = reverse("login")
    for _ in range(4):
        response = client.post(login, {"username": "arbiter", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    response = client.post(login, {"username": "arbiter", "password": "wrong"})
    assert response.status_code == 429
    response = client.post(login, {"username": "arbiter", "password": "arbiter-pass-123"})
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another user from the same address is not locked out.
    response = client.post(login, {"username": "other", "password": "other-pass-123"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(other_arbiter.pk)


@pytest.mark.django_db
def test_a_successful_login_resets_the_count(client, arbiter):
    login = reverse("login")
    for _ in range(4):
        client.post(login, {"username": "arbiter", "password": "wrong"})
    response = client.post(login, {"username": "arbiter", "password": "arbiter-pass-123"})
    assert response.status_code == 302
    client.logout()
    for _ in range(4):
        assert client.post(login, {"username": "arbiter", "password": "wrong"}).status_code == 200
