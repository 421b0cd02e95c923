import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_it_redirects_anonymous_dashboard_to_login(client):
    response = client.get("/arbiter/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_it_shows_dashboard_to_logged_in_user(client):
    user = User.objects.create_user("arb", password="pw-long-enough")
    client.force_login(user)
    response = client.get("/arbiter/")
    assert response.status_code == 200
    assert b"Your tournaments" in response.content
