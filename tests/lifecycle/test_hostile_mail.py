"""A folder of hostile mails (tests/lifecycle/hostile_mail/): none stops the mailbox. Each is answered or set
aside, the mail after it is read, and a second reading finds every one seen before. `expected.json` gives
what must come of each (the start of its outcome in the log); every file of the folder is listed there."""

from __future__ import annotations

import json
import mailbox
from pathlib import Path

import pytest
from django.core.management import call_command

from campaign.models import InboundMail
from tests.lifecycle.test_order_mail import SERVER, _mail, mail_server  # noqa: F401 (a fixture)

HOSTILE = Path(__file__).parent / "hostile_mail"
EXPECTED = json.loads((HOSTILE / "expected.json").read_text())
GOOD_ID = "<good-after-the-bad@example.org>"


def _maildir(tmp_path: Path, names: list[str]) -> str:
    box = mailbox.Maildir(tmp_path / "Maildir")
    for name in names:
        # As our server delivers it: its Authentication-Results on top (a pass for the player's domain).
        box.add(
            f"Authentication-Results: {SERVER}; dmarc=pass header.from=example.org\r\n".encode()
            + (HOSTILE / name).read_bytes()
        )
    box.add(_mail("rival@example.org", "[demo]", "hold E1: JV 4\n", GOOD_ID))
    return str(tmp_path / "Maildir")


def test_every_hostile_mail_has_its_expected_outcome() -> None:
    assert sorted(p.name for p in HOSTILE.iterdir() if p.suffix == ".eml") == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_hostile_mail_is_answered_or_set_aside_and_the_next_is_read(demo, mailed, tmp_path, name) -> None:
    path = _maildir(tmp_path, [name])

    call_command("read_order_mail", path)

    good = InboundMail.objects.get(message_id=GOOD_ID)
    assert good.outcome.startswith("accepted"), good.outcome
    [bad] = InboundMail.objects.exclude(message_id=GOOD_ID)
    assert bad.outcome.startswith(EXPECTED[name]), bad.outcome
    assert len(bad.message_id) <= 255 and "\x00" not in bad.message_id + bad.subject + bad.sender


def test_the_whole_folder_at_once_is_read_once(demo, mailed, tmp_path, capsys) -> None:
    path = _maildir(tmp_path, sorted(EXPECTED))

    call_command("read_order_mail", path)
    call_command("read_order_mail", path)

    assert InboundMail.objects.count() == len(EXPECTED) + 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{len(EXPECTED) + 1} message(s) read, 0 new, {len(EXPECTED) + 1} seen before"
    )


def test_message_ids_are_compared_whole(demo, mailed, tmp_path) -> None:
    """Two ids alike in their first 255 characters are two mails (the column holds 255)."""
    path = _maildir(tmp_path, ["long_message_id_a.eml", "long_message_id_b.eml"])

    call_command("read_order_mail", path)
    call_command("read_order_mail", path)

    assert InboundMail.objects.count() == 3
    assert demo.turns.get(number=1).orders.filter(nation__code="NOR").count() == 2, "a's hold and b's"


@pytest.fixture
def orders_of_nor_fail(nations):
    """A database that refuses NOR's orders, as a full disk or a broken constraint would: a real fault."""
    from django.db import connection

    nor = nations["NOR"].pk
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                f"CREATE TRIGGER refuse_nor BEFORE INSERT ON orders_order WHEN NEW.nation_id = {nor} "
                "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
            )
        else:
            cursor.execute(
                "CREATE FUNCTION refuse_nor() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'disk on fire'; END $$ LANGUAGE plpgsql"
            )
            cursor.execute(
                f"CREATE TRIGGER refuse_nor BEFORE INSERT ON orders_order FOR EACH ROW "
                f"WHEN (NEW.nation_id = {nor}) EXECUTE FUNCTION refuse_nor()"
            )


def test_a_mail_that_fails_is_set_aside_with_the_reason_and_the_rest_are_read(
    demo, mailed, tmp_path, orders_of_nor_fail, capsys
) -> None:
    path = _maildir(tmp_path, ["latin1_8bit_undeclared.eml"])

    call_command("read_order_mail", path)
    call_command("read_order_mail", path)

    assert InboundMail.objects.get(message_id=GOOD_ID).outcome.startswith("accepted")
    bad = InboundMail.objects.get(message_id="<latin1_8bit_undeclared@hostile.example>")
    assert bad.outcome.startswith("set aside: ") and "disk on fire" in bad.outcome, bad.outcome
    assert capsys.readouterr().out.splitlines()[-1] == "2 message(s) read, 0 new, 2 seen before"
