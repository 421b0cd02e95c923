"""Read-only API views with conditional GET.

Every response carries an ETag (and, once the second of the last change is over, a
Last-Modified); a client that sends it back in If-None-Match (or If-Modified-Since) gets
``304 Not Modified`` after one or two small queries, without the body being built. The ETag
changes with every change of the tournament, because every change goes through a service that
writes an audit entry (``tournaments.queries.tournament_version``).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Q
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.cache import patch_vary_headers
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework import generics, serializers, status
from rest_framework.exceptions import APIException, NotFound, ParseError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from tournaments import conditional, queries, ratings, services
from tournaments.models import Player, Result, Round, Tournament

from . import serializers as s

ERROR = OpenApiResponse(
    inline_serializer("Error", {"detail": serializers.CharField()}),
    description="What went wrong, in a sentence.",
)


class ApiSchema(AutoSchema):
    """Drf-spectacular's schema, plus the error answers a view names in ``error_codes``
    (documented beside its 200, with the one shape every API error has)."""

    def _get_response_bodies(self, direction="response"):
        bodies = super()._get_response_bodies(direction)
        for code in getattr(self.view, "error_codes", ()):
            bodies.setdefault(str(code), self._get_response_for_code(ERROR, str(code)))
        return bodies


class PreconditionFailed(APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "The resource has changed: its ETag does not match If-Match."
    default_code = "precondition_failed"


class EnglishMixin:
    """The API speaks one language whatever the client's Accept-Language: its data (result
    symbols, labels) and its errors stay stable for programs."""

    def initial(self, request, *args, **kwargs):
        translation.activate(settings.LANGUAGE_CODE)
        super().initial(request, *args, **kwargs)


class ConditionalGetMixin(EnglishMixin):
    """GET with ETag / Last-Modified; 304 when the client's copy is current."""

    # Public and read-only: no session is read, so responses do not vary with cookies.
    authentication_classes = ()
    permission_classes = (AllowAny,)
    versioned_cache = True  # tournaments.middleware serves the bodies from the cache
    cache_query: tuple[str, ...] = ("format",)  # the query parameters that make another body
    schema = ApiSchema()
    error_codes: tuple[int, ...] = (404,)

    def get_version(self) -> queries.Version | None:
        return queries.tournament_version(self.kwargs["pk"])

    def check_request(self) -> None:
        """Raise the 404 or 400 this request gets anyway: a failure comes before any
        precondition (RFC 9110 13.2.1), so a missing resource is never a 304 or a 412."""

    def get(self, request, *args, **kwargs):
        # Read by tournaments.middleware already, or read now.
        version = getattr(request._request, "public_version", None) or self.get_version()
        self.version = version
        if version is None:
            raise NotFound("No such tournament.")
        # One ETag per representation: the JSON and the browsable API differ.
        etag = version.etag(request.get_full_path(), request.accepted_renderer.format)
        last_modified = version.http_last_modified()
        early = conditional.not_modified(request, etag, last_modified)
        if early is not None:
            self.check_request()
            if early.status_code == status.HTTP_412_PRECONDITION_FAILED:
                raise PreconditionFailed()
            self._stamp(early, etag, last_modified)
            return early
        request._request.public_version = version  # the body is cached under it
        response = super().get(request, *args, **kwargs)
        if 200 <= response.status_code < 300:
            self._stamp(response, etag, last_modified)
        return response

    @staticmethod
    def _stamp(response, etag: str, last_modified: int | None) -> None:
        conditional.stamp(response, etag, last_modified)
        patch_vary_headers(response, ["Accept"])


class TournamentMixin(ConditionalGetMixin):
    def tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        return self._tournament


class TournamentList(ConditionalGetMixin, generics.ListAPIView):
    """All tournaments, newest first."""

    serializer_class = s.TournamentSerializer
    error_codes = ()

    def get_version(self):
        return queries.site_version()

    def get_queryset(self):
        return queries.public_tournaments()


