"""The GM's power over diplomacy: war, peace and alliance between two nations."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, GMInputError, User, audit_write, gm_check
from campaign.models import Nation, Relation
from rules.engine.state import RelationKind


def relation_set(
    *, by: User, nation_a: Nation, nation_b: Nation, kind: str, reason: str = "", now: Clock = timezone.now
) -> Relation | None:
    """Set the relation of two nations; war is the absence of a row (IRON_FIST.md §2.2)."""
    campaign = nation_a.campaign
    gm_check(by=by, campaign=campaign)
    if nation_b.campaign_id != campaign.pk:
        raise GMInputError("nation_b", f"{nation_b.code} is not in this campaign")
    if nation_a.pk == nation_b.pk:
        raise GMInputError("nation_b", "choose two different nations")
    if kind not in {k.value for k in RelationKind}:
        raise GMInputError("kind", f"unknown relation {kind!r}")
    low, high = sorted((nation_a, nation_b), key=lambda n: n.pk)
    with transaction.atomic():
        if kind == RelationKind.WAR:
            Relation.objects.filter(nation_a=low, nation_b=high).delete()
            relation = None
        else:
            relation, _ = Relation.objects.update_or_create(
                nation_a=low, nation_b=high, defaults={"kind": kind}
            )
        audit_write(by, campaign, "relation", f"{low.code}–{high.code}: {kind}", reason, now)
    return relation
