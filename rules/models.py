"""Stored battle reports, and the history of each turn: its input (rollback), previews, archives."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from campaign.models import Nation, Turn
from rules.engine.messages import Message
from rules.snapshot import input_read


class Report(models.Model):
    class Kind(models.TextChoices):
        NORMAL = "normal"
        MEETING = "meeting"
        JOINT = "joint"
        CONTROL = "control"
        UNOPPOSED = "unopposed"

    # No index of its own: the unique constraint's index begins with this column and serves its lookups.
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="reports", db_index=False)
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
    # No index of its own: the unique constraint's index begins with this column and serves its lookups.
    report = models.ForeignKey(Report, on_delete=models.CASCADE, db_index=False)
    # No index of its own: the unique constraint's index begins with this column and serves its lookups.
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+", db_index=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["report", "nation"], name="report_nation_unique"),
        ]
        indexes = [models.Index(fields=["nation", "report"], name="report_nation_lookup")]

    def __str__(self) -> str:
        return f"{self.nation.code} in report {self.report_id}"


class TurnSnapshot(models.Model):
    """The engine's input as turn processing read it: the world before the turn, to restore on rollback.

    Written by turn processing in its own transaction, so every resolved turn has one. `fingerprint` is the
    SHA-256 of `input_json`, the input and the seed as canonical JSON (rules.snapshot): equal fingerprints,
    equal results. Text rather than a JSON column: it is written on every turn, and read only on rollback.
    """

    # What processing changes on the nations besides the engine's world (campaign.lifecycle counts missed
    # turns): kept too, so that a rollback does not count a turn twice. A new such field belongs here.
    NATION_FIELDS = ("turns_missed", "turns_missed_in_row", "civil_disorder")

    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="snapshot")
    fingerprint = models.CharField(max_length=64)
    input_json = models.TextField(
        help_text="The TurnInput and the seed, canonical JSON: what the engine got."
    )
    nations = models.JSONField(default=list, help_text="Each nation's id and NATION_FIELDS before the turn.")
    # A tabletop turn completes from battles_pending: what the turn row held then (its plan so far), so that
    # a rollback to the battles (TABLETOP A10.4) puts it back exactly. None for a turn processed from open.
    turn_before = models.JSONField(null=True, blank=True)

    def __str__(self) -> str:
        return f"snapshot of turn {self.turn_id} ({self.fingerprint[:12]})"

    @property
    def turn_input(self) -> dict[str, Any]:
        return input_read(self.input_json)


class TurnPreview(models.Model):
    """The GM's dry run of an open turn: the engine's result on the orders of the moment, nothing written.

    Publishing compares the real result with this one; `published_matched` records what it found.
    """

    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="preview")
    fingerprint = models.CharField(max_length=64)
    input_json = models.TextField(help_text="The input previewed, to name what changed before publishing.")
    result = models.JSONField(help_text="The engine's whole TurnResult, as turn processing would store it.")
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)
    published_matched = models.BooleanField(
        null=True, blank=True, help_text="Whether the published result was the previewed one."
    )
    published_note = models.CharField(max_length=300, blank=True)

    def __str__(self) -> str:
        return f"preview of turn {self.turn_id} ({self.fingerprint[:12]})"

    @property
    def turn_input(self) -> dict[str, Any]:
        return input_read(self.input_json)


class TurnArchive(models.Model):
    """A result the GM rolled back: kept whole (its reports are its battles), read by the GM only."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="archives")
    fingerprint = models.CharField(max_length=64, blank=True)
    result = models.JSONField(help_text="The rolled-back TurnResult, its battle reports included.")
    processed_at = models.DateTimeField(null=True, blank=True)
    archived_at = models.DateTimeField()
    archived_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    reason = models.CharField(max_length=300, blank=True)
    # A tabletop turn rolled back (TABLETOP A10.4): "battles" or "orders"; and, back to orders, its battles
    # with every version, answer and saved round (rules.tabletop.archive), to carry results over from.
    kind = models.CharField(max_length=8, blank=True)
    battles = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["turn", "-archived_at", "-id"]

    def __str__(self) -> str:
        return f"turn {self.turn_id} as rolled back at {self.archived_at:%Y-%m-%d %H:%M}"


