"""The permission matrix of a tabletop turn's battles (TABLETOP.md A5.4, A6.2, A12): who reads a sheet, who
proposes, agrees, disputes, confirms, voids, auto-resolves and reopens. A refused write changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from campaign.models import Turn
from rules.models import ResultAnswer, ResultVersion, TableBattle
from tests.api.conftest import client_for
from tests.conftest import TABLETOP_ROLES, tabletop_result

A = "/api/campaigns/demo/turns/1/battles"
K1 = f"{A}/region:K1"


def _proposed(battle: TableBattle, player) -> ResultVersion:
    from campaign.selectors import viewer_get
    from rules.tabletop.battles import battle_result_save

    return battle_result_save(
        viewer=viewer_get(user=player, campaign=battle.turn.campaign),
        battle=battle,
        result=tabletop_result(battle),
    )


def _state() -> tuple:
    return (
        sorted(ResultVersion.objects.values_list("battle_id", "number", "state")),
        sorted(ResultAnswer.objects.values_list("version_id", "nation_id", "answer")),
        sorted(TableBattle.objects.values_list("key", "state")),
        sorted(Turn.objects.values_list("id", "status")),
    )


@pytest.mark.parametrize(
    ("path", "statuses"),
    [
        (f"{A}/", (200, 200, 200, 200, 404, 401)),
        (f"{K1}/", (200, 200, 200, 404, 404, 401)),
        (f"{A}/region:N1/", (404, 404, 404, 404, 404, 401)),
    ],
)
def test_it_shows_a_sheet_to_the_battles_nations_and_the_gm(
    tabletop_battle, tabletop_cast, path, statuses
) -> None:
    for role, expected in zip(TABLETOP_ROLES, statuses, strict=True):
        response = client_for(tabletop_cast[role]).get(path)
        assert response.status_code == expected, (role, response.content)


def test_the_battle_list_shows_a_rival_none_of_the_battles_it_is_not_in(
    tabletop_battle, tabletop_cast
) -> None:
    assert [b["key"] for b in client_for(tabletop_cast["player"]).get(f"{A}/").json()] == ["region:K1"]
    assert client_for(tabletop_cast["rival"]).get(f"{A}/").json() == []
    sheet = client_for(tabletop_cast["karelian"]).get(f"{K1}/").json()["sheet"]
    assert sheet["fingerprint"] == tabletop_battle.fingerprint


@pytest.mark.parametrize(
    ("role", "expected"),
    [("gm", 201), ("player", 201), ("karelian", 201), ("rival", 404), ("outsider", 404), ("anonymous", 401)],
)
def test_who_may_save_a_result(tabletop_battle, tabletop_cast, role, expected) -> None:
    before = _state()
    response = client_for(tabletop_cast[role]).post(
        f"{K1}/results/", tabletop_result(tabletop_battle), format="json"
    )
    assert response.status_code == expected, response.content
    if expected != 201:
        assert _state() == before


def test_a_refused_result_lists_every_error_with_code_ref_and_message(tabletop_battle, tabletop_cast) -> None:
    bad = {**tabletop_result(tabletop_battle), "winner": "EST", "losses": {"NOR": {"JV": 9}}}
    response = client_for(tabletop_cast["player"]).post(f"{K1}/results/", bad, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["code"], e["ref"]) for e in errors] == [
        ("winner_not_a_side", None),
        ("losses_exceed_forces", "NOR:JV"),
        ("losses_missing_nation", "KAR"),
    ]
    assert errors[1]["message"] == "NOR lost 9 JV but had 2 JV in the battle of K1."


@pytest.mark.parametrize(
    ("role", "action", "body", "expected"),
    [
        ("karelian", "agree", {}, 200),
        ("player", "agree", {}, 200),  # its own nation's version: agreeing again changes nothing
        ("rival", "agree", {}, 404),
        ("gm", "agree", {}, 403),
        ("karelian", "dispute", {"comment": "We held."}, 200),
        ("karelian", "dispute", {}, 400),
        ("rival", "dispute", {"comment": "x"}, 404),
        ("gm", "confirm", {}, 200),
        ("player", "confirm", {}, 403),
        ("karelian", "confirm", {}, 403),
        ("gm", "void", {"reason": "wrong battle"}, 200),
        ("player", "void", {"reason": "x"}, 403),
        ("player", "withdraw", {}, 200),
        ("karelian", "withdraw", {}, 400),
        ("outsider", "agree", {}, 404),
        ("anonymous", "agree", {}, 401),
    ],
)
def test_who_may_answer_or_decide_a_version(
    tabletop_battle, tabletop_cast, role, action, body, expected
) -> None:
    version = _proposed(tabletop_battle, tabletop_cast["player"])
    before = _state()
    response = client_for(tabletop_cast[role]).post(
        f"{K1}/results/{version.number}/{action}/", body, format="json"
    )
    assert response.status_code == expected, response.content
    if expected != 200:
        assert _state() == before


@pytest.mark.parametrize(
    ("role", "expected"),
    [("gm", 200), ("player", 403), ("karelian", 403), ("rival", 403), ("outsider", 404), ("anonymous", 401)],
)
def test_only_the_gm_auto_resolves(
    tabletop_battle, tabletop_cast, role, expected, django_capture_on_commit_callbacks
) -> None:
    before = _state()
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(tabletop_cast[role]).post(f"{K1}/auto-resolve/", {}, format="json")
    assert response.status_code == expected, response.content
    if expected != 200:
        assert _state() == before
    else:
        assert Turn.objects.get(pk=tabletop_battle.turn_id).status == Turn.Status.RESOLVED


@pytest.mark.parametrize(("role", "expected"), [("gm", 200), ("player", 403), ("outsider", 404)])
def test_only_the_gm_reopens(tabletop_battle, demo, tabletop_cast, role, expected) -> None:
    demo.ruleset_overrides = {"tabletop": {"complete_automatically": False}}
    demo.save(update_fields=["ruleset_overrides"])
    client_for(tabletop_cast["gm"]).post(f"{K1}/results/", tabletop_result(tabletop_battle), format="json")
    before = _state()
    response = client_for(tabletop_cast[role]).post(f"{K1}/reopen/", {"reason": "mistyped"}, format="json")
    assert response.status_code == expected, response.content
    if expected != 200:
        assert _state() == before
    else:
        assert TableBattle.objects.get(pk=tabletop_battle.pk).state == TableBattle.State.OPEN


@pytest.mark.parametrize(
    ("role", "expected"),
    [("gm", 200), ("player", 403), ("karelian", 403), ("rival", 403), ("outsider", 404), ("anonymous", 401)],
)
def test_only_the_gm_moves_a_battle_s_deadline(tabletop_battle, tabletop_cast, role, expected) -> None:
    """A8.1, A12: the GM moves a battle's deadline through the API, with a reason."""
    deadline = tabletop_battle.deadline
    moved = (deadline + timedelta(days=2)).isoformat()
    response = client_for(tabletop_cast[role]).post(
        f"{K1}/deadline/", {"deadline": moved, "reason": "club night moved"}, format="json"
    )
    assert response.status_code == expected, response.content
    after = TableBattle.objects.get(pk=tabletop_battle.pk).deadline
    assert after == (deadline + timedelta(days=2) if expected == 200 else deadline)
    if expected == 200:
        assert response.json()["deadline"] == after.isoformat()


