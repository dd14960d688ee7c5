"""A whole campaign in one file, and its replay: the same turns re-simulated to the same state and reports.

The file holds the world before turn 1 as a scenario (the scenario file format), then each turn: its seed,
weather, GM modifiers, orders, the GM's corrections made before it (stacks, owners, regions, relations
set by hand) and, once resolved, the engine's result. Every turn's world is read from what the engine was
given (the turn's snapshot; for the open turn, the world as it stands), so the file says exactly what
each turn was resolved from.

campaign_export(campaign=, by=)          the file's data (by=None only from the command line)
campaign_replay(data=, slug=, keep=)     re-create the campaign from the data, process every resolved
                                         turn again, and say turn by turn whether the result is the same

It reads and replays turns through the turn job (rules.services), so it lives beside it, above campaign.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import User, gm_check
from campaign.models import Campaign, GMModifier, Nation, Region, Relation, Stack, Turn
from campaign.scenario import scenario_parse
from campaign.services import scenario_import
from orders.services import orders_place
from rules.diff import result_diff
from rules.engine.messages import InputError, Message
from rules.engine.systems import DEFAULT_SYSTEM
from rules.models import Report, TurnSnapshot
from rules.selectors import turn_load, turn_result, turns_results
from rules.services import turn_process
from rules.snapshot import input_read
from rules.system_shells import system_shell

FORMAT = "iron-fist-campaign/1"
World = Mapping[str, Any]  # a TurnInput as JSON data (rules.snapshot.input_read)


class ExportError(InputError):
    """The campaign cannot be written whole, or the file cannot be replayed; the message says why."""


@dataclass(frozen=True)
class TurnReplay:
    number: int
    matched: bool
    lines: list[str] = field(default_factory=list)  # what differs, in words (rules.diff)


@dataclass(frozen=True)
class Replay:
    slug: str
    kept: bool
    turns: list[TurnReplay]
    final_matched: bool
    final_lines: list[str]

    @property
    def matched(self) -> bool:
        return self.final_matched and all(t.matched for t in self.turns)


def campaign_export(*, campaign: Campaign, by: User | None) -> dict[str, Any]:
    """The campaign as data for one JSON or YAML file: scenario, turns, GM inputs, results, final state."""
    if by is not None:
        gm_check(by=by, campaign=campaign)
    turns = list(campaign.turns.order_by("number"))
    snapshots = dict(
        TurnSnapshot.objects.filter(turn__campaign=campaign).values_list("turn_id", "input_json")
    )
    worlds = []
    for turn in turns:
        if turn.status == Turn.Status.RESOLVED:
            if turn.pk not in snapshots:
                raise ExportError("export", Message("rollback_no_snapshot", {"number": turn.number}))
            worlds.append(input_read(snapshots[turn.pk]))
        else:
            worlds.append(input_read(turn_load(turn=turn).canonical))
    results = turns_results(turns=turns)
    shell = system_shell(campaign.battle_system)
    exported = []
    for i, (turn, world) in enumerate(zip(turns, worlds, strict=True)):
        before = _world_after(worlds[i - 1], turns[i - 1].result) if i else world
        entry = {
            "number": turn.number,
            "seed": turn.seed,
            "status": turn.status,
            "weather": world["weather"],
            "region_weather": {r["code"]: r["weather"] for r in world["regions"] if r["weather"]},
            "gm_modifiers": world["gm_modifiers"],
            "orders": world["orders"],
            "system_inputs": world.get("system_inputs") or {},
            "corrections": _corrections(before, world),
        }
        if turn.status == Turn.Status.RESOLVED:
            entry["result"] = results[turn.pk]
        if shell.export_fields is not None:
            entry.update(shell.export_fields(turn))
        exported.append(entry)
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "campaign": {
            "slug": campaign.slug,
            "turn_length_seconds": int(campaign.turn_length.total_seconds()),
            "fog_of_war": campaign.fog_of_war,
        },
        "scenario": _scenario(campaign, worlds[0]),
        "turns": exported,
        "final": _world_state(worlds[-1]),
    }


def campaign_replay(*, data: Mapping[str, Any], slug: str | None = None, keep: bool = False) -> Replay:
    """Re-create the exported campaign as `slug` and process its resolved turns again, in order.

    Says for every turn whether the result (every report in it) is the exported one, and at the end
    whether the world is the exported final state. Without `keep`, nothing stays in the database.
    """
    if data.get("format") != FORMAT:
        found = repr(data.get("format"))
        raise ExportError("export", Message("export_format", {"expected": repr(FORMAT), "found": found}))
    slug = slug or f"replay-{secrets.token_hex(4)}"
    with transaction.atomic():
        replay = _replay(data, slug, keep)
        if not keep:
            transaction.set_rollback(True)
    return replay


def _replay(data: Mapping[str, Any], slug: str, keep: bool) -> Replay:
    campaign = scenario_import(scenario=scenario_parse(data["scenario"]), slug=slug)
    settings = data.get("campaign") or {}
    if "turn_length_seconds" in settings:
        campaign.turn_length = timedelta(seconds=settings["turn_length_seconds"])
    campaign.fog_of_war = settings.get("fog_of_war", campaign.fog_of_war)
    campaign.save(update_fields=["turn_length", "fog_of_war"])
    nation_id = dict(Nation.objects.filter(campaign=campaign).values_list("code", "id"))
    region_id = dict(Region.objects.filter(campaign=campaign).values_list("code", "id"))
    replayed = []
    for entry in data["turns"]:
        turn = campaign.turns.get(number=entry["number"])
        refs = _turn_inputs_apply(turn, entry, nation_id, region_id)
        if entry["status"] != Turn.Status.RESOLVED:
            break
        processed = turn_process(turn_id=turn.pk)
        battles_replay = system_shell(campaign.battle_system).battles_replay
        if processed is not None and processed.status == Turn.Status.BATTLES_PENDING and battles_replay:
            # A turn that waits for its battles gets them as the export says they were decided.
            processed = battles_replay(turn=processed, entry=entry)
        if processed is None or processed.status != Turn.Status.RESOLVED:
            error = processed.error if processed else "locked by another process"
            replayed.append(TurnReplay(entry["number"], False, [f"processing failed: {error}"]))
            break
        processed.refresh_from_db()
        result = _refs_renamed(turn_result(turn=processed), refs)
        diff = result_diff(entry["result"], result)
        reports = [r.data for r in Report.objects.filter(turn=processed)]
        lines = [str(line) for line in diff.lines]  # a command's output: English
        if reports != entry["result"]["battles"]:
            lines.append("the stored reports differ from the exported ones")
        replayed.append(TurnReplay(entry["number"], diff.same and not lines, lines))
    final = _world_state(input_read(turn_load(turn=campaign.turns.order_by("-number").first()).canonical))
    final_diff = result_diff(data["final"], final)
    return Replay(
        slug=slug,
        kept=keep,
        turns=replayed,
        final_matched=final_diff.same,
        final_lines=[str(line) for line in final_diff.lines],
    )


def _turn_inputs_apply(
    turn: Turn, entry: Mapping[str, Any], nation_id: Mapping[str, int], region_id: Mapping[str, int]
) -> dict[int, Any]:
    """Write one exported turn's corrections, GM inputs and orders; returns new order id -> exported ref."""
    _corrections_apply(turn.campaign, entry["corrections"], nation_id, region_id)
    turn.seed = entry["seed"]
    turn.weather = entry["weather"]
    turn.region_weather = dict(entry["region_weather"])
    turn.save(update_fields=["seed", "weather", "region_weather"])
    GMModifier.objects.bulk_create(
        GMModifier(
            turn=turn,
            region_id=region_id[m["region"]],
            nation_id=nation_id[m["nation"]],
            value=m["value"],
            reason=m["reason"],
        )
        for m in entry["gm_modifiers"]
    )
    _system_inputs_apply(turn, entry.get("system_inputs") or {}, nation_id)
    orders = orders_place(turn=turn, orders=entry["orders"])
    return {order.pk: o["ref"] for order, o in zip(orders, entry["orders"], strict=True)}


