"""Serializers of the public API: points are given in points (1.5), not in stored tenths."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from pairing.model import points_number
from tournaments.models import Game, Player, Round, Tournament


def points(tenths: int | None) -> float | None:
    return None if tenths is None else points_number(tenths)


@extend_schema_field(OpenApiTypes.NUMBER)
class PointsField(serializers.Field):
    """Points stored in tenths, shown as a number of points."""

    def to_representation(self, value):
        return points(value)


class PointSystemSerializer(serializers.Serializer):
    win = PointsField(source="points_win")
    draw = PointsField(source="points_draw")
    loss = PointsField(source="points_loss")
    forfeit_win = PointsField(source="points_forfeit_win")
    forfeit_loss = PointsField(source="points_forfeit_loss")
    pairing_allocated_bye = PointsField(source="points_pairing_bye")
    half_point_bye = PointsField(source="points_half_bye")
    full_point_bye = PointsField(source="points_full_bye")
    zero_point_bye = PointsField(source="points_zero_bye")


class TournamentSerializer(serializers.ModelSerializer):
    player_count = serializers.IntegerField(read_only=True)
    public_rounds = serializers.IntegerField(
        read_only=True, help_text="Number of rounds published so far."
    )
    links = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "place", "start_date", "end_date", "rounds", "pairing_system",
            "status", "player_count", "public_rounds", "updated_at", "links",
        ]

    def get_links(self, t: Tournament) -> dict[str, str]:
        request = self.context.get("request")
        return {
            name: reverse(f"api-{name}", args=[t.pk], request=request)
            for name in ("tournament", "players", "rounds", "standings")
        }


class TournamentDetailSerializer(TournamentSerializer):
    point_system = PointSystemSerializer(source="*")
    tiebreaks = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "initial_color", "point_system", "tiebreaks"]

    def get_tiebreaks(self, t: Tournament) -> list[str]:
        # Stored as the settings form writes them: codes separated by commas (or lines).
        return [code.strip() for code in t.tiebreaks.replace("\n", ",").split(",") if code.strip()]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = [
            "id", "tpn", "name", "title", "rating", "federation", "fide_id",
            "arrival_round", "withdrawn_from_round",
        ]


class PlayerRefSerializer(serializers.ModelSerializer):
    """A player as named in pairings and standings."""

    class Meta:
        model = Player
        fields = ["id", "tpn", "name", "title", "rating"]


class RoundSerializer(serializers.ModelSerializer):
    boards = serializers.IntegerField(read_only=True, help_text="Number of boards.")
    results_missing = serializers.IntegerField(read_only=True)

    class Meta:
        model = Round
        fields = ["number", "state", "published_at", "finished_at", "boards", "results_missing"]


class PairingSerializer(serializers.ModelSerializer):
    """One row of a round: a board, or a bye or absence (``black`` is null)."""

    white = PlayerRefSerializer()
    black = PlayerRefSerializer(allow_null=True)
    result_display = serializers.CharField(source="get_result_display")
    second_result = serializers.CharField(
        help_text="Double-Swiss (C.04.5) only: game 2 of the match, from game 2's White (this "
        "board's Black); empty otherwise or while pending."
    )

    class Meta:
        model = Game
        fields = ["board", "white", "black", "result", "result_display", "second_result"]


class RoundDetailSerializer(RoundSerializer):
    pairings = PairingSerializer(many=True, source="rows")

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "pairings"]


@extend_schema_field({"type": "number", "nullable": True})
class TieBreakValueField(serializers.Field):
    """A tie-break value as the standings print it (``13.5``, ``2045``, ``-``) as a number,
    like the points; null for none."""

    def to_representation(self, value):
        return None if value in ("-", "", None) else float(value)


@extend_schema_field({"type": "integer", "nullable": True})
class RatingChangeField(serializers.Field):
    """The row's FIDE rating change, from the view's context (``rating_changes``)."""

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, row):
        return self.context.get("rating_changes", {}).get(row.player.pk)



class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    rank_label = serializers.CharField(help_text='"3", or "3-5" for a shared rank.')
    player = PlayerRefSerializer()
    points = PointsField()
    games = serializers.IntegerField(help_text="Games played over the board.")
    tiebreaks = serializers.ListField(
        child=TieBreakValueField(), required=False,
        help_text="Values in the order of tiebreak_names, numbers like the points; null where a "
        "tie-break has no value for the player.",
    )
    rating_change = RatingChangeField(
        help_text="FIDE rating change over the rounds counted (B.02 8.3, rounded as 8.3.4); "
        "null for an unrated player."
    )


class StandingsSerializer(serializers.Serializer):
    after_round = serializers.IntegerField(
        help_text="Last round counted: published and with every result in (0: none yet)."
    )
    tiebreak_names = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


# ---------------------------------------------------------------------------------------------
# FIDE ratings and title norms (tournaments.ratings): English, numbers as numbers


class RatedGameSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    opponent = PlayerRefSerializer()
    score = serializers.FloatField(help_text="1, 0.5 or 0.")
    rated = serializers.BooleanField(help_text="Whether the game counts for the rating change.")
    difference = serializers.IntegerField(
        allow_null=True, help_text="D as counted (8.3.1: at most 400 below 2650)."
    )
    expected = serializers.FloatField(allow_null=True, help_text="PD of table 8.1.2.")
    change = serializers.FloatField(help_text="K x (score - PD).")
    not_rated = serializers.CharField(allow_null=True)


class FirstRatingSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games against rated opponents.")
    score = serializers.FloatField()
    average = serializers.FloatField(
        allow_null=True, help_text="Ra with two hypothetical draws against 1800 (8.2.2)."
    )
    rating = serializers.IntegerField(allow_null=True, help_text="Ru (8.2.3), at most 2200.")
    missing = serializers.ListField(
        child=serializers.CharField(),
        help_text="Why it would not be published from this event alone (7.1.4); empty if it "
        "would.",
    )


class NormConditionSerializer(serializers.Serializer):
    article = serializers.CharField()
    met = serializers.BooleanField()
    what = serializers.CharField()
    missing = serializers.CharField(allow_null=True)


class NormSerializer(serializers.Serializer):
    title = serializers.CharField()
    reached = serializers.BooleanField()
    games = serializers.IntegerField()
    score = serializers.FloatField()
    average = serializers.IntegerField(allow_null=True, help_text="Ra (1.4.6, 1.4.7).")
    performance = serializers.IntegerField(allow_null=True, help_text="Rp = Ra + dp (1.4.8).")
    conditions = NormConditionSerializer(many=True)


class FideRatingSerializer(serializers.Serializer):
    """A player's FIDE rating figures for the rounds played (B.02) and title norms (B.01)."""

    k = serializers.IntegerField(allow_null=True, help_text="Development coefficient (8.3.3).")
    k_reason = serializers.CharField(allow_null=True)
    change = serializers.FloatField(allow_null=True, help_text="Sum of the games' changes.")
    change_rounded = serializers.IntegerField(allow_null=True, help_text="As 8.3.4 rounds it.")
    performance = serializers.IntegerField(allow_null=True)
    games = RatedGameSerializer(many=True)
    first_rating = FirstRatingSerializer(allow_null=True)
    norms = NormSerializer(many=True)

    def to_representation(self, rating):
        change = rating.change
        games = []
        for g, c in rating.rows:
            games.append({
                "round": g.round, "opponent": g.opponent, "score": g.score,
                "rated": bool(c and c.rated),
                "difference": c.difference if c else None,
                "expected": c.expected if c else None,
                "change": c.change if c else 0,
                "not_rated": str(c.not_rated) if c and c.not_rated else None,
            })
        first = rating.first
        return {
            "k": change.k if change else None,
            "k_reason": str(rating.coefficient.why) if rating.coefficient else None,
            "change": float(change.exact) if change else None,
            "change_rounded": change.total if change else None,
            "performance": rating.performance.rating if rating.performance else None,
            "games": RatedGameSerializer(games, many=True).data,
            "first_rating": None if first is None else {
                "games": first.games, "score": float(first.score),
                "average": None if first.average is None else round(float(first.average), 2),
                "rating": first.rating, "missing": [str(m) for m in first.missing],
            },
            "norms": [
                {
                    "title": n.title.code, "reached": n.reached, "games": n.games,
                    "score": float(n.score), "average": n.average, "performance": n.performance,
                    "conditions": [
                        {"article": c.article, "met": c.met, "what": str(c.what),
                         "missing": str(c.missing) if c.missing else None}
                        for c in n.conditions
                    ],
                }
                for n in rating.norms
            ],
        }


class GameRecordSerializer(serializers.Serializer):
    """One round of a player's card."""

    round = serializers.IntegerField()
    colour = serializers.CharField(help_text="'w', 'b', or '' (bye, absence, annulled game).")
    opponent = PlayerRefSerializer(allow_null=True)
    result = serializers.CharField(help_text="1, ½, 0, +, −, bye, H, F, Z, abs; * while pending.")
    points = PointsField(allow_null=True, help_text="Null while the result is pending.")
    total = PointsField(help_text="Running score after this round.")


class PlayerDetailSerializer(PlayerSerializer):
    games = GameRecordSerializer(many=True)
    score = PointsField()
    fide_rating = FideRatingSerializer(source="rating_figures")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "score", "games", "fide_rating"]

