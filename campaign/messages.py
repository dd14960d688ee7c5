"""What the GM's inputs and the audit log say, as codes with their English templates (each marked for the
translators), and `said`: a message in the active language, for pages and mails.

The engine and the other apps register their own codes (rules.engine.validation, orders.messages, ...); this
app sits at the bottom of the services, so the one renderer lives here and everything above may use it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from campaign.durations import duration_words
from rules.engine.messages import Message, gettext_noop, messages_register
from rules.engine.systems import SystemUnavailable, system_get

messages_register(
    {
        # Words inside sentences.
        "turn_status.open": gettext_noop("open"),
        "turn_status.processing": gettext_noop("processing"),
        "turn_status.resolved": gettext_noop("resolved"),
        "turn_status.failed": gettext_noop("failed"),
        "weather.clear": gettext_noop("clear"),
        "weather.rain": gettext_noop("rain"),
        "weather.snow": gettext_noop("snow"),
        "weather.storm": gettext_noop("storm"),
        "relation.war": gettext_noop("war"),
        "relation.peace": gettext_noop("peace"),
        "relation.alliance": gettext_noop("alliance"),
        "none": gettext_noop("none"),
        "duration": gettext_noop("{minutes} minutes"),  # English only; `said` writes the reader's words
        "parts": gettext_noop("{first}; {second}"),
        # The GM's inputs refused.
        "deadline_naive": gettext_noop("give the deadline with its time zone"),
        "deadline_not_future": gettext_noop("the deadline must be in the future"),
        "deadline_too_far": gettext_noop("a deadline can be at most {years} years ahead"),
        "unknown_weather": gettext_noop("unknown weather {weather!r}: one of {kinds}"),
        "region_unknown_weather": gettext_noop("{region}: unknown weather {weather!r}"),
        "not_in_campaign": gettext_noop("{code} is not in this campaign"),
        "same_nations": gettext_noop("choose two different nations"),
        "unknown_relation": gettext_noop("unknown relation {kind!r}"),
        "count_negative": gettext_noop("a count cannot be negative"),
        "reason_required": gettext_noop("say why: the players will ask"),
        "inputs_closed": gettext_noop("turn {number} is {status}: its inputs are closed"),
        "already_paused": gettext_noop("the campaign is already paused"),
        "not_paused": gettext_noop("the campaign is not paused"),
        "extend_positive": gettext_noop("extend by a positive amount of time"),
        "deadline_past_use": gettext_noop("turn {number} is {status}: its deadline is past use"),
        "extended_still_past": gettext_noop("the extended deadline would still be in the past"),
        "reminder_negative": gettext_noop("a reminder comes before the deadline: 0 or more"),
        "disorder_negative": gettext_noop("0 (never) or more missed turns"),
        "user_runs": gettext_noop("{user} already runs this campaign"),
        "user_plays": gettext_noop("{user} already plays {nation} in this campaign"),
        "unknown_time_zone": gettext_noop("unknown time zone {time_zone!r}, try Europe/Helsinki"),
        "unknown_language": gettext_noop("unknown language {language!r}"),
        "no_open_turn": gettext_noop("there is no open turn"),
        "no_such_user": gettext_noop("no user is called {name}"),
        "system_ruleset_misfit": gettext_noop("the campaign's ruleset does not fit {name}: {error}"),
        "system_unit_types_missing": gettext_noop("{name} has no unit type {types}, which the map has"),
        "system_inputs_unused": gettext_noop("{name} has no nation ratings, doctrines or GM advantages"),
        "system_inputs_invalid": gettext_noop("the turn would refuse this: {error}"),
        # The audit log's summaries.
        "audit.deadline": gettext_noop("turn {number}: {before} → {after} UTC"),
        "audit.battle_deadline": gettext_noop("turn {number}, battle {key}: {before} → {after} UTC"),
        "audit.weather": gettext_noop("turn {number}: {weather}; by region: {local}"),
        "audit.region_weather": gettext_noop("{region} {weather}"),
        "audit.gm_modifier": gettext_noop("turn {number}: {nation} in {region} {value}"),
        "audit.relation": gettext_noop("{a}–{b}: {kind}"),
        "audit.roster": gettext_noop("{unit_type} of {nation} in {region}: {before} → {count}"),
        "audit.queued": gettext_noop("turn {number} queued for processing"),
        "audit.queued_uncounted": gettext_noop(
            "turn {number} queued for processing early; nations without orders do not count it as missed"
        ),
        "audit.retried": gettext_noop("turn {number} retried after a failure"),
        "audit.paused": gettext_noop("campaign paused; {left} left"),
        "audit.paused_no_turn": gettext_noop("campaign paused; no open turn"),
        "audit.resumed": gettext_noop("campaign resumed"),
        "audit.resumed_due": gettext_noop("campaign resumed; turn {number} due {due} UTC"),
        "audit.extended": gettext_noop("turn {number}: {extra} more, due {due} UTC"),
        "audit.extended_paused": gettext_noop("turn {number}: {extra} more; {left} left when resumed"),
        "audit.process_early_on": gettext_noop("process early on"),
        "audit.process_early_off": gettext_noop("process early off"),
        "audit.reminder": gettext_noop("reminder {before} before"),
        "audit.no_reminder": gettext_noop("no reminder"),
        "audit.disorder_after": gettext_noop("civil disorder after {count} missed turns"),
        "audit.no_disorder": gettext_noop("no civil disorder"),
        "audit.battle_system": gettext_noop("battle system: {before} → {name}"),
        "audit.nation_attributes": gettext_noop(
            "{nation}: politics {politics}, tactics {tactics}, doctrine {doctrine}"
        ),
        "audit.system_inputs": gettext_noop(
            "turn {number}: {advantages} GM advantages; politics skipped in {skipped}"
        ),
        "audit.assigned": gettext_noop("{nation}: played by {user}"),
        "audit.assigned_instead": gettext_noop("{nation}: played by {user} in place of {before}"),
    }
)


def status_word(status: str) -> Message:
    """A turn's status inside a sentence: "turn 3 is {status}: orders are closed"."""
    return Message(f"turn_status.{status}")


def duration(left: timedelta) -> Message:
    """A length of time inside a sentence, to the minute; `said` writes it as "2 days 3 hours"."""
    return Message("duration", {"minutes": round(left.total_seconds() / 60)})


def parts(messages: list[Message]) -> Message:
    """Several messages as one, "a; b; c" (a few: each is one level deeper)."""
    whole = messages[0]
    for more in messages[1:]:
        whole = Message("parts", {"first": whole, "second": more})
    return whole


def said(message: Message | str) -> str:
    """The message in the active language (a plain string, as stored before messages were data, as it is)."""
    if isinstance(message, str):
        return message
    return message.render(gettext, _param)


def system_title(name: str) -> str:
    """A battle system by its name in the active language, from its registry entry; its key where it has
    none or no title (a system of the tests)."""
    try:
        system = system_get(name)
    except SystemUnavailable:
        return name
    return said(system.title_message) if system.title else name


def said_in(language: str, message: Message | str) -> str:
    with translation.override(language):
        return said(message)


def _param(name: str, value: Any) -> Any:
    if name == "rule" and isinstance(value, str):  # "§5 exception 1"
        return value.replace("exception", gettext("exception"))
    if isinstance(value, Message) and value.code == "duration":
        return duration_words(timedelta(minutes=value.params["minutes"]))
    return value
