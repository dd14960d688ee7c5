"""A company battle's result through the shared results entry (COMPANY.md §5.2, BATTLE_SYSTEMS.md "Results
entry"): who may propose, agree, dispute, confirm, reopen and void, each role with the test client; a new
version clears agreements; `result.finalisation: all_sides`; stale and superseded versions refused; every
§5.3 error with its code and ref."""

from __future__ import annotations

import pytest

from campaign.models import Campaign
from rules.company import models
from rules.models import ResultVersion
from tests.company.conftest import at

A = "/api/campaigns/demo"


def entry_for(battle, **vp):
    return {"units": [{"unit": int(u), "vp": vp.get(u, 0)} for u in battle.data["units"]]}


def call(client, battle, path, data=None, method="post"):
    return getattr(client, method)(f"{A}/{at(battle)}/{path}", data or {}, format="json")


def ruleset_set(company, **overrides):
    Campaign.objects.filter(pk=company.campaign.pk).update(
        ruleset_overrides={"tp": {"starting": 30}, **overrides}
    )


@pytest.mark.parametrize(
    "role, code", [("gm", 201), ("player", 201), ("rival", 201), ("outsider", 404), ("anonymous", 401)]
)
def test_a_member_of_the_battles_nations_proposes_and_the_gms_version_is_final(clients, battle, role, code):
    """§5.2 as amended: a version the GM saves is confirmed at once, as TABLETOP A6.2's."""
    response = call(clients[role], battle, "result/", entry_for(battle), method="put")
    assert response.status_code == code
    if code == 201:
        [version] = battle.versions.all()
        assert version.state == ("confirmed" if role == "gm" else "proposed")
        assert version.author.username == role
        agreed = list(version.answers.values_list("nation__code", flat=True))
        assert agreed == ({"player": ["NOR"], "rival": ["EST"]}.get(role, [])), "the saver's nation agrees"


@pytest.mark.parametrize(
    "role, code, state",
    [
        ("rival", 200, "agreed"),
        ("gm", 403, "proposed"),  # the GM confirms; it does not agree
        ("outsider", 404, "proposed"),
        ("anonymous", 401, "proposed"),
    ],
)
def test_the_other_nation_agrees_with_the_proposal(clients, battle, role, code, state):
    call(clients["player"], battle, "result/", entry_for(battle), method="put")
    response = call(clients[role], battle, "result/approve/")
    assert response.status_code == code
    if role == "gm":
        assert response.json()["errors"][0]["code"] == "not_permitted"
    assert battle.versions.get().state == state


@pytest.mark.parametrize(
    "role, code", [("gm", 200), ("player", 403), ("rival", 403), ("outsider", 404), ("anonymous", 401)]
)
def test_only_the_gm_confirms(clients, battle, role, code):
    call(clients["player"], battle, "result/", entry_for(battle), method="put")
    call(clients["rival"], battle, "result/approve/")
    response = call(clients[role], battle, "result/confirm/")
    assert response.status_code == code
    battle.refresh_from_db()
    assert battle.status == ("resolved" if code == 200 else "open")
    if code == 403:
        assert response.json()["errors"] == [
            {"code": "gm_only", "ref": None, "message": "Only the GM may do this."}
        ]


@pytest.mark.parametrize("role, code", [("gm", 200), ("player", 403), ("rival", 403), ("outsider", 404)])
def test_only_the_gm_voids_the_battle_and_with_a_reason(clients, battle, role, code):
    assert (
        call(clients["gm"], battle, "void/", {"reason": ""}).json()["errors"][0]["code"] == "reason_missing"
    )
    response = call(clients[role], battle, "void/", {"reason": "the table never met"})
    assert response.status_code == code
    battle.refresh_from_db()
    if code == 200:
        assert battle.status == "void" and battle.void_reason == "the table never met"
        assert battle.turn.status == "resolved", "the last battle void: the turn completes (§5.6)"
    else:
        assert battle.status == "open"


def test_the_gm_confirms_a_disputed_version_and_the_reason_says_who_disputed(clients, battle):
    call(clients["player"], battle, "result/", entry_for(battle), method="put")
    empty = call(clients["rival"], battle, "result/dispute/", {"comment": " "})
    assert empty.json()["errors"][0]["code"] == "comment_missing"
    call(clients["rival"], battle, "result/dispute/", {"comment": "MG lost 3 TK, not 0"})
    version = battle.versions.get()
    assert version.state == "disputed"
    assert call(clients["gm"], battle, "result/confirm/").status_code == 200
    version.refresh_from_db()
    assert version.state == "confirmed"
    assert str(version.reason_message()) == "confirmed by the GM; not agreed by EST; disputed by EST"


