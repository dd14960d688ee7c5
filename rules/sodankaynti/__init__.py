"""Sodankäynti in the campaign server (SODANKAYNTI.md), beside its pure engine (rules/engine/sodankaynti/):
the GM's ratings and advantages (`services`), its pages (`forms`, `views`, `cards`, their templates and
`urls`) and its entry in the presentation registry (`pages`)."""
