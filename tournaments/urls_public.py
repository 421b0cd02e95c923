"""Public pages (no login): the root lists the tournaments."""

from django.urls import path

from tournaments import live, views_checker, views_display, views_public as v

urlpatterns = [
    path("", v.tournament_list, name="home"),
    path("language/<str:code>/", v.switch_language, name="language"),
    path("check/", views_checker.check_file, name="check"),
    path("check/<uuid:pk>/", views_checker.check_job, name="check-job"),
    path("t/<int:pk>/", v.tournament_home, name="public-tournament"),
    path("t/<int:pk>/rounds/<int:number>/", v.round_pairings, name="public-round"),
    path("t/<int:pk>/standings/", v.standings, name="public-standings"),
    path("t/<int:pk>/events/", live.events, name="public-events"),
    path("t/<int:pk>/display/", views_display.display, name="public-display"),
    path("t/<int:pk>/crosstable/", v.crosstable, name="public-crosstable"),
    path("t/<int:pk>/players/", v.player_list, name="public-players"),
    path("t/<int:pk>/players/<int:player_pk>/", v.player_card, name="public-player"),
    path(
        "t/<int:pk>/players/<int:player_pk>/tiebreaks/",
        v.player_tiebreaks,
        name="public-player-tiebreaks",
    ),
]