def test_a_new_version_clears_the_agreements_and_the_old_one_cannot_be_answered(clients, battle, company):
    call(clients["player"], battle, "result/", entry_for(battle), method="put")
    call(clients["rival"], battle, "result/approve/")
    u = str(company.units["Ryhmä 1"].number)
    assert (
        call(clients["player"], battle, "result/", entry_for(battle, **{u: 2}), method="put").status_code
        == 201
    )
    first, second = battle.versions.order_by("number")
    assert (first.state, second.state) == ("superseded", "proposed")
    assert list(second.answers.values_list("nation__code", flat=True)) == ["NOR"]
    old = call(clients["rival"], battle, "result/approve/", {"version": 1})
    assert old.status_code == 409 and old.json()["errors"][0]["code"] == "version_not_current"
    assert call(clients["gm"], battle, "result/confirm/", {"version": 1}).status_code == 409


def test_with_all_sides_the_agreement_of_every_nation_makes_it_final(clients, battle, company):
    ruleset_set(company, result={"finalisation": "all_sides"})
    call(clients["player"], battle, "result/", entry_for(battle), method="put")
    battle.refresh_from_db()
    assert battle.status == "open", "EST has not agreed yet"
    assert call(clients["rival"], battle, "result/approve/").status_code == 200
    battle.refresh_from_db()
    assert battle.versions.get().state == "confirmed" and battle.status == "resolved"
    assert battle.turn.status == "resolved"
    assert models.Battle.objects.get(pk=battle.pk).report["final"]


def test_the_gm_reopens_a_final_battle_until_the_turn_completes(clients, battle, company):
    ruleset_set(company, turn={"auto_complete": False})
    call(clients["gm"], battle, "result/", entry_for(battle), method="put")
    assert call(clients["rival"], battle, "result/reopen/", {"reason": "typo"}).status_code == 403
    call(clients["gm"], battle, "result/confirm/")
    battle.refresh_from_db()
    assert battle.status == "resolved" and battle.turn.status == "battles_pending", "the GM completes it"
    assert call(clients["gm"], battle, "result/reopen/", {"reason": ""}).status_code == 400
    assert call(clients["player"], battle, "result/reopen/", {"reason": "typo"}).status_code == 403
    reopened = call(clients["gm"], battle, "result/reopen/", {"reason": "MG's TK was wrong"})
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    draft = battle.versions.get()
    assert (draft.state, str(draft.reason_message())) == ("proposed", "reopened: MG's TK was wrong"), "§5.2"
    assert not draft.answers.exists(), "the GM saved it: no approval is left"
    assert call(clients["gm"], battle, "result/", method="get").json()["current"]["version"] == 1
    call(clients["rival"], battle, "result/", entry_for(battle), method="put")
    assert battle.versions.get(number=1).state == "superseded", "a new draft replaces the reopened one"
    call(clients["gm"], battle, "result/confirm/")
    from rules.services import turn_process

    turn_process(turn_id=battle.turn_id)  # "complete turn"
    battle.refresh_from_db()
    assert battle.turn.status == "resolved"
    late = call(clients["gm"], battle, "result/reopen/", {"reason": "too late"})
    assert late.json()["errors"][0]["code"] == "not_resolved", "results are immutable once the turn completes"


def test_a_version_entered_against_other_forces_is_refused(clients, battle):
    stale = {**entry_for(battle), "fingerprint": "0" * 16}
    refused = call(clients["player"], battle, "result/", stale, method="put")
    assert refused.status_code == 409 and refused.json()["errors"][0]["code"] == "entry_stale"
    fingerprint = call(clients["player"], battle, "result/", method="get").json()["fingerprint"]
    saved = call(
        clients["player"], battle, "result/", {**entry_for(battle), "fingerprint": fingerprint}, "put"
    )
    assert saved.status_code == 201
    data = {**battle.data, "region": "M1"}
    data["units"] = {**data["units"]}
    first = next(iter(data["units"]))
    data["units"][first] = {**data["units"][first], "tk": data["units"][first]["tk"] - 1}
    models.Battle.objects.filter(pk=battle.pk).update(data=data)  # the snapshot changed under the version
    answer = call(clients["rival"], battle, "result/approve/")
    assert answer.status_code == 409 and answer.json()["errors"][0]["code"] == "entry_stale", answer.json()
    assert call(clients["gm"], battle, "result/confirm/").json()["errors"][0]["code"] == "entry_stale"


