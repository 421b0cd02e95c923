"""What the import commands read from their arguments: the file's bytes and the owner's account,
each refused with a one-line ``CommandError``."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError


def file_bytes(file: Path) -> bytes:
    try:
        return file.read_bytes()
    except OSError as error:
        raise CommandError(f"{file}: {error.strerror}") from error


def owner(username: str):
    """The user who will own the new tournament (``--owner``)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"No user {username!r}: create it first (manage.py createsuperuser).")
    return user
