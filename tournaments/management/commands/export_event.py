"""Write one tournament whole as an event archive (``tournaments.services.archive``), to move it
to another server (``manage.py import_event``) or keep it.

    manage.py export_event ID [-o FILE]
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.services.archive import export_event


class Command(BaseCommand):
    help = "Write one tournament whole (settings, players, rounds, audit trail) as JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument("id", type=int, help="The tournament's id.")
        parser.add_argument(
            "-o", "--output", type=Path, help="The file to write (default: standard output)."
        )

    def handle(self, *args, id: int, output: Path | None, **options) -> None:
        tournament = Tournament.objects.filter(pk=id).first()
        if tournament is None:
            raise CommandError(f"No tournament {id}.")
        text = export_event(tournament)
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"{output}: {error.strerror}") from error