def _system_inputs_apply(turn: Turn, inputs: Mapping[str, Any], nation_id: Mapping[str, int]) -> None:
    """The battle system's inputs as the turn was given them: the nations' attributes (kept on the
    nations, as the GM sets them) and the turn's own."""
    attributes = inputs.get("nation_attributes") or {}
    for code, pk in nation_id.items():
        Nation.objects.filter(pk=pk).update(attributes=dict(attributes.get(code) or {}))
    turn.system_inputs = {k: v for k, v in inputs.items() if k != "nation_attributes"}
    turn.save(update_fields=["system_inputs"])


def _corrections_apply(
    campaign: Campaign,
    corrections: Mapping[str, Any],
    nation_id: Mapping[str, int],
    region_id: Mapping[str, int],
) -> None:
    for s in corrections["stacks"]:
        key = {"region_id": region_id[s["region"]], "nation_id": nation_id[s["nation"]]}
        if s["count"]:
            Stack.objects.update_or_create(**key, unit_type=s["unit_type"], defaults={"count": s["count"]})
        else:
            Stack.objects.filter(**key, unit_type=s["unit_type"]).delete()
    for r in corrections["regions"]:
        Region.objects.filter(pk=region_id[r["code"]]).update(
            owner_id=nation_id.get(r["owner"]),
            terrain=r["terrain"],
            fort=r["fort"],
            home_id=nation_id.get(r["home"]),
        )
    for r in corrections["relations"]:
        low, high = sorted((nation_id[r["a"]], nation_id[r["b"]]))
        if r["kind"] == "war":
            Relation.objects.filter(nation_a_id=low, nation_b_id=high).delete()
        else:
            Relation.objects.update_or_create(nation_a_id=low, nation_b_id=high, defaults={"kind": r["kind"]})


