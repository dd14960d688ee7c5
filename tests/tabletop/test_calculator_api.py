"""The close-combat calculator's endpoint (TABLETOP.md Part B): a round in; terms, winner and tests out."""

from __future__ import annotations

import pytest

from tests.api.conftest import client_for
from tests.errors import errors

URL = "/api/calculator/close-combat/"

# TABLETOP.md B10, the worked example (case c09).
WORKED = {
    "sides": [
        {
            "name": "RED",
            "units": [
                {"id": "infantry", "wounds": 3, "full_ranks": 2, "discipline": 7},
                {"id": "cavalry", "wounds": 3, "charged": True, "full_ranks": 2, "flank_of": ["blocks"]},
                {"id": "scouts", "wounds": 1, "full_ranks": 1, "rear_of": ["militia"]},
            ],
        },
        {
            "name": "BLUE",
            "units": [
                {"id": "blocks", "wounds": 2, "full_ranks": 4, "standards": 1, "discipline": 8},
                {"id": "militia", "wounds": 2, "full_ranks": 3, "discipline": 7},
            ],
        },
    ],
    "dice": {"rolls": [1, 3, 4, 3]},
}


@pytest.fixture
def player_api(player):
    return client_for(player)


def test_it_works_out_the_worked_example(player_api) -> None:
    response = player_api.post(URL, WORKED, format="json")

    assert response.status_code == 200
    out = response.json()
    assert [side["total"] for side in out["sides"]] == [14, 8]
    assert out["result"] == {"winners": ["RED"], "losers": ["BLUE"], "difference": 6, "tie": False}
    assert [(t["unit"], t["steadfast_reason"], t["target"], t["result"]) for t in out["break_tests"]] == [
        ("blocks", "disrupted", 2, "broken"),
        ("militia", "more_full_ranks", 7, "holds"),
    ]
    assert out["dice"] == {"mode": "entered", "seed": None, "used": [1, 3, 4, 3]}
    assert out["settings"]["overkill_cap"] == 3


def test_it_previews_the_targets_without_dice(player_api) -> None:
    response = player_api.post(f"{URL}?preview=true", {**WORKED, "dice": {"rolls": []}}, format="json")

    assert response.status_code == 200
    tests = response.json()["break_tests"]
    assert [t["target"] for t in tests] == [2, 7]
    assert all(t["dice"] is None and t["result"] is None for t in tests)


def test_it_rolls_from_a_new_seed_it_prints_so_that_the_round_replays(player_api) -> None:
    rolled = player_api.post(f"{URL}?seed=new", WORKED, format="json").json()

    seed = rolled["dice"]["seed"]
    assert rolled["dice"]["mode"] == "seeded" and isinstance(seed, int) and 0 <= seed < 2**63
    replay = player_api.post(URL, {**WORKED, "dice": {"seed": seed}}, format="json").json()
    assert replay["break_tests"] == rolled["break_tests"]


def test_it_refuses_an_invalid_round_with_every_error(player_api) -> None:
    bad = {
        "sides": [
            {"name": "RED", "units": [{"id": "wolves", "flank_of": ["ghost"]}]},
            {"name": "BLUE", "units": [{"id": "spears", "ranks": 1, "full_ranks": 2}]},
        ]
    }

    response = player_api.post(URL, bad, format="json")

    assert response.status_code == 400
    assert [(e["code"], e["ref"], e["message"]) for e in errors(response)] == [
        ("full_ranks_exceed_ranks", "spears", "spears: 2 full ranks but only 1 ranks."),
        ("relation_target_unknown", "wolves:ghost", "wolves: there is no unit ghost in this combat."),
    ]


def test_it_gives_the_messages_in_the_readers_language(player_api) -> None:
    response = player_api.post(URL, {"sides": []}, format="json", HTTP_ACCEPT_LANGUAGE="fi")

    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "sides_count" and error["ref"] is None
    assert error["message"] == "Lähitaistelussa on täsmälleen kaksi osapuolta."


def test_it_refuses_anyone_not_logged_in() -> None:
    response = client_for(None).post(URL, WORKED, format="json")

    assert response.status_code == 401
