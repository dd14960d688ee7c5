"""Messages as data (rules.engine.messages): every code in the catalogue has its Finnish text, and a Finnish
reader meets none of the catalogue's English sentences on the campaign page, the turn page or the GM's
dashboard after a busy turn with refused orders and every kind of GM input."""

from __future__ import annotations

import html
import importlib
import pkgutil
import re
from datetime import timedelta

import polib
from django.urls import reverse
from django.utils import timezone

from campaign.gm import clock, diplomacy, inputs, roster
from campaign.models import AuditEntry, Turn
from rules.engine.messages import CATALOGUE, Message
from rules.services import turn_process
from tests.i18n.conftest import ORDERS
from tests.i18n.test_catalog import LOCALE

APPS = ("campaign", "orders", "rules", "frontend", "company")


def _every_module_imported() -> None:
    """Codes are registered where they are owned: import every module, so that none is left out."""
    for app in APPS:
        package = importlib.import_module(app)
        for found in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" not in found.name:
                importlib.import_module(found.name)


def test_every_code_in_the_catalogue_has_a_finnish_text():
    _every_module_imported()
    po = polib.pofile(str(LOCALE / "django.po"))
    finnish = {e.msgid: e.msgstr for e in po.translated_entries() if e.msgctxt is None}
    missing = sorted(code for code, template in CATALOGUE.items() if template not in finnish)
    assert not missing, f"codes without a Finnish text (makemessages -l fi, then translate): {missing}"
    assert {
        "not_adjacent",
        "orders_closed",
        "audit.weather",
        "diff.owner",
        "spoils_order",
    } <= CATALOGUE.keys()


def test_a_message_reads_in_finnish_with_the_words_inside_it_in_finnish_too():
    from campaign.messages import said_in, status_word

    closed = Message("orders_closed", {"number": 3, "status": status_word("processing")})
    assert said_in("fi", closed) == "vuoro 3 on käsittelyssä: käskyjä ei enää oteta vastaan"
    assert str(closed) == "turn 3 is processing: orders are closed"
    stored = Message.from_dict(closed.to_dict())
    assert said_in("fi", stored) == said_in("fi", closed), "stored as data, it renders the same"


def _english_sentences() -> list[tuple[str, re.Pattern[str]]]:
    """Each English template of three words or more, as a pattern that finds it filled in."""
    found = []
    for code, template in CATALOGUE.items():
        text = template.replace("{{", "{").replace("}}", "}")
        if len(re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^{}]*\}", " ", text))) < 3:
            continue
        parts = re.split(r"\{[^{}]*\}", text)
        found.append((code, re.compile(r"\S+?".join(re.escape(p) for p in parts))))
    return found


def _text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _no_english(page: str) -> None:
    text = _text(page)
    english = [(code, m.group(0)) for code, pattern in _english_sentences() if (m := pattern.search(text))]
    assert not english, f"English messages on a Finnish page: {english}"


def _gm_inputs(demo, gm, turn) -> None:
    """One of each of the GM's inputs, so that the audit log has a line of each kind."""
    nations = {n.code: n for n in demo.nations.all()}
    regions = {r.code: r for r in demo.regions.all()}
    clock.deadline_set(by=gm, turn=turn, deadline=timezone.now() + timedelta(days=2))
    inputs.weather_set(by=gm, turn=turn, weather="rain", region_weather={"N3": "snow"})
    inputs.gm_modifier_set(
        by=gm, turn=turn, region=regions["K1"], nation=nations["KAR"], value=2, reason="mud"
    )
    diplomacy.relation_set(by=gm, nation_a=nations["NOR"], nation_b=nations["KAR"], kind="war")
    roster.roster_change(
        by=gm, region=regions["N3"], nation=nations["NOR"], unit_type="JV", count=3, reason="levy"
    )
    clock.campaign_pause(campaign=demo, by=gm)
    clock.deadline_extend(turn=turn, by=gm, extra=timedelta(hours=6))
    clock.campaign_resume(campaign=demo, by=gm)
    clock.lifecycle_settings_set(
        campaign=demo, by=gm, process_early=True, reminder_before=timedelta(hours=6), civil_disorder_after=4
    )


