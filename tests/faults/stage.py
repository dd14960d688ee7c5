"""The fault tests' hands inside the stack under test: `python -m tests.faults.stage setup|queue|state`,
run with that stack's DATABASE_URL and REDIS_URL (the test process itself is connected elsewhere).

  setup   the demo campaign, turn 1 open with the busy first turn's orders (tests/campaign)
  queue   queue turn 1's processing, as the GM's button does
  state   turn 1 as JSON: status, result, fault, how often queued again; snapshots, reports, the turns
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")


def main(command: str) -> None:
    import django

    django.setup()
    from django.db import transaction

    from campaign.models import Turn
    from campaign.queue import turn_queue
    from rules.engine.messages import Message
    from rules.models import Report, TurnSnapshot

    if command == "setup":
        from campaign.scenario import scenario_read
        from campaign.services import scenario_import
        from tests.campaign.test_turn_processing import ORDERS
        from tests.conftest import DEMO, orders_place

        campaign = scenario_import(scenario=scenario_read(DEMO), slug="demo")
        orders_place(campaign.turns.get(number=1), ORDERS)
    elif command == "queue":
        with transaction.atomic():
            turn_queue(turn_id=Turn.objects.get(campaign__slug="demo", number=1).pk)
    elif command == "state":
        from rules.selectors import turn_result

        turn = Turn.objects.get(campaign__slug="demo", number=1)
        print(
            json.dumps(
                {
                    "status": turn.status,
                    "error": turn.error,
                    # The whole result: its battle reports are kept once, as rows (rules.selectors).
                    "result": turn_result(turn=turn),
                    "requeues": turn.requeues,
                    "fault": str(Message.from_dict(turn.fault)) if turn.fault else "",
                    "snapshots": TurnSnapshot.objects.filter(turn=turn).count(),
                    "reports": Report.objects.filter(turn=turn).count(),
                    "turns": list(
                        Turn.objects.filter(campaign=turn.campaign).values_list("number", "status")
                    ),
                    "orders": [
                        [
                            o.pk,
                            o.nation.code,
                            o.kind,
                            o.origin.code,
                            o.target.code if o.target else None,
                            o.units,
                        ]
                        for o in turn.orders.select_related("nation", "origin", "target").order_by("sequence")
                    ],
                }
            )
        )
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1])
