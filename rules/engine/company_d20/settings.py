"""company_d20's scalar ruleset settings (COMPANY.md §12), declared once for its registry entry: the builder
(`ruleset.py`) checks a campaign's values through them, and the GM's forms and the API read the same."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.engine.messages import gettext_noop
from rules.engine.ruleset import defaults_read
from rules.engine.settings import choice, flag, settings_declare, whole

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")
CONTACT_LEVELS = ("none", "suspicion", "known", "observed")


def company_defaults() -> Mapping[str, Any]:
    return defaults_read(DEFAULTS_FILE)


# The scalar settings of §12, in its order; the tables (catalogue, abilities, dice tables, bands, levels,
# covers, fire support types, compass, KP actions) are checked whole below. The maxima are ours where
# COMPANY.md names none: far above any campaign's, low enough that no saved value stalls a later turn. The
# spec's own bounds: `company_size` ≥ 1 (§12), the 1d6 thresholds at most 6 (§8.5.9), extra damage dice at
# most 20, as many as an expression may roll (§8.3). `reroll_min_tt` had no minimum in the code: its minimum
# is far below any TT (K ≥ 0, §3.1), so that every threshold a campaign could mean still builds.
SETTINGS = settings_declare(
    company_defaults(),
    whole(
        "company_size",
        minimum=1,
        maximum=1000,
        section="§7.3",
        help=gettext_noop("The most active units a nation's company may have; the GM may set it per nation."),
    ),
    choice(
        "purchase_placement",
        choices=("home", "any_owned"),
        section="§7.3",
        help=gettext_noop(
            "Where a bought unit is placed: home (a home region the nation holds, else any "
            "region it holds) or any_owned (any region it holds)."
        ),
    ),
    whole(
        "xp.per_vp",
        minimum=0,
        maximum=100,
        section="§5.5",
        help=gettext_noop("XP a side's pool gains for each VP it scores."),
    ),
    whole(
        "xp.tt_step",
        minimum=1,
        maximum=1000,
        section="§3.3",
        help=gettext_noop("XP a unit needs for each +1 to its TT."),
    ),
    whole(
        "xp.tt_bonus_max",
        minimum=0,
        maximum=100,
        nullable=True,
        section="§3.3",
        help=gettext_noop("The most TT a unit gains from its XP; empty for no cap."),
    ),
    choice(
        "xp.sharing",
        choices=("equal", "earned"),
        section="§5.5",
        help=gettext_noop(
            "How a side's XP pool is shared: equal (equally over its units) or earned (each "
            "unit its own VP, the objective VP equally)."
        ),
    ),
    choice(
        "xp.damaged_rounding",
        choices=("down", "up"),
        section="§5.5",
        help=gettext_noop("How the halved XP share of a unit damaged at the end is rounded: down or up."),
    ),
    choice(
        "xp.destroyed",
        choices=("forfeit", "exclude"),
        section="§5.5",
        help=gettext_noop(
            "A destroyed unit's XP share: forfeit (it is lost) or exclude (the survivors share the pool)."
        ),
    ),
    whole(
        "tp.per_vp",
        minimum=0,
        maximum=100,
        section="§5.5",
        help=gettext_noop("TP a nation gains for each VP its side scores."),
    ),
    whole(
        "tp.tk_per_tp",
        minimum=1,
        maximum=100,
        section="§7.2",
        help=gettext_noop("TK a repair restores for each TP spent."),
    ),
    whole(
        "tp.starting",
        minimum=0,
        maximum=10000,
        section="§7.1",
        help=gettext_noop("Each nation's TP balance at the start of the campaign."),
    ),
    whole(
        "veteran.xp_step",
        minimum=1,
        maximum=1000,
        section="§7.4",
        help=gettext_noop("XP a unit needs for each veteran ability slot."),
    ),
    whole(
        "veteran.max_abilities",
        minimum=0,
        maximum=100,
        nullable=True,
        section="§7.4",
        help=gettext_noop("The most veteran abilities a unit may hold; empty for no cap."),
    ),
    choice(
        "result.finalisation",
        choices=("gm", "all_sides"),
        section="§5.2",
        help=gettext_noop(
            "When a battle's result becomes final: gm (when the GM confirms it) or "
            "all_sides (when every side has approved it)."
        ),
    ),
    whole(
        "result.deadline_hours",
        minimum=1,
        maximum=8760,
        section="§5.2",
        help=gettext_noop("Hours from the moment a battle opens to the deadline for its result."),
    ),
    whole(
        "result.reminder_hours_before",
        minimum=0,
        maximum=8760,
        section="§5.2",
        help=gettext_noop(
            "Hours before a battle's deadline that its players are reminded while it has no confirmed result."
        ),
    ),
    choice(
        "result.tie_winner",
        choices=("defender", "none"),
        section="§5.4",
        help=gettext_noop(
            "A tie for the most VP: defender (the defender wins if it is among the tied "
            "sides) or none (no winner)."
        ),
    ),
    flag(
        "result.wiped_out_defender_loses",
        section="§5.4",
        help=gettext_noop(
            "A defender whose units were all destroyed loses the region to the attacker with "
            "the most VP among those with a surviving unit."
        ),
    ),
    flag(
        "turn.auto_complete",
        section="§2.3",
        help=gettext_noop(
            "The turn completes as soon as its last battle is final; if off, the GM completes it."
        ),
    ),
    choice(
        "turn.cut_off",
        choices=("destroyed", "nearest"),
        section="§6",
        help=gettext_noop(
            "A retreating unit whose nation holds no adjacent region: destroyed, or nearest "
            "(it goes to its nation's nearest region)."
        ),
    ),
    choice(
        "dice.opposed_tie",
        choices=("passive", "active"),
        section="§8.5.3",
        help=gettext_noop("Who wins a tied opposed roll: passive (the resisting side) or active."),
    ),
    flag(
        "attack.naturals",
        section="§8.5.4",
        help=gettext_noop(
            "A natural 20 raises an attack's miss to suppression and its normal hit to a "
            "heavy hit; a natural 1 is a setback for the attacker."
        ),
    ),
    whole(
        "attack.heavy_extra_dice",
        minimum=0,
        maximum=20,
        section="§8.5.5",
        help=gettext_noop("Extra damage dice, of the weapon's size, that a heavy hit rolls."),
    ),
    choice(
        "attack.damaged_rounding",
        choices=("down", "up"),
        section="§8.5.5",
        help=gettext_noop("How a damaged attacker's halved damage is rounded: down or up."),
    ),
    whole(
        "morale.critical_margin",
        minimum=0,
        maximum=100,
        section="§8.5.6",
        help=gettext_noop("A morale test that fails by this many points or more is a critical failure."),
    ),
    choice(
        "recon.mode",
        choices=("graded", "off"),
        section="§10.1",
        help=gettext_noop(
            "Fog of war: graded (other nations' units are seen through recon contacts) or "
            "off (everyone sees every unit)."
        ),
    ),
    whole(
        "recon.range",
        minimum=1,
        maximum=100,
        section="§4.2",
        help=gettext_noop("How many borders from its origin region a recon order reaches."),
    ),
    flag(
        "recon.add_stealth",
        section="§8.5.7",
        help=gettext_noop("A recon target adds its H (stealth) to its roll, besides its cover."),
    ),
    whole(
        "recon.duration",
        minimum=0,
        maximum=1000,
        section="§10.3",
        help=gettext_noop("For how many turns after the turn it was made a recon snapshot stays valid."),
    ),
    flag(
        "recon.share_with_allies",
        section="§10.3",
        help=gettext_noop("Allied nations see each other's recon contacts."),
    ),
    flag(
        "recon.target_notified",
        section="§10.2",
        help=gettext_noop("A nation is told when its region has been scouted."),
    ),
    choice(
        "fire_support.min_contact",
        choices=CONTACT_LEVELS,
        section="§8.5.9",
        help=gettext_noop("The least contact level a target needs before fire support can be called on it."),
    ),
    whole(
        "fire_support.no_direction_tk",
        minimum=0,
        maximum=100,
        section="§8.5.9",
        help=gettext_noop("An observer with this much TK or less cannot direct fire."),
    ),
    whole(
        "fire_support.damaged_direction_min",
        minimum=1,
        maximum=6,
        section="§8.5.9",
        help=gettext_noop("A damaged observer directs fire only on a 1d6 roll of at least this."),
    ),
    whole(
        "fire_support.reroll_min_tt",
        minimum=-100,
        maximum=100,
        section="§8.5.9",
        help=gettext_noop("An observer with at least this TT is offered one scatter die reroll."),
    ),
    whole(
        "fire_support.danger_close_max",
        minimum=0,
        maximum=6,
        section="§8.5.9",
        help=gettext_noop(
            "An own unit in a danger-close strike's area takes half the strike's damage on "
            "a 1d6 roll of at most this."
        ),
    ),
    flag(
        "kp.tracking",
        section="§9",
        help=gettext_noop("The server keeps each side's command point (KP) pools during a battle."),
    ),
    whole(
        "kp.company_commander",
        minimum=0,
        maximum=100,
        section="§9.1",
        help=gettext_noop("KP the company commander's pool gets each table turn."),
    ),
    whole(
        "kp.platoon_leader",
        minimum=0,
        maximum=100,
        section="§9.1",
        help=gettext_noop("KP a platoon leader's pool gets each table turn."),
    ),
    whole(
        "kp.platoon_leader_out_of_link",
        minimum=0,
        maximum=100,
        section="§9.1",
        help=gettext_noop(
            "KP a platoon leader's pool gets in a table turn it starts out of the command link."
        ),
    ),
    whole(
        "kp.promoted_company",
        minimum=0,
        maximum=100,
        section="§9.1",
        help=gettext_noop("KP the company pool of a field-promoted commander gets each table turn."),
    ),
    whole(
        "kp.promoted_platoon",
        minimum=0,
        maximum=100,
        section="§9.1",
        help=gettext_noop("KP the own platoon pool of a field-promoted commander gets each table turn."),
    ),
    whole(
        "kp.battle_group",
        minimum=0,
        maximum=100,
        section="§9.1",
        help=gettext_noop("KP each battle group's pool gets each table turn."),
    ),
    whole(
        "kp.transfer_limit",
        minimum=0,
        maximum=100,
        nullable=True,
        section="§9.2",
        help=gettext_noop(
            "The most 1-KP transfers from the company pool to one platoon pool in a table "
            "turn; empty for no limit."
        ),
    ),
    flag(
        "reports.public_summary",
        section="§10.1",
        help=gettext_noop("Everyone sees where battles are, who won and whether the region changed hands."),
    ),
)
