"""A nation's orders for a turn, kept in submission order (the engine checks them in that order)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from campaign.models import Nation, Region, Turn
from rules.engine.systems import system_get


class Order(models.Model):
    # No index of its own: the unique constraint's index (turn, sequence) begins with it and serves its
    # lookups; one index fewer to write for every order entered.
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="orders", db_index=False)
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="orders")
    # Which kinds there are is each battle system's to say (its registry entry's `kinds`), not the database's.
    kind = models.CharField(max_length=12)
    # Empty only for a doctrine (SODANKAYNTI.md §4.1): it names a region in its params, or none for all.
    origin = models.ForeignKey(Region, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    target = models.ForeignKey(Region, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    # {"JV": 3, "PA": 1}: unit types are ruleset data, so a mapping rather than a column per type.
    units = models.JSONField(default=dict)
    # A system's own order fields, as the engine's Order.params: {"doctrine": "steady", "params": {...},
    # "region": "B"} for a doctrine.
    params = models.JSONField(default=dict, blank=True)
    # Submission order within the turn: IRON_FIST.md §2.1 checks orders in this order.
    sequence = models.PositiveIntegerField()
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "sequence"]
        # Order entry reads a nation's orders out of one region of the turn, for every order entered.
        indexes = [models.Index(fields=["turn", "nation", "origin"], name="order_turn_nation_origin")]
        constraints = [
            models.UniqueConstraint(fields=["turn", "sequence"], name="order_sequence_unique"),
        ]

    def __str__(self) -> str:
        target = self.target.code if self.target_id else "-"
        origin = self.origin.code if self.origin_id else "-"
        return f"#{self.sequence} {self.nation.code} {self.kind} {origin}->{target}"

    def clean(self) -> None:
        # The rules re-check everything at processing time; this only keeps malformed rows out.
        system = system_get(self.turn.campaign.battle_system)
        if self.kind not in system.kinds:
            raise ValidationError({"kind": f"one of {', '.join(system.kinds)}, not {self.kind!r}"})
        if self.kind in system.unitless_kinds:
            return  # they name no units (SODANKAYNTI.md §4)
        if not isinstance(self.units, dict) or not self.units:
            raise ValidationError({"units": 'name at least one unit type with a count, like {"JV": 3}'})
        for unit_type, count in self.units.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ValidationError(
                    {"units": f"{unit_type}: the count must be a whole number of 0 or more"}
                )
