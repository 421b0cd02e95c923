"""``/api/tournaments/<id>/rounds/<n>/explanation/``: why the engine paired a published round.

The data is the Dutch engine's ``RoundExplanation`` (``pairing.dutch.explanation``), read from
what was stored when the round was paired (``tournaments.explain``). A draft is never served.
"""

from __future__ import annotations

from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound

from tournaments import explain, queries
from tournaments.models import Round

from .views import PublishedRoundMixin

TPNS = "Pairing numbers (TPN) as at pairing time: see ``players``."


class PassedOverSerializer(serializers.Serializer):
    tpn = serializers.IntegerField()
    why = serializers.CharField()


class ExplainedPairSerializer(serializers.Serializer):
    tpn = serializers.IntegerField(help_text="The S1 player (or MDP) who chose.")
    opponent = serializers.IntegerField()
    passed_over = PassedOverSerializer(
        many=True, help_text="Earlier candidates in S2 order and why each was not taken."
    )


class MdpSerializer(serializers.Serializer):
    tpn = serializers.IntegerField()
    score = serializers.FloatField()


class DownfloaterSerializer(serializers.Serializer):
    tpn = serializers.IntegerField()
    score = serializers.FloatField()
    reason = serializers.CharField()


class BracketSerializer(serializers.Serializer):
    score = serializers.FloatField(help_text="The residents' score (C.04.3 Art. 1.3.2).")
    residents = serializers.ListField(child=serializers.IntegerField(), help_text=TPNS)
    mdps = MdpSerializer(many=True, help_text="Moved-down players (Art. 1.4.1).")
    s1 = serializers.ListField(child=serializers.IntegerField())
    s2 = serializers.ListField(child=serializers.IntegerField())
    limbo = serializers.ListField(
        child=serializers.IntegerField(), help_text="MDPs that could not be paired here."
    )
    remainder_s1 = serializers.ListField(child=serializers.IntegerField())
    remainder_s2 = serializers.ListField(child=serializers.IntegerField())
    exchanges = serializers.IntegerField(help_text="Resident-exchanges (Art. 4.3.2).")
    pairs = ExplainedPairSerializer(many=True)
    downfloaters = DownfloaterSerializer(many=True)
    repaired_as_ppb = serializers.BooleanField(
        help_text="2017 rules (A.9): paired again as the penultimate pairing bracket."
    )


class UnmetSerializer(serializers.Serializer):
    criterion = serializers.CharField()
    what = serializers.CharField()
    tpns = serializers.ListField(child=serializers.IntegerField())


class DutchExplanationSerializer(serializers.Serializer):
    note = serializers.CharField(allow_blank=True)
    brackets = BracketSerializer(many=True)
    bye = serializers.IntegerField(allow_null=True, help_text="The PAB's TPN, if any.")
    bye_reason = serializers.CharField(allow_blank=True)
    unmet = UnmetSerializer(many=True, help_text="Quality criteria not fully met.")


class ExplainedPlayerSerializer(serializers.Serializer):
    tpn = serializers.IntegerField(help_text="The player's TPN when the round was paired.")
    id = serializers.IntegerField(help_text="The player's id (``/players/{player_pk}/``).")
    name = serializers.CharField()
    score = serializers.FloatField(allow_null=True, help_text="Score for pairing.")


class RoundExplanationSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    text = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        help_text="The engine's account as text lines (what `python -m pairing -l` prints).",
    )
    explanation = DutchExplanationSerializer(
        allow_null=True,
        help_text="The Dutch engine's explanation as data; null for the Clock and Double-Swiss "
        "systems and for rounds paired before it was kept.",
    )
    players = ExplainedPlayerSerializer(many=True)


class RoundExplanationView(PublishedRoundMixin, generics.RetrieveAPIView):
    """Why the engine paired a published round as it did: bracket by bracket, S1, S2, Limbo,
    each choice with the candidates passed over and why, the downfloaters, the PAB and the
    quality criteria not fully met. Pairings changed by hand afterwards are not re-explained."""

    serializer_class = RoundExplanationSerializer

    def get_object(self):
        rnd = Round.objects.filter(
            tournament_id=self.kwargs["pk"], number=self.kwargs["number"],
            state__in=queries.PUBLIC_STATES,
        ).first()
        if rnd is None:
            raise NotFound("No such published round.")
        return explain.api_data(rnd)