def test_a_battle_s_deadline_moves_only_with_a_reason_and_a_time(tabletop_battle, tabletop_cast) -> None:
    gm = client_for(tabletop_cast["gm"])
    later = (tabletop_battle.deadline + timedelta(days=2)).isoformat()
    response = gm.post(f"{K1}/deadline/", {"deadline": later}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "reason_missing"
    response = gm.post(f"{K1}/deadline/", {"deadline": "next friday", "reason": "x"}, format="json")
    assert response.status_code == 400
    assert TableBattle.objects.get(pk=tabletop_battle.pk).deadline == tabletop_battle.deadline


@pytest.mark.parametrize("how", [{"format": "text"}, {"HTTP_ACCEPT": "text/plain"}])
def test_the_sheet_as_text_is_the_battle_s_nations_and_the_gm_s_as_the_json_is(
    tabletop_battle, tabletop_cast, how
) -> None:
    """A12: the sheet mail's plain text through the API; whoever may not see the sheet gets no text."""
    query = {"format": "text"} if "format" in how else {}
    headers = {} if query else how
    for role, expected in zip(TABLETOP_ROLES, (200, 200, 200, 404, 404, 401), strict=True):
        response = client_for(tabletop_cast[role]).get(f"{K1}/", query, **headers)
        assert response.status_code == expected, (role, response.content)
        if expected != 200:
            assert "JV" not in response.content.decode(), "no forces in a refusal"
            continue
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        text = response.content.decode()
        assert "region:K1" in text and "N3" in text and "Losses of NOR:" in text and "Losses of KAR:" in text
        assert "K4" not in text and "E2" not in text


def test_a_supporting_nation_s_text_sheet_shows_its_own_support_lines_only(
    tabletop_battle, tabletop_cast
) -> None:
    """Fog of war (A5.4): EST, supporting from E2, sees the place and its own line, not the forces."""
    support = [["EST", "E2", "IV", 1]]
    TableBattle.objects.filter(pk=tabletop_battle.pk).update(
        sheet={**tabletop_battle.sheet, "support": support}
    )
    text = client_for(tabletop_cast["rival"]).get(f"{K1}/", {"format": "text"}).content.decode()
    assert "EST E2: 1 IV" in text, text
    assert "N3" not in text and "Losses of" not in text and "NOR" not in text
    json_sheet = client_for(tabletop_cast["rival"]).get(f"{K1}/").json()["sheet"]
    assert json_sheet["forces"] == {} and json_sheet["support"] == support


def test_the_text_sheet_is_in_the_reader_s_language(tabletop_battle, tabletop_cast) -> None:
    from campaign.lifecycle import language_set

    language_set(user=tabletop_cast["karelian"], language="fi")
    text = client_for(tabletop_cast["karelian"]).get(f"{K1}/", {"format": "text"}).content.decode()
    assert "== Paikka ==" in text and "Valtion NOR tappiot:" in text, text
    assert "Losses of" not in text
    english = client_for(tabletop_cast["player"]).get(f"{K1}/", {"format": "text"}).content.decode()
    assert "== The place ==" in english and "Losses of NOR:" in english
