"""Which regions changed hands (campaign.selectors.regions_changed_hands) reads only the keys of the reports
that say it; what it says is what the whole reports say."""

from __future__ import annotations

from campaign.generate import orders_generate, scenario_generate
from campaign.scenario import scenario_parse
from campaign.selectors import regions_changed_hands
from campaign.services import scenario_import
from orders.services import orders_place
from rules.models import Report
from rules.services import turn_process


def _from_whole_reports(turn) -> list[dict]:
    """The plain reading: every conquest's whole report, its defender found among its sides."""
    changes: dict[str, dict] = {}
    for data in (
        Report.objects.filter(turn=turn, conquest=True).order_by("position").values_list("data", flat=True)
    ):
        sides = data.get("sides") if isinstance(data.get("sides"), list) else []  # a company's: by nation
        defender = next((s["nations"][0] for s in sides if s.get("role") == "defender"), None)
        region, after = data["region"], data.get("owner_after")
        before = changes.get(region, {}).get("from", data.get("defender", defender))
        if after != before:
            changes[region] = {"region": region, "from": before, "to": after}
        else:
            changes.pop(region, None)
    return list(changes.values())


def test_it_says_what_the_whole_reports_of_a_busy_turn_say(db) -> None:
    scenario = scenario_generate(regions=120, nations=6, seed=5)
    campaign = scenario_import(scenario=scenario_parse(scenario), slug="busy")
    turn = campaign.turns.get(number=1)
    orders_place(turn=turn, orders=orders_generate(scenario=scenario, seed=5))
    assert turn_process(turn_id=turn.pk).status == "resolved"
    changes = regions_changed_hands(turn=turn)
    assert len(changes) > 5
    assert changes == _from_whole_reports(turn)


def _report(turn, position: int, region: str, **data) -> None:
    Report.objects.create(
        turn=turn,
        position=position,
        kind=data.get("kind", "normal"),
        region=region,
        regions=[region],
        conquest=True,
        data={"region": region, **data},
    )


def test_it_reads_the_defender_however_the_report_names_it(demo) -> None:
    turn1 = demo.turns.get(number=1)

    def side(role, *nations):
        return {"role": role, "nations": list(nations), "terms": [{"term": "JV", "value": 2}]}

    # The defender as the second side, as the first, named by the report, none (an unowned region), and a
    # region taken and taken back.
    _report(turn1, 0, "K1", owner_after="NOR", sides=[side("attacker", "NOR"), side("defender", "SWE")])
    _report(
        turn1, 1, "K2", owner_after="NOR", sides=[side("defender", "SWE", "FIN"), side("attacker", "NOR")]
    )
    _report(turn1, 2, "M1", kind="unopposed", owner_after="SWE", defender=None)
    _report(turn1, 3, "M2", owner_after="SWE", defender="NOR", sides={"SWE": [1], "NOR": [2]})
    _report(turn1, 4, "K3", owner_after="NOR", sides=[side("attacker", "NOR"), side("defender", "SWE")])
    _report(turn1, 5, "K3", owner_after="SWE", sides=[side("attacker", "SWE"), side("defender", "NOR")])
    assert regions_changed_hands(turn=turn1) == [
        {"region": "K1", "from": "SWE", "to": "NOR"},
        {"region": "K2", "from": "SWE", "to": "NOR"},
        {"region": "M1", "from": None, "to": "SWE"},
        {"region": "M2", "from": "NOR", "to": "SWE"},
    ]
    assert regions_changed_hands(turn=turn1) == _from_whole_reports(turn1)
