"""The campaign's world: nations, the map, the units on it, diplomacy, and the turns.

Invariants that matter to the rules (non-negative counts, one stack per nation/region/type, one border per
pair) are database constraints, so that no code path, admin form or bulk write can break them.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from functools import lru_cache
from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from rules.engine.messages import Message
from rules.engine.ruleset import Ruleset, RulesetError, ruleset_build
from rules.engine.state import RelationKind, Terrain, Weather
from rules.engine.systems import DEFAULT_SYSTEM

MAX_FORT_LEVEL = 3
# What the integer columns hold on every database we run on (PostgreSQL's integer and smallint): input is
# checked against these at the edge, never left to wrap around or to fail in the database.
INT_COLUMN_MAX = 2**31 - 1
SMALL_COLUMN_MAX = 2**15 - 1
UNIT_TYPE_MAX = 8  # the length of a unit type's code (JV, PA, ...), a ruleset's key
# How far ahead a deadline may be set: far enough for any campaign, near enough that every time zone can
# still show it (a deadline at the end of year 9999 UTC is past the calendar east of Greenwich).
DEADLINE_HORIZON = timedelta(days=100 * 365)


def turn_seed(*, campaign_seed: int, number: int) -> int:
    """IRON_FIST.md §11: the first 8 bytes of SHA-256 of "{campaign_seed}:{turn_number}"."""
    digest = hashlib.sha256(f"{campaign_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Campaign(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup"
        ACTIVE = "active"
        FINISHED = "finished"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    # The ruleset key `battle_system` (BATTLE_SYSTEMS.md), kept apart from the overrides so that it can be
    # shown and changed (between turns only: campaign.gm) without rewriting them.
    battle_system = models.CharField(max_length=32, default=DEFAULT_SYSTEM)
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(help_text="Every turn's seed is derived from this (IRON_FIST.md §11).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SETUP)
    turn_length = models.DurationField(default=timedelta(days=7))
    fog_of_war = models.BooleanField(
        default=True, help_text="Players see other nations' stacks only in and next to their own regions."
    )
    # The play-by-mail life cycle (campaign/lifecycle.py): reminders, process early, pause, civil disorder.
    reminder_before = models.DurationField(
        default=timedelta(hours=12), help_text="Players without orders get a reminder this long before."
    )
    process_early = models.BooleanField(
        default=False, help_text="Process the turn as soon as every active nation has orders in."
    )
    civil_disorder_after = models.PositiveSmallIntegerField(
        default=3, help_text="Missed turns in a row after which a nation falls into civil disorder."
    )
    # Set while the GM has paused the campaign: the deadline is frozen with this much time left.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_remaining = models.DurationField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["setup", "active", "finished"]), name="campaign_status"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        try:
            self.ruleset()
        except RulesetError as error:
            raise ValidationError({"ruleset_overrides": str(error)}) from error

    def ruleset(self) -> Ruleset:
        overrides = {**(self.ruleset_overrides or {}), "battle_system": self.battle_system}
        return _ruleset_of(json.dumps(overrides, sort_keys=True))


@lru_cache(maxsize=256)
def _ruleset_of(overrides: str) -> Ruleset:
    """Built once per distinct overrides (a Ruleset is frozen): every order entered needs one."""
    return ruleset_build(json.loads(overrides))


class Nation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="nations")
    code = models.CharField(max_length=16, help_text="The nation's id in orders and reports, like RED.")
    name = models.CharField(max_length=100)
    color = models.CharField(max_length=7, default="#888888")
    # Nation-id order (IRON_FIST.md §1) is creation order; kept explicit so it survives any re-import.
    position = models.PositiveIntegerField()
    # Counted by turn processing (campaign.lifecycle.nations_missed_count) for nations with a player.
    turns_missed = models.PositiveIntegerField(default=0, help_text="Turns without orders, in all.")
    turns_missed_in_row = models.PositiveIntegerField(default=0, help_text="Turns without orders, lately.")
    civil_disorder = models.BooleanField(
        default=False, help_text="Holds and defends; takes no orders until the GM assigns a new player."
    )
    # A battle system's nation attributes, set by the GM (Sodankäynti §5: politics, tactics, doctrine).
    attributes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["campaign", "position"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "code"], name="nation_code_unique"),
            models.UniqueConstraint(fields=["campaign", "position"], name="nation_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Membership(models.Model):
    class Role(models.TextChoices):
        PLAYER = "player"
        GM = "gm", "game master"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.PLAYER)
    nation = models.ForeignKey(
        Nation, on_delete=models.CASCADE, null=True, blank=True, related_name="memberships"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign"], name="membership_one_per_campaign"),
            # A player plays a nation; the GM plays none.
            models.CheckConstraint(
                condition=Q(role="player", nation__isnull=False) | Q(role="gm", nation__isnull=True),
                name="membership_role_nation",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}: {self.nation or self.get_role_display()}"

    def clean(self) -> None:
        if self.nation_id and self.campaign_id and self.nation.campaign_id != self.campaign_id:
            raise ValidationError({"nation": "this nation plays in another campaign"})


class Region(models.Model):
    Terrain = models.TextChoices("Terrain", [(t.name, (t.value, t.value)) for t in Terrain])

    # No index of its own: the unique constraint's index begins with this column and serves its lookups.
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="regions", db_index=False)
    code = models.CharField(max_length=16)
    name = models.CharField(max_length=100)
    terrain = models.CharField(max_length=8, choices=Terrain.choices, default=Terrain.OPEN)
    fort = models.PositiveSmallIntegerField(default=0)
    home = models.ForeignKey(
        Nation, on_delete=models.SET_NULL, null=True, blank=True, related_name="home_regions"
    )
    owner = models.ForeignKey(
        Nation, on_delete=models.SET_NULL, null=True, blank=True, related_name="regions"
    )
    # For drawing the map: {"shape": [[x, y], ...], "label": [x, y]} in the scenario's coordinates.
    geometry = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["campaign", "code"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "code"], name="region_code_unique"),
            models.CheckConstraint(
                condition=Q(terrain__in=[t.value for t in Terrain]), name="region_terrain"
            ),
            models.CheckConstraint(
                condition=Q(fort__gte=0, fort__lte=MAX_FORT_LEVEL), name="region_fort_level"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    def clean(self) -> None:
        for name in ("home", "owner"):
            nation = getattr(self, name)
            if nation is not None and nation.campaign_id != self.campaign_id:
                raise ValidationError({name: f"{nation.code} plays in another campaign"})


class Border(models.Model):
    # An unordered pair, stored with the lower id first so the pair has one spelling and one row.
    # No index of its own: the unique constraint's index begins with this column and serves its lookups.
    region_a = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="+", db_index=False)
    region_b = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["region_a", "region_b"], name="border_unique_pair"),
            models.CheckConstraint(condition=Q(region_a__lt=F("region_b")), name="border_ordered_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.region_a.code}–{self.region_b.code}"


class Stack(models.Model):
    # No index of its own: the unique constraint's index begins with this column and serves its lookups.
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="stacks", db_index=False)
    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="stacks")
    # Unit types are ruleset data (JV, PA, TY, IV by default), checked against the campaign's ruleset.
    unit_type = models.CharField(max_length=UNIT_TYPE_MAX)
    count = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["nation", "region", "unit_type"], name="stack_unique"),
            models.CheckConstraint(condition=Q(count__gte=0), name="stack_count_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.unit_type} of {self.nation.code} in {self.region.code}"

    def clean(self) -> None:
        if not (self.region_id and self.nation_id):
            return
        campaign = self.region.campaign
        if self.nation.campaign_id != campaign.pk:
            raise ValidationError({"nation": f"{self.nation.code} plays in another campaign"})
        unit_types = campaign.ruleset().unit_types
        if self.unit_type not in unit_types:
            raise ValidationError(
                {"unit_type": f"not a unit type of this campaign's ruleset ({', '.join(unit_types)})"}
            )


class Relation(models.Model):
    Kind = models.TextChoices("Kind", [(k.name, (k.value, k.value)) for k in RelationKind])

    # An unordered pair like Border; a pair with no row is at war (IRON_FIST.md §2.2).
    nation_a = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")
    nation_b = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.WAR)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["nation_a", "nation_b"], name="relation_unique_pair"),
            models.CheckConstraint(condition=Q(nation_a__lt=F("nation_b")), name="relation_ordered_pair"),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in RelationKind]), name="relation_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.nation_a.code}–{self.nation_b.code}: {self.kind}"


TURN_STATUSES = ["open", "processing", "battles_pending", "resolved", "failed"]


class Turn(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        PROCESSING = "processing"
        # Processing decided the battles and some are fought elsewhere (at the table): the turn waits for
        # their results (BATTLE_SYSTEMS.md, TABLETOP.md A4).
        BATTLES_PENDING = "battles_pending"
        RESOLVED = "resolved"
        FAILED = "failed"

    Weather = models.TextChoices("Weather", [(w.name, (w.value, w.value)) for w in Weather])

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    deadline = models.DateTimeField(help_text="Aware, in UTC.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    # A decimal string: the seed is a 64-bit unsigned number, beyond a signed BIGINT or SQLite's integers.
    seed = models.CharField(max_length=20)
    weather = models.CharField(max_length=8, choices=Weather.choices, default=Weather.CLEAR)
    region_weather = models.JSONField(
        default=dict, blank=True, help_text='{"A1": "snow"}: replaces the weather'
    )
    # The GM's inputs of a battle system for this turn beyond the nations' attributes (Sodankäynti §6.4,
    # §7: {"gm_advantages": [{region, nation, roll, dice, reason}], "skip_politics": ["A", "A|B"]}).
    system_inputs = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    result = models.JSONField(
        null=True, blank=True, editable=False, help_text="The engine's whole TurnResult."
    )
    processed_at = models.DateTimeField(null=True, blank=True)
    # Claims that make the beat's work happen once even with two beats running: an update from null.
    queued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When it was queued for processing (by the deadline, the GM, a retry).",
    )
    # What went wrong on the way, for the GM's dashboard: how often the turn was queued again (by the sweeper,
    # after a lost job or worker; by the task, after the database went away) and the last reason.
    requeues = models.PositiveSmallIntegerField(default=0, editable=False)
    fault = models.JSONField(default=dict, blank=True, editable=False, help_text="A Message: code, params.")
    fault_at = models.DateTimeField(null=True, blank=True, editable=False)
    reminded_at = models.DateTimeField(null=True, blank=True, help_text="When its reminders went out.")
    # Order entry's counter of places in the submission order on SQLite (orders/sql.py, lock 3); PostgreSQL
    # draws places from a sequence instead, which locks nothing.
    orders_placed = models.PositiveIntegerField(default=0, editable=False)
    # Whether a nation with a player and no orders missed this turn (campaign.lifecycle): so when the deadline
    # processes it; when the GM processes it early by hand, only if the GM says so (campaign.gm.processing).
    missed_counted = models.BooleanField(
        default=True, help_text="Nations without orders count this turn as missed (civil disorder nears)."
    )

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="turn_number_unique"),
            # At most one turn in play per campaign: the one orders go to.
            models.UniqueConstraint(
                fields=["campaign"], condition=~Q(status="resolved"), name="turn_one_unresolved"
            ),
            models.CheckConstraint(condition=Q(status__in=TURN_STATUSES), name="turn_status"),
            models.CheckConstraint(condition=Q(weather__in=[w.value for w in Weather]), name="turn_weather"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign.slug} turn {self.number} ({self.status})"

    @property
    def fault_message(self) -> Message | None:
        """What last went wrong on the turn's way through the queue (campaign.queue), as a Message."""
        return Message.from_dict(self.fault) if self.fault else None

    def clean(self) -> None:
        weathers = [w.value for w in Weather]
        if not isinstance(self.region_weather, dict):
            raise ValidationError(
                {"region_weather": 'expected a mapping of region code to weather, like {"A1": "snow"}'}
            )
        codes = set(self.campaign.regions.values_list("code", flat=True)) if self.campaign_id else set()
        for code, weather in self.region_weather.items():
            if code not in codes:
                raise ValidationError({"region_weather": f"{code}: not a region of this campaign"})
            if weather not in weathers:
                raise ValidationError({"region_weather": f"{code}: expected one of {', '.join(weathers)}"})

    @property
    def seed_value(self) -> int:
        return int(self.seed)


