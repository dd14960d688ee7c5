"""The results-entry workflow of battles fought at the table, shared by tabletop and company campaigns
(BATTLE_SYSTEMS.md, "Results entry"; TABLETOP.md A6.2; COMPANY.md §5.2).

A result is saved as a numbered version and every version is kept; a new version sets the earlier ones
aside with their answers; the saving nation counts as agreeing, and each other nation of the battle agrees
or disputes with a comment; the GM confirms, or the agreement of every nation does where the system says so;
the GM may void the current version (the battle is open again) and confirm with agreements missing. Answers
and decisions are about the current version only, and a version entered against other forces is refused.

What differs per system is its `Table`: how a payload is checked against the battle as it stands, what the
GM's own entry means, whether agreement confirms, which row the versions hang on and what happens once the
battle's entry changes. `rules.tabletop.battles` (tabletop) and `rules.company.results` each give one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction

from campaign.models import Membership, Turn
from campaign.selectors import Viewer
from rules.engine.messages import (
    ErrorKind,
    Fault,
    Message,
    Refusal,
    gettext_noop,
    kinds_register,
    messages_register,
)
from rules.models import ResultAnswer, ResultVersion

COMMENT_LIMIT = 2000
PREFIX = "results."

messages_register(
    {
        "comment_missing": gettext_noop("Say what is wrong with this result."),
        "comment_too_long": gettext_noop("A comment is at most 2000 characters."),
        "version_not_current": gettext_noop(
            "Version {number} of the battle of {place} is not the current one: answer the current version."
        ),
        "withdraw_not_allowed": gettext_noop(
            "Only its author may withdraw a version, and only until it is agreed."
        ),
        "gm_only": gettext_noop("Only the GM may do this."),
        "reason_missing": gettext_noop("Give a reason: it is kept in the battle's history."),
        "not_resolved": gettext_noop("The battle of {place} has no result to reopen."),
        "deadline_not_future": gettext_noop("The new deadline must be later than now."),
        "deadline_not_open": gettext_noop(
            "The battle of {place} has no deadline to move: it is not open for results."
        ),
        "not_permitted": gettext_noop(
            "Only the GM or a player of {nations} may enter the result of the battle of {place}."
        ),
    },
    prefix=PREFIX,
)

# Why a version came to its state (`ResultVersion.decision`): shown in its history, its mails and the API.
DECIDED = PREFIX + "decided."
messages_register(
    {
        "entered_by_gm": gettext_noop("entered by the GM"),
        "agreed_by_all": gettext_noop("agreed by every nation of the battle"),
        "confirmed_by_gm": gettext_noop("confirmed by the GM"),
        "confirmed_not_agreed": gettext_noop("confirmed by the GM; not agreed by {missing}"),
        "confirmed_disputed": gettext_noop("confirmed by the GM; disputed by {disputed}"),
        "confirmed_not_agreed_disputed": gettext_noop(
            "confirmed by the GM; not agreed by {missing}; disputed by {disputed}"
        ),
        "confirmed_at_deadline": gettext_noop("confirmed at the deadline"),
        "not_agreed_at_deadline": gettext_noop("archived at the deadline: not agreed"),
        "auto_resolved_at_deadline": gettext_noop("auto-resolved at the deadline: no agreed result"),
        "auto_resolved_by_gm": gettext_noop("auto-resolved by the GM"),
        "auto_resolved_by_gm_why": gettext_noop("auto-resolved by the GM: {why}"),
        "reopened": gettext_noop("reopened: {why}"),
        "battle_void": gettext_noop("battle void: {why}"),
        "forces_changed": gettext_noop("forces changed"),
        "battle_gone": gettext_noop("battle no longer exists"),
        "replayed": gettext_noop("replayed from the campaign's export"),
        "carried_over": gettext_noop(
            "carried over: version {number} of the result rolled back at {archived_at} UTC"
        ),
    },
    prefix=DECIDED,
)


def decision(code: str, **params: Any) -> dict[str, Any]:
    """A version's `decision`, stored: the code (without its prefix) and its parameters."""
    return Message(DECIDED + code, params).to_dict()


