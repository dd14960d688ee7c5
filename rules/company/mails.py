"""A company turn's mails, in the reader's own language, plain text and HTML; rendered and sent here, in the
interface layer, by the tasks of rules.company.tasks, which rules.company.turn queues by name.

company_battles_send   the battles a turn's processing created (COMPANY.md §4.5): each participating
                       nation's members hear of its battles, with its own units in each and a link to the
                       battle's sheet; the GM of every battle
company_results_send   the turn report after the battles (§6 step 6, §11.1): each player gets its nation's
                       orders rejected at processing with their reasons (§4.2), its recon rolls (§10.2),
                       the reports of the battles its nation fought, with each unit's before and after and
                       the XP and TP arithmetic, its units' retreats, and a link to its Kasarmi; the GM gets
                       every nation's

Built on every mail's parts (frontend.mail.turns); the templates are the package's own (company/email/).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaign.lifecycle import language_of
from campaign.models import Turn
from frontend.mail.turns import mail_send, member_message, members_mailed, reader_subject, site_url
from frontend.terms import said, word
from rules.company import models
from rules.company.page_data import battle_url, report_rows
from rules.company.results import current_version
from rules.company.services import company_ruleset
from rules.engine.messages import Message


def company_battles_send(*, turn_id: int) -> int:
    """§4.5: "When a battle is created, its participants (the members of its nations) and the GM are
    notified." The battles still open when the mail goes; the opposing units stay on the sheet, where
    recon decides what a nation sees of them."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    if turn.status != Turn.Status.BATTLES_PENDING:
        return 0
    campaign = turn.campaign
    battles = list(
        models.Battle.objects.filter(
            turn=turn, table__archived=False, table__state=models.Battle.Status.OPEN
        ).order_by("position")
    )
    messages = []
    for membership in members_mailed(campaign):
        nation = membership.nation
        code = nation.code if nation else None
        mine = [b for b in battles if code is None or code in b.data["sides"]]
        if not mine:
            continue
        with translation.override(language_of(user=membership.user)):
            title = _("[%(campaign)s] Turn %(number)s: battles to fight — %(reader)s")
            subject = reader_subject(title, turn, nation)
            context = {"battles": [_battle_told(b, campaign.slug, code) for b in mine]}
        messages.append(member_message(membership, turn, subject, "company/email/battles", context))
    return mail_send(messages)


def _battle_told(battle: models.Battle, slug: str, reader: str | None) -> dict:
    """One battle as its mail tells it: kind, sides (the defender named), the reader's own units in it (the
    GM's: none listed), and the link to its sheet."""
    data = battle.data
    units = [u for u in data["units"].values() if reader is not None and u.get("nation") == reader]
    return {
        "key": battle.key,
        "kind": word("battle", battle.kind),
        "sides": list(data["sides"]),
        "defender": data.get("defender"),
        "units": [f"#{u['id']} {u['name']} ({u['type']}, TK {u['tk']}/{u['tk_max']})" for u in units],
        "url": site_url(battle_url(battle)),
    }


def company_battle_due_send(*, battle_id: int, overdue: bool) -> int:
    """§5.2 "Deadlines": a battle's result due soon (its players reminded), or overdue (its players and the
    GM told that the GM now extends it, enters, confirms or voids it: a company battle is never resolved
    by itself). Nothing once the battle is final, void or its turn rolled back."""
    found = models.Battle.objects.select_related("table", "turn__campaign").filter(table_id=battle_id)
    battle = found.first()
    if battle is None or battle.status != models.Battle.Status.OPEN or battle.archived:
        return 0
    if battle.table.deadline is None or battle.turn.status != Turn.Status.BATTLES_PENDING:
        return 0
    turn, campaign = battle.turn, battle.turn.campaign
    current = current_version(battle)
    messages = []
    for membership in members_mailed(campaign, players_only=not overdue):
        nation = membership.nation
        code = nation.code if nation else None
        if code is not None and code not in battle.data["sides"]:
            continue
        with translation.override(language_of(user=membership.user)):
            if overdue:
                title = _("[%(campaign)s] Turn %(number)s: the result of battle %(key)s is overdue")
            else:
                title = _("[%(campaign)s] Turn %(number)s: the result of battle %(key)s is due soon")
            subject = title % {"campaign": campaign.name, "number": turn.number, "key": battle.key}
            context = {
                "battle": _battle_told(battle, campaign.slug, code),
                "deadline": battle.table.deadline,
                "overdue": overdue,
                "current": current,
                "is_gm": code is None,
            }
        messages.append(member_message(membership, turn, subject, "company/email/battle_due", context))
    return mail_send(messages)


