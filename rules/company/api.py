"""Company campaigns in the REST API (COMPANY.md §11.3), under /api/campaigns/<slug>/: rosters and the
Kasarmi, orders, the battles of a turn, a battle's sheet, dice, result and report, and the map's contacts.

Anything the viewer may not see is a 404, as if it did not exist (§10.3); every refusal is a 400 with
{"errors": [{"code", "ref", "message"}]} in the reader's language.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.api import SLUG, CampaignScoped, IsGM
from campaign.bounds import body, query
from campaign.models import Turn
from campaign.selectors import Viewer
from rules.company import models
from rules.company.dice import battle_stream_text, dice_roll, dice_verify, roll_mark, table_turn_set
from rules.company.kp import kp_operate, ledger_of
from rules.company.results import (
    battle_fingerprint,
    company_battle_void,
    company_result_act,
    company_result_save,
    current_version,
    result_preview,
)
from rules.company.selectors import (
    battle_side,
    battle_visible,
    battles_of,
    contacts_of,
    event_row,
    events_of,
    is_company,
    map_of,
    rolls_of,
    roster_nation,
    roster_view,
    seed_revealed,
    sheet_of,
)
from rules.company.services import company_ruleset, kasarmi_act, orders_submit, turn_in_play
from rules.company.shapes import (
    KasarmiShape,
    KpShape,
    OrdersShape,
    PreviewQuery,
    ResultActionShape,
    ResultEntryShape,
    RollMarkShape,
    RollShape,
    TableTurnShape,
    VoidShape,
)
from rules.company.turn import company_turn_preview
from rules.engine.company_d20.problems import Problem
from rules.engine.messages import Refusal
from rules.models import ResultVersion

# The API's names for the Kasarmi actions (§11.3), and the engine's.
ACTIONS = {
    "repair": "repair",
    "buy": "buy",
    "abilities": "choose_ability",
    "appoint": "appoint_commander",
    "adjust-tp": "adjust_tp",
    "edit": "gm_edit",
    "restore": "gm_restore",
    "remove-ability": "gm_remove_ability",
    "company-size": "gm_company_size",
}


def refused(problems: list[Problem]) -> Refusal:
    """The engine's problems as one refusal, answered with the API's error envelope."""
    return Refusal([p.fault() for p in problems])


# The answers are the engine's JSON as COMPANY.md §11.3 shows it. A body is its view's `serializer_class`
# (rules.company.shapes): what the schema documents, what OPTIONS describes, what `body` validates.
JSON = extend_schema(parameters=[SLUG], responses=OpenApiTypes.OBJECT)
# A reading that waits for a state (the open turn's preview, a final battle's replay): a 409 before it.
STATE_BOUND = extend_schema(
    responses={
        200: OpenApiTypes.OBJECT,
        409: OpenApiResponse(description="Not yet: the turn takes no orders, or the battle is not final."),
    }
)


class CompanyScoped(CampaignScoped):
    """A company campaign's endpoint; in a campaign of another system it does not exist."""

    refuses_by_role = True  # the GM's actions and a side's answers are refused to others with a 403

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        if not is_company(self.viewer.campaign):
            raise Http404("not a company campaign")

    def nation_get(self):
        nation = roster_nation(viewer=self.viewer, code=self.kwargs["nation"])
        if nation is None:
            raise Http404("no such roster")
        return nation

    def get_object(self) -> models.Battle | Any:
        """What the route names, a battle or a nation's roster: OPTIONS looks it up before it describes a
        PUT, and answers without the PUT where the viewer may not see it."""
        return self.battle_get() if "battle" in self.kwargs or "pk" in self.kwargs else self.nation_get()

    def battle_get(self) -> models.Battle:
        """The battle at its address (`turns/<number>/battles/<id>/`, its table battle's id) or, as before
        it, by its own id (`battles/<pk>/`, an alias kept for existing clients); a 404 for one the viewer
        may not see."""
        if "battle" in self.kwargs:
            found = models.Battle.objects.filter(
                table_id=self.kwargs["battle"], turn__number=self.kwargs["number"]
            ).values_list("pk", flat=True)
            pk = found.first()
        else:
            pk = self.kwargs["pk"]
        battle = battle_visible(viewer=self.viewer, pk=pk) if pk is not None else None
        if battle is None:
            raise Http404("no such battle")
        return battle


