"""The company shell's own refusals, beside the engine's (rules.engine.company_d20.problems): the same
prefix, so a `Problem` of either renders the same way."""

from rules.engine.company_d20.problems import PREFIX
from rules.engine.messages import gettext_noop, messages_register

messages_register(
    {
        PREFIX + "kasarmi_action_unknown": gettext_noop("There is no Kasarmi action {ref}."),
        PREFIX + "params_invalid": gettext_noop("{ref} does not take these fields."),
        PREFIX + "battle_not_open": gettext_noop("Battle {ref} is no longer being fought."),
        PREFIX + "not_in_battle": gettext_noop("Your nation is not a side of battle {ref}."),
        PREFIX + "turn_not_pending": gettext_noop("The turn is not waiting for battle results."),
        PREFIX + "kp_off": gettext_noop("This campaign does not keep a KP ledger."),
        PREFIX + "results_missing": gettext_noop("Battle {ref} has no final result yet."),
        PREFIX + "entry_stale": gettext_noop(
            "The forces of battle {ref} are not those the result was entered against: enter it again."
        ),
        PREFIX + "civil_disorder": gettext_noop(
            "{nation} is in civil disorder: it takes orders again once the GM assigns it a player"
        ),
        PREFIX + "no_current_version": gettext_noop("Battle {ref} has no result to answer."),
        PREFIX + "result_action_unknown": gettext_noop("There is no result action {ref}."),
        PREFIX + "roll_unknown": gettext_noop("There is no roll #{ref} in this battle."),
        PREFIX + "roll_void_already": gettext_noop("Roll #{ref} is already void."),
        PREFIX + "table_turn_not_next": gettext_noop("The next table turn is {next}, not {ref}."),
        PREFIX + "table_turn_by_ledger": gettext_noop(
            "Battle {ref} keeps a KP ledger: start the next table turn there."
        ),
        PREFIX + "mark_unknown": gettext_noop("A roll is annotated or marked void, not {ref}."),
    }
)