def test_every_error_of_the_entry_comes_back_with_its_code_and_ref_and_nothing_is_saved(
    clients, battle, company
):
    u = company.units
    r1, chef = u["Ryhmä 1"].number, u["Chef"].number
    bad = {
        "units": [
            {"unit": 999},
            {"unit": r1, "tk_lost": 2.5, "vp": -1},
            {"unit": r1},
            {"unit": chef, "tk_lost": 6, "destroyed": False, "states": ["stunned", "damaged"]},
        ],
        "sides": {"GREEN": {}, "NOR": {"objective_vp": -2, "field_promotion": r1}},
        "notes": "x" * 2001,
    }
    response = call(clients["player"], battle, "result/", bad, method="put")
    assert response.status_code == 400
    errors = [(e["code"], e["ref"]) for e in response.json()["errors"]]
    missing = [n for n in sorted(int(k) for k in battle.data["units"]) if n not in (r1, chef)]
    assert errors == [
        ("unit_not_in_battle", 999),
        ("not_an_integer", r1),
        ("vp_negative", r1),
        ("unit_listed_twice", r1),
        ("destroyed_mismatch", chef),
        ("state_unknown", chef),
        ("state_derived", chef),
        *[("unit_missing", n) for n in missing],
        ("side_not_in_battle", "GREEN"),
        ("objective_vp_negative", "NOR"),
        ("promotion_without_loss", "NOR"),
        ("notes_too_long", None),
    ]
    assert all(e["message"] for e in response.json()["errors"])
    assert not ResultVersion.objects.exists()


def test_the_errors_are_told_in_finnish_to_a_finnish_reader(clients, battle):
    response = clients["player"].put(
        f"{A}/{at(battle)}/result/", {"units": []}, format="json", HTTP_ACCEPT_LANGUAGE="fi"
    )
    messages = [e["message"] for e in response.json()["errors"]]
    assert messages and all("No entry for" not in m for m in messages)


def test_the_turns_battles_say_the_state_of_their_result_to_the_gm_and_the_battles_nations(
    clients, battle, karelian
):
    call(clients["player"], battle, "result/", entry_for(battle), method="put")
    for role, seen in (("gm", "proposed"), ("rival", "proposed")):
        [row] = clients[role].get(f"{A}/turns/1/company-battles/").json()
        assert row["status"] == "open" and row["result"] == seen
    from tests.api.conftest import client_for

    [row] = client_for(karelian).get(f"{A}/turns/1/company-battles/").json()
    assert row["key"] == "M1" and "result" not in row, "where and between whom is public; the result is not"


def test_a_reopened_draft_keeps_only_its_savers_approval_and_is_final_again_once_all_approve(
    clients, battle, company
):
    ruleset_set(company, turn={"auto_complete": False}, result={"finalisation": "all_sides"})
    call(clients["player"], battle, "result/", entry_for(battle), method="put")
    call(clients["rival"], battle, "result/approve/")
    battle.refresh_from_db()
    assert battle.status == "resolved", "every side approved (all_sides)"
    reopened = call(clients["gm"], battle, "result/reopen/", {"reason": "the rival's VP were wrong"})
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    draft = battle.versions.get()
    assert draft.state == "proposed"
    assert list(draft.answers.values_list("nation__code", flat=True)) == ["NOR"], "only the saver's approval"
    call(clients["rival"], battle, "result/approve/")
    battle.refresh_from_db()
    assert battle.status == "resolved" and battle.versions.get().state == "confirmed"


@pytest.mark.parametrize("public", [True, False])
def test_after_completion_who_won_and_whether_the_region_changed_hands_is_public_with_public_summary(
    clients, battle, company, karelian, public
):
    from tests.api.conftest import client_for

    ruleset_set(company, reports={"public_summary": public})
    nor = {str(u.number) for u in company.units.values() if u.nation_id == company.nor.pk}
    call(clients["player"], battle, "result/", entry_for(battle, **dict.fromkeys(nor, 2)), method="put")
    call(clients["gm"], battle, "result/confirm/", {"version": battle.versions.get().number})
    summary = {"winner": "NOR", "changed_hands": True, "holder": "NOR", "void": False}
    [row] = clients["rival"].get(f"{A}/turns/1/company-battles/").json()
    assert row["summary"] == summary, "the battle's own nations always read it"
    [row] = client_for(karelian).get(f"{A}/turns/1/company-battles/").json()
    assert row.get("summary") == (summary if public else None)


def test_with_auto_complete_off_the_gm_completes_the_turn_once_every_battle_is_final(
    clients, battle, company, gm, django_capture_on_commit_callbacks
):
    """§2.3, §5.2: a GM who wants to review the results sets `turn.auto_complete: false` and presses
    "complete turn"; with a battle still open nothing changes and the message names it."""
    from django.test import Client

    ruleset_set(company, turn={"auto_complete": False})
    page = Client()
    page.force_login(gm)
    url = "/c/demo/gm/turns/1/"
    with django_capture_on_commit_callbacks(execute=True):
        refused = page.post(f"{url}complete/", follow=True).content.decode()
    assert "still waits for the results of M1" in refused
    call(clients["gm"], battle, "result/", entry_for(battle), method="put")
    call(clients["gm"], battle, "result/confirm/")
    battle.refresh_from_db()
    assert battle.status == "resolved" and battle.turn.status == "battles_pending"
    assert f'action="{url}complete/"' in page.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        page.post(f"{url}complete/")
    battle.turn.refresh_from_db()
    assert battle.turn.status == "resolved" and company.campaign.turns.filter(number=2).exists()
