"""A battle sheet as people read it (TABLETOP.md A5.1): its title, its sides with their support lines, who
must agree to a result, what the result means. Shared by the sheet's page and its mail, so both say the
same thing; the sheet itself is the engine's, cut to what the reader may see by
rules.selectors.battle_sheet_for."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from campaign.models import Campaign, Membership, Relation, Turn
from campaign.selectors import Viewer
from rules.engine.tabletop.settings import TabletopSettings
from rules.models import ResultVersion, TableBattle
from rules.selectors import battles_visible


def sheet_sides(
    sheet: dict[str, Any], names: dict[str, str], players: dict[str, list[str]] | None = None
) -> list[dict[str, Any]]:
    """Each side with its groups and, under it, the support lines of its nations (A5.1); each nation
    named with its players, when `players` (nation -> usernames) is given."""
    players = players or {}

    def named(code: str) -> str:
        name = names.get(code, code)
        return f"{name} ({', '.join(players[code])})" if players.get(code) else name

    return [
        {
            **side,
            "names": [named(n) for n in side["nations"]],
            "support": [line for line in sheet["support"] if line[0] in side["nations"]],
            "points": (sheet.get("points") or {}).get(side["id"]),
        }
        for side in sheet["sides"]
    ]


def nation_players(campaign: Campaign) -> dict[str, list[str]]:
    """Each nation's players by username, for the sheet's sides (A5.1: "each nation with its players")."""
    players: dict[str, list[str]] = {}
    rows = Membership.objects.filter(campaign=campaign, role=Membership.Role.PLAYER, nation__isnull=False)
    for code, username in rows.order_by("user__username").values_list("nation__code", "user__username"):
        players.setdefault(code, []).append(username)
    return players


def battle_title(campaign: Campaign, battle: TableBattle) -> str:
    """The battle's title from the region names: "Battle of Karelia", or the meeting's border."""
    codes = battle.key.partition(":")[2]
    regions = dict(campaign.regions.values_list("code", "name"))
    if battle.kind == "meeting":
        low, _, high = codes.partition("|")
        return gettext("Meeting engagement on the %(a)s–%(b)s border") % {
            "a": regions.get(low, low),
            "b": regions.get(high, high),
        }
    region = codes.rpartition(":")[0] if battle.kind == "control" else codes
    return gettext("Battle of %(region)s") % {"region": regions.get(region, region)}


def who_agrees(settings: TabletopSettings, nations: list[str]) -> str:
    """Who must agree before a result counts (A6.2), in the reader's language."""
    if settings.result_entry == "gm_only":
        return gettext("Only the GM enters the result of this battle; it counts at once.")
    listed = ", ".join(nations)
    if settings.gm_confirms_agreed:
        return gettext(
            "A player of any nation of the battle (%(nations)s) proposes the result, each other nation "
            "agrees, and the GM confirms it."
        ) % {"nations": listed}
    return gettext(
        "A player of any nation of the battle (%(nations)s) proposes the result; it counts once each "
        "other nation agrees."
    ) % {"nations": listed}


def result_meaning(
    campaign: Campaign,
    battle: TableBattle,
    sheet: dict[str, Any],
    settings: TabletopSettings,
    names: dict[str, str],
) -> list[str]:
    """What the result means for this battle (A5.1), from A7 and the campaign's reading of a win:
    with `conquest_needs_decisive` only a decisive win takes the region, without it every win does (A7.0)."""
    decisive = settings.conquest_needs_decisive
    if not sheet.get("sides"):
        return []  # a reader who only supports the battle sees its own support lines, no sides (A5.4)
    if battle.kind == "meeting":
        if decisive:
            return [
                gettext(
                    "A decisive winner continues into the other region, where a new battle follows. "
                    "Any other result sends both armies home to defend."
                )
            ]
        return [
            gettext(
                "A winner continues into the other region, where a new battle follows. A draw sends both "
                "armies home to defend."
            )
        ]
    if battle.kind == "control":
        if decisive:
            return [
                gettext(
                    "A decisive winner with ground units left holds the region; after any other result the "
                    "side with more ground units holds it."
                )
            ]
        return [
            gettext(
                "A winner with ground units left holds the region; after a draw the side with more ground "
                "units holds it."
            )
        ]
    attackers, defender = sheet["sides"][0], sheet["sides"][1]
    regions = dict(campaign.regions.values_list("code", "name"))
    origins = sorted({group["origin"] for group in attackers["groups"]})
    words = {
        "attackers": ", ".join(names.get(n, n) for n in attackers["nations"]),
        "defender": ", ".join(names.get(n, n) for n in defender["nations"]),
        "region": regions.get(sheet["region"], sheet["region"]),
        "origins": ", ".join(regions.get(o, o) for o in origins),
    }
    if decisive:
        lines = [
            gettext(
                "A decisive win by %(attackers)s takes %(region)s and their survivors move in. Any other "
                "result leaves %(region)s with %(defender)s, and the attackers' survivors return to "
                "%(origins)s."
            )
            % words
        ]
    else:
        lines = [
            gettext(
                "A win by %(attackers)s takes %(region)s and their survivors move in. A draw or a win by "
                "%(defender)s leaves %(region)s with %(defender)s, and the attackers' survivors return to "
                "%(origins)s."
            )
            % words
        ]
    warring = _at_war(campaign, list(attackers["nations"]))
    if battle.kind == "joint" and warring:
        lines.append(
            gettext("If the attackers take %(region)s, %(nations)s fight a control battle for it.")
            % {"region": words["region"], "nations": ", ".join(names.get(n, n) for n in warring)}
        )
    return lines


