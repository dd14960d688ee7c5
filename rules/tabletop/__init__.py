"""Tabletop battles in the campaign server (TABLETOP.md), beside their pure engine (rules/engine/tabletop/):
the plan's battles as rows and the results workflow (`battles`), the GM's preview, rollback, replay and
archive, the close-combat rounds and calculator, their API, their pages (`views*`, `sheets`, `cards`,
templates, `urls`) and the entry in the presentation registry (`pages`); the shell registered when the app
is ready (`shell`)."""
