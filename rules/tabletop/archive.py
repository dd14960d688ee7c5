"""A tabletop turn's battles kept when the GM rolls it back to its orders, and their results carried over
when it is processed again (TABLETOP.md A10.4, A10.5).

battles_archive(turn=, archive=)                    every battle, version, answer and saved round of the
                                                    turn into the archive, as data; the rows go
battles_carry(turn=, battles=, ruleset=, now=)      new battles equal to an archived one (key and
                                                    fingerprint) get its confirmed entry and rounds back

The archive is data in the `TurnArchive` row, not rows of their own: a turn processed again opens its
battles under the same keys, and an archived battle is never a battle of the turn again, only a record
the GM reads and the carry-over copies from. Nothing in it is deleted.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from campaign.models import Turn
from rules import results_flow as flow
from rules.engine.tabletop.settings import TabletopRuleset
from rules.models import CombatRound, ResultVersion, TableBattle, TurnArchive

# A battle's columns the archive keeps as they are (its times, versions and rounds are kept as data).
BATTLE_KEPT = ("key", "kind", "state", "position", "sheet", "fingerprint", "nations", "waits_for")
# A saved round's columns as the archive, the export and the API give them, under their own names (its
# settings as `settings`); and those only the archive and the export keep, to bring the round back.
ROUND_SHOWN = ("sequence", "label", "game_turn", "battle_sides", "input", "output")
ROUND_KEPT = ("dice_mode", "seed", "after_publication")


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _columns(row: Any, names: Iterable[str]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names}


def battle_data(battle: TableBattle) -> dict[str, Any]:
    """One battle as the archive keeps it: its sheet, every version with its answers, every round."""
    return {
        **_columns(battle, BATTLE_KEPT),
        "opened_at": _when(battle.opened_at),
        "deadline": _when(battle.deadline),
        "versions": [
            {
                **version_fields(v),
                "number": v.number,
                "payload": v.payload,
                "author": v.author_id,
                "decided_at": _when(v.decided_at),
                "decided_by": v.decided_by_id,
                "answers": [
                    {
                        "nation": a.nation.code,
                        "user": a.user_id,
                        "answer": a.answer,
                        "comment": a.comment,
                        "at": _when(a.at),
                    }
                    for a in v.answers.all()
                ],
            }
            for v in battle.versions.all()
        ],
        "rounds": [round_data(r) for r in battle.rounds.all()],
    }


def version_fields(version: ResultVersion) -> dict[str, Any]:
    """What a result version is, as the archive and the API both give it (each names its number and
    entry in its own words)."""
    return {
        "origin": version.origin,
        "state": version.state,
        "fingerprint": version.fingerprint,
        "warnings": version.warnings,
        "nation": version.nation.code if version.nation else None,
        "created_at": _when(version.created_at),
        "reason": str(version.reason_message() or ""),  # in English; `decision` is the code and parameters
        "decision": version.decision,
    }


def round_fields(round_: CombatRound) -> dict[str, Any]:
    """What a saved round is, as the archive, the export and the API all give it."""
    return {**_columns(round_, ROUND_SHOWN), "settings": round_.settings_used}


def battle_rounds_export(*, turn: Turn) -> dict[str, list[dict[str, Any]]]:
    """The turn's saved rounds by battle key, as the export keeps them (one query)."""
    rounds: dict[str, list[dict[str, Any]]] = {}
    for r in CombatRound.objects.filter(battle__turn=turn).select_related("battle").order_by("sequence"):
        rounds.setdefault(r.battle.key, []).append({**round_data(r), "author": None})
    return rounds


def round_data(round_: CombatRound) -> dict[str, Any]:
    """A saved round as data: what the archive and the export keep, and what brings it back."""
    return {
        **round_fields(round_),
        **_columns(round_, ROUND_KEPT),
        "author": round_.author_id,
        "created_at": _when(round_.created_at),
    }


def rounds_restore(*, battle: TableBattle, rounds: Iterable[dict[str, Any]], authors: bool = True) -> None:
    """Saved rounds back on a battle, as `round_data` wrote them (an archive, an export). An export may
    come from another server, whose users are not this one's: `authors=False` keeps none."""
    CombatRound.objects.bulk_create(
        CombatRound(
            battle=battle,
            **{name: r[name] for name in (*ROUND_SHOWN, *ROUND_KEPT)},
            settings_used=r["settings"],
            author_id=r["author"] if authors else None,
            created_at=datetime.fromisoformat(r["created_at"]),
        )
        for r in rounds
    )


def battles_archive(*, turn: Turn, archive: TurnArchive) -> None:
    """Back to orders (A10.4): all battles and entries archived with the rolled-back result."""
    battles = (
        TableBattle.objects.filter(turn=turn)
        .order_by("position", "key")
        .prefetch_related("versions__answers__nation", "versions__nation", "rounds")
    )
    archive.kind = "orders"
    archive.battles = [battle_data(b) for b in battles]
    archive.save(update_fields=["kind", "battles"])
    TableBattle.objects.filter(turn=turn).delete()


def archived_battles(*, turn: Turn) -> dict[str, dict[str, Any]]:
    """The battles of the turn's last rollback to its orders, by key: what a new battle may carry over."""
    archive = TurnArchive.objects.filter(turn=turn, kind="orders").order_by("-archived_at", "-id").first()
    if archive is None:
        return {}
    return {b["key"]: {**b, "archived_at": archive.archived_at.isoformat()} for b in archive.battles}


def archived_for_reference(*, battle: TableBattle) -> dict[str, Any] | None:
    """A10.4: a battle that opened fresh after a rollback to its orders, while the archive holds a confirmed
    result for its key (made against other forces, or not carried over): that result, for the GM to read."""
    old = archived_battles(turn=battle.turn).get(battle.key)
    if old is None:
        return None
    entry = next((v for v in old["versions"] if v["state"] == ResultVersion.State.CONFIRMED), None)
    if entry is None or battle.versions.filter(origin=ResultVersion.Origin.CARRIED).exists():
        return None
    return {
        **entry,
        "archived_at": old["archived_at"],
        "same_forces": old["fingerprint"] == battle.fingerprint,
        "rounds": len(old["rounds"]),
    }


def battles_carry(*, turn: Turn, battles: list[TableBattle], ruleset: TabletopRuleset, now: datetime) -> int:
    """A10.4: each new battle whose key and fingerprint equal an archived battle's gets that battle's
    confirmed entry back, recorded "carried over", and its saved rounds (A10.5); the others open fresh.
    Returns how many were carried: the caller plans again, as their entries change the plan."""
    if not battles or not ruleset.tabletop.carry_results_on_rollback:
        return 0
    archived = archived_battles(turn=turn)
    carried = 0
    for battle in battles:
        old = archived.get(battle.key)
        if old is None or old["fingerprint"] != battle.fingerprint or battle.versions.exists():
            continue
        entry = next((v for v in old["versions"] if v["state"] == ResultVersion.State.CONFIRMED), None)
        if entry is None:
            continue
        ResultVersion.objects.create(
            battle=battle,
            number=1,
            origin=ResultVersion.Origin.CARRIED,
            state=ResultVersion.State.CONFIRMED,
            payload=entry["payload"],
            fingerprint=entry["fingerprint"],
            warnings=entry["warnings"],
            author_id=entry["author"],
            created_at=now,
            decided_at=now,
            decision=flow.decision(
                "carried_over", number=entry["number"], archived_at=old["archived_at"][:16].replace("T", " ")
            ),
        )
        rounds_restore(battle=battle, rounds=old["rounds"])
        carried += 1
    return carried
