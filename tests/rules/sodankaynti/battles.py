"""Small random Sodankäynti battles for the property tests: forces, ratings, doctrines and advantages."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from rules.engine import TurnResult, resolve_turn
from rules.engine import ruleset_build as system_ruleset_build
from rules.engine.casefile import case_turn
from rules.engine.seam import ScriptedDice
from rules.engine.sodankaynti.battle import battle_fight
from rules.engine.sodankaynti.board import Advantage, BattleSetup, SideSetup
from rules.engine.sodankaynti.ruleset import ruleset_build
from tests.rules.turns import duel_case

NATIONS = ("RED", "BLUE", "GREEN")
INDEX = {n: i for i, n in enumerate(NATIONS)}
TYPES = ("LEVY", "CAV", "GREN", "SPIRIT", "ANGEL", "MACH", "IV", "TY")
RULESETS = {
    "default": ruleset_build({}),
    "net, destroyed, board value": ruleset_build(
        {
            "politics": {"count": "net", "removed_fate": "destroyed"},
            "tactics": {"count": "net", "tie_first": "defender", "max_bonus": 2},
            "sacrifice_target_fate": "destroyed",
            "standoff": "board_value",
            "machine_lost_when": "any_die",
            "retreat": {"scope": "commander"},
            "joint_ratings": "commander",
        }
    ),
    "deserters, no politics cap": ruleset_build(
        {"politics": {"removed_fate": "deserted"}, "veterans": {"above": 3}, "success_on": 4}
    ),
}


@dataclass(frozen=True)
class Force:
    nation: str
    origin: str
    units: dict[str, int]


def turn_resolved(turn: dict, inputs: dict, rolls: list, **overrides) -> TurnResult:
    """A case-style turn (rules.engine.casefile) resolved as a Sodankäynti turn with scripted dice: every
    roll drawn, and no more."""
    ruleset = system_ruleset_build({"battle_system": "sodankaynti", **overrides})
    dice = ScriptedDice(rolls)
    result = resolve_turn(case_turn(turn, inputs), ruleset, 0, dice=dice)
    dice.finish()
    return result


def meeting_case(red: dict, blue: dict, blue_attacking: dict, *orders: dict, **extra) -> dict:
    """`duel_case` with BLUE attacking A with `blue_attacking` as RED attacks B: a meeting A|B (§12), then
    `orders`; `extra` as for `duel_case`."""
    counter = {"nation": "BLUE", "kind": "attack", "from": "B", "to": "A", "units": blue_attacking}
    return duel_case(red, blue, orders=[counter, *orders], **extra)


def side_setup(
    role: str, forces: list[Force], ruleset, ratings: dict[str, int] | None = None, doctrine: str = "steady"
) -> SideSetup:
    """A side of fixed forces for a battle checked by hand: every nation on `doctrine`, each with one rating
    for politics and tactics (`ratings`; 0 for a nation not named)."""
    nations = {f.nation for f in forces}
    ratings = ratings or {}
    return SideSetup(
        role=role,
        forces=tuple(forces),
        doctrines={n: ruleset.doctrines[doctrine] for n in nations},
        ratings={n: {"politics": ratings.get(n, 0), "tactics": ratings.get(n, 0)} for n in nations},
    )


def battle_in_b(ruleset, attacker: SideSetup, defender: SideSetup, rolls: list) -> dict:
    """The report of a normal battle in B (open, no fort) of `attacker` against `defender`, of the nations RED
    and BLUE, with scripted dice: every roll drawn, and no more."""
    setup = BattleSetup(
        kind="normal",
        label="B",
        terrain="open",
        fort=0,
        sides=(attacker, defender),
        nation_index={"RED": 0, "BLUE": 1},
    )
    dice = ScriptedDice(rolls)
    report = battle_fight(setup, ruleset, dice).report
    dice.finish()
    return report


units = st.dictionaries(st.sampled_from(TYPES), st.integers(1, 4), min_size=1, max_size=4)


@st.composite
def battles(draw: st.DrawFn) -> tuple[str, BattleSetup]:
    name = draw(st.sampled_from(sorted(RULESETS)))
    ruleset = RULESETS[name]
    doctrines = sorted(ruleset.doctrines)
    defender = draw(st.sampled_from(NATIONS))
    others = [n for n in NATIONS if n != defender]
    attackers = draw(st.lists(st.sampled_from(others), min_size=1, max_size=2, unique=True))
    forces = [
        Force(nation, origin, draw(units))
        for nation in attackers
        for origin in draw(st.lists(st.sampled_from(("A", "C", "D")), min_size=1, max_size=2, unique=True))
    ]

    def side(role: str, side_forces: list[Force]) -> SideSetup:
        nations = {f.nation for f in side_forces}
        tactics = draw(st.lists(st.sampled_from(("fort", "ambush", "pincer")), max_size=2))
        return SideSetup(
            role=role,
            forces=tuple(side_forces),
            doctrines={n: ruleset.doctrine(draw(st.sampled_from(doctrines)), None, "test") for n in nations},
            ratings={
                n: {"politics": draw(st.integers(0, 5)), "tactics": draw(st.integers(0, 5))} for n in nations
            },
            advantages={"tactics": tuple(Advantage(a, draw(st.integers(0, 3))) for a in tactics)},
        )

    kind = draw(st.sampled_from(("normal", "meeting", "control")))
    defending = [Force(defender, "B", draw(units))]
    setup = BattleSetup(
        kind=kind,
        label="B",
        terrain="open",
        fort=0,
        sides=(side("attacker", forces), side("defender" if kind == "normal" else "attacker", defending)),
        nation_index=INDEX,
        skip_politics=draw(st.booleans()),
    )
    return name, setup
