"""``/api/tournaments/<id>/categories/`` and ``/prizes/``: an event's categories, each one's
ranking list (the standings filtered, ``tournaments.prize_lists``) and who receives which prize.
Read-only, numbers as numbers, like the standings."""

from __future__ import annotations

from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from tournaments import prize_lists, services
from tournaments.models import Category

from .serializers import PlayerRefSerializer, PointsField, TieBreakValueField
from .views import StandingsBase, StandingsUnavailable, TournamentMixin


class ConditionsSerializer(serializers.Serializer):
    women = serializers.BooleanField()
    age_under = serializers.IntegerField(
        allow_null=True, help_text="Born in the event's year minus this or later "
        "(not this age before 1 January, FIDE D.04.07 Art. 6).")
    age_from = serializers.IntegerField(
        allow_null=True, help_text="Born in the event's year minus this or earlier "
        "(this age or older in the year, FIDE D.04.03 Art. 2.1).")
    rating_from = serializers.IntegerField(allow_null=True, help_text="Inclusive.")
    rating_below = serializers.IntegerField(allow_null=True, help_text="Exclusive.")
    unrated = serializers.ChoiceField(choices=Category.Unrated.values)
    federations = serializers.ListField(child=serializers.CharField())
    club = serializers.CharField(allow_blank=True)


class CategorySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    position = serializers.IntegerField(help_text="The order of the prize list.")
    conditions = ConditionsSerializer(source="*")
    prizes = serializers.ListField(
        child=serializers.FloatField(), source="amounts", help_text="Places 1, 2, ..."
    )

    def to_representation(self, category):
        data = super().to_representation(category)
        data["conditions"]["federations"] = sorted(category.federation_codes)
        return data


class CategoryList(TournamentMixin, generics.ListAPIView):
    """The event's categories in the order of its prize list, with who belongs."""

    serializer_class = CategorySerializer
    pagination_class = None

    def get_queryset(self):
        return self.tournament().categories.all()


class CategoryRowSerializer(serializers.Serializer):
    rank = serializers.CharField(source="rank_label", help_text='In the category: "2", "2-3".')
    overall_rank = serializers.CharField(source="row.rank_label")
    player = PlayerRefSerializer(source="row.player")
    points = PointsField(source="row.points")
    tiebreaks = serializers.ListField(child=TieBreakValueField(), source="row.tiebreaks")


class CategoryStandingsSerializer(serializers.Serializer):
    category = CategorySerializer()
    after_round = serializers.IntegerField(source="standings.after_round")
    tiebreak_names = serializers.ListField(
        child=serializers.CharField(), source="standings.tiebreak_names"
    )
    rows = CategoryRowSerializer(many=True)


class CategoryStandingsView(TournamentMixin, StandingsBase):
    """A category's ranking list: the standings' rows of its players, in the standings' order
    (the event's tie-breaks; never ranked again)."""

    serializer_class = CategoryStandingsSerializer
    error_codes = (400, 404, 503)

    def category(self) -> Category:
        category = Category.objects.filter(
            tournament_id=self.kwargs["pk"], pk=self.kwargs["category_pk"]
        ).first()
        if category is None:
            raise NotFound("No such category in this tournament.")
        return category

    def check_request(self):
        self.category()
        self.after_round()

    def get(self, request, *args, **kwargs):
        after = self.after_round()
        t, category = self.tournament(), self.category()
        try:
            table = prize_lists.category_standings(
                t, category, after_round=after, version=getattr(self, "version", None)
            )
        except services.ServiceError as error:
            raise StandingsUnavailable(str(error)) from error
        return Response(self.get_serializer(table).data)


class AwardSerializer(serializers.Serializer):
    places = serializers.CharField(help_text='"3", or "3-5" for the places a tie shares.')
    player = PlayerRefSerializer()
    points = PointsField()
    amount = serializers.FloatField()
    shared = serializers.BooleanField()


class PrizeSectionSerializer(serializers.Serializer):
    category = serializers.IntegerField(
        source="category.pk", allow_null=True, help_text="Null: the general standings."
    )
    name = serializers.CharField()
    announced = serializers.ListField(child=serializers.FloatField())
    awards = AwardSerializer(many=True, source="lines")


class PrizeGivingSerializer(serializers.Serializer):
    after_round = serializers.IntegerField()
    final = serializers.BooleanField(help_text="Whether the last round is in.")
    sharing = serializers.CharField(help_text="none, equal or hort.")
    currency = serializers.CharField(allow_blank=True)
    lists = PrizeSectionSerializer(many=True, source="sections")


class PrizeGivingView(TournamentMixin, generics.GenericAPIView):
    """Who receives which prize, from the standings of the rounds complete so far (final
    once the last round is in): one prize a player, the most valuable; ties as the event
    says (by the tie-breaks, shared equally, or the Hort system)."""

    serializer_class = PrizeGivingSerializer
    error_codes = (404, 503)

    def get(self, request, *args, **kwargs):
        try:
            giving = prize_lists.prize_giving(
                self.tournament(), version=getattr(self, "version", None)
            )
        except services.ServiceError as error:
            raise StandingsUnavailable(str(error)) from error
        return Response(self.get_serializer(giving).data)