def company_results_send(*, turn_id: int) -> int:
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    if turn.status != Turn.Status.RESOLVED:
        return 0
    campaign = turn.campaign
    ruleset = company_ruleset(campaign)
    battles = [
        b
        for b in models.Battle.objects.filter(turn=turn, table__archived=False).order_by("position")
        if b.report
    ]
    units = {u.number: u for u in models.Unit.objects.filter(campaign=campaign).select_related("nation")}
    notified = ruleset.get("recon.target_notified")
    messages = []
    for membership in members_mailed(campaign):
        nation = membership.nation
        code = nation.code if nation else None
        mine = [b for b in battles if code is None or code in b.data["sides"]]
        with translation.override(language_of(user=membership.user)):
            subject = reader_subject(_("[%(campaign)s] Turn %(number)s battles — %(reader)s"), turn, nation)
            told = _turn_told(turn.result or {}, units, code, notified=notified)
            told["summary"] = _summary(turn, mine, units, code, turn.result or {})
        context = {
            **told,
            "reports": [
                {"key": b.key, "kind": b.kind, **report_rows(b.report, ruleset=ruleset, viewer=code)}
                for b in mine
            ],
            "url": site_url(reverse("frontend:company_kasarmi", args=[campaign.slug, code]))
            if code
            else site_url(reverse("frontend:campaign", args=[campaign.slug])),
        }
        messages.append(member_message(membership, turn, subject, "company/email/results", context))
    return mail_send(messages)


def _turn_told(result: dict, units: dict, reader: str | None, *, notified: bool) -> dict:
    """What the turn report tells `reader` (None: the GM, who reads every nation's) besides its battles:
    its orders rejected at processing with their reasons (§4.2), its recon rolls with its own dice, total
    and the level reached per contact, the target's dice and total for the GM only, no target named to
    the scout (§10.2, §10.3), and its units' retreats and cut-offs (§6). A nation is told that it was
    scouted only with `recon.target_notified`."""

    def mine(code: str | None) -> bool:
        return reader is None or code == reader

    def name(number: int) -> str:
        unit = units.get(number)
        return f"#{number} {unit.name}" if unit else f"#{number}"

    def nation_of(number: int) -> str | None:
        unit = units.get(int(number))
        return unit.nation.code if unit else None

    rejected = [
        (f"{p['nation']}: " if reader is None else "") + said(Message.from_dict(p["message"]))
        for _, p in result.get("rejected", [])
        if mine(p.get("nation"))
    ]
    recon = []
    for roll in result.get("recon", []):
        if not mine(roll.get("nation")):
            continue
        level = word("contact", roll["level"])
        args = {"scout": name(roll["scout"]), "region": roll["region"], "total": roll["scout_total"]}
        if reader is None:
            line = _(
                "%(nation)s: %(scout)s scouted %(region)s, %(total)s against %(target)s's %(against)s: "
                "%(level)s"
            )
            args.update(
                nation=roll["nation"], target=name(roll["target"]), against=roll["target_total"], level=level
            )
        else:
            line = _("%(scout)s scouted %(region)s: total %(total)s, %(level)s")
            args.update(level=level)
        recon.append(line % args)
    scouted = sorted(
        {
            (roll["region"], roll["nation"])
            for roll in result.get("recon", [])
            if reader is not None and notified and nation_of(roll["target"]) == reader
        }
    )
    retreats = []
    for number, (origin, to) in sorted(result.get("retreats", {}).items(), key=lambda item: int(item[0])):
        if not mine(nation_of(number)):
            continue
        args = {"unit": name(int(number)), "origin": origin, "to": to}
        if to is None:
            retreats.append(_("%(unit)s could not retreat from %(origin)s and was destroyed.") % args)
        else:
            retreats.append(_("%(unit)s retreated from %(origin)s to %(to)s.") % args)
    return {
        "rejected": rejected,
        "recon": recon,
        "scouted": [_("%(nation)s scouted %(region)s.") % {"nation": n, "region": r} for r, n in scouted],
        "retreats": retreats,
    }


def _summary(turn: Turn, battles: list, units: dict, reader: str | None, result: dict) -> str:
    """The turn report's first line (§11.1), e.g. "Turn 4: 3 battles; you took K7; Ryhmä Virta fell": the
    reader's battles, the regions it took and lost, and its units that fell in battle or were cut off. The
    GM's counts every battle."""
    count = len(battles)
    parts = [
        ngettext("Turn %(number)s: %(count)s battle", "Turn %(number)s: %(count)s battles", count)
        % {"number": turn.number, "count": count}
    ]
    if reader is None:
        return parts[0]
    took, lost, fell = [], [], []
    for battle in battles:
        outcome = battle.report.get("outcome") or {}
        holder = outcome.get("holder") or outcome.get("occupier")
        region = battle.data.get("region")
        if holder == reader and region:
            took.append(region)
        elif holder is not None and battle.data.get("defender") == reader and region:
            lost.append(region)
        for number, after in ((battle.report.get("final") or {}).get("units") or {}).items():
            before = battle.report["before"].get(str(number)) or {}
            if after.get("status") == "destroyed" and before.get("nation") == reader:
                fell.append(int(number))
    for number, (_origin, to) in (result.get("retreats") or {}).items():
        unit = units.get(int(number))
        if to is None and unit is not None and unit.nation.code == reader:
            fell.append(int(number))
    if took:
        parts.append(_("you took %(regions)s") % {"regions": ", ".join(sorted(took))})
    if lost:
        parts.append(_("you lost %(regions)s") % {"regions": ", ".join(sorted(lost))})
    if fell:
        names = ", ".join(units[n].name if n in units else f"#{n}" for n in sorted(set(fell)))
        parts.append(ngettext("%(units)s fell", "%(units)s fell", len(set(fell))) % {"units": names})
    return "; ".join(parts)
