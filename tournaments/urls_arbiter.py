"""Arbiter dashboard URLs (login required; writes only by the tournament's arbiters)."""

from django.urls import path

from tournaments import views_arbiter as v

urlpatterns = [
    path("", v.home, name="arbiter-home"),
]
