from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every change of a tournament raises its version (cached pages, ETags, live pages).
        from tournaments import versioning  # noqa: F401
