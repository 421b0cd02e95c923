"""Load FIDE's rating list: ``manage.py import_fide_list players_list.zip``.

TXT or XML, zipped or not (https://ratings.fide.com/download_lists.phtml); the file is read as
a stream and replaces the list loaded before, all or nothing.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments import fide_list


class Command(BaseCommand):
    help = "Load FIDE's rating list (TXT or XML, zipped or not) into the players' search table."

    def add_arguments(self, parser):
        parser.add_argument("file", help="players_list.zip, players_list_foa.txt, *_xml.zip, ...")

    def handle(self, *args, file, **options):
        try:
            loaded = fide_list.load(fide_list.read_file(file))
        except (OSError, fide_list.FideListError) as error:
            raise CommandError(f"{file}: {error}") from error
        self.stdout.write(
            f"{loaded.players} players loaded in {loaded.seconds:.1f} s from {file}."
        )
