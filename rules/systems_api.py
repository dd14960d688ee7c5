"""The battle systems' registry entries through the API: what each system is called and how it decides a
battle (in the reader's language), its rules page, the order kinds it offers, and every scalar ruleset setting
with its kind, default, range or choices and help (rules.engine.settings): what a client needs to offer a
campaign's settings as the GM's forms do, from the same source. Public, like the rules."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.messages import said, system_title
from rules.engine.systems import BattleSystem, SystemUnavailable, system_get, system_names


class SettingSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="Its dotted path in the ruleset: `tabletop.result_deadline_hours`.")
    kind = serializers.ChoiceField(choices=["whole", "flag", "choice", "text"])
    default = serializers.JSONField()
    minimum = serializers.IntegerField(required=False)
    maximum = serializers.IntegerField(required=False)
    max_length = serializers.IntegerField(required=False)
    choices = serializers.ListField(child=serializers.CharField(), required=False)
    nullable = serializers.BooleanField(help_text="Whether null is a value of its own (no cap, none).")
    section = serializers.CharField(help_text="Where the system's rules define it.")
    help = serializers.CharField(help_text="What it does, in the reader's language.")


class SystemSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The key a ruleset's `battle_system` names.")
    title = serializers.CharField()
    summary = serializers.CharField()
    rules = serializers.CharField(allow_null=True, help_text="Its rules page.")
    kinds = serializers.ListField(child=serializers.CharField(), help_text="The order kinds it offers.")
    unitless_kinds = serializers.ListField(child=serializers.CharField(), help_text="Those naming no units.")
    settings = SettingSerializer(many=True)
    nation_attributes = SettingSerializer(many=True, help_text="What the GM sets per nation (its ratings).")


def system_data(system: BattleSystem, request: Request) -> dict[str, Any]:
    rules = reverse("frontend:system_rules", args=[system.name]) if system.rules else None
    return {
        "name": system.name,
        "title": system_title(system.name),
        "summary": said(system.summary_message) if system.summary else "",
        "rules": request.build_absolute_uri(rules) if rules else None,
        "kinds": list(system.kinds),
        "unitless_kinds": [k for k in system.kinds if k in system.unitless_kinds],
        "settings": [{**s.to_dict(), "help": said(system.setting_help(s))} for s in system.settings],
        "nation_attributes": [
            {**a.to_dict(), "help": said(system.attribute_help(a))} for a in system.nation_attributes
        ],
    }


class SystemList(APIView):
    """Every battle system a campaign can choose, as its registry entry describes it."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SystemSerializer(many=True), operation_id="systems_list")
    def get(self, request: Request) -> Response:
        return Response([system_data(system_get(name), request) for name in system_names()])


class SystemDetail(APIView):
    """One battle system's registry entry; 404 for a name no system has."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SystemSerializer, operation_id="systems_retrieve")
    def get(self, request: Request, name: str) -> Response:
        try:
            system = system_get(name)
        except SystemUnavailable:
            raise Http404("no such battle system") from None
        return Response(system_data(system, request))
