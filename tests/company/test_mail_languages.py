"""The post-battle mail of a company turn (COMPANY.md §11.1) in each reader's language: a Finnish player
reads Finnish, an English one English, each only its own battles' units."""

from __future__ import annotations


def test_each_player_reads_the_post_battle_mail_in_their_own_language(
    battle, company, gm, player, rival, django_capture_on_commit_callbacks
):
    from django.core import mail

    from campaign.lifecycle import language_set
    from tests.company.conftest import result_final

    for user in (gm, player, rival):
        user.email = f"{user.username}@example.org"
        user.save()
    language_set(user=rival, language="fi")
    entry = {"units": [{"unit": int(n), "vp": 1} for n in battle.data["units"]]}
    with django_capture_on_commit_callbacks(execute=True):
        result_final(battle, entry, gm)
    by = {m.to[0]: m for m in mail.outbox}
    english, finnish = by["player@example.org"], by["rival@example.org"]
    assert "after the battles" in english.body and "Your Kasarmi" in english.body
    assert "after the battles" not in finnish.body and "Your Kasarmi" not in finnish.body
    assert "Battle M1" not in finnish.body and "M1" in finnish.body
    assert "/c/demo/kasarmi/EST/" in finnish.body and "/c/demo/kasarmi/NOR/" in english.body
