"""Invariants of the company_d20 engine, over generated battles, Kasarmi sessions, dice logs and recon."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.company_d20 import company_ruleset_build, result_final, result_validate
from rules.engine.company_d20.campaign import Snapshot
from rules.engine.company_d20.events import event, roster_replay
from rules.engine.company_d20.kasarmi import ACTIONS, Company
from rules.engine.company_d20.log import dice_only_replay, log_replay, roll_make, stream_open
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.recon import REVEALS, contact_reveal, snapshot_contacts, unit_card
from rules.engine.company_d20.results import Battle
from rules.engine.company_d20.roster import tk_damaged, unit_create, unit_tt, veteran_slots
from rules.engine.company_d20.settings import CONTACT_LEVELS
from tests.conftest import examples

RULESET = company_ruleset_build()
TYPES = sorted(RULESET.catalogue)
NATIONS = ("BLUE", "RED", "GREEN")


@st.composite
def battles(draw):
    """A battle of two or three sides, and a valid result entry for it."""
    sides = NATIONS[: draw(st.integers(2, 3))]
    units, rows, next_id = {}, [], 1
    for nation in sides:
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(TYPES))
            unit = unit_create(RULESET, id=next_id, type=kind, name=f"U{next_id}", nation=nation)
            unit = replace(unit, tk=draw(st.integers(1, unit.tk_max)), xp=draw(st.integers(0, 60)))
            units[unit.id] = unit
            lost = draw(st.integers(0, unit.tk))
            rows.append(
                {
                    "unit": unit.id,
                    "tk_lost": lost,
                    "destroyed": lost == unit.tk,
                    "vp": draw(st.integers(0, 6)),
                }
            )
            next_id += 1
    entry = {"units": rows, "sides": {n: {"objective_vp": draw(st.integers(0, 8))} for n in sides}}
    kind = draw(st.sampled_from(["normal", "joint", "contested", "meeting"]))
    defender = sides[1] if kind in ("normal", "joint") else None
    return Battle("B", kind, defender, sides, units), entry


SHARING = st.fixed_dictionaries(
    {
        "xp": st.fixed_dictionaries(
            {
                "sharing": st.sampled_from(["equal", "earned"]),
                "destroyed": st.sampled_from(["forfeit", "exclude"]),
                "damaged_rounding": st.sampled_from(["down", "up"]),
                "per_vp": st.integers(0, 3),
            }
        ),
        "tp": st.fixed_dictionaries({"per_vp": st.integers(0, 3)}),
    }
)


def _vp(battle, entry, nation):
    own = sum(r["vp"] for r in entry["units"] if battle.units[r["unit"]].nation == nation)
    return own + entry["sides"][nation]["objective_vp"]


@settings(max_examples=examples(150), deadline=None)
@given(battles(), SHARING)
def test_tp_gained_equals_the_vp_entered_and_xp_never_exceeds_it(generated, overrides) -> None:
    battle, entry = generated
    ruleset = company_ruleset_build(overrides)
    assert result_validate(battle, entry) == []

    final = result_final(battle, entry, ruleset)

    for nation in battle.sides:
        vp = _vp(battle, entry, nation)
        assert final.tp[nation] == vp * ruleset.get("tp.per_vp")
        side_xp = sum(final.xp[u.id] for u in battle.side_units(nation))
        assert 0 <= side_xp <= vp * ruleset.get("xp.per_vp")


@settings(max_examples=examples(150), deadline=None)
@given(battles())
def test_xp_awarded_is_the_vp_less_exactly_what_is_halved_or_forfeited(generated) -> None:
    """Default sharing (equal, forfeit): the shares do not depend on losses, so the same entry with every unit
    at full TK and no losses gives each unit's full share; the award is that share, halved when damaged, 0
    when destroyed."""
    battle, entry = generated
    unhurt = {**entry, "units": [{**r, "tk_lost": 0, "destroyed": False} for r in entry["units"]]}
    fresh = replace(battle, units={u.id: replace(u, tk=u.tk_max) for u in battle.units.values()})

    full = result_final(fresh, unhurt, RULESET).xp
    final = result_final(battle, entry, RULESET)

    for nation in battle.sides:
        shares = [full[u.id] for u in battle.side_units(nation)]
        assert sum(shares) == _vp(battle, entry, nation)  # nothing lost before halving and forfeiting
    for row in entry["units"]:
        unit = battle.units[row["unit"]]
        expected = full[unit.id]
        if row["destroyed"]:
            expected = 0
        elif tk_damaged(unit.tk - row["tk_lost"], unit.tk_max):
            expected //= 2
        assert final.xp[unit.id] == expected


@settings(max_examples=examples(150), deadline=None)
@given(battles())
def test_a_battle_never_lowers_tt_or_veteran_slots(generated) -> None:
    battle, entry = generated
    final = result_final(battle, entry, RULESET)
    for unit_id, after in final.units.items():
        before = battle.units[unit_id]
        assert unit_tt(after, RULESET) >= unit_tt(before, RULESET)
        assert veteran_slots(after.xp, RULESET) >= veteran_slots(before.xp, RULESET)


ACTION = st.one_of(
    st.fixed_dictionaries({"action": st.just("repair"), "unit": st.integers(1, 6), "tp": st.integers(-1, 6)}),
    st.fixed_dictionaries(
        {
            "action": st.just("buy"),
            "type": st.sampled_from(TYPES),
            "name": st.sampled_from(["A", "B", "C", "D", "E"]),
            "group": st.integers(0, 3),
            "region": st.sampled_from(["H", "X"]),
        }
    ),
    st.fixed_dictionaries(
        {
            "action": st.just("choose_ability"),
            "unit": st.integers(1, 6),
            "ability": st.sampled_from(sorted(RULESET.abilities)),
        }
    ),
    st.fixed_dictionaries({"action": st.just("appoint_commander"), "unit": st.integers(1, 6)}),
    st.fixed_dictionaries(
        {"action": st.just("adjust_tp"), "delta": st.integers(-30, 30), "reason": st.sampled_from(["", "GM"])}
    ),
)


def _company(seed: int) -> Company:
    rng = random.Random(seed)
    units = {}
    for unit_id in range(1, 5):
        unit = unit_create(
            RULESET,
            id=unit_id,
            type=rng.choice(TYPES),
            name=f"U{unit_id}",
            nation="BLUE",
            group=unit_id % 3,
            region="H",
        )
        units[unit_id] = replace(unit, tk=rng.randint(1, unit.tk_max), xp=rng.randint(0, 70))
    return Company("BLUE", rng.randint(0, 40), units, ("H",), ("H",), 6, 5)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 10_000), st.lists(ACTION, max_size=25))
def test_kasarmi_never_takes_tp_below_0_nor_lowers_tt_or_slots(seed, actions) -> None:
    company = _company(seed)
    for raw in actions:
        inputs = dict(raw)
        done = ACTIONS[inputs.pop("action")](company, RULESET, **inputs)
        if not hasattr(done, "company"):
            continue  # refused: nothing changed
        for unit_id, unit in company.units.items():
            after = done.company.units[unit_id]
            assert unit_tt(after, RULESET) >= unit_tt(unit, RULESET)
            assert veteran_slots(after.xp, RULESET) >= veteran_slots(unit.xp, RULESET)
        company = done.company
        assert company.tp >= 0


SNAPSHOT = {
    u: unit_create(RULESET, id=u, type=TYPES[u % len(TYPES)], name=f"U{u}", nation="RED") for u in range(1, 7)
}

ROLL = st.one_of(
    st.fixed_dictionaries(
        {
            "function": st.just("roll"),
            "inputs": st.fixed_dictionaries(
                {"expression": st.sampled_from(["d20", "2d6+1", "3d4-1", "d100"])}
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("test"),
            "inputs": st.fixed_dictionaries(
                {
                    "unit": st.integers(1, 6),
                    "stat": st.sampled_from(["TT", "M"]),
                    "dc": st.integers(5, 20),
                    "advantage": st.sampled_from([[], ["flank"]]),
                }
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("attack"),
            "inputs": st.fixed_dictionaries(
                {
                    "attacker": st.integers(1, 6),
                    "targets": st.lists(
                        st.fixed_dictionaries(
                            {"unit": st.integers(1, 6), "disadvantage": st.sampled_from([[], ["fortified"]])}
                        ),
                        min_size=1,
                        max_size=3,
                    ),
                }
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("morale"),
            "inputs": st.fixed_dictionaries(
                {"unit": st.integers(1, 6), "reason": st.sampled_from(["indirect_fire", "rally", "motti"])}
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("recon"),
            "inputs": st.fixed_dictionaries(
                {"scout": st.integers(1, 6), "target": st.fixed_dictionaries({"unit": st.integers(1, 6)})}
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("scatter"),
            "inputs": st.fixed_dictionaries(
                {"support": st.just("mortar_120"), "observer": st.integers(1, 6)}
            ),
        }
    ),
    # The rest of §8.5, so that every function's dice are replayed (issue 12).
    st.fixed_dictionaries(
        {
            "function": st.just("opposed"),
            "inputs": st.fixed_dictionaries(
                {
                    "active": st.fixed_dictionaries({"unit": st.integers(1, 6), "stat": st.just("TT")}),
                    "passive": st.fixed_dictionaries(
                        {"unit": st.integers(1, 6), "advantage": st.sampled_from([[], ["rear"]])}
                    ),
                }
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("damage"),
            "inputs": st.fixed_dictionaries(
                {
                    "weapon": st.integers(1, 6),
                    "band": st.sampled_from(["normal", "heavy", "miss"]),
                    "attacker_damaged": st.booleans(),
                }
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("fire_request"),
            "inputs": st.fixed_dictionaries(
                {
                    "support": st.sampled_from(["mortar_120", "artillery_155", "organic_81"]),
                    "caller": st.integers(1, 6),
                    "observer": st.integers(1, 6),
                    "observer_tk": st.integers(1, 6),
                    "contact": st.sampled_from(["known", "observed", "suspicion"]),
                }
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "function": st.just("danger_close"),
            "inputs": st.fixed_dictionaries(
                {
                    "strike_damage": st.integers(0, 12),
                    "units": st.lists(st.integers(1, 6), max_size=3),
                }
            ),
        }
    ),
)


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 2**32), st.lists(ROLL, min_size=1, max_size=15))
def test_a_replayed_dice_log_reproduces_every_roll(seed, requests) -> None:
    stream, entries = stream_open(f"{seed}:1:K7"), []
    for request in requests:
        made, stream = roll_make(
            stream,
            entries,
            function=request["function"],
            inputs=request["inputs"],
            ruleset=RULESET,
            snapshot=SNAPSHOT,
            side=None,
            purpose="property test",
        )
        if not isinstance(made, Problem):  # a refusal draws nothing and logs nothing
            entries.extend(made)

    assert log_replay(stream.text, entries, RULESET, SNAPSHOT) == []
    assert dice_only_replay(stream.text, entries) == []
    rolled = [e for e in entries if e.dice]
    if rolled:  # and a changed die is caught
        sides, value = rolled[0].dice[0]
        forged = (
            replace(rolled[0], dice=((sides, value % sides + 1),) + rolled[0].dice[1:]) if sides > 1 else None
        )
        if forged is not None:
            tampered = [forged if e is rolled[0] else e for e in entries]
            assert dice_only_replay(stream.text, tampered) != []


@settings(max_examples=examples(200), deadline=None)
@given(st.dictionaries(st.integers(1, 6), st.sampled_from(CONTACT_LEVELS[1:]), min_size=1))
def test_recon_never_reveals_more_than_its_level(levels) -> None:
    cards = {u: unit_card(SNAPSHOT[u], RULESET) for u in levels}
    contacts = snapshot_contacts(Snapshot("BLUE", "B", 1, levels, cards), RULESET)

    assert len(contacts["known"]) == sum(1 for level in levels.values() if level == "known")
    assert all(set(c) <= set(REVEALS["known"]) for c in contacts["known"])
    assert [c["id"] for c in contacts["observed"]] == sorted(
        u for u, level in levels.items() if level == "observed"
    )
    assert contacts["suspected"] == ("suspicion" in levels.values())
    for unit_id, level in levels.items():
        shown = contact_reveal(cards[unit_id], level)
        assert set(shown) <= set(REVEALS[level])
        assert all(
            set(REVEALS[lower]) <= set(REVEALS[level])
            for lower in CONTACT_LEVELS[: CONTACT_LEVELS.index(level)]
        )


def _created(company: Company) -> list[dict]:
    events = [event("unit_created", "BLUE", u.id, after=u.to_dict()) for u in company.units.values()]
    return [*events, event("tp_adjusted", "BLUE", tp_delta=company.tp, reason="opening balance")]


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 10_000), st.lists(ACTION, max_size=25))
def test_replaying_a_nations_events_gives_its_roster_and_balance(seed, actions) -> None:
    company = _company(seed)
    events = _created(company)
    for raw in actions:
        inputs = dict(raw)
        done = ACTIONS[inputs.pop("action")](company, RULESET, **inputs)
        if hasattr(done, "company"):
            company, events = done.company, events + list(done.events)

    assert roster_replay(events, RULESET) == (dict(company.units), company.tp)
