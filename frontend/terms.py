"""The game's words in the reader's language, in one place: what the engine and the models store as English
data ("rough", "pincer", "attack") is translated here, at the edge, for the pages and the mails.

The rules' own abbreviations (KTA, JV, PA, TY, IV) are the same in both languages and never translated; a
unit type's full name comes from the ruleset (`unit_types.JV.name.fi: jalkaväki`). Words not listed here
(a custom ruleset's term) are shown as they are stored. Sentences are messages, rendered by `said`
(campaign.messages); none is translated here by matching its English.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from campaign.messages import said, system_title  # noqa: F401  (the pages' words, from one module)
from rules.engine.messages import Message
from rules.engine.order_words import order_description
from rules.engine.ruleset import Ruleset

__all__ = ["said"]  # the catalogue's messages in the reader's language, for the pages and the mails

# Short words by what they name: the same English word ("open", "attack") may need different Finnish ones.
WORDS: dict[str, Mapping[str, object]] = {
    "terrain": {
        "open": pgettext_lazy("terrain", "open"),
        "rough": pgettext_lazy("terrain", "rough"),
        "city": pgettext_lazy("terrain", "city"),
    },
    "weather": {
        "clear": pgettext_lazy("weather", "clear"),
        "rain": pgettext_lazy("weather", "rain"),
        "snow": pgettext_lazy("weather", "snow"),
        "storm": pgettext_lazy("weather", "storm"),
    },
    # A campaign's status as its model labels it ("Active").
    "campaign": {
        "setup": pgettext_lazy("campaign status", "Setup"),
        "active": pgettext_lazy("campaign status", "Active"),
        "finished": pgettext_lazy("campaign status", "Finished"),
    },
    "status": {
        "open": pgettext_lazy("turn status", "open"),
        "processing": pgettext_lazy("turn status", "processing"),
        "battles_pending": pgettext_lazy("turn status", "battles pending"),
        "resolved": pgettext_lazy("turn status", "resolved"),
        "failed": pgettext_lazy("turn status", "failed"),
    },
    # The same statuses as the GM follows a turn's processing (frontend/views/gm/processing.py).
    "progress": {
        "open": _("open: waiting for processing (queued, or not yet asked)"),
        "processing": _("processing…"),
        "resolved": _("done"),
        "failed": _("failed"),
        "battles_pending": _("waiting for the results of its battles"),
    },
    "relation": {
        "war": pgettext_lazy("relation", "war"),
        "peace": pgettext_lazy("relation", "peace"),
        "alliance": pgettext_lazy("relation", "alliance"),
    },
    "role": {
        "attacker": pgettext_lazy("side", "attacker"),
        "defender": pgettext_lazy("side", "defender"),
        "party": pgettext_lazy("side", "party"),  # of a control battle (TABLETOP A5.1)
    },
    "outcome": {
        "won": pgettext_lazy("side", "won"),
        "lost": pgettext_lazy("side", "lost"),
        "draw": pgettext_lazy("side", "draw"),
    },
    # As a player chooses an order in the form: "attack", "stand down".
    "order": {
        "attack": pgettext_lazy("order", "attack"),
        "move": pgettext_lazy("order", "move"),
        "rebase": pgettext_lazy("order", "rebase"),
        "hold": pgettext_lazy("order", "hold"),
        "stand_down": pgettext_lazy("order", "stand down"),
    },
    # What the GM changed, as the audit log names it.
    "audit": {
        "deadline": pgettext_lazy("audit", "deadline"),
        "weather": pgettext_lazy("audit", "weather"),
        "gm_modifier": pgettext_lazy("audit", "GM modifier"),
        "relation": pgettext_lazy("audit", "relation"),
        "roster": pgettext_lazy("audit", "roster"),
        "process": pgettext_lazy("audit", "processing"),
        "pause": pgettext_lazy("audit", "pause"),
        "resume": pgettext_lazy("audit", "resume"),
        "lifecycle": pgettext_lazy("audit", "life cycle"),
        "rollback": pgettext_lazy("audit", "rollback"),
        "round": pgettext_lazy("audit", "close-combat round"),
        "battle_system": pgettext_lazy("audit", "battle system"),
    },
    "battle": {
        "normal": _("normal battle"),
        "meeting": _("meeting engagement"),
        "joint": _("joint attack"),
        "control": _("battle for control"),
        "unopposed": _("unopposed"),
        # COMPANY.md §4.4: no defender, attackers of several nations at war with each other.
        "contested": _("contested battle"),
    },
    # A company roster event's kind (COMPANY.md §7.7), as the Kasarmi page's audit trail names it.
    "roster_event": {
        "unit_created": pgettext_lazy("roster event", "unit created"),
        "unit_purchased": pgettext_lazy("roster event", "unit purchased"),
        "tk_lost": pgettext_lazy("roster event", "TK lost"),
        "tk_repaired": pgettext_lazy("roster event", "TK repaired"),
        "xp_awarded": pgettext_lazy("roster event", "XP awarded"),
        "tt_raised": pgettext_lazy("roster event", "TT raised"),
        "veteran_slot_opened": pgettext_lazy("roster event", "veteran slot opened"),
        "ability_chosen": pgettext_lazy("roster event", "ability chosen"),
        "destroyed": pgettext_lazy("roster event", "destroyed"),
        "role_changed": pgettext_lazy("roster event", "role changed"),
        "moved": pgettext_lazy("roster event", "moved"),
        "retreated": pgettext_lazy("roster event", "retreated"),
        "state_recorded": pgettext_lazy("roster event", "state recorded"),
        "tp_awarded": pgettext_lazy("roster event", "TP awarded"),
        "tp_spent": pgettext_lazy("roster event", "TP spent"),
        "tp_adjusted": pgettext_lazy("roster event", "TP adjusted"),
        "gm_edit": pgettext_lazy("roster event", "GM edit"),
    },
    # A recon level (COMPANY.md §8.5.7, §10.3), as the turn report names the level a scout reached.
    "contact": {
        "none": pgettext_lazy("recon level", "nothing found"),
        "suspicion": pgettext_lazy("recon level", "suspicion"),
        "known": pgettext_lazy("recon level", "known"),
        "observed": pgettext_lazy("recon level", "observed"),
    },
    # The terms of a KTA (IRON_FIST §4) as the engine's reports name them.
    "kta": {
        "fortification": _("fortification"),
        "home defence": _("home defence"),
        "pincer": _("pincer"),
        "GM modifier": _("GM modifier"),
        "fortune of war": _("fortune of war"),
    },
}


def word(kind: str, value: str | None) -> str:
    """A stored word ("rough", "war", "attacker") in the reader's language; unknown words as they are."""
    if value is None:
        return ""
    return str(WORDS.get(kind, {}).get(value, value))


