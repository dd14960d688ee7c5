"""A Sodankäynti campaign (the demo `make run` loads), its GM, and a player on each side."""

from __future__ import annotations

from pathlib import Path

import pytest

SAMPO = Path(__file__).resolve().parents[2] / "campaign" / "scenarios" / "sodankaynti.yaml"


def tactics_advantage(region: str, nation: str, dice: int, reason: str) -> dict:
    """The GM's advantage of `dice` more tactics dice for `nation` in `region` (§6.4), as a turn holds it."""
    return {"region": region, "nation": nation, "roll": "tactics", "dice": dice, "reason": reason}


@pytest.fixture
def sampo(db):
    from campaign.scenario import scenario_read
    from campaign.services import scenario_import

    return scenario_import(scenario=scenario_read(SAMPO), slug="sampo")


@pytest.fixture
def sampo_turn(sampo):
    return sampo.turns.get(number=1)


@pytest.fixture
def sampo_gm(sampo):
    from campaign.services import membership_set

    return membership_set(campaign=sampo, username="gm", password="gm-password-1", nation=None).user


@pytest.fixture
def poh(sampo):
    from campaign.services import membership_set

    nation = sampo.nations.get(code="POH")
    return membership_set(campaign=sampo, username="poh", password="poh-password-1", nation=nation).user


@pytest.fixture
def kal(sampo):
    from campaign.services import membership_set

    nation = sampo.nations.get(code="KAL")
    return membership_set(campaign=sampo, username="kal", password="kal-password-1", nation=nation).user
