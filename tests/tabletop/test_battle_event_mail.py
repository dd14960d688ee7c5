"""The results workflow's mails of a tabletop battle (TABLETOP.md A11.3): a new version waiting for your
answer, a dispute, a result confirmed or voided, a battle reopened or stale; each once, to whom it
concerns, in the reader's language, nothing of another battle in it."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import timezone

from campaign.lifecycle import language_set
from campaign.selectors import viewer_get
from rules.models import TableBattle
from rules.tabletop import battles
from tests.tabletop.test_battle_mail import cast, pending, processed  # noqa: F401  (fixtures)

PLAYERS = ["karelian@example.org", "player@example.org"]  # K1: NOR attacks KAR


@pytest.fixture
def k1(pending):  # noqa: F811
    return TableBattle.objects.get(turn=pending, key="region:K1")


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """Run a service with its mails sent as it commits; the mails it sent, newest only."""

    def go(action, *args, **kwargs):
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            action(*args, **kwargs)
        return list(mail.outbox)

    return go


def _viewer(user, battle):
    return viewer_get(user=user, campaign=battle.turn.campaign)


def _propose(run, player, battle):
    result = {
        "winner": "NOR",
        "decisive": True,
        "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 3}},
        "score": "1450 – 820",
        "fingerprint": battle.fingerprint,
    }
    sent = run(
        lambda: battles.battle_result_save(viewer=_viewer(player, battle), battle=battle, result=result)
    )
    return battle.versions.get(number=1), sent


def _no_other_battle(message) -> None:
    for body in (message.body, message.alternatives[0][0]):
        assert "K4" not in body and "E2" not in body and "Ostland" not in body, "EST's battle is not theirs"


def test_a_new_version_asks_the_other_nations_for_their_answer_once(k1, player, run) -> None:
    _, sent = _propose(run, player, k1)
    assert [m.to[0] for m in sent] == ["karelian@example.org"], "not NOR, who saved it; not EST nor the GM"
    [message] = sent
    subject = "[The Grenzwald Crisis] Turn 1 — Battle of Kaarnala: version 1 waits for your answer"
    assert message.subject == subject
    assert "entered by NOR" in message.body and "Winner: NOR (decisive)" in message.body
    assert "Losses KAR: JV 3" in message.body and "1450 – 820" in message.body
    _no_other_battle(message)


def test_a_dispute_is_told_to_the_battle_s_players_and_the_gm_with_its_comment(
    k1, player, karelian, run
) -> None:
    version, _ = _propose(run, player, k1)
    sent = run(
        battles.battle_result_dispute,
        viewer=_viewer(karelian, k1),
        version=version,
        comment="We lost 2 JV, not 3.",
    )
    assert sorted(m.to[0] for m in sent) == ["gm@example.org", *PLAYERS]
    for message in sent:
        assert message.subject.endswith(": version 1 disputed")
        assert "KAR disputes it: We lost 2 JV, not 3." in message.body
        assert "We lost 2 JV, not 3." in message.alternatives[0][0]
        _no_other_battle(message)


def test_a_confirmed_result_is_told_to_each_player_in_their_own_language(
    k1, gm, player, karelian, run
) -> None:
    language_set(user=karelian, language="fi")
    version, _ = _propose(run, player, k1)
    agreed = run(battles.battle_result_agree, viewer=_viewer(karelian, k1), version=version)
    assert agreed == [], "agreed waits for the GM (gm_confirms_agreed): nothing is decided yet"
    sent = run(battles.battle_result_confirm, viewer=_viewer(gm, k1), version=version)
    assert sorted(m.to[0] for m in sent) == PLAYERS
    by = {m.to[0]: m for m in sent}
    assert by["player@example.org"].subject.endswith(": result confirmed")
    finnish = by["karelian@example.org"]
    assert finnish.subject.endswith(": tulos vahvistettu"), finnish.subject
    assert "Tuloksen versio 1 on vahvistettu" in finnish.body
    assert "Voittaja: NOR (ratkaiseva)" in finnish.body and "Tappiot KAR: JV 3" in finnish.body


def test_a_voided_version_and_a_reopened_battle_say_why(k1, gm, player, run) -> None:
    version, _ = _propose(run, player, k1)
    voided = run(
        battles.battle_result_void, viewer=_viewer(gm, k1), version=version, reason="Wrong table size"
    )
    assert sorted(m.to[0] for m in voided) == PLAYERS
    assert all(m.subject.endswith(": result voided") and "Reason: Wrong table size" in m.body for m in voided)

    result = {"winner": None, "losses": {"NOR": {}, "KAR": {}}, "fingerprint": k1.fingerprint}
    battles.battle_result_save(viewer=_viewer(gm, k1), battle=k1, result=result)
    reopened = run(battles.battle_reopen, viewer=_viewer(gm, k1), battle=k1, reason="Replayed on Sunday")
    told = [m for m in reopened if m.subject.endswith(": battle reopened")]
    assert sorted(m.to[0] for m in told) == PLAYERS
    assert all("Replayed on Sunday" in m.body for m in told)


def test_a_version_made_stale_by_changed_forces_comes_with_the_old_and_the_new_sheet(k1, player, run) -> None:
    """As if the battle's forces had been others when the version was saved (A10.3)."""
    version, _ = _propose(run, player, k1)
    old = {**k1.sheet, "place": {**k1.sheet["place"], "notes": "OLD-SHEET-NOTE"}}
    TableBattle.objects.filter(pk=k1.pk).update(fingerprint="0" * 64, sheet=old)
    version.fingerprint = "0" * 64
    version.save(update_fields=["fingerprint"])

    def replan():
        state, ruleset = battles.turn_state(turn=k1.turn)
        battles.battles_record(turn=k1.turn, state=state, ruleset=ruleset, now=timezone.now())

    sent = run(replan)
    stale = [m for m in sent if m.subject.endswith(": result set aside: the forces changed")]
    assert sorted(m.to[0] for m in stale) == PLAYERS
    for message in stale:
        text = message.body
        assert text.index("The old sheet") < text.index("OLD-SHEET-NOTE") < text.index("The new sheet")
        assert "OLD-SHEET-NOTE" not in text[text.index("The new sheet") :]
        _no_other_battle(message)
    assert run(replan) == [], "once: a second re-plan finds nothing to set aside"


def test_a_nation_that_only_supports_the_battle_is_told_nothing_of_its_results(
    k1, player, karelian, run
) -> None:
    """Fog of war (A5.4): a supporter sees its own support lines, never the battle's result or comments."""
    TableBattle.objects.filter(pk=k1.pk).update(sheet={**k1.sheet, "support": [["EST", "E2", "IV", 1]]})
    k1.refresh_from_db()
    version, sent = _propose(run, player, k1)
    disputed = run(
        battles.battle_result_dispute, viewer=_viewer(karelian, k1), version=version, comment="No."
    )
    assert "rival@example.org" not in {m.to[0] for m in [*sent, *disputed]}
