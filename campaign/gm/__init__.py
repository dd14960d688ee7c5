"""The game master's powers, one module a power; each takes the acting user as `by`, checks that they run
the campaign (PermissionDenied otherwise) and records what it changed in the audit log (campaign.gm.access).

  clock        deadline_set, deadline_extend, campaign_pause, campaign_resume, lifecycle_settings_set
  inputs       weather_set, gm_modifier_set                     a turn's weather and KTA modifiers
  diplomacy    relation_set                                     war, peace, alliance
  roster       roster_change, nation_assign                     units by hand, who plays a nation
  processing   turn_process_request, turn_retry_request         queue the turn now, retry a failed one
  system       battle_system_set                                the battle system, between turns

A turn's result (preview, publish, roll back, compare) is the turn job's: rules.history; the campaign's
export and replay: rules.export.
"""