# The versions that still count for a battle: the current one, or its entry (ResultVersion says which).
LIVE = ResultVersion.LIVE
CURRENT = ResultVersion.CURRENT


# The refusals that say who may act, not what is wrong with the input (403), and those that a battle's
# state refuses, not its input (409).
kinds_register(ErrorKind.REFUSED, ("gm_only", "not_permitted"), prefix=PREFIX)
kinds_register(
    ErrorKind.CONFLICT, ("version_not_current", "not_resolved", "deadline_not_open"), prefix=PREFIX
)


class BattleError(Refusal):
    """A refused action on a battle: every error, each with a code, its ref and its message, in the
    system's order. An error is the system's own (tabletop's `EntryError`, company's `Problem`), each
    giving its `fault()`."""

    def __init__(self, errors: list[Any]) -> None:
        super().__init__([e.fault() for e in errors], "; ".join(str(e.code) for e in errors))
        self.errors = errors


@dataclass(frozen=True)
class FlowError:
    """One of the workflow's own refusals (not a system's check): its code and message, no ref."""

    code: str
    message: Message
    ref: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.code

    def fault(self) -> Fault:
        return Fault(self.code, self.message)


def refuse(code: str, **params: Any) -> BattleError:
    return BattleError([FlowError(code, Message(PREFIX + code, params))])


class Table(ABC):
    """One battle as its system sees it, for the workflow."""

    # What the GM's reopen does with the final entry: archives it, the battle open again without a current
    # version (TABLETOP.md A10.2), or puts it back to draft, the current version again (COMPANY.md §5.2).
    reopens_to_draft = False

    def __init__(self, battle: Any) -> None:
        self.battle = battle  # a row whose `versions` are its ResultVersions

    @abstractmethod
    def owner(self) -> dict[str, Any]:
        """The version's foreign key to this battle, as keyword arguments."""

    @abstractmethod
    def lock(self) -> Turn:
        """Lock the battle's turn: one change to a turn's entries at a time, none while it processes."""

    @abstractmethod
    def nations(self) -> list[str]:
        """The codes of the battle's nations, in the system's order."""

    @abstractmethod
    def place(self) -> str:
        """The battle's place for messages."""

    @abstractmethod
    def check(self, viewer: Viewer, turn: Turn, payload: dict[str, Any], fingerprint: str, now: datetime):
        """The payload's warnings (a list of strings) when it may be entered now; else raise BattleError
        with every error."""

    @abstractmethod
    def entry_confirms(self, viewer: Viewer, turn: Turn) -> bool:
        """Whether this viewer's entry is confirmed as it is saved (tabletop: the GM's entry)."""

    @abstractmethod
    def gm_confirms_agreed(self, turn: Turn) -> bool:
        """Whether an agreed version waits for the GM (else agreement confirms it)."""

    @abstractmethod
    def resolved(self, turn: Turn) -> bool:
        """Whether the battle has an entry the GM may reopen now."""

    @abstractmethod
    def changed(self, turn: Turn, now: datetime) -> None:
        """After any change to the battle's versions: the system brings its battle and turn in line."""

    def told(self, event: str, version: ResultVersion) -> None:
        """An event of the battle's results for its readers (TABLETOP.md A11.3), inside the change's
        transaction: `version` (a new version waits for answers), `disputed`, `confirmed`, `voided` or
        `reopened`. A system that mails its players says so here; by default nobody is told."""
        return None

    def campaign_id(self) -> int:
        return self.battle.turn.campaign_id


def current(battle: Any) -> ResultVersion | None:
    return battle.versions.filter(state__in=CURRENT).order_by("-number").first()


def number_next(battle: Any) -> int:
    last = battle.versions.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def supersede(battle: Any, now: datetime, why: dict[str, Any] | None = None) -> None:
    """The current version set aside by a newer one, or (`why`, a stored decision) by what happened."""
    battle.versions.filter(state__in=CURRENT).update(
        state=ResultVersion.State.SUPERSEDED, decided_at=now, decision=why
    )


def _must_be_current(table: Table, version: ResultVersion) -> None:
    found = current(table.battle)
    if found is None or found.pk != version.pk:
        raise refuse("version_not_current", number=version.number, place=table.place())


