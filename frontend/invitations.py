"""The GM dashboard's invitations panel (issue 27): per nation, who plays it, its open links to copy (each
with its revoke button), and the form that makes a new one. Read here, written by campaign.invitations
through frontend.views.gm.invitations."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.invitations import DAYS_DEFAULT, DAYS_MAX, DAYS_MIN, invitations_of
from campaign.models import Invitation, Nation
from campaign.selectors import Viewer
from frontend.mail.accounts import invitation_url


class InviteForm(forms.Form):
    """A new link for a nation: how long it stays open, and where to mail it, if anywhere."""

    nation = forms.CharField(max_length=Nation._meta.get_field("code").max_length, widget=forms.HiddenInput)
    days = forms.IntegerField(
        label=_("Days open"), min_value=DAYS_MIN, max_value=DAYS_MAX, initial=DAYS_DEFAULT
    )
    email = forms.EmailField(
        label=_("Mail it to (optional)"),
        required=False,
        max_length=Invitation._meta.get_field("email").max_length,
    )


def invitations_panel(
    viewer: Viewer, nations: list[dict[str, Any]], bound: InviteForm | None = None
) -> dict[str, Any]:
    """The panel from the dashboard's `nations` rows (frontend.selectors.gm_dashboard_load: nation, code,
    name, colour, players) and one query of the links: `rows`, one per nation, with its players' names,
    joined (the last link used: who and when), links (the open ones: id, url, expires_at, email) and form
    (the invite form; `bound`, with its errors, for the nation it was sent for); and `errors`, a bound form's
    errors that belong to no row (a nation the campaign does not have)."""
    now = timezone.now()
    links: dict[int, list[dict[str, Any]]] = {}
    joined: dict[int, Invitation] = {}
    # The open links and the used ones: not the revoked or expired, which only grow in number.
    shown = Q(used_at__isnull=False) | Q(revoked_at__isnull=True, expires_at__gt=now)
    for invitation in invitations_of(campaign=viewer.campaign).filter(shown):
        state = invitation.state(now)
        if state == Invitation.State.OPEN:
            links.setdefault(invitation.nation_id, []).append(
                {
                    "id": invitation.pk,
                    "url": invitation_url(invitation.token),
                    "expires_at": invitation.expires_at,
                    "email": invitation.email,
                }
            )
        elif state == Invitation.State.USED and invitation.nation_id not in joined:
            joined[invitation.nation_id] = invitation
    sent_for = bound.data.get("nation") if bound is not None else None
    rows = []
    for row in nations:
        nation = row["nation"]
        form = bound if sent_for == nation.code else InviteForm(initial={"nation": nation.code})
        # Each nation's form has ids of its own: a page holds one per nation.
        form.auto_id = f"id_invite_{nation.pk}_%s"
        rows.append(
            {
                "nation": {"code": row["code"], "name": row["name"], "color": row["color"]},
                "players": [p["username"] for p in row["players"]],
                "joined": joined.get(nation.pk),
                "links": links.get(nation.pk, []),
                "form": form,
            }
        )
    placed = any(row["form"] is bound for row in rows)
    errors = [e for field in bound.errors.values() for e in field] if bound is not None and not placed else []
    return {"rows": rows, "errors": errors}
