"""What a round's break test says in words (TABLETOP.md B8): why a unit is Steadfast or not, as a message.

"Steadfast: 4 full ranks, more than any enemy unit (most: Warband, 3)." · "Not Steadfast: 3 full ranks, not
more than Elite's 3." · "Steadfast lost: Cavalry (2 full ranks) fights it in the flank." Pages render them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.messages import Message, gettext_noop, messages_register

from .close_combat_errors import MESSAGE_PREFIX

messages_register(
    {
        "steadfast.more_full_ranks": gettext_noop(
            "Steadfast: {full_ranks} full ranks, more than any enemy unit (most: {units}, {most})."
        ),
        "steadfast.more_full_ranks_alone": gettext_noop(
            "Steadfast: {full_ranks} full ranks, and no enemy unit is still fighting."
        ),
        "steadfast.not_more_full_ranks": gettext_noop(
            "Not Steadfast: {full_ranks} full ranks, not more than {unit}'s {most}."
        ),
        "steadfast.not_more_full_ranks_alone": gettext_noop("Not Steadfast: no full ranks."),
        "steadfast.disrupted.flank": gettext_noop(
            "Steadfast lost: {unit} ({full_ranks} full ranks) fights it in the flank."
        ),
        "steadfast.disrupted.rear": gettext_noop(
            "Steadfast lost: {unit} ({full_ranks} full ranks) fights it in the rear."
        ),
        "steadfast.off": gettext_noop("Not Steadfast: this campaign plays without Steadfast."),
    },
    prefix=MESSAGE_PREFIX,
)


def steadfast_message(test: Mapping[str, Any], names: Mapping[str, str]) -> Message:
    """Why the unit of `test` (a break test of the output) is Steadfast or not; `names`: unit id -> name."""
    reason, most = test["steadfast_reason"], test["most_enemy_units"]
    code = MESSAGE_PREFIX + "steadfast." + reason
    if reason == "disrupted":
        first = test["disrupted_by"][0]
        return Message(
            f"{code}.{first['arc']}", {"unit": names[first["unit"]], "full_ranks": first["full_ranks"]}
        )
    if reason in ("more_full_ranks", "not_more_full_ranks") and not most:
        return Message(f"{code}_alone", {"full_ranks": test["full_ranks"]})
    params = {"full_ranks": test["full_ranks"], "most": test["most_enemy_full_ranks"]}
    if reason == "more_full_ranks":
        params["units"] = ", ".join(names[uid] for uid in most)
    elif reason == "not_more_full_ranks":
        params["unit"] = names[most[0]]
    return Message(code, params)