def _refs_renamed(result: Mapping[str, Any], refs: Mapping[int, Any]) -> dict[str, Any]:
    """The replayed result with its orders' ids replaced by the exported ones, to compare the two."""
    renamed = dict(result)
    renamed["rejected_orders"] = [
        {**r, "order": {**r["order"], "ref": refs.get(r["order"]["ref"], r["order"]["ref"])}}
        for r in result["rejected_orders"]
    ]
    return renamed


def _world_after(world: World, result: Mapping[str, Any]) -> dict[str, Any]:
    """The world a turn left: its stacks and owners from the result, the rest as the turn found it."""
    return {
        **world,
        "stacks": [s for s in result["stacks"] if s["count"]],
        "regions": [{**r, "owner": result["owners"].get(r["code"], r["owner"])} for r in world["regions"]],
    }


def _corrections(before: World, after: World) -> dict[str, list[dict[str, Any]]]:
    """What the GM set by hand between two turns: stacks (count 0: removed), regions, relations."""
    was = {(s["region"], s["nation"], s["unit_type"]): s["count"] for s in before["stacks"]}
    now = {(s["region"], s["nation"], s["unit_type"]): s["count"] for s in after["stacks"]}
    stacks = [
        {"region": r, "nation": n, "unit_type": t, "count": now.get((r, n, t), 0)}
        for r, n, t in sorted(set(was) | set(now))
        if was.get((r, n, t), 0) != now.get((r, n, t), 0)
    ]
    regions_before = {r["code"]: _region_fixed(r) for r in before["regions"]}
    regions = [
        {"code": r["code"], **_region_fixed(r)}
        for r in after["regions"]
        if regions_before.get(r["code"]) != _region_fixed(r)
    ]
    kinds_before = {(r["a"], r["b"]): r["kind"] for r in before["relations"]}
    kinds_after = {(r["a"], r["b"]): r["kind"] for r in after["relations"]}
    relations = [
        {"a": a, "b": b, "kind": kinds_after.get((a, b), "war")}
        for a, b in sorted(set(kinds_before) | set(kinds_after))
        if kinds_before.get((a, b), "war") != kinds_after.get((a, b), "war")
    ]
    return {"stacks": stacks, "regions": regions, "relations": relations}


def _region_fixed(region: Mapping[str, Any]) -> dict[str, Any]:
    # A region without its weather, which is the turn's input rather than the region's.
    return {k: region[k] for k in ("owner", "terrain", "fort", "home")}


def _world_state(world: World) -> dict[str, Any]:
    """Stacks and owners, in the result's shape, so that rules.diff compares them."""
    return {"stacks": list(world["stacks"]), "owners": {r["code"]: r["owner"] for r in world["regions"]}}


def _ruleset(campaign: Campaign) -> dict[str, Any]:
    """The campaign's ruleset keys as a scenario file writes them, its battle system among them."""
    overrides = dict(campaign.ruleset_overrides or {})
    if campaign.battle_system != DEFAULT_SYSTEM:
        overrides["battle_system"] = campaign.battle_system
    return overrides


def _scenario(campaign: Campaign, world: World) -> dict[str, Any]:
    """The world before turn 1 in the scenario file format, with the names and shapes of the map."""
    nations = {n.code: n for n in Nation.objects.filter(campaign=campaign)}
    regions = {r.code: r for r in Region.objects.filter(campaign=campaign)}
    units: dict[str, dict[str, dict[str, int]]] = {}
    for s in world["stacks"]:
        units.setdefault(s["region"], {}).setdefault(s["nation"], {})[s["unit_type"]] = s["count"]
    scenario = {
        "name": campaign.name,
        "seed": campaign.seed,
        "ruleset": _ruleset(campaign),
        "nations": [
            {"code": code, "name": nations[code].name, "color": nations[code].color}
            for code in world["nations"]
        ],
        "relations": [{"nations": [r["a"], r["b"]], "kind": r["kind"]} for r in world["relations"]],
        "regions": [
            {
                "code": r["code"],
                "name": regions[r["code"]].name,
                "terrain": r["terrain"],
                "fort": r["fort"],
                **({"home": r["home"]} if r["home"] else {}),
                **({"owner": r["owner"]} if r["owner"] else {}),
                **dict(regions[r["code"]].geometry or {}),
            }
            for r in world["regions"]
        ],
        "borders": [list(pair) for pair in world["borders"]],
        "units": units,
    }
    return scenario