@JSON
class Roster(CompanyScoped):
    def get(self, request: Request, slug: str, nation: str) -> Response:
        return Response(roster_view(campaign=self.viewer.campaign, nation=self.nation_get()))


@JSON
class RosterEvents(CompanyScoped):
    def get(self, request: Request, slug: str, nation: str) -> Response:
        events = events_of(campaign=self.viewer.campaign, nation=self.nation_get())
        return Response([event_row(e) for e in events])


@JSON
class KasarmiAction(CompanyScoped):
    serializer_class = KasarmiShape

    def post(self, request: Request, slug: str, nation: str, action: str) -> Response:
        target = self.nation_get()
        if action not in ACTIONS:
            raise Http404("no such action")
        params = body(request, KasarmiShape)
        done = kasarmi_act(
            campaign=self.viewer.campaign,
            nation=target,
            action=ACTIONS[action],
            params=params,
            actor=request.user,
            by_gm=self.viewer.is_gm,
        )
        if isinstance(done, Problem):
            raise refused([done])
        return Response(
            {"unit": done.unit, "roster": roster_view(campaign=self.viewer.campaign, nation=target)}
        )


@JSON
class Orders(CompanyScoped):
    serializer_class = OrdersShape

    def put(self, request: Request, slug: str, nation: str) -> Response:
        target = self.nation_get()
        orders = body(request, OrdersShape)["orders"]
        if self.viewer.nation != target:
            raise refused([Problem("not_your_unit", nation)])
        turn = turn_in_play(self.viewer.campaign)
        if turn is None:
            raise refused([Problem("not_orders_phase")])
        problems = orders_submit(turn=turn, nation=target, orders=orders)
        if problems:
            raise refused(problems)
        return Response({"orders": models.OrderSet.objects.get(turn=turn, nation=target).orders})


@JSON
class Contacts(CompanyScoped):
    def get(self, request: Request, slug: str) -> Response:
        return Response(contacts_of(viewer=self.viewer))


@JSON
class CompanyMap(CompanyScoped):
    """Every region with the viewer's recon contacts (COMPANY.md §10.3); the GM's with every unit."""

    def get(self, request: Request, slug: str) -> Response:
        return Response(map_of(viewer=self.viewer))


@JSON
class TurnBattles(CompanyScoped):
    """The turn's battles, public (§10.1); for the GM and each battle's nations also the state of its
    current result, the GM's queue (BATTLE_SYSTEMS.md, results entry)."""

    def get(self, request: Request, slug: str, number: int) -> Response:
        turn = self.turn_get()
        battles = list(battles_of(campaign=self.viewer.campaign, turn=turn))
        states = dict(
            ResultVersion.objects.filter(battle__company__in=battles, state__in=ResultVersion.LIVE)
            .order_by("number")
            .values_list("battle__company", "state")
        )
        mine = self.viewer.nation.code if self.viewer.nation else None
        public = company_ruleset(self.viewer.campaign).get("reports.public_summary")
        rows = []
        for b in battles:
            inside = self.viewer.is_gm or mine in b.data["sides"]
            row = {"id": b.pk, "key": b.key, "kind": b.kind, "sides": b.data["sides"], "status": b.status}
            if inside:
                row["result"] = states.get(b.pk)
            if b.report and (inside or public):
                row["summary"] = battle_summary(b.report)
            rows.append(row)
        return Response(rows)


def battle_summary(report: dict[str, Any]) -> dict[str, Any]:
    """After completion, who won and whether the region changed hands (§10.1): public with
    `reports.public_summary`, else the battle's nations' and the GM's only. A void battle has no winner."""
    outcome = report.get("outcome") or {}
    holder = outcome.get("holder") or outcome.get("occupier")
    return {
        "winner": outcome.get("winner", outcome.get("occupier")),
        "changed_hands": holder is not None,
        "holder": holder,
        "void": bool(outcome.get("void")),
    }


