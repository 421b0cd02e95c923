"""Create a tournament from an event archive (``manage.py export_event``, or the dashboard's
download), with new ids; print its id.

    manage.py import_event FILE --owner USERNAME
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.management import inputs
from tournaments.services import ServiceError
from tournaments.services.archive_import import decoded, import_event


class Command(BaseCommand):
    help = "Create a tournament from an event archive (JSON); print its id."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--owner", required=True, help="Username of the arbiter who owns the tournament."
        )

    def handle(self, *args, file: Path, owner: str, **options) -> None:
        raw = inputs.file_bytes(file)
        user = inputs.owner(owner)
        try:
            tournament = import_event(decoded(raw), user)
        except ServiceError as error:
            raise CommandError(f"{file}: {error}") from error
        self.stdout.write(str(tournament.pk))
