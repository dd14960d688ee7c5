"""The move to one table-battle model (rules 0014-15, company 0006-08) keeps every battle and version where
it was: a company battle gets its table battle with its state, archive flag and nations, its versions and
their answers hang on it, and a tabletop battle's versions stay on theirs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

OLD = [("rules", "0013_turn_write_storage"), ("company", "0005_table_turn_log")]
NEW = [("rules", "0015_versions_of_table_battles"), ("company", "0008_table_battle_state")]
SIDES = {"sides": ["WES", "EST"]}  # in the battle's order
NOW = datetime(2026, 12, 7, tzinfo=UTC)


def _turn(apps, slug: str, system: str):
    campaign = apps.get_model("campaign", "Campaign").objects.create(
        name=slug, slug=slug, battle_system=system, seed="1"
    )
    nations = [
        apps.get_model("campaign", "Nation").objects.create(campaign=campaign, code=c, name=c, position=i)
        for i, c in enumerate(("WES", "EST"))
    ]
    turn = apps.get_model("campaign", "Turn").objects.create(
        campaign=campaign, number=1, seed="1", deadline=NOW, status="battles_pending"
    )
    return turn, nations


def _version(apps, nation, **owner):
    version = apps.get_model("rules", "ResultVersion").objects.create(
        **owner,
        number=1,
        origin="player",
        state="confirmed",
        payload={"won": nation.code},
        fingerprint="f",
        nation=nation,
        created_at=NOW,
    )
    apps.get_model("rules", "ResultAnswer").objects.create(
        version=version, nation=nation, answer="agree", at=NOW
    )
    return version


def _migrate(targets):
    """The database taken back or forward to `targets`; the apps of that state."""
    executor = MigrationExecutor(connection)
    state = executor.migrate(targets)
    state.clear_delayed_apps_cache()
    return state


@pytest.fixture
def migrated_back(transactional_db):
    yield _migrate(OLD)
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_company_battles_and_their_versions_move_onto_table_battles(migrated_back) -> None:
    old = migrated_back
    turn, nations = _turn(old.apps, "company", "company_d20")
    Battle = old.apps.get_model("company", "Battle")
    # A rolled-back turn keeps its battles archived beside the ones processed again, under the same keys.
    archived = Battle.objects.create(
        turn=turn, position=1, key="M1", kind="normal", data=SIDES, status="resolved", archived=True
    )
    live = Battle.objects.create(turn=turn, position=1, key="M1", kind="normal", data=SIDES, status="void")
    for battle in (archived, live):
        battle.nations.set(nations)
    moved = _version(old.apps, nations[0], company_battle=archived)
    tabletop_turn, tabletop_nations = _turn(old.apps, "tabletop", "tabletop")
    kept_battle = old.apps.get_model("rules", "Battle").objects.create(
        turn=tabletop_turn, key="region:B", kind="region", nations=["WES", "EST"]
    )
    kept = _version(old.apps, tabletop_nations[1], battle=kept_battle)

    new = _migrate(NEW)
    Battle = new.apps.get_model("company", "Battle")
    Version = new.apps.get_model("rules", "ResultVersion")
    tables = {b.pk: b.table for b in Battle.objects.select_related("table")}

    assert [
        (t.turn_id, t.key, t.kind, t.position, t.state, t.archived, t.nations) for t in tables.values()
    ] == [
        (turn.pk, "M1", "normal", 1, "resolved", True, ["WES", "EST"]),
        (turn.pk, "M1", "normal", 1, "void", False, ["WES", "EST"]),
    ]
    assert Version.objects.get(pk=moved.pk).battle_id == tables[archived.pk].pk
    assert Version.objects.get(pk=moved.pk).answers.get().nation_id == nations[0].pk
    assert Version.objects.get(pk=kept.pk).battle_id == kept_battle.pk
    assert not Version.objects.filter(battle=tables[live.pk]).exists()

    back = _migrate(OLD)  # and back again, as a rollback of the deploy would
    Battle = back.apps.get_model("company", "Battle")
    assert [(b.status, b.archived) for b in Battle.objects.order_by("pk")] == [
        ("resolved", True),
        ("void", False),
    ]
    assert (
        back.apps.get_model("rules", "ResultVersion").objects.get(pk=moved.pk).company_battle_id
        == archived.pk
    )
