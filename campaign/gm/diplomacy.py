"""The GM's power over diplomacy: war, peace and alliance between two nations."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, User, audit_write, gm_check
from campaign.models import Nation, Relation
from rules.engine.messages import InputError, Message
from rules.engine.state import RelationKind


def relation_set(
    *, by: User, nation_a: Nation, nation_b: Nation, kind: str, reason: str = "", now: Clock = timezone.now
) -> Relation | None:
    """Set the relation of two nations; war is the absence of a row (IRON_FIST.md §2.2)."""
    campaign = nation_a.campaign
    gm_check(by=by, campaign=campaign)
    if nation_b.campaign_id != campaign.pk:
        raise InputError.of("nation_b", "not_in_campaign", code=nation_b.code)
    if nation_a.pk == nation_b.pk:
        raise InputError.of("nation_b", "same_nations")
    if kind not in {k.value for k in RelationKind}:
        raise InputError.of("kind", "unknown_relation", kind=kind)
    low, high = sorted((nation_a, nation_b), key=lambda n: n.pk)
    with transaction.atomic():
        if kind == RelationKind.WAR:
            Relation.objects.filter(nation_a=low, nation_b=high).delete()
            relation = None
        else:
            relation, _ = Relation.objects.update_or_create(
                nation_a=low, nation_b=high, defaults={"kind": kind}
            )
        summary = Message(
            "audit.relation", {"a": low.code, "b": high.code, "kind": Message(f"relation.{kind}")}
        )
        audit_write(by, campaign, "relation", summary, reason, now)
    return relation
