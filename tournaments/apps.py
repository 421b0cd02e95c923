import atexit

from django.apps import AppConfig
from django.db.backends.signals import connection_created


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # After a change, the cache layer computes the new standings (it reads no page itself).
        from tournaments import pagecache, queries
        from tournaments.names import register_sqlite_fold

        pagecache.refresh_with(queries.refresh)
        # The open pages are told of a change once it is computed: if the process ends first,
        # at its end.
        atexit.register(queries.tell_uncomputed)
        # SQLite compares names without accents through Python's fold (tournaments.names).
        connection_created.connect(register_sqlite_fold, dispatch_uid="tournaments-fold")
