"""Arbiter dashboard views: load with a permission check, validate a form, call a service."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/arbiter/home.html", {})
