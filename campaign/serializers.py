"""How the API renders the campaign's world: codes rather than database ids wherever players see them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from campaign.models import Border, Campaign, Nation, Region, Stack, Turn


class NationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Nation
        fields = ["code", "name", "color"]


class CampaignSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = ["slug", "name", "status", "battle_system", "fog_of_war", "url"]

    def get_url(self, campaign: Campaign) -> str:
        return reverse("api:campaign-detail", kwargs={"slug": campaign.slug}, request=self.context["request"])


class TurnSummarySerializer(serializers.ModelSerializer):
    """What every member may read about a turn: never its seed, its engine result or its error."""

    url = serializers.SerializerMethodField()

    class Meta:
        model = Turn
        fields = ["number", "status", "deadline", "processed_at", "url"]

    def get_url(self, turn: Turn) -> str:
        return reverse(
            "api:turn-detail",
            kwargs={"slug": self.context["slug"], "number": turn.number},
            request=self.context["request"],
        )


class ViewerSerializer(serializers.Serializer):
    role = serializers.CharField(source="membership.role")
    nation = serializers.CharField(source="nation.code", allow_null=True, default=None)


class CampaignDetailSerializer(serializers.Serializer):
    """The home of a campaign: what it is, who you are in it, and the turn orders go to."""

    campaign = CampaignSerializer()
    you = ViewerSerializer()
    nations = NationSerializer(many=True)
    current_turn = TurnSummarySerializer(allow_null=True)


class RegionSerializer(serializers.ModelSerializer):
    home = serializers.CharField(source="home.code", allow_null=True, default=None)
    owner = serializers.CharField(source="owner.code", allow_null=True, default=None)

    class Meta:
        model = Region
        fields = ["code", "name", "terrain", "fort", "home", "owner", "geometry"]


class BorderSerializer(serializers.ModelSerializer):
    a = serializers.CharField(source="region_a.code")
    b = serializers.CharField(source="region_b.code")

    class Meta:
        model = Border
        fields = ["a", "b"]


class StackSerializer(serializers.ModelSerializer):
    nation = serializers.CharField(source="nation.code")
    region = serializers.CharField(source="region.code")

    class Meta:
        model = Stack
        fields = ["nation", "region", "unit_type", "count"]


class ChangedHandsSerializer(serializers.Serializer):
    region = serializers.CharField()
    # "from" is a Python keyword, hence the declared name.
    from_ = serializers.CharField(allow_null=True)
    to = serializers.CharField(allow_null=True)

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class TurnDetailSerializer(TurnSummarySerializer):
    changed_hands = serializers.SerializerMethodField(
        help_text="Regions that changed hands in this turn (resolved turns only): region, from, to."
    )

    class Meta(TurnSummarySerializer.Meta):
        fields = [*TurnSummarySerializer.Meta.fields, "changed_hands"]

    @extend_schema_field(ChangedHandsSerializer(many=True))
    def get_changed_hands(self, turn: Turn) -> list[dict[str, str | None]]:
        # The view reads them with the selector; a serializer only renders.
        return self.context["changed_hands"]


class TurnStatusSerializer(serializers.ModelSerializer):
    """The GM's view of processing: the status, and the error of a failed turn."""

    class Meta:
        model = Turn
        fields = ["number", "status", "error", "deadline", "processed_at"]


class TurnQueuedSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    status_url = serializers.URLField()