def _gm_with_reason(viewer: Viewer, reason: str) -> None:
    if not viewer.is_gm:
        raise refuse("gm_only")
    if not (reason or "").strip():
        raise refuse("reason_missing")


def _recheck(table: Table, viewer: Viewer, turn: Turn, version: ResultVersion, now: datetime) -> None:
    """The version against the battle as it stands now: a stale one is refused."""
    table.check(viewer, turn, version.payload, version.fingerprint, now)


@transaction.atomic
def result_save(
    table: Table, *, viewer: Viewer, payload: dict[str, Any], fingerprint: str, now: datetime
) -> ResultVersion:
    """A new version. A player's is proposed with its nation agreeing; an entry the system confirms as it
    is saved (`Table.entry_confirms`) is the battle's entry at once."""
    turn = table.lock()
    warnings = table.check(viewer, turn, payload, fingerprint, now)
    battle = table.battle
    supersede(battle, now)
    gm_entry = table.entry_confirms(viewer, turn)
    version = ResultVersion.objects.create(
        **table.owner(),
        number=number_next(battle),
        origin=ResultVersion.Origin.GM if gm_entry or viewer.is_gm else ResultVersion.Origin.PLAYER,
        state=ResultVersion.State.CONFIRMED if gm_entry else ResultVersion.State.PROPOSED,
        payload=payload,
        fingerprint=fingerprint,
        warnings=[str(w) for w in warnings],
        author=viewer.user,
        nation=viewer.nation,
        created_at=now,
        decided_at=now if gm_entry else None,
        decided_by=viewer.user if gm_entry else None,
        decision=decision("entered_by_gm") if gm_entry else None,
    )
    if not gm_entry:
        if not viewer.is_gm:
            ResultAnswer.objects.create(
                version=version, nation=viewer.nation, user=viewer.user, answer="agree", at=now
            )
        _settle(table, turn, version, now)
    table.told("confirmed" if version.state == ResultVersion.State.CONFIRMED else "version", version)
    table.changed(turn, now)
    return version


@transaction.atomic
def result_withdraw(table: Table, *, viewer: Viewer, version: ResultVersion, now: datetime) -> None:
    turn = table.lock()
    version.refresh_from_db()
    withdrawable = (ResultVersion.State.PROPOSED, ResultVersion.State.DISPUTED)
    if version.author_id != viewer.user.pk or version.state not in withdrawable:
        raise refuse("withdraw_not_allowed")
    version.state, version.decided_at = ResultVersion.State.WITHDRAWN, now
    version.save(update_fields=["state", "decided_at"])
    table.changed(turn, now)


def _answerable(table: Table, viewer: Viewer, version: ResultVersion, now: datetime) -> Turn:
    """Only a player of one of the battle's nations answers, and only the current version as it stands."""
    turn = table.lock()
    _must_be_current(table, version)
    if viewer.is_gm or viewer.nation is None or viewer.nation.code not in table.nations():
        raise refuse("not_permitted", nations=", ".join(table.nations()), place=table.place())
    _recheck(table, viewer, turn, version, now)
    return turn


@transaction.atomic
def result_agree(table: Table, *, viewer: Viewer, version: ResultVersion, now: datetime) -> None:
    turn = _answerable(table, viewer, version, now)
    ResultAnswer.objects.update_or_create(
        version=version,
        nation=viewer.nation,
        defaults={"user": viewer.user, "answer": "agree", "comment": "", "at": now},
    )
    version.refresh_from_db()
    _settle(table, turn, version, now)
    if version.state == ResultVersion.State.CONFIRMED:
        table.told("confirmed", version)
    table.changed(turn, now)


@transaction.atomic
def result_dispute(
    table: Table, *, viewer: Viewer, version: ResultVersion, comment: str, now: datetime
) -> None:
    comment = (comment or "").strip()
    if not comment:
        raise refuse("comment_missing")
    if len(comment) > COMMENT_LIMIT:
        raise refuse("comment_too_long")
    turn = _answerable(table, viewer, version, now)
    ResultAnswer.objects.update_or_create(
        version=version,
        nation=viewer.nation,
        defaults={"user": viewer.user, "answer": "dispute", "comment": comment, "at": now},
    )
    version.refresh_from_db()
    _settle(table, turn, version, now)
    table.told("disputed", version)


