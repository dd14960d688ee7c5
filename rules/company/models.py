"""Company campaigns' records (COMPANY.md §3, §7.7, §8, §9, §10): what the engine reads and returns, stored.

Every stat of a unit's record (§3.1) is a column; derived values (TT, damaged, veteran slots, §3.3) are
never stored, the engine computes them (`rules.engine.company_d20.roster.unit_view`). The roster event log
and the dice log are append-only: rows are added, archived by a rollback, never changed or deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from campaign.models import Campaign, Nation, Turn
from rules.models import TableBattle


class Unit(models.Model):
    """A named unit of a nation's roster, one row per unit, its record as of now."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        DESTROYED = "destroyed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="company_units")
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="company_units")
    number = models.PositiveIntegerField(help_text="The unit's id in orders, results and dice requests.")
    name = models.CharField(max_length=40)
    type = models.CharField(max_length=16)
    group = models.PositiveSmallIntegerField(default=0)
    role = models.CharField(max_length=20, blank=True, help_text="company_commander, platoon_leader or empty")
    tk_max = models.PositiveSmallIntegerField()
    tk = models.PositiveSmallIntegerField()
    m = models.SmallIntegerField()
    k = models.SmallIntegerField()
    xp = models.PositiveIntegerField(default=0)
    l = models.SmallIntegerField()  # noqa: E741 - the game's own letter for movement
    s = models.SmallIntegerField()
    h = models.SmallIntegerField()
    ti = models.CharField(max_length=16)
    type_abilities = models.JSONField(default=list)
    abilities = models.JSONField(default=list, help_text="Veteran abilities, in the order chosen.")
    region = models.CharField(max_length=16, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    fell = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="company_unit_number_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name} ({self.type})"


class Balance(models.Model):
    """A nation's TP (§7.1): never below 0; and the GM's override of its company size (§7.3)."""

    nation = models.OneToOneField(Nation, on_delete=models.CASCADE, related_name="company_balance")
    tp = models.PositiveIntegerField(default=0)
    company_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The GM's cap on active units (§7.3); empty: the ruleset's."
    )

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(tp__gte=0), name="company_tp_not_negative")]

    def __str__(self) -> str:
        return f"{self.nation.code}: {self.tp} TP"


class RosterEvent(models.Model):
    """One entry of the append-only audit trail (§7.7): who changed which unit, from what to what."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roster_events")
    seq = models.PositiveIntegerField()
    turn = models.PositiveIntegerField()
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, null=True, related_name="+")
    unit = models.PositiveIntegerField(null=True, help_text="The unit's number.")
    kind = models.CharField(max_length=24)
    battle = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    tp_delta = models.IntegerField(default=0)
    cause = models.CharField(max_length=40, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by_engine = models.BooleanField(default=False, help_text="Written by turn processing or completion.")
    created_at = models.DateTimeField()
    archived_by = models.ForeignKey(
        Turn,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The turn whose rollback set this entry aside; it no longer counts.",
    )

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["campaign", "seq"], name="company_event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.seq}: {self.kind} #{self.unit}"


class Battle(models.Model):
    """A table battle created at processing (§4.3), with its unit snapshot and dice stream. Its `table` is the
    row every table battle has (rules.models.TableBattle): its state, and the result versions hang on it;
    the confirmed one is final (§5.2)."""

    # Its states (the table battle's): open is COMPANY's awaiting_result, resolved its final, and void.
    Status = TableBattle.State

    table = models.OneToOneField(TableBattle, on_delete=models.CASCADE, related_name="company")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="company_battles")
    position = models.PositiveIntegerField(help_text="Battle order (§4.4).")
    key = models.CharField(max_length=40)
    kind = models.CharField(max_length=12)
    data = models.JSONField(help_text="The battle as created: sides, snapshot of every unit, origins.")
    void_reason = models.CharField(max_length=2000, blank=True, help_text="Why the GM voided it (§5.6).")
    nations = models.ManyToManyField(Nation, related_name="company_battles")
    stream_state = models.JSONField(null=True, blank=True, help_text="The dice stream after the last roll.")
    next_seq = models.PositiveIntegerField(default=1)
    table_turn = models.PositiveSmallIntegerField(default=0)
    # Without the KP ledger, each "table turn N begins" with who said so and when (COMPANY.md §13).
    table_turn_log = models.JSONField(default=list, blank=True)
    kp = models.JSONField(null=True, blank=True, help_text="The KP ledger (§9), when the campaign uses it.")
    report = models.JSONField(
        null=True, blank=True, help_text="Written at completion: before, after, XP, TP."
    )

    class Meta:
        ordering = ["turn", "position"]

    def __str__(self) -> str:
        return f"turn {self.turn.number}: {self.key}"

    @property
    def status(self) -> str:
        return self.table.state

    @property
    def archived(self) -> bool:
        """Its turn was rolled back."""
        return self.table.archived

    @property
    def versions(self):
        return self.table.versions


class DiceRoll(models.Model):
    """One entry of a battle's dice log (§8.3), stored with the stream state before the answer is shown."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="rolls")
    seq = models.PositiveIntegerField()
    function = models.CharField(max_length=24)
    inputs = models.JSONField()
    side = models.CharField(max_length=16, blank=True, help_text="The nation asked for; empty: the GM.")
    dice = models.JSONField()
    output = models.JSONField()
    secret = models.BooleanField(default=False)
    purpose = models.CharField(max_length=300, blank=True)
    table_turn = models.PositiveSmallIntegerField(null=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    # The GM's marks (§8.2): the entry itself never changes; a void one stays in the log, struck through.
    note = models.CharField(max_length=300, blank=True, help_text="The GM's annotation.")
    void_reason = models.CharField(max_length=300, blank=True, help_text="Why the GM marked it void.")

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [models.UniqueConstraint(fields=["battle", "seq"], name="company_roll_seq_unique")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.function}"


class ReconSnapshot(models.Model):
    """What one nation's recon saw in one region in one turn (§10.3), frozen as it stood."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="recon_snapshots")
    viewer = models.CharField(max_length=16)
    region = models.CharField(max_length=16)
    turn = models.PositiveIntegerField()
    levels = models.JSONField()
    units = models.JSONField()

    class Meta:
        ordering = ["turn", "viewer", "region"]

    def __str__(self) -> str:
        return f"{self.viewer} in {self.region}, turn {self.turn}"


class OrderSet(models.Model):
    """A nation's company orders for a turn (§4.2), as the engine reads them."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="company_orders")
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")
    orders = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "nation"], name="company_orders_unique")]

    def __str__(self) -> str:
        return f"{self.nation.code}, turn {self.turn.number}"


class WorldSnapshot(models.Model):
    """The company world before a turn was processed: rosters, balances, owners, recon; a rollback
    restores it exactly (BATTLE_SYSTEMS.md, "Rollback")."""

    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="company_snapshot")
    state = models.JSONField()
    last_event = models.PositiveIntegerField(default=0, help_text="The audit trail's last seq before it.")

    def __str__(self) -> str:
        return f"before turn {self.turn.number}"
