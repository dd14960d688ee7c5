"""Stored battle reports: the engine's JSON, with what players search by pulled out and indexed."""

from __future__ import annotations

from django.db import models

from campaign.models import Nation, Turn


class Report(models.Model):
    class Kind(models.TextChoices):
        NORMAL = "normal"
        MEETING = "meeting"
        JOINT = "joint"
        CONTROL = "control"
        UNOPPOSED = "unopposed"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="reports")
    position = models.PositiveIntegerField(help_text="Resolution order within the turn.")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    region = models.CharField(max_length=40, help_text='A region code; a meeting engagement is "A|B".')
    regions = models.JSONField(default=list)
    conquest = models.BooleanField(default=False)
    data = models.JSONField(help_text="The engine's battle report, every number and roll in it.")
    # Every nation involved, supporters included: who may read this report.
    nations = models.ManyToManyField(Nation, related_name="reports", through="ReportNation")

    class Meta:
        ordering = ["turn", "position"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "position"], name="report_position_unique"),
        ]
        indexes = [
            models.Index(fields=["turn", "kind"], name="report_turn_kind"),
            models.Index(fields=["turn", "region"], name="report_turn_region"),
        ]

    def __str__(self) -> str:
        return f"turn {self.turn.number}: {self.kind} battle in {self.region}"


class ReportNation(models.Model):
    # An explicit through model so that the turn's writer can insert these rows in one statement.
    report = models.ForeignKey(Report, on_delete=models.CASCADE)
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["report", "nation"], name="report_nation_unique"),
        ]
        indexes = [models.Index(fields=["nation", "report"], name="report_nation_lookup")]

    def __str__(self) -> str:
        return f"{self.nation.code} in report {self.report_id}"
