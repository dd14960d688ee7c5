"""A system's minute steps come from its shell alone: a toy shell registered by the test with a tick step
is run by the command a machine without beat runs (`lifecycle_tick`) and by beat's task, and said in the
command's line; unregistered, it is run no more."""

from __future__ import annotations

from django.core.management import call_command

from rules.system_shells import SystemShell, shell_register, shell_unregister
from rules.tasks import tick_systems


def test_a_systems_tick_step_runs_with_the_minute_tick_and_in_beat(db, capsys) -> None:
    ran: list[str] = []

    def muster_reminders() -> int:
        ran.append("muster")
        return 3

    shell_register("tick_toy", SystemShell(tick=(("muster reminder(s) queued", muster_reminders),)))
    try:
        call_command("lifecycle_tick")
        assert "3 muster reminder(s) queued" in capsys.readouterr().out
        assert tick_systems() >= 3
        assert ran == ["muster", "muster"]
    finally:
        shell_unregister("tick_toy")

    call_command("lifecycle_tick")
    assert "muster" not in capsys.readouterr().out and ran == ["muster", "muster"]


def test_tabletops_battle_steps_are_in_the_minute_tick(db, capsys) -> None:
    call_command("lifecycle_tick")

    out = capsys.readouterr().out
    assert "0 battle reminder(s) queued" in out and "0 battle(s) overdue" in out