def test_a_finnish_reader_meets_no_english_message_after_a_busy_turn(
    demo, player, rival, gm, place_orders, finnish_player, finnish_gm
):
    turn1 = demo.turns.get(number=1)
    _gm_inputs(demo, gm, turn1)
    # Besides the battles, orders the engine refuses: too many units, and an attack on one's own region.
    refused = [("NOR", "attack", "N5", "N4", {"JV": 1}), ("NOR", "attack", "N3", "K1", {"JV": 40})]
    place_orders(turn1, [*ORDERS, *refused])
    turn = turn_process(turn_id=turn1.pk)
    assert turn.status == Turn.Status.RESOLVED, turn.error
    assert len(turn.result["rejected_orders"]) == 2

    create = reverse("frontend:order_create", args=["demo"])
    for entered, finnish in (
        ({"origin": "N4", "kind": "attack", "target": "N5", "units_JV": "1"}, "N5 on valtion NOR oma alue"),
        ({"origin": "N4", "kind": "attack", "target": "K1", "units_JV": "2"}, "K1 ei rajoitu alueeseen N4"),
        ({"origin": "N4", "kind": "hold", "units_JV": "99"}, "JV, ei 99"),
    ):
        refusal = finnish_player.post(create, entered)
        assert refusal.status_code == 400
        page = refusal.content.decode()
        assert finnish in page
        _no_english(page)

    campaign = finnish_player.get(reverse("frontend:campaign", args=["demo"]))
    _no_english(campaign.content.decode())
    report = finnish_player.get(reverse("frontend:turn", args=["demo", 1]))
    assert report.status_code == 200
    _no_english(report.content.decode())

    dashboard = finnish_gm.get(reverse("frontend:gm", args=["demo"])).content.decode()
    for finnish in (
        "vuoro 1: sade; alueittain: N3 lumisade",
        "valtion NOR JV alueella N3",
        "kampanja keskeytetty; aikaa jäljellä",
        "käsittely etuajassa päällä; muistutus 6 tuntia ennen; sekasorto 4 väliin jääneen vuoron jälkeen",
    ):
        assert finnish in dashboard
    _no_english(dashboard)


def test_a_finnish_gm_reads_the_rollback_and_what_changed_in_finnish(
    demo, player, rival, gm, place_orders, finnish_gm
):
    turn1 = demo.turns.get(number=1)
    place_orders(turn1, ORDERS)
    assert turn_process(turn_id=turn1.pk).status == Turn.Status.RESOLVED
    place_orders(demo.turns.get(number=2), [("NOR", "move", "N4", "N5", {"JV": 1})])
    rollback = reverse("frontend:gm_rollback", args=["demo", 1])

    refused = finnish_gm.post(rollback, {"rollback-reason": ""})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "vuorolla 2 on jo 1 käskyä; peruminen poistaa ne" in page
    _no_english(page)

    finnish_gm.post(rollback, {"rollback-reason": "väärä luettelo", "rollback-force": "on"})
    roster.roster_change(
        by=gm,
        region=demo.regions.get(code="N5"),
        nation=demo.nations.get(code="NOR"),
        unit_type="JV",
        count=2,
        reason="as it was",
    )
    assert turn_process(turn_id=turn1.pk).status == Turn.Status.RESOLVED

    response = finnish_gm.get(reverse("frontend:gm_turn", args=["demo", 1]))
    assert response.context["diff"].same is False
    page = response.content.decode()
    assert "M2: omistaja" in page, "the owners that changed, in Finnish"
    _no_english(page)
    _no_english(finnish_gm.get(reverse("frontend:gm", args=["demo"])).content.decode())


def test_an_audit_line_written_before_messages_were_data_still_shows_its_text(demo, gm, finnish_gm):
    AuditEntry.objects.create(
        campaign=demo, user=gm, created_at=timezone.now(), action="roster", summary="JV of NOR in N5: 4 → 6"
    )
    clock.campaign_pause(campaign=demo, by=gm)

    page = finnish_gm.get(reverse("frontend:gm", args=["demo"])).content.decode()

    assert "JV of NOR in N5: 4 → 6" in page, "as it was stored"
    assert "kampanja keskeytetty; aikaa jäljellä" in page, "a new line in the reader's language"
    entry = AuditEntry.objects.get(action="pause")
    assert entry.code == "audit.paused"
    assert re.fullmatch(r"campaign paused; \d+ days?( \d+ hours?)? left", entry.summary), "and in English"
