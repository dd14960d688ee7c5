"""A nation's doctrine order and a GM advantage reach the battles SODANKAYNTI.md §4.1 and §6.4 name: a meeting
fought towards the order's region, and a joint side that gets the advantages of all its nations."""

from __future__ import annotations

import yaml

from tests.rules.sodankaynti.battles import meeting_case, turn_resolved

NO_RATINGS = {"politics": 0, "tactics": 0}


def _battles(turn: dict, inputs: dict, rolls: list, **overrides) -> list[dict]:
    return list(turn_resolved(turn, inputs, rolls, **overrides).battles)


# RED attacks B as BLUE attacks A, with an order for the battles in B.
MEETING = meeting_case(
    {"CAV": 2}, {"JV": 3}, {"JV": 2}, {"nation": "RED", "kind": "doctrine", "doctrine": "bold", "region": "B"}
)


def test_a_doctrine_order_for_a_region_follows_the_nation_into_a_meeting_towards_it() -> None:
    """§4.1: RED's order for B counts in the meeting A|B, which RED fights crossing into B."""
    inputs = {"nation_attributes": {"RED": {"politics": 0, "tactics": 1}, "BLUE": NO_RATINGS}}
    # RED's tactics die 6 (1 bonus); RED CAV 7, 6; BLUE JV 5, 4: RED's 6 destroys the 5, BLUE retreats.
    (meeting,) = _battles(MEETING, inputs, [[6], [7, 6], [5, 4]], meeting_winner_continues=False)
    red, blue = meeting["sides"]
    assert (red["doctrine"]["name"], red["doctrine"]["from"]) == ("bold", "order")
    assert blue["doctrine"]["name"] == "steady"


JOINT = yaml.safe_load("""
nations: [RED, GREEN, BLUE]
relations: [[RED, GREEN, alliance]]
regions:
  A: {terrain: open, owner: RED}
  G: {terrain: open, owner: GREEN}
  B: {terrain: open, owner: BLUE}
borders: [[A, B], [G, B]]
units:
  A: {RED: {JV: 2}}
  G: {GREEN: {CAV: 1}}
  B: {BLUE: {JV: 1}}
orders:
  - {nation: RED, kind: attack, from: A, to: B, units: {JV: 2}}
  - {nation: GREEN, kind: attack, from: G, to: B, units: {CAV: 1}}
""")


def test_a_joint_side_gets_the_gm_advantages_of_every_nation_on_it() -> None:
    """§6.4: GREEN is not the side's commander (RED has more units), and its GM advantage still counts."""
    gm = {"region": "B", "nation": "GREEN", "roll": "tactics", "dice": 1, "reason": "scouts"}
    inputs = {
        "nation_attributes": {"RED": NO_RATINGS, "GREEN": NO_RATINGS, "BLUE": NO_RATINGS},
        "gm_advantages": [gm],
    }
    # Tactics: the allies' pincer 1 + GM 1 = 2 dice: 1, 1; BLUE none: a tie, BLUE (fewer dice) first.
    # RED JV 5, 5, GREEN CAV 6; BLUE JV 3 retreats (300 < 50 x 16) and is destroyed; RED holds B by units.
    (battle,) = _battles(JOINT, inputs, [[1, 1], [5, 5, 6], [3]])
    allies = battle["tactics"]["pools"]["GREEN+RED"]
    gm_entry = {"name": "gm", "dice": 1, "nation": "GREEN", "reason": "scouts"}
    assert allies["advantages"] == [{"name": "pincer", "dice": 1}, gm_entry]
    assert battle["sides"][0]["commander"] == "RED"
