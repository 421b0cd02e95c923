"""API URLs under /api/: read-only resources, the OpenAPI schema and its interactive docs."""

from django.urls import path

from . import views as v
from .explain import RoundExplanationView
from .prizes import CategoryList, CategoryStandingsView, PrizeGivingView

urlpatterns = [
    path("", v.ApiRoot.as_view(), name="api-root"),
    path("tournaments/", v.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>/", v.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/players/", v.PlayerList.as_view(), name="api-players"),
    path(
        "tournaments/<int:pk>/players/<int:player_pk>/",
        v.PlayerDetail.as_view(),
        name="api-player",
    ),
    path("tournaments/<int:pk>/rounds/", v.RoundList.as_view(), name="api-rounds"),
    path("tournaments/<int:pk>/rounds/<int:number>/", v.RoundDetail.as_view(), name="api-round"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/pairings/",
        v.PairingList.as_view(),
        name="api-pairings",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/explanation/",
        RoundExplanationView.as_view(),
        name="api-round-explanation",
    ),
    path("tournaments/<int:pk>/standings/", v.StandingsView.as_view(), name="api-standings"),
    path("tournaments/<int:pk>/categories/", CategoryList.as_view(), name="api-categories"),
    path(
        "tournaments/<int:pk>/categories/<int:category_pk>/standings/",
        CategoryStandingsView.as_view(),
        name="api-category-standings",
    ),
    path("tournaments/<int:pk>/prizes/", PrizeGivingView.as_view(), name="api-prizes"),
    path("schema/", v.SchemaView.as_view(), name="api-schema"),
    path("docs/", v.SwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", v.RedocView.as_view(url_name="api-schema"), name="api-redoc"),
]
