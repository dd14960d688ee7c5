"""Close-combat rounds saved to a tabletop battle (TABLETOP.md B9, A10.5, A11.2): the battle's story.

close_combat_round_save(viewer=, battle=, data=, ...)   work the round out and keep it, with its dice
close_combat_round_correct(viewer=, round_=, data=, ...) replace it; the earlier version kept with it
rounds_visible(viewer=, battle=)                         the battle's rounds, for its nations and the GM
rounds_ordered(rounds)                                   by game turn, then sequence: as the report tells them

Who saves: the players of the battle's nations and the GM, from when the battle is open until its turn is
resolved; afterwards the GM only, the round marked "added after publication". Who reads: the battle's
nations and the GM (a nation that only supports the battle does not). Rounds never change a result.

A round with seeded dice is rolled from the battle's own derived seed (B6: `round:{key}:{sequence}`), never
from a seed the client sends: a player cannot pick a seed that rolls well, and the same round replays to
the same dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import audit_write
from campaign.models import Turn
from campaign.selectors import Viewer
from rules.engine.messages import Message, gettext_noop, messages_register
from rules.engine.tabletop import close_combat_round, derive_seed
from rules.engine.tabletop.results import EntryError
from rules.models import CombatRound, TableBattle
from rules.results_flow import BattleError
from rules.tabletop.archive import round_data

Clock = Callable[[], datetime]
LABEL_LIMIT = 200

messages_register(
    {
        "round.not_permitted": gettext_noop(
            "Only the GM or a player of {nations} may save a round of the battle of {place}."
        ),
        "round.not_open": gettext_noop(
            "The battle of {place} has no sheet yet: rounds are saved once it is open."
        ),
        "round.published": gettext_noop(
            "Turn {number} is resolved: only the GM may add a round to the battle of {place} now."
        ),
        "round.label_too_long": gettext_noop("A round's label is at most 200 characters."),
        "round.game_turn_not_whole": gettext_noop("The game turn is a whole number, 1 or more."),
        "round.correct_not_permitted": gettext_noop(
            "Only its author may replace round {sequence}, and only until the battle has a confirmed "
            "result; a round rolled by the server only the GM, with the same dice."
        ),
        "round.reason_missing": gettext_noop("Say why the round is replaced: it is kept in its history."),
        "audit.round_corrected": gettext_noop(
            "round {sequence} of the battle {key} in turn {number} replaced"
        ),
        "round.battle_side_unknown": gettext_noop(
            "'{side}' is not a side of the battle of {place}; the sides are {sides}."
        ),
    }
)


def _refuse(code: str, *ref: str, **params: Any) -> BattleError:
    return BattleError([EntryError(code, tuple(ref), Message(f"round.{code}", params))])


def _place(battle: TableBattle) -> str:
    return battle.key.partition(":")[2]


def round_permitted(*, viewer: Viewer, battle: TableBattle) -> bool:
    """Whether the viewer may save a round to the battle now (B9)."""
    if battle.state not in (TableBattle.State.OPEN, TableBattle.State.RESOLVED):
        return False
    status = battle.turn.status
    if viewer.is_gm:
        return status in (Turn.Status.BATTLES_PENDING, Turn.Status.RESOLVED)
    return (
        viewer.nation is not None
        and viewer.nation.code in battle.nations
        and status == Turn.Status.BATTLES_PENDING
    )


def _check_who(viewer: Viewer, battle: TableBattle, turn: Turn) -> None:
    if not viewer.is_gm and (viewer.nation is None or viewer.nation.code not in battle.nations):
        raise _refuse("not_permitted", nations=", ".join(battle.nations), place=_place(battle))
    if battle.state not in (TableBattle.State.OPEN, TableBattle.State.RESOLVED):
        raise _refuse("not_open", place=_place(battle))
    if turn.status == Turn.Status.RESOLVED and not viewer.is_gm:
        raise _refuse("published", number=turn.number, place=_place(battle))
    if turn.status not in (Turn.Status.BATTLES_PENDING, Turn.Status.RESOLVED):
        raise _refuse("not_open", place=_place(battle))


def _check_about(
    battle: TableBattle, label: str, game_turn: Any, battle_sides: list[Any]
) -> list[EntryError]:
    errors = []
    if len(label) > LABEL_LIMIT:
        errors.append(EntryError("label_too_long", (), Message("round.label_too_long")))
    if game_turn is not None and (type(game_turn) is not int or game_turn < 1):
        errors.append(EntryError("game_turn_not_whole", (), Message("round.game_turn_not_whole")))
    sides = [side["id"] for side in battle.sheet.get("sides", [])]
    for side in battle_sides:
        if side is not None and side not in sides:
            params = {"side": side, "place": _place(battle), "sides": ", ".join(sides)}
            errors.append(
                EntryError("battle_side_unknown", (str(side),), Message("round.battle_side_unknown", params))
            )
    return errors


def _round_errors(outcome) -> list[EntryError]:
    """B7's errors in the results API's shape (`code`, `ref`, message)."""
    return [EntryError(e.code, tuple(map(str, e.params)), e.message) for e in outcome.errors]


def close_combat_round_save(
    *,
    viewer: Viewer,
    battle: TableBattle,
    data: Any,
    label: str = "",
    game_turn: Any = None,
    battle_sides: list[Any] | None = None,
    now: Clock = timezone.now,
) -> CombatRound:
    """Save and roll (B1, B9): the round worked out with the campaign's close-combat settings and kept.

    Dice entered at the table are used as given; a round that asks for seeded dice (`dice: {seed: …}`,
    whatever the seed) is rolled from the battle's derived seed for its sequence (B6)."""
    label = (label or "").strip()
    battle_sides = list(battle_sides or [None, None])[:2]
    with transaction.atomic():
        turn = Turn.objects.select_for_update().select_related("campaign").get(pk=battle.turn_id)
        battle.refresh_from_db()
        battle.turn = turn
        _check_who(viewer, battle, turn)
        errors = _check_about(battle, label, game_turn, battle_sides)
        if errors:
            raise BattleError(errors)
        last = battle.rounds.order_by("-sequence").values_list("sequence", flat=True).first()
        sequence = (last or 0) + 1
        seeded = (
            isinstance(data, Mapping) and isinstance(data.get("dice"), Mapping) and "seed" in data["dice"]
        )
        if seeded:
            seed = derive_seed(turn.seed_value, f"round:{battle.key}:{sequence}")
            data = {**data, "dice": {"seed": seed}}
        settings = turn.campaign.ruleset().tabletop.close_combat
        outcome = close_combat_round(data, settings)
        if outcome.output is None:
            raise BattleError(_round_errors(outcome))
        return CombatRound.objects.create(
            battle=battle,
            sequence=sequence,
            label=label,
            game_turn=game_turn,
            battle_sides=battle_sides,
            input=data,
            settings_used=settings.to_dict(),
            output=outcome.output,
            dice_mode=CombatRound.Dice.SEEDED if seeded else CombatRound.Dice.ENTERED,
            seed=str(data["dice"]["seed"]) if seeded else "",
            author=viewer.user,
            created_at=now(),
            after_publication=turn.status == Turn.Status.RESOLVED,
        )


