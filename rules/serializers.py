"""Battle reports for the API: the engine's report, with who may read it (the nations involved)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.reverse import reverse

from rules.models import Report


class ReportSummarySerializer(serializers.ModelSerializer):
    nations = serializers.SlugRelatedField(slug_field="code", many=True, read_only=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = ["position", "kind", "region", "regions", "conquest", "nations", "url"]

    def get_url(self, report: Report) -> str:
        kwargs = {"slug": self.context["slug"], "number": self.context["number"], "position": report.position}
        return reverse("api:report-detail", kwargs=kwargs, request=self.context["request"])


class ReportSerializer(ReportSummarySerializer):
    class Meta(ReportSummarySerializer.Meta):
        fields = [*ReportSummarySerializer.Meta.fields, "data"]
