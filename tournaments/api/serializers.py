"""Serializers of the public API: points are given in points (1.5), not in stored tenths."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from tournaments.models import Game, Player, Round, Tournament


def points(tenths: int | None) -> float | None:
    return None if tenths is None else tenths / 10


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


class StandingsSerializer(serializers.Serializer):
    after_round = serializers.IntegerField(
        help_text="Last round counted: published and with every result in (0: none yet)."
    )
    tiebreak_names = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


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

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "score", "games"]