class TournamentDetail(ConditionalGetMixin, generics.RetrieveAPIView):
    """One tournament with its point system and tie-breaks."""

    serializer_class = s.TournamentDetailSerializer

    def get_queryset(self):
        return queries.public_tournaments()


class PlayerList(TournamentMixin, generics.ListAPIView):
    """The players in starting order (TPN)."""

    serializer_class = s.PlayerSerializer

    def get_queryset(self):
        return Player.objects.filter(tournament_id=self.kwargs["pk"]).order_by("tpn")


class PlayerDetail(TournamentMixin, generics.RetrieveAPIView):
    """One player with every published round: colour, opponent, result, running score."""

    serializer_class = s.PlayerDetailSerializer

    def check_request(self):
        players = Player.objects.filter(tournament_id=self.kwargs["pk"])
        if not players.filter(pk=self.kwargs["player_pk"]).exists():
            raise NotFound("No such player in this tournament.")

    def get_object(self):
        t = self.tournament()
        hist = queries.history(t, version=getattr(self, "version", None))
        player = hist.players.get(self.kwargs["player_pk"])
        if player is None:
            raise NotFound("No such player in this tournament.")
        games = []
        for number, cell, total in hist.running(player.pk):
            games.append(
                {
                    "round": number,
                    "colour": cell.colour if cell else "",
                    "opponent": cell.opponent if cell else None,
                    "result": cell.symbol if cell else "",
                    "points": cell.points if cell else 0,
                    "total": total,
                }
            )
        player.games = games
        player.score = games[-1]["total"] if games else 0
        player.rating_figures = ratings.card(t, hist, player)
        return player


def _rounds(pk: int):
    return (
        Round.objects.filter(tournament_id=pk, state__in=queries.PUBLIC_STATES)
        .annotate(
            boards=Count("games", filter=Q(games__board__isnull=False)),
            results_missing=Count("games", filter=Q(games__result=Result.PENDING)),
        )
        .order_by("number")
    )


class RoundList(TournamentMixin, generics.ListAPIView):
    """The published and finished rounds (a draft round is never shown)."""

    serializer_class = s.RoundSerializer

    def get_queryset(self):
        return _rounds(self.kwargs["pk"])


class PublishedRoundMixin(TournamentMixin):
    def check_request(self):
        rounds = Round.objects.filter(tournament_id=self.kwargs["pk"], number=self.kwargs["number"])
        if not rounds.filter(state__in=queries.PUBLIC_STATES).exists():
            raise NotFound("No such published round.")


class RoundDetail(PublishedRoundMixin, generics.RetrieveAPIView):
    """One published round with its pairings in board order (C.04.2 Art. 3.6), byes last."""

    serializer_class = s.RoundDetailSerializer

    def get_object(self):
        rnd = _rounds(self.kwargs["pk"]).filter(number=self.kwargs["number"]).first()
        if rnd is None:
            raise NotFound("No such published round.")
        rnd.rows = queries.pairing_rows(rnd)
        return rnd


class PairingList(PublishedRoundMixin, generics.ListAPIView):
    """The pairings of one published round: boards in order, then byes and absences."""

    serializer_class = s.PairingSerializer

    def get_queryset(self):
        rnd = (
            Round.objects.filter(
                tournament_id=self.kwargs["pk"],
                number=self.kwargs["number"],
                state__in=queries.PUBLIC_STATES,
            )
            .only("pk")
            .first()
        )
        if rnd is None:
            raise NotFound("No such published round.")
        return rnd.games.select_related("white", "black")


class StandingsUnavailable(APIException):
    """The tournament cannot be ranked as configured (e.g. an unknown tie-break code)."""

    status_code = 503
    default_code = "standings_unavailable"


MAX_ROUND_DIGITS = 4


