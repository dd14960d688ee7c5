"""What the GM's control over a turn's result says (rules.history), as codes with English templates marked
for the translators; rendered at the edge in the reader's language (campaign.messages.said)."""

from __future__ import annotations

from rules.engine.messages import ErrorKind, gettext_noop, kinds_register, messages_register

messages_register(
    {
        "engine_cannot": gettext_noop("the engine cannot resolve turn {number}: {error}"),
        "processed_elsewhere": gettext_noop("turn {number} is being processed by another process"),
        "turn_failed": gettext_noop("turn {number} failed:\n{error}"),
        "not_open": gettext_noop("turn {number} is {status}, not open"),
        "rollback_not_resolved": gettext_noop("turn {number} is {status}: only a resolved turn rolls back"),
        "rollback_not_last": gettext_noop(
            "turn {number} is resolved too: roll back the last resolved turn first"
        ),
        "rollback_processing": gettext_noop("turn {number} is being processed"),
        "rollback_no_snapshot": gettext_noop("turn {number} was processed before snapshots were kept"),
        "rollback_needs_force": gettext_noop(
            "turn {number} has {what} already; rolling back deletes them. "
            "Roll back with force to do it anyway."
        ),
        "inputs.orders": gettext_noop("{count} orders"),
        "inputs.gm_modifiers": gettext_noop("{count} gm modifiers"),
        "inputs.weather_changes": gettext_noop("{count} weather changes"),
        "no_archive": gettext_noop("turn {number} has no rolled-back result to compare with"),
        "diff_unprocessed": gettext_noop("turn {number} is {status}: process it again first"),
        "input_changed.orders": gettext_noop("orders changed since the preview"),
        "input_changed.stacks": gettext_noop("stacks changed since the preview"),
        "input_changed.regions": gettext_noop("owners or weather by region changed since the preview"),
        "input_changed.gm_modifiers": gettext_noop("GM modifiers changed since the preview"),
        "input_changed.weather": gettext_noop("weather changed since the preview"),
        "input_changed.relations": gettext_noop("relations changed since the preview"),
        "input_changed.nations": gettext_noop("nations changed since the preview"),
        "input_changed.borders": gettext_noop("borders changed since the preview"),
        "input_changed.other": gettext_noop("{part} changed since the preview"),
        "input_changed.seed": gettext_noop("the seed changed since the preview"),
        "result_not_deterministic": gettext_noop(
            "the input is the previewed one, yet the result differs: report this as a bug"
        ),
        "export_format": gettext_noop("not a campaign export: expected format {expected}, got {found}"),
        "process_not_open": gettext_noop("turn {number} is {status}: only an open turn can be processed"),
        "retry_not_failed": gettext_noop("turn {number} is {status}: only a failed turn can be retried"),
        "audit.published": gettext_noop("turn {number} published"),
        "audit.rolled_back": gettext_noop("turn {number} rolled back; its result archived"),
    }
)
kinds_register(ErrorKind.CONFLICT, ("process_not_open", "retry_not_failed"))