class GMModifier(models.Model):
    """IRON_FIST.md §4: a number the GM adds to a nation's KTA in a region for one turn, with a reason."""

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="gm_modifiers")
    region = models.ForeignKey(Region, on_delete=models.CASCADE, related_name="+")
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")
    value = models.IntegerField()
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["turn", "region", "nation"], name="gm_modifier_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.value:+d} for {self.nation.code} in {self.region.code}"


class AuditEntry(models.Model):
    """A GM's change to the campaign (deadline, weather, modifier, relation, roster): who, when and why.

    Kept apart from the changed rows, so the log survives a turn that replaces every stack.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="audit_entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField()
    action = models.CharField(max_length=32, help_text="deadline, weather, gm_modifier, relation, roster")
    summary = models.CharField(
        max_length=300, help_text='What changed, in English: "JV of NOR in N5: 4 → 6".'
    )
    # The summary as data (rules.engine.messages), shown in the reader's language; blank in rows written
    # before messages were data, which show `summary` as it is.
    code = models.CharField(max_length=64, blank=True)
    params = models.JSONField(default=dict, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "created_at"], name="audit_campaign_created")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"

    def message(self) -> Message | str:
        """What changed, as a message to render; the stored text for rows older than messages as data."""
        if not self.code:
            return self.summary
        return Message.from_dict({"code": self.code, "params": self.params})


class Invitation(models.Model):
    """A link that lets whoever opens it first play a nation of the campaign (campaign.invitations): single
    use, expiring, revocable by the GM.

    The token itself is kept, not a hash of it: the GM's dashboard shows the open links to copy again, as
    long as they are open (a hash could only be shown once). It is 256 random bits (`secrets.token_urlsafe`),
    looked up through its unique index; a used, expired or revoked one lets no one in."""

    class State(models.TextChoices):
        OPEN = "open"
        USED = "used"
        EXPIRED = "expired"
        REVOKED = "revoked"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    # Where the GM had it mailed, if anywhere: shown beside the link, never used to let anyone in.
    email = models.EmailField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("created_at")), name="invitation_expires_after_made"
            ),
            # A link is used or revoked, never both: revoking takes only an open one.
            models.CheckConstraint(
                condition=Q(used_at__isnull=True) | Q(revoked_at__isnull=True),
                name="invitation_used_or_revoked",
            ),
        ]

    def __str__(self) -> str:
        return f"invitation {self.pk} to {self.nation.code} in {self.campaign.slug}"

    def state(self, now: datetime) -> str:
        """Open, used, expired or revoked, at `now`; used and revoked before expired."""
        if self.used_at is not None:
            return self.State.USED
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.expires_at <= now:
            return self.State.EXPIRED
        return self.State.OPEN


class Profile(models.Model):
    """A user's own settings, across campaigns: the time zone deadlines are shown in (stored in UTC), and the
    language mails are written in (the one last chosen in the top bar; the site's default until then)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    time_zone = models.CharField(max_length=64, default="UTC", help_text="An IANA name: Europe/Helsinki.")
    language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        help_text="A code of settings.LANGUAGES, like fi; empty: the default.",
    )

    def __str__(self) -> str:
        return f"{self.user}: {self.time_zone}"

    def clean(self) -> None:
        if self.time_zone not in available_timezones():
            raise ValidationError({"time_zone": f"unknown time zone {self.time_zone!r}, try Europe/Helsinki"})


class Heartbeat(models.Model):
    """When a periodic job last ran (`tick`: the minute tick of beat or cron), for the health check."""

    name = models.CharField(max_length=32, unique=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class InboundMail(models.Model):
    """An email read by `read_order_mail`, by its Message-ID: each is handled once, however often read."""

    message_id = models.CharField(max_length=255, unique=True)
    sender = models.CharField(max_length=255, blank=True)
    subject = models.CharField(max_length=255, blank=True)
    campaign = models.ForeignKey(Campaign, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    received_at = models.DateTimeField()
    outcome = models.CharField(max_length=300, blank=True, help_text="What came of it, in words.")

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender}: {self.outcome}"