class TableBattle(models.Model):
    """A battle fought at the table, of any table system (BATTLE_SYSTEMS.md, "Results entry"): the one row
    its result versions hang on, listed and addressed alike in every such campaign
    (c/<slug>/turns/<n>/battles/<id>/). What every table battle has is here; a system keeps the rest in a
    row of its own that points at this one (company_d20's roster snapshot and dice stream), or in `sheet`
    (tabletop's sheet of A5, its plan's waits).

    Tabletop's rows follow the engine's plan (rules.tabletop.battles.battles_record): created when a battle
    first opens or waits, updated when its sheet changes, never deleted while the turn lives (its versions
    are history). A company battle's is made with it at processing (COMPANY.md §4.3) and archived, not
    deleted, when its turn is rolled back.
    """

    class State(models.TextChoices):
        OPEN = "open", pgettext_lazy("battle state", "Open")
        WAITING = "waiting", pgettext_lazy("battle state", "Waiting")
        RESOLVED = "resolved", pgettext_lazy("battle state", "Resolved")
        # A correction elsewhere made it disappear (A10.2).
        GONE = "gone", pgettext_lazy("battle state", "no longer a battle")
        # The GM voided it (COMPANY.md §5.6).
        VOID = "void", pgettext_lazy("battle state", "Void")

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="table_battles")
    key = models.CharField(max_length=120, help_text='The battle\'s key in its system, like "region:B".')
    kind = models.CharField(max_length=12)
    position = models.PositiveIntegerField(default=0, help_text="Its place in the turn's battle order.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    archived = models.BooleanField(default=False, help_text="Its turn was rolled back past it.")
    sheet = models.JSONField(
        default=dict, blank=True, help_text="The system's sheet (tabletop's A5); empty while waiting."
    )
    fingerprint = models.CharField(max_length=64, blank=True)
    waits_for = models.JSONField(
        default=list, blank=True, help_text="The meetings a waiting battle waits for."
    )
    nations = models.JSONField(default=list, help_text="The codes of the nations of the battle (A1).")
    opened_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The beat's claim (A8.1): set once when the deadline passes; cleared when the deadline moves.
    overdue_at = models.DateTimeField(null=True, blank=True)
    # The mails' claims (A8.1, A11.3): the reminder once per deadline (cleared when the deadline moves);
    # the sheet once per sheet: the fingerprint of the last one mailed.
    reminded_at = models.DateTimeField(null=True, blank=True)
    sheet_mailed = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["turn", "position", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["turn", "key"], condition=models.Q(archived=False), name="battle_key_unique"
            )
        ]

    def __str__(self) -> str:
        return f"turn {self.turn_id}: {self.key} ({self.state})"