def _needed(table: Table) -> set[int]:
    """The nations whose agreement makes a version agreed: those of the battle with an active player."""
    return set(
        Membership.objects.filter(
            campaign_id=table.campaign_id(),
            role=Membership.Role.PLAYER,
            nation__code__in=table.nations(),
            nation__civil_disorder=False,
        ).values_list("nation_id", flat=True)
    )


def _settle(table: Table, turn: Turn, version: ResultVersion, now: datetime) -> None:
    """proposed, disputed or agreed from the answers; an agreed version confirmed at once when the GM
    does not confirm agreements."""
    answers = dict(version.answers.values_list("nation_id", "answer"))
    if "dispute" in answers.values():
        state = ResultVersion.State.DISPUTED
    elif _needed(table) <= {n for n, a in answers.items() if a == "agree"}:
        state = ResultVersion.State.AGREED
        if not table.gm_confirms_agreed(turn):
            state = ResultVersion.State.CONFIRMED
            version.decision, version.decided_at = decision("agreed_by_all"), now
    else:
        state = ResultVersion.State.PROPOSED
    version.state = state
    version.save(update_fields=["state", "decision", "decided_at"])


@transaction.atomic
def result_confirm(table: Table, *, viewer: Viewer, version: ResultVersion, now: datetime) -> None:
    """The GM confirms the current version, agreed or not; the reason says who had not agreed."""
    if not viewer.is_gm:
        raise refuse("gm_only")
    turn = table.lock()
    _must_be_current(table, version)
    _recheck(table, viewer, turn, version, now)
    answers = dict(version.answers.values_list("nation__code", "answer"))
    missing = [n for n in table.nations() if answers.get(n) != "agree"]
    disputed = [n for n, a in answers.items() if a == "dispute"]
    version.state, version.decided_at, version.decided_by = ResultVersion.State.CONFIRMED, now, viewer.user
    which = "confirmed" + ("_not_agreed" if missing else "") + ("_disputed" if disputed else "")
    version.decision = decision(
        which if missing or disputed else "confirmed_by_gm", missing=missing, disputed=disputed
    )
    version.save(update_fields=["state", "decided_at", "decided_by", "decision"])
    table.told("confirmed", version)
    table.changed(turn, now)


@transaction.atomic
def result_void(table: Table, *, viewer: Viewer, version: ResultVersion, reason: str, now: datetime) -> None:
    """The GM sets the current version aside: the battle is open again without one."""
    _gm_with_reason(viewer, reason)
    table.lock()
    _must_be_current(table, version)
    version.state, version.reason, version.decision, version.decided_at, version.decided_by = (
        ResultVersion.State.VOIDED,
        reason.strip(),
        None,  # the GM's own words say why
        now,
        viewer.user,
    )
    version.save(update_fields=["state", "reason", "decision", "decided_at", "decided_by"])
    table.told("voided", version)


@transaction.atomic
def entry_reopen(table: Table, *, viewer: Viewer, reason: str, now: datetime) -> Turn:
    """The GM reopens the battle, with a reason: its confirmed entry is archived (voided) or back to draft
    (`Table.reopens_to_draft`: the current version again, with only its saver's approval); the battle is
    open again."""
    _gm_with_reason(viewer, reason)
    turn = table.lock()
    if not table.resolved(turn):
        raise refuse("not_resolved", place=table.place())
    entry = table.battle.versions.filter(state=ResultVersion.State.CONFIRMED).first()
    if entry is not None:
        why = decision("reopened", why=reason.strip())
        if table.reopens_to_draft:
            # A draft's approvals are its saver's (COMPANY.md §5.2): the others approve it again.
            entry.answers.exclude(nation=entry.nation).delete()
            entry.state, entry.decision, entry.decided_at, entry.decided_by = (
                ResultVersion.State.PROPOSED,
                why,
                None,
                None,
            )
        else:
            entry.state, entry.decision, entry.decided_at = ResultVersion.State.VOIDED, why, now
        entry.save(update_fields=["state", "decision", "decided_at", "decided_by"])
        table.told("reopened", entry)
    table.changed(turn, now)
    return turn