@JSON
class TurnPreview(CompanyScoped):
    """The GM's dry run of the open turn: the battles processing would assign now; nothing is stored."""

    permission_classes = [IsAuthenticated, IsGM]

    @STATE_BOUND
    def get(self, request: Request, slug: str, number: int) -> Response:
        turn = self.turn_get()
        if turn.status != Turn.Status.OPEN:
            raise refused([Problem("not_orders_phase")])
        return Response(company_turn_preview(turn=turn))


def battle_detail(viewer: Viewer, battle: models.Battle) -> dict[str, Any]:
    """A battle as its sides and the GM see it (§10.3); once final, its report and its dice stream."""
    data = sheet_of(viewer=viewer, battle=battle)
    if seed_revealed(battle=battle):
        data["report"] = battle.report
        data["stream"] = battle_stream_text(battle)
    return data


@JSON
class BattleDetail(CompanyScoped):
    """A battle by its own id: the alias of its address (rules.table_api.TableBattleDetail)."""

    def get(self, request: Request, **route: Any) -> Response:
        return Response(battle_detail(self.viewer, self.battle_get()))


@JSON
class BattleRolls(CompanyScoped):
    serializer_class = RollShape

    def get(self, request: Request, **route: Any) -> Response:
        return Response(rolls_of(viewer=self.viewer, battle=self.battle_get()))

    def post(self, request: Request, **route: Any) -> Response:
        battle = self.battle_get()
        data = body(request, RollShape)
        made = dice_roll(
            battle=battle,
            user=request.user,
            side=battle_side(viewer=self.viewer, battle=battle),
            function=data["function"],
            inputs=data.get("inputs") or {},
            purpose=data.get("purpose"),
        )
        if isinstance(made, Problem):
            raise refused([made])
        return Response(rolls_of(viewer=self.viewer, battle=battle)[-len(made) :], status=201)


@JSON
class BattleRollMark(CompanyScoped):
    """The GM's mark on a roll (§8.2): `rolls/{seq}/note/` annotates it, `rolls/{seq}/void/` marks it void;
    the body's `text` is the note or the reason."""

    serializer_class = RollMarkShape

    @extend_schema(operation_id="company_battle_roll_mark")
    def post(self, request: Request, seq: int, mark: str, **route: Any) -> Response:
        battle = self.battle_get()
        data = body(request, RollMarkShape)
        problem = roll_mark(battle=battle, seq=seq, mark=mark, text=data.get("text"), by_gm=self.viewer.is_gm)
        if problem is not None:
            raise refused([problem])
        return Response(next(r for r in rolls_of(viewer=self.viewer, battle=battle) if r["seq"] == seq))


@JSON
class BattleKp(CompanyScoped):
    """The KP ledger (COMPANY.md §9): its pools and its operations, each with who asked."""

    def get(self, request: Request, **route: Any) -> Response:
        battle = self.battle_get()
        ruleset = company_ruleset(self.viewer.campaign)
        if not ruleset.get("kp.tracking"):
            raise Http404("no KP ledger in this campaign")
        ledger = ledger_of(battle, ruleset)
        return Response({**ledger.view(), "operations": battle.kp or []})


@JSON
class BattleKpOperation(CompanyScoped):
    serializer_class = KpShape

    def post(self, request: Request, op: str, **route: Any) -> Response:
        battle = self.battle_get()
        params = body(request, KpShape)
        done = kp_operate(
            battle=battle,
            user=request.user,
            side=battle_side(viewer=self.viewer, battle=battle),
            op=op.replace("-", "_"),
            params=params,
        )
        if isinstance(done, Problem):
            raise refused([done])
        return Response(done.view())


@JSON
class BattleVerify(CompanyScoped):
    @STATE_BOUND
    def get(self, request: Request, **route: Any) -> Response:
        battle = self.battle_get()
        if not seed_revealed(battle=battle):
            raise refused([Problem("battle_not_open", battle.key)])
        return Response(dice_verify(battle=battle))


