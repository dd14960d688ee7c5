"""The English templates of Sodankäynti's message codes (reports and order rejections), registered once."""

from __future__ import annotations

from ..messages import gettext_noop, messages_register

messages_register(
    {
        "sodankaynti.first.winner": gettext_noop(
            "{side} won the tactics roll and takes {bonus} bonus actions"
        ),
        "sodankaynti.first.fewer_dice": gettext_noop(
            "tie: {side} has fewer dice ({dice} and {other}) and acts first"
        ),
        "sodankaynti.first.equal_dice_defender": gettext_noop(
            "tie: equal dice ({dice} and {other}), the defender {side} acts first"
        ),
        "sodankaynti.first.equal_dice_side_order": gettext_noop(
            "tie: equal dice ({dice} and {other}) and no defender: {side}, first in side order, acts first"
        ),
        "sodankaynti.first.defender": gettext_noop("tie: the defender {side} acts first"),
        "sodankaynti.first.side_order": gettext_noop(
            "tie and no defender: {side}, first in side order, acts first"
        ),
        "sodankaynti.outcome.won": gettext_noop(
            "the attacker won and takes the region: every win is decisive ({rule})"
        ),
        "sodankaynti.order.stand_down": gettext_noop(
            "stand_down is not an order in Sodankäynti: there is no support to stand down from"
        ),
        "sodankaynti.order.role": gettext_noop(
            "{unit_type} cannot {kind}: its role {role} may only {allowed}"
        ),
        "sodankaynti.order.doctrine": gettext_noop("invalid doctrine order: {part}: {reason}"),
        "sodankaynti.order.region": gettext_noop("unknown region {region}"),
        "sodankaynti.order.nation": gettext_noop("unknown nation {nation}"),
        "sodankaynti.order.ambush_owner": gettext_noop("{region} is not held by {nation}"),
        "sodankaynti.order.ambush_adjacent": gettext_noop("{facing} is not adjacent to {region}"),
        "sodankaynti.order.ambush_twice": gettext_noop(
            "{nation} already lies in ambush in {region} this turn"
        ),
    }
)