def _at_war(campaign: Campaign, nations: list[str]) -> list[str]:
    """The nations, in their order, that are at war with another of them (a pair without a relation is at
    war, IRON_FIST §2.2)."""
    kinds = {
        frozenset((a, b)): kind
        for a, b, kind in Relation.objects.filter(nation_a__campaign=campaign).values_list(
            "nation_a__code", "nation_b__code", "kind"
        )
    }
    return [
        a for a in nations if any(b != a and kinds.get(frozenset((a, b)), "war") == "war" for b in nations)
    ]


def battles_pending_rows(*, viewer: Viewer, turn: Turn) -> list[dict[str, Any]]:
    """While a tabletop turn waits for its battles (A11.3): each battle the viewer may see, in plan order,
    with its page, its regions (for the map's markers), its state, its deadline and the viewer's next
    action; [] for a turn not waiting (tabletop's SystemPages.battles_pending)."""
    if turn.status != Turn.Status.BATTLES_PENDING:
        return []
    now = timezone.now()
    rows = []
    for battle in battles_visible(viewer=viewer, turn=turn):
        current = (
            battle.versions.filter(state__in=ResultVersion.CURRENT).prefetch_related("answers__nation").last()
        )
        rows.append(
            {
                "battle": battle,
                "url": reverse("frontend:battle", args=[viewer.campaign.slug, turn.number, battle.pk]),
                "regions": _battle_regions(battle.key),
                "overdue": battle.state == TableBattle.State.OPEN
                and battle.deadline is not None
                and battle.deadline < now,
                "next": _next_action(viewer, battle, current, now),
            }
        )
    return rows


def _battle_regions(key: str) -> list[str]:
    """The regions a battle key names: `region:R` and `control:R:k` R, `meeting:A|B` both."""
    kind, _, rest = key.partition(":")
    if kind == "meeting":
        return rest.split("|")
    return [rest.rpartition(":")[0] if kind == "control" else rest]


def _next_action(viewer: Viewer, battle: TableBattle, current: ResultVersion | None, now: Any) -> str:
    """What the viewer does next about this battle, in a few words."""
    if battle.state == TableBattle.State.WAITING:
        return gettext("Waits for %(battles)s.") % {"battles": ", ".join(battle.waits_for or [])}
    if battle.state != TableBattle.State.OPEN:
        return gettext("Nothing: it has its result.")
    if viewer.is_gm:
        if battle.deadline is not None and battle.deadline < now:
            return gettext("Overdue: decide it.")
        if current is not None and current.state == ResultVersion.State.AGREED:
            return gettext("Confirm the agreed result.")
        if current is not None and current.state == ResultVersion.State.DISPUTED:
            return gettext("Disputed: settle it.")
        return gettext("Waiting for the players' result.")
    code = viewer.nation.code if viewer.nation is not None else None
    if code not in battle.nations:
        return gettext("Nothing: your nation only supports it.")
    if current is None:
        return gettext("Enter the result.")
    answered = {a.nation.code: a.answer for a in current.answers.all()}
    if current.state == ResultVersion.State.AGREED:
        return gettext("Waiting for the GM to confirm the result.")
    if code != (current.nation.code if current.nation_id else None) and code not in answered:
        return gettext("Agree or dispute version %(number)s.") % {"number": current.number}
    return gettext("Waiting for the other nations to answer.")
