"""The battle systems' registry entries through the API (rules/systems_api.py): each system's words in the
reader's language, its order kinds and every scalar setting with its range and help, as the GM's forms
offer them; public, like the rules."""

from __future__ import annotations

from rest_framework.test import APIClient

from rules.engine.systems import system_get, system_names
from tests.errors import errors


def test_anyone_reads_every_systems_entry() -> None:
    listed = APIClient().get("/api/systems/").json()

    assert [s["name"] for s in listed] == list(system_names())
    for entry in listed:
        system = system_get(entry["name"])
        assert entry["title"] == system.title and entry["summary"] == system.summary
        assert entry["kinds"] == list(system.kinds)
        assert entry["rules"].endswith(f"/rules/{system.name}/")
        assert [s["key"] for s in entry["settings"]] == [s.key for s in system.settings]


def test_a_setting_comes_with_its_range_default_and_help() -> None:
    entry = APIClient().get("/api/systems/tabletop/").json()

    deadline = next(s for s in entry["settings"] if s["key"] == "tabletop.result_deadline_hours")
    assert (deadline["kind"], deadline["default"], deadline["minimum"], deadline["maximum"]) == (
        "whole",
        168,
        1,
        8760,
    )
    assert deadline["help"] and deadline["section"] == "A8.1" and deadline["nullable"] is False
    entry_rule = next(s for s in entry["settings"] if s["key"] == "tabletop.result_entry")
    assert entry_rule["choices"] == ["players_then_gm", "gm_only"]


def test_a_nations_attributes_come_with_their_ranges() -> None:
    entry = APIClient().get("/api/systems/sodankaynti/").json()

    ratings = {a["key"]: (a["minimum"], a["maximum"], a["default"]) for a in entry["nation_attributes"]}
    assert ratings == {"politics": (0, 100, 3), "tactics": (0, 100, 3)}
    assert APIClient().get("/api/systems/iron_fist/").json()["nation_attributes"] == []


def test_a_finnish_reader_gets_the_words_in_finnish() -> None:
    english = APIClient().get("/api/systems/iron_fist/").json()
    finnish = APIClient().get("/api/systems/iron_fist/", HTTP_ACCEPT_LANGUAGE="fi").json()

    assert (english["title"], finnish["title"]) == ("Iron Fist", "Rautanyrkki")
    assert finnish["settings"][0]["help"] != english["settings"][0]["help"]
    assert finnish["settings"][0]["key"] == english["settings"][0]["key"]


def test_a_name_no_system_has_is_a_404_in_the_envelope() -> None:
    response = APIClient().get("/api/systems/chess/")

    assert response.status_code == 404
    assert [e["code"] for e in errors(response)] == ["not_found"]
