from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # After a change, the cache layer computes the new standings (it reads no page itself).
        from tournaments import pagecache, queries

        pagecache.refresh_with(queries.refresh)
