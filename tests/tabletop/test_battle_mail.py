"""The mails of a tabletop battle (TABLETOP.md A8.1, A11.3): the sheet to the players of the battle's
nations when it opens, and a reminder before its result is due, each once, in the reader's language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from campaign.lifecycle import language_set, time_zone_set
from campaign.models import Turn
from campaign.selectors import viewer_get
from rules.models import TableBattle
from rules.services import turn_process
from rules.table_deadlines import battle_deadline_move, battles_overdue, battles_remind
from rules.tabletop.battles import battle_result_save
from rules.tabletop.mail import battle_sheets_queue
from tests.conftest import k1_id

# NOR attacks KAR's K1 from N3; EST attacks KAR's K4 from E2, out of NOR's sight.
ORDERS = [
    ("NOR", "attack", "N3", "K1", {"JV": 2}),
    ("EST", "attack", "E2", "K4", {"JV": 3, "PA": 3}),
]


@pytest.fixture
def cast(demo, gm, player, rival, karelian):
    for user in (gm, player, rival, karelian):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    demo.battle_system = "tabletop"
    demo.save(update_fields=["battle_system"])
    return demo


@pytest.fixture
def processed(cast, place_orders, django_capture_on_commit_callbacks):
    """Process turn 1 with `orders`, its mails sent once it commits; the turn waits for its battles."""

    def process(orders):
        turn = cast.turns.get(number=1)
        place_orders(turn, orders)
        with django_capture_on_commit_callbacks(execute=True):
            turn_process(turn_id=turn.pk)
        turn.refresh_from_db()
        assert turn.status == Turn.Status.BATTLES_PENDING, turn.error
        return turn

    return process


@pytest.fixture
def pending(processed):
    return processed(ORDERS)


def _to(address: str) -> list:
    return [m for m in mail.outbox if m.to == [address]]


def _bodies(message) -> tuple[str, str]:
    return message.body, message.alternatives[0][0]


def test_it_mails_each_battle_s_sheet_to_the_players_of_its_nations_only(pending) -> None:
    [nor] = _to("player@example.org")
    assert nor.subject.startswith("[The Grenzwald Crisis] Turn 1 — Battle of ")
    assert ": sheet, result due " in nor.subject
    text, html = _bodies(nor)
    for body in (text, html):
        assert "region:K1" in body and "N3" in body and "JV 2" in body or "JV</th>" in body
        assert "K4" not in body and "E2" not in body, "EST's battle is none of NOR's business"
        assert "Ostland" not in body
    assert f"http://127.0.0.1:8000/c/demo/turns/1/battles/{k1_id()}/" in text
    assert "Losses of NOR:" in text and "Losses of KAR:" in text, "the blank result box for the table"
    assert "new sheet" not in text, "the first sheet of a battle"

    [est] = _to("rival@example.org")
    assert "region:K4" in est.body and "region:K1" not in est.body and "N3" not in est.body
    karelian = _to("karelian@example.org")
    assert sorted("region:K1" in m.body for m in karelian) == [False, True], "KAR fights both battles"
    assert _to("gm@example.org") == [], "the sheet goes to the battle's players, not the GM"


def test_the_sheet_is_mailed_once_however_often_the_turn_is_re_planned(
    pending, gm, player, django_capture_on_commit_callbacks
) -> None:
    sent = len(mail.outbox)
    battle = TableBattle.objects.get(turn=pending, key="region:K4")
    viewer = viewer_get(user=gm, campaign=pending.campaign)
    result = {"winner": None, "losses": {"EST": {}, "KAR": {}}, "fingerprint": battle.fingerprint}
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_save(viewer=viewer, battle=battle, result=result)  # re-plans: K1 is still open
    new = mail.outbox[sent:]
    assert not [m for m in new if ": sheet, result due" in m.subject], "no sheet mailed twice"
    assert {m.subject.rpartition(": ")[2] for m in new} == {"result confirmed"}, "only the GM's entry is told"


def test_it_writes_the_sheet_in_the_reader_s_language(processed, karelian) -> None:
    language_set(user=karelian, language="fi")
    processed(ORDERS[:1])
    [finnish] = _to("karelian@example.org")
    assert finnish.subject.startswith("[The Grenzwald Crisis] Vuoro 1 — Taistelu: ")
    text, html = _bodies(finnish)
    for body in (text, html):
        assert "Tulos viimeistään" in body and "Maasto" in body
        assert "Result due" not in body and "The place" not in body
    assert '<html lang="fi">' in html
    [english] = _to("player@example.org")
    assert "Result due" in english.body


def test_the_deadline_is_in_the_reader_s_zone_and_utc_once(processed, player) -> None:
    time_zone_set(user=player, time_zone="Europe/Helsinki")
    turn = processed(ORDERS[:1])
    deadline = TableBattle.objects.get(turn=turn, key="region:K1").deadline
    helsinki = _to("player@example.org")[0].body
    assert f"({deadline:%-d %b %Y, %H:%M} UTC)" in helsinki and ("EET" in helsinki or "EEST" in helsinki)
    in_utc = _to("karelian@example.org")[0].body
    line = next(line for line in in_utc.splitlines() if line.startswith("Result due"))
    assert line.count("UTC") == 1, line


# ---- reminders (A8.1) ------------------------------------------------------------------------------


def _clock(at):
    return lambda: at


def test_it_reminds_the_battle_s_players_once_a_day_before_the_deadline(
    pending, gm, django_capture_on_commit_callbacks
) -> None:
    mail.outbox.clear()
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_remind(now=_clock(battle.deadline - timedelta(hours=25))) == 0, "too early"
    assert mail.outbox == []
    # The mail says how long is left from when it is written: a deadline 23 hours from now.
    gm_viewer = viewer_get(user=gm, campaign=pending.campaign)
    battle_deadline_move(
        viewer=gm_viewer, battle=battle, deadline=timezone.now() + timedelta(hours=23), reason="Club night"
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_remind() == 1, "K1 only: K4's deadline is a week away"
    assert sorted(m.to[0] for m in mail.outbox) == ["karelian@example.org", "player@example.org"]
    for message in mail.outbox:
        assert message.subject.endswith("Battle of Kaarnala: result due in 23 hours"), message.subject
        assert "No result yet." in message.body and f"/battles/{battle.pk}/" in message.body
        assert "K4" not in message.body and "E2" not in message.body
    sent = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_remind() == 0, "never twice"
        assert battles_remind(now=_clock(timezone.now() + timedelta(hours=5))) == 0
    assert len(mail.outbox) == sent


def test_a_reminder_says_whose_answer_the_result_waits_for(
    pending, player, django_capture_on_commit_callbacks
) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    result = {
        "winner": "NOR",
        "decisive": True,
        "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 3}},
        "fingerprint": battle.fingerprint,
    }
    battle_result_save(
        viewer=viewer_get(user=player, campaign=pending.campaign), battle=battle, result=result
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        battles_remind(now=_clock(battle.deadline - timedelta(hours=1)))
    reminder = next(m for m in mail.outbox if f"/battles/{battle.pk}/" in m.body)
    assert "Version 1: Proposed · waiting for the answer of KAR" in reminder.body


def test_a_moved_deadline_is_reminded_anew(pending, gm, django_capture_on_commit_callbacks) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    at = battle.deadline - timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        battles_remind(now=_clock(at))
    battle.refresh_from_db()
    assert battle.reminded_at is not None
    battle_deadline_move(
        viewer=viewer_get(user=gm, campaign=pending.campaign),
        battle=battle,
        deadline=at + timedelta(days=3),
        reason="The players asked for more time",
        now=_clock(at),
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_remind(now=_clock(at + timedelta(days=2, hours=1))) == 1
    assert sorted(m.to[0] for m in mail.outbox) == ["karelian@example.org", "player@example.org"]


def test_no_reminder_for_a_battle_with_its_result_or_past_its_deadline(
    pending, gm, django_capture_on_commit_callbacks
) -> None:
    k1 = TableBattle.objects.get(turn=pending, key="region:K1")
    k4 = TableBattle.objects.get(turn=pending, key="region:K4")
    viewer = viewer_get(user=gm, campaign=pending.campaign)
    version = battle_result_save(
        viewer=viewer,
        battle=k4,
        result={"winner": None, "losses": {"EST": {}, "KAR": {}}, "fingerprint": k4.fingerprint},
    )
    assert version.state == "confirmed"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_remind(now=_clock(k1.deadline + timedelta(minutes=1))) == 0, "past the deadline"
        assert battles_remind(now=_clock(k1.deadline - timedelta(hours=2))) == 1, "K1 only: K4 is resolved"
    assert mail.outbox and all(f"/battles/{k4.pk}/" not in m.body for m in mail.outbox)


def test_a_campaign_without_reminders_sends_none(pending, django_capture_on_commit_callbacks) -> None:
    campaign = pending.campaign
    campaign.ruleset_overrides = {
        **(campaign.ruleset_overrides or {}),
        "tabletop": {"reminder_hours_before": 0},
    }
    campaign.save()
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_remind(now=_clock(battle.deadline - timedelta(minutes=5))) == 0
    assert mail.outbox == []


# ---- overdue (A8.2, A8.3) --------------------------------------------------------------------------


def test_at_the_deadline_the_players_and_the_gm_are_told_once(
    pending, django_capture_on_commit_callbacks
) -> None:
    mail.outbox.clear()
    deadline = TableBattle.objects.get(turn=pending, key="region:K1").deadline
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_overdue(now=_clock(deadline + timedelta(minutes=1))) == 2
        assert battles_overdue(now=_clock(deadline + timedelta(minutes=2))) == 0, "once per deadline"
    counts = {a: len(_to(a)) for a in ("player@example.org", "karelian@example.org", "rival@example.org")}
    assert counts == {"player@example.org": 1, "karelian@example.org": 2, "rival@example.org": 1}
    gm = _to("gm@example.org")
    assert len(gm) == 2 and all(m.subject.endswith(": result overdue") for m in gm)
    assert all("You decide: move the deadline" in m.body for m in gm)
    [player] = _to("player@example.org")
    assert "the GM decides now. You may still propose" in player.body
    assert "K4" not in player.body


def test_an_auto_resolved_battle_s_players_are_told_so(pending, django_capture_on_commit_callbacks) -> None:
    campaign = pending.campaign
    campaign.ruleset_overrides = {"tabletop": {"on_missing_result": "auto_resolve"}}
    campaign.save()
    mail.outbox.clear()
    deadline = TableBattle.objects.get(turn=pending, key="region:K1").deadline
    with django_capture_on_commit_callbacks(execute=True):
        battles_overdue(now=_clock(deadline + timedelta(minutes=1)))
    overdue = [m for m in mail.outbox if m.subject.endswith(": result overdue")]
    assert len(overdue) == 6, "K1 and K4: two players and the GM each"
    assert all("auto-resolved by the Iron Fist resolver" in m.body for m in overdue)


def test_a_battle_whose_forces_changed_is_mailed_its_new_sheet_saying_so(
    pending, django_capture_on_commit_callbacks
) -> None:
    """The claim is per sheet: a battle mailed with other forces (another fingerprint) gets its new one."""
    TableBattle.objects.filter(turn=pending, key="region:K1").update(sheet_mailed="0" * 64)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert battle_sheets_queue(turn=pending) == 1
        assert battle_sheets_queue(turn=pending) == 0
    assert sorted(m.to[0] for m in mail.outbox) == ["karelian@example.org", "player@example.org"]
    assert all("this is its new sheet" in m.body for m in mail.outbox)


def test_the_sheet_mail_reads_a_win_as_the_campaign_does(pending) -> None:
    """A5.1, A11.3: the sheet in the mail says what the result means with the campaign's reading of a win."""
    from campaign.models import Membership
    from rules.tabletop.mails import battle_sheet_text

    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    gm = Membership.objects.get(campaign=pending.campaign, role=Membership.Role.GM).user
    viewer = viewer_get(user=gm, campaign=pending.campaign)
    assert "A decisive win by Kingdom of Nordmark takes Kaarnala" in battle_sheet_text(
        viewer=viewer, battle=battle
    )
    pending.campaign.ruleset_overrides = {"tabletop": {"conquest_needs_decisive": False}}
    pending.campaign.save(update_fields=["ruleset_overrides"])
    text = battle_sheet_text(viewer=viewer, battle=TableBattle.objects.get(pk=battle.pk))
    assert "A win by Kingdom of Nordmark takes Kaarnala" in text and "decisive win" not in text