def kta_term(term: str) -> str:
    """A KTA term's name: "pincer" -> "saarrostusuhka"; "JV" and "IV support" keep their abbreviations."""
    if term.endswith(" support"):
        return gettext("%(unit_type)s support") % {"unit_type": term.removesuffix(" support")}
    return word("kta", term)


def message_text(value: Any) -> str:
    """A stored message in the reader's language: a code with parameters (`rules.engine.messages`); the
    English sentence of a report stored before messages were data, as it was stored."""
    if isinstance(value, Mapping) and "code" in value:
        return said(Message.from_dict(value))
    return value if isinstance(value, str) else ""


def message_rule(value: Any) -> str | None:
    """The rule a stored message cites ("§5 exception 2"), for its link to the rules page."""
    if isinstance(value, Mapping):
        return (value.get("params") or {}).get("rule")
    return value if isinstance(value, str) else None


def unit_name(ruleset: Ruleset, code: str) -> str:
    """A unit type's full name from the ruleset in the reader's language: JV -> "jalkaväki" / "infantry"."""
    unit_type = ruleset.unit_types.get(code)
    if unit_type is None:
        return code
    return unit_type.names.get(get_language() or "en") or unit_type.names.get("en") or code


def unit_dice(ruleset: Ruleset) -> dict[str, str]:
    """Each unit type's die where the battle system makes units dice (Sodankäynti §3.1: CAV -> "d8")."""
    return {code: str(t.values["die"]) for code, t in ruleset.unit_types.items() if "die" in t.values}


def unit_heading(code: str, dice: Mapping[str, str]) -> str:
    """A unit type as a column or counter shows it: "CAV d8" where units are dice, else "CAV"."""
    return f"{code} {dice[code]}" if code in dice else code


def and_list(names: Iterable[str]) -> str:
    """ "Suomi and Neuvosto" / "Suomi ja Neuvosto" """
    return gettext(" and ").join(names)


def order_words(*, kind: str, origin: str, target: str | None, units: Mapping[str, int]) -> str:
    """One order as a player reads it back: "V3 → K7: attack with 6 JV, 2 PA", "N2: 4 JV hold"."""
    return said(order_description(kind=kind, origin=origin, target=target, units=units))