@JSON
class BattleTableTurn(CompanyScoped):
    serializer_class = TableTurnShape

    def post(self, request: Request, **route: Any) -> Response:
        battle = self.battle_get()
        value = body(request, TableTurnShape).get("table_turn")
        problem = table_turn_set(battle=battle, table_turn=value, user=request.user, by_gm=self.viewer.is_gm)
        if problem is not None:
            raise refused([problem])
        battle.refresh_from_db()
        return Response({"table_turn": battle.table_turn, "log": battle.table_turn_log})


def versions_of(battle: models.Battle) -> list[dict[str, Any]]:
    """The battle's versions, oldest first, each with its state and the nations' answers (§11.2)."""
    return [
        {
            "version": v.number,
            "state": v.state,
            "origin": v.origin,
            "result": v.payload,
            "fingerprint": v.fingerprint,
            "nation": v.nation.code if v.nation else None,
            "created_at": v.created_at.isoformat(),
            "reason": str(v.reason_message() or ""),  # in English; `decision` is the code and parameters
            "decision": v.decision,
            "answers": [
                {"nation": a.nation.code, "answer": a.answer, "comment": a.comment} for a in v.answers.all()
            ],
        }
        for v in battle.versions.select_related("nation").prefetch_related("answers__nation")
    ]


def result_state(battle: models.Battle) -> dict[str, Any]:
    battle.refresh_from_db(fields=["void_reason"])
    battle.table.refresh_from_db(fields=["state"])
    current = current_version(battle)
    return {
        "status": battle.status,
        "void_reason": battle.void_reason,
        "fingerprint": battle_fingerprint(battle),
        "current": None if current is None else {"version": current.number, "state": current.state},
        "versions": versions_of(battle),
    }


@JSON
class BattleResult(CompanyScoped):
    """The battle's result through the shared results entry (COMPANY.md §5.2): GET the versions; PUT (or
    POST) a version; POST with ?preview=1 for what an entry would award, nothing stored."""

    serializer_class = ResultEntryShape

    def get(self, request: Request, **route: Any) -> Response:
        return Response(result_state(self.battle_get()))

    def put(self, request: Request, **route: Any) -> Response:
        battle = self.battle_get()
        entry = body(request, ResultEntryShape)
        company_result_save(viewer=self.viewer, battle=battle, entry=entry)
        return Response(result_state(battle), status=201)

    def post(self, request: Request, **route: Any) -> Response:
        if query(request, PreviewQuery).get("preview"):
            entry = body(request, ResultEntryShape)
            preview = result_preview(battle=self.battle_get(), entry=entry)
            if isinstance(preview, list):
                raise refused(preview)
            return Response(preview)
        return self.put(request, **route)


@JSON
class BattleResultAction(CompanyScoped):
    """POST result/approve (or agree), dispute (a `comment`), withdraw, confirm, void (a `reason`) on the
    current version, or the one named by `version`; result/reopen (a `reason`) for the GM."""

    serializer_class = ResultActionShape

    # Its own name: drf-spectacular would name it as it names result/'s POST.
    @extend_schema(operation_id="company_battle_result_action")
    def post(self, request: Request, action: str, **route: Any) -> Response:
        battle = self.battle_get()
        data = body(request, ResultActionShape)
        number = data.get("version")
        named = battle.versions.filter(number=number).first() if number is not None else None
        version = named if number is not None else current_version(battle)
        if number is not None and version is None:
            raise Http404("no such version")
        company_result_act(
            viewer=self.viewer,
            battle=battle,
            action=action,
            version=version,
            text=data.get("comment") or data.get("reason") or "",
        )
        return Response(result_state(battle))


@JSON
class BattleVoid(CompanyScoped):
    """The GM voids the battle (COMPANY.md §5.6), with a `reason`."""

    serializer_class = VoidShape

    def post(self, request: Request, **route: Any) -> Response:
        battle = self.battle_get()
        reason = body(request, VoidShape).get("reason") or ""
        company_battle_void(viewer=self.viewer, battle=battle, reason=reason)
        return Response(result_state(battle))
