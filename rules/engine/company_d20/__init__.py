"""The company_d20 battle system ("Taistelukenttä d20", shared/rules/COMPANY.md): pure Python, no Django.

The battles are fought at the table; the engine runs the campaign around them. Entry points:
- the ruleset: `company_ruleset_build(overrides)`;
- the roster: `unit_create`, `unit_view` and the derived values of `roster`;
- the turn: `orders_check`, `process_turn`, `complete_turn`; results: `result_validate`, `result_final`;
- the Kasarmi actions of `kasarmi`, the KP ledger of `kp`, the dice functions behind `log.roll_make`;
- recon: `contacts_view`.
"""

from pathlib import Path

from ..messages import gettext_noop
from ..systems import BattleSystem, system_register
from .campaign import map_problems
from .cases import case_check
from .kasarmi import Company, Done
from .log import FUNCTIONS, RollEntry, StreamState, log_replay, roll_make, stream_open
from .orders import Order, orders_check
from .problems import Problem, Refused
from .recon import contacts_view
from .results import Battle, Final, result_final, result_validate
from .roster import Unit, unit_create, unit_view
from .ruleset import CompanyRuleset, company_ruleset_build
from .settings import SETTINGS
from .turn import Completed, CompletionError, Processed, complete_turn, process_turn

# The battles are played at the table, so there is no `fight`: the turn is the system's own (COMPANY.md §2.2).
SYSTEM = BattleSystem(
    name="company_d20",
    title=gettext_noop("Company d20"),
    summary=gettext_noop(
        "Each battle is played at the table by named squads with d20 dice, rolled through the server's dice "
        "service; the server runs the campaign around it: orders, who fights where, fog of war and the "
        "Kasarmi. The players enter the result, and its victory points decide the winner, whether the region "
        "changes hands and the XP and TP the companies gain."
    ),
    rules=Path(__file__).with_name("COMPANY.md"),
    # COMPANY.md §4.2, in the order a form offers them, as Iron Fist's (orders.KINDS is the check's order).
    kinds=("hold", "move", "attack", "recon"),
    settings=SETTINGS,
    ruleset_build=company_ruleset_build,
    fight=None,
    case_check=case_check,
    extra={
        "orders_check": orders_check,
        "process_turn": process_turn,
        "complete_turn": complete_turn,
        "map_problems": map_problems,  # a map this system refuses (§8.1, `region_id_invalid`)
    },
)
system_register(SYSTEM)

__all__ = [
    "SYSTEM",
    "FUNCTIONS",
    "Battle",
    "Company",
    "CompanyRuleset",
    "Completed",
    "CompletionError",
    "Done",
    "Final",
    "Order",
    "Problem",
    "Processed",
    "Refused",
    "RollEntry",
    "StreamState",
    "Unit",
    "case_check",
    "company_ruleset_build",
    "complete_turn",
    "contacts_view",
    "log_replay",
    "orders_check",
    "process_turn",
    "result_final",
    "result_validate",
    "roll_make",
    "stream_open",
    "unit_create",
    "unit_view",
]