class ResultVersion(models.Model):
    """One saved result of a battle (A6.2): numbered per battle, every one kept."""

    class State(models.TextChoices):
        PROPOSED = "proposed", pgettext_lazy("result version state", "Proposed")
        AGREED = "agreed", pgettext_lazy("result version state", "Agreed")
        DISPUTED = "disputed", pgettext_lazy("result version state", "Disputed")
        CONFIRMED = "confirmed", pgettext_lazy("result version state", "Confirmed")
        SUPERSEDED = "superseded", pgettext_lazy("result version state", "Superseded")
        WITHDRAWN = "withdrawn", pgettext_lazy("result version state", "Withdrawn")
        VOIDED = "voided", pgettext_lazy("result version state", "Voided")
        STALE = "stale", pgettext_lazy("result version state", "Stale")

    class Origin(models.TextChoices):
        PLAYER = "player", pgettext_lazy("result version origin", "Player")
        GM = "gm", pgettext_lazy("result version origin", "GM")
        DEADLINE = "deadline", pgettext_lazy("result version origin", "Deadline")
        AUTO = "auto", pgettext_lazy("result version origin", "Auto")
        CARRIED = "carried", pgettext_lazy("result version origin", "Carried")

    # The versions that still count for the battle: the current one (CURRENT), or its entry (confirmed).
    LIVE = (State.PROPOSED, State.AGREED, State.DISPUTED, State.CONFIRMED)
    CURRENT = LIVE[:3]

    battle = models.ForeignKey(TableBattle, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    origin = models.CharField(max_length=10, choices=Origin.choices)
    state = models.CharField(max_length=10, choices=State.choices)
    payload = models.JSONField(help_text="The result as entered (A6.1), or {auto_resolve: true}.")
    fingerprint = models.CharField(max_length=64, help_text="The sheet it was entered against (A5.2).")
    warnings = models.JSONField(default=list, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    nation = models.ForeignKey(Nation, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(
        max_length=2000, blank=True, help_text="The GM's own words for a void, as typed."
    )
    decision = models.JSONField(
        null=True,
        blank=True,
        help_text="Why it was confirmed, set aside or reopened: a stored message (rules.results_flow).",
    )

    class Meta:
        ordering = ["battle", "number"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "number"], name="result_version_unique"),
            # A battle has one entry at a time (A12; COMPANY.md §5.2: exactly one final version).
            models.UniqueConstraint(
                fields=["battle"], condition=models.Q(state="confirmed"), name="result_one_confirmed"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.battle.key} v{self.number} ({self.state})"

    def reason_message(self) -> Message | str | None:
        """Why the version is in its state, to render in the reader's language (campaign.messages.said):
        the stored decision, or the GM's own words for a void, as typed."""
        if self.decision:
            return Message.from_dict(self.decision)
        return self.reason or None


class ResultAnswer(models.Model):
    """A nation's answer to the current version (A6.2): agree, or dispute with a comment."""

    class Answer(models.TextChoices):
        AGREE = "agree", pgettext_lazy("answer to a result", "Agree")
        DISPUTE = "dispute", pgettext_lazy("answer to a result", "Dispute")

    version = models.ForeignKey(ResultVersion, on_delete=models.CASCADE, related_name="answers")
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    answer = models.CharField(max_length=8, choices=Answer.choices)
    comment = models.CharField(max_length=2000, blank=True)
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["version", "nation"], name="result_answer_unique")]

    def __str__(self) -> str:
        return f"{self.nation_id} {self.answer}s {self.version}"


class CombatRound(models.Model):
    """A close-combat round saved to its battle (TABLETOP.md B9, A10.5): the calculator's input, the settings
    it used, its output with the dice, and who saved it. Rounds never change a battle's result."""

    class Dice(models.TextChoices):
        ENTERED = "entered"
        SEEDED = "seeded"

    battle = models.ForeignKey(TableBattle, on_delete=models.CASCADE, related_name="rounds")
    sequence = models.PositiveIntegerField(help_text="1, 2, ... within the battle; seeds its dice (B6).")
    label = models.CharField(max_length=200, blank=True)
    game_turn = models.PositiveIntegerField(null=True, blank=True)
    battle_sides = models.JSONField(
        default=list,
        blank=True,
        help_text="Per calculator side, the battle's side id it belongs to, or null.",
    )
    input = models.JSONField(help_text="The round as entered (B2).")
    settings_used = models.JSONField(help_text="tabletop.close_combat as the round used it.")
    output = models.JSONField(help_text="The calculator's output (B8), its dice included.")
    dice_mode = models.CharField(max_length=8, choices=Dice.choices)
    # Text: a derived seed is 64 bits unsigned (A9.1), more than a signed bigint holds.
    seed = models.CharField(max_length=20, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    after_publication = models.BooleanField(
        default=False, help_text="Saved by the GM once the turn was resolved (B9)."
    )
    replaced = models.JSONField(
        default=list, blank=True, help_text="Its earlier versions, each as it was before a correction (B9)."
    )

    class Meta:
        ordering = ["battle", "sequence"]
        constraints = [models.UniqueConstraint(fields=["battle", "sequence"], name="combat_round_unique")]

    def __str__(self) -> str:
        return f"{self.battle.key} round {self.sequence}"