def round_number(value: str | None, name: str) -> int | None:
    """A round number given in a query string: plain ASCII digits only (Python's ``int`` would
    also take ``1_0``, ``+3`` or Arabic-Indic digits); None when absent or empty."""
    if value in (None, ""):
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= MAX_ROUND_DIGITS):
        raise ParseError(f"{name}: give a round number, in digits (0 or more).")
    return int(value)


class StandingsBase(generics.GenericAPIView):
    serializer_class = s.StandingsSerializer

    def after_round(self) -> int | None:
        """The ``after_round`` asked for; a round whose standings do not exist yet (not
        published, or results missing) is a 400 that says how far they go."""
        after = round_number(self.request.query_params.get("after_round"), "after_round")
        if after is not None:
            done = queries.complete_public_rounds(self.tournament())
            if after > done:
                raise ParseError(
                    f"after_round: round {after} is not complete; the standings go up to round "
                    f"{done} (0: before the first round)."
                )
        return after

    def get(self, request, *args, **kwargs):
        after = self.after_round()
        t, version = self.tournament(), getattr(self, "version", None)
        try:
            table = queries.public_standings(t, after_round=after, version=version)
        except services.ServiceError as error:
            raise StandingsUnavailable(str(error)) from error
        changes = ratings.changes(t, queries.history(t, version=version), up_to=table.after_round)
        serializer = self.get_serializer(table, context={
            **self.get_serializer_context(), "rating_changes": changes,
        })
        return Response(serializer.data)


@extend_schema(
    parameters=[
        OpenApiParameter(
            "after_round",
            {"type": "integer", "minimum": 0, "maximum": 10**MAX_ROUND_DIGITS - 1},
            description="Standings after this round (default: the latest).",
        )
    ],
)
class StandingsView(TournamentMixin, StandingsBase):
    """Standings over the published rounds whose results are all in; ranks shared on ties."""

    error_codes = (400, 404, 503)
    cache_query = ("after_round", "format")

    def check_request(self):
        self.after_round()


# ---------------------------------------------------------------------------------------------
# The root, and the schema and its docs


@extend_schema(
    responses=inline_serializer("ApiRoot", {name: serializers.URLField() for name in (
        "tournaments", "schema", "docs", "redoc")})
)
class ApiRoot(EnglishMixin, APIView):
    """Where everything is: the tournaments, the OpenAPI schema and its two readers."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get(self, request, *args, **kwargs):
        return Response({
            "tournaments": reverse("api-tournaments", request=request),
            "schema": reverse("api-schema", request=request),
            "docs": reverse("api-docs", request=request),
            "redoc": reverse("api-redoc", request=request),
        })


class PageOptionsMixin:
    """OPTIONS on a page says what it allows, without a body (DRF would render its metadata
    with the page's template, which cannot show it)."""

    def options(self, request, *args, **kwargs):
        return HttpResponse(headers={"Allow": ", ".join(self.allowed_methods)})


class SchemaView(PageOptionsMixin, SpectacularAPIView):
    pass


class SwaggerView(PageOptionsMixin, SpectacularSwaggerView):
    pass


REDOC_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self' 'unsafe-inline'",  # the page's one line that starts ReDoc
    "style-src 'self' 'unsafe-inline'",  # ReDoc writes its styles into the page
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",  # the schema
    "worker-src 'self' blob:",  # the search index
])
"""What the ReDoc page may load: from this site only."""


class RedocView(PageOptionsMixin, SpectacularRedocView):
    # Drf-spectacular's page also loads fonts from Google; this one loads nothing from elsewhere.
    # ReDoc's sidebar still asks for Redocly's logo from their CDN: the policy keeps the browser
    # from fetching it (the link to Redocly stays, without the picture).
    template_name = "api/redoc.html"

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = REDOC_POLICY
        return response


def not_found(request, exception=None):
    """The 404 of a path under /api/ that matches no endpoint: JSON, like every API error."""
    return JsonResponse({"detail": "Not found."}, status=404)