def close_combat_round_correct(
    *,
    viewer: Viewer,
    round_: CombatRound,
    data: Any,
    reason: str,
    label: str | None = None,
    game_turn: Any = None,
    battle_sides: list[Any] | None = None,
    now: Clock = timezone.now,
) -> CombatRound:
    """B9's corrections: a round with entered dice is replaced by its author until the battle has a confirmed
    result (or by the GM); a seeded round only by the GM, keeping its seed, so its dice come in the same
    order. The version replaced is kept on the round and in the audit log; the report shows the last."""
    reason = (reason or "").strip()
    with transaction.atomic():
        battle = round_.battle
        turn = Turn.objects.select_for_update().select_related("campaign").get(pk=battle.turn_id)
        round_.refresh_from_db()
        battle.turn = turn
        _check_who(viewer, battle, turn)
        confirmed = battle.versions.filter(state="confirmed").exists()
        seeded = round_.dice_mode == CombatRound.Dice.SEEDED
        author = round_.author_id == viewer.user.pk and not confirmed and not seeded
        if not (viewer.is_gm or author):
            raise _refuse("correct_not_permitted", sequence=round_.sequence)
        if not reason:
            raise _refuse("reason_missing")
        label = round_.label if label is None else label.strip()
        game_turn = round_.game_turn if game_turn is None else game_turn
        battle_sides = round_.battle_sides if battle_sides is None else list(battle_sides)[:2]
        errors = _check_about(battle, label, game_turn, battle_sides)
        if errors:
            raise BattleError(errors)
        if seeded:
            data = {**data, "dice": {"seed": int(round_.seed)}} if isinstance(data, Mapping) else data
        settings = turn.campaign.ruleset().tabletop.close_combat
        outcome = close_combat_round(data, settings)
        if outcome.output is None:
            raise BattleError(_round_errors(outcome))
        moment = now()
        before = {**round_data(round_), "replaced_at": moment.isoformat(), "replaced_by": viewer.user.pk}
        before["reason"] = reason
        before.pop("replaced", None)
        round_.replaced = [*round_.replaced, before]
        round_.label, round_.game_turn, round_.battle_sides = label, game_turn, battle_sides
        round_.input, round_.settings_used, round_.output = data, settings.to_dict(), outcome.output
        round_.author, round_.created_at = viewer.user, moment
        round_.save()
        summary = {"sequence": round_.sequence, "key": battle.key, "number": turn.number}
        audit_write(
            viewer.user, turn.campaign, "round", Message("audit.round_corrected", summary), reason, now
        )
    return round_


def rounds_readable(*, viewer: Viewer, battle: TableBattle) -> bool:
    """A11.2: saved rounds are read by the battle's nations and the GM."""
    return viewer.is_gm or (viewer.nation is not None and viewer.nation.code in battle.nations)


def rounds_ordered(rounds: Iterable[CombatRound]) -> list[CombatRound]:
    """By game turn (rounds without one first), then sequence (A11.1, B9)."""
    return sorted(rounds, key=lambda r: (r.game_turn or 0, r.sequence))


def rounds_visible(*, viewer: Viewer, battle: TableBattle) -> list[CombatRound]:
    if not rounds_readable(viewer=viewer, battle=battle):
        return []
    return rounds_ordered(battle.rounds.select_related("author"))


def rounds_by_key(*, viewer: Viewer, turn: Turn) -> dict[str, list[CombatRound]]:
    """Every battle's rounds the viewer may read, by battle key: one query, for the turn's report."""
    rounds = CombatRound.objects.filter(battle__turn=turn).select_related("battle", "author")
    code = viewer.nation.code if viewer.nation is not None else None
    by_key: dict[str, list[CombatRound]] = {}
    for r in rounds:
        if viewer.is_gm or (code is not None and code in r.battle.nations):
            by_key.setdefault(r.battle.key, []).append(r)
    return {key: rounds_ordered(rs) for key, rs in by_key.items()}
