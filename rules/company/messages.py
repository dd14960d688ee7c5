"""The company shell's own refusals, beside the engine's (rules.engine.company_d20.problems): the same
prefix, so a `Problem` of either renders the same way."""

from rules.engine.company_d20.problems import PREFIX
from rules.engine.messages import gettext_noop, messages_register

messages_register(
    {
        "kasarmi_action_unknown": gettext_noop("There is no Kasarmi action {ref}."),
        "params_invalid": gettext_noop("{ref} does not take these fields."),
        "battle_not_open": gettext_noop("Battle {ref} is no longer being fought."),
        "not_in_battle": gettext_noop("Your nation is not a side of battle {ref}."),
        "turn_not_pending": gettext_noop("The turn is not waiting for battle results."),
        "kp_off": gettext_noop("This campaign does not keep a KP ledger."),
        "results_missing": gettext_noop("Battle {ref} has no final result yet."),
        "entry_stale": gettext_noop(
            "The forces of battle {ref} are not those the result was entered against: enter it again."
        ),
        "civil_disorder": gettext_noop(
            "{nation} is in civil disorder: it takes orders again once the GM assigns it a player"
        ),
        "no_current_version": gettext_noop("Battle {ref} has no result to answer."),
        "result_action_unknown": gettext_noop("There is no result action {ref}."),
        "roll_unknown": gettext_noop("There is no roll #{ref} in this battle."),
        "roll_void_already": gettext_noop("Roll #{ref} is already void."),
        "table_turn_not_next": gettext_noop("The next table turn is {next}, not {ref}."),
        "table_turn_by_ledger": gettext_noop(
            "Battle {ref} keeps a KP ledger: start the next table turn there."
        ),
        "mark_unknown": gettext_noop("A roll is annotated or marked void, not {ref}."),
        "tp_too_large": gettext_noop("A balance of {balance} TP is more than the {limit} TP it may hold."),
        "inputs_too_long": gettext_noop("The inputs of {ref} are longer than {limit} characters."),
        "too_many_targets": gettext_noop("{count} units named for {ref}: the battle has {limit}."),
    },
    prefix=PREFIX,
)
