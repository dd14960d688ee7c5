"""Invitations (campaign.invitations): the GM makes a link per nation and revokes it; whoever accepts it first
plays the nation, once. Every refusal names its code and kind; every step writes the audit log; two accepts
at once make one player (on PostgreSQL, where rows lock)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.invitations import (
    DAYS_MAX,
    OPEN_PER_NATION_MAX,
    invitation_accept,
    invitation_create,
    invitation_revoke,
)
from campaign.models import AuditEntry, Campaign, Invitation, Membership
from rules.engine.messages import ErrorKind, Refusal
from tests.conftest import examples, twice_at_once


def refused(work) -> tuple[str, ErrorKind]:
    """The code and kind of the refusal `work()` raises."""
    with pytest.raises(Refusal) as caught:
        work()
    [fault] = caught.value.faults()
    return fault.code, caught.value.kind


@pytest.fixture
def sud(nations):
    """SUD: a nation of the demo nobody plays."""
    return nations["SUD"]


@pytest.fixture
def link(demo, gm, sud):
    return invitation_create(by=gm, campaign=demo, nation=sud)


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user(username="newcomer", password="newcomer-password-1")


@pytest.fixture
def latecomer(django_user_model):
    return django_user_model.objects.create_user(username="latecomer", password="latecomer-password-1")


def test_it_makes_an_unguessable_link_open_for_the_days_the_gm_gives(demo, gm, sud):
    before = timezone.now()
    first = invitation_create(by=gm, campaign=demo, nation=sud, days=3)
    second = invitation_create(by=gm, campaign=demo, nation=sud)

    assert len(first.token) >= 43 and first.token != second.token  # 256 random bits each
    assert first.state(timezone.now()) == Invitation.State.OPEN
    assert timedelta(days=3) <= first.expires_at - before < timedelta(days=3, minutes=1)
    assert second.expires_at - second.created_at == timedelta(days=7)
    [entry, _] = AuditEntry.objects.filter(campaign=demo)
    assert entry.user == gm and entry.code == "audit.invited"
    assert entry.params == {"nation": "SUD", "id": second.pk, "until": f"{second.expires_at:%Y-%m-%d %H:%M}"}


def test_only_the_gm_makes_or_revokes_a_link(demo, gm, player, outsider, sud, link):
    for who in (player, outsider):
        with pytest.raises(PermissionDenied):
            invitation_create(by=who, campaign=demo, nation=sud)
        with pytest.raises(PermissionDenied):
            invitation_revoke(by=who, invitation=link)
    assert Invitation.objects.count() == 1 and link.state(timezone.now()) == "open"


def test_it_refuses_a_link_for_a_played_nation_another_campaigns_nation_or_days_out_of_bounds(
    demo, gm, player, nations, sud
):
    from campaign.scenario import scenario_read
    from campaign.services import scenario_import
    from tests.conftest import DEMO

    other_campaign = scenario_import(scenario=scenario_read(DEMO), slug="other")
    assert refused(lambda: invitation_create(by=gm, campaign=demo, nation=nations["NOR"])) == (
        "invitation_nation_played",
        ErrorKind.CONFLICT,
    )
    stranger = other_campaign.nations.get(code="SUD")
    assert refused(lambda: invitation_create(by=gm, campaign=demo, nation=stranger)) == (
        "not_in_campaign",
        ErrorKind.INVALID,
    )
    for days in (0, DAYS_MAX + 1, -5):
        assert refused(lambda d=days: invitation_create(by=gm, campaign=demo, nation=sud, days=d)) == (
            "invitation_days_range",
            ErrorKind.INVALID,
        )
    assert not Invitation.objects.exists()


def test_a_nation_has_at_most_so_many_open_links(demo, gm, sud):
    for _ in range(OPEN_PER_NATION_MAX):
        invitation_create(by=gm, campaign=demo, nation=sud)

    assert refused(lambda: invitation_create(by=gm, campaign=demo, nation=sud)) == (
        "invitation_too_many",
        ErrorKind.CONFLICT,
    )
    invitation_revoke(by=gm, invitation=Invitation.objects.first())
    invitation_create(by=gm, campaign=demo, nation=sud)


def test_accepting_makes_the_user_the_nations_player_once(demo, gm, sud, link, newcomer, latecomer):
    membership = invitation_accept(user=newcomer, token=link.token)

    assert (membership.role, membership.nation, membership.campaign) == (Membership.Role.PLAYER, sud, demo)
    link.refresh_from_db()
    assert (link.used_by, link.state(timezone.now())) == (newcomer, Invitation.State.USED)
    assert refused(lambda: invitation_accept(user=latecomer, token=link.token)) == (
        "invitation_used",
        ErrorKind.GONE,
    )
    assert refused(lambda: invitation_accept(user=newcomer, token=link.token)) == (
        "invitation_used",
        ErrorKind.GONE,
    )
    entry = AuditEntry.objects.filter(campaign=demo).first()
    assert (entry.user, entry.code) == (newcomer, "audit.invitation_accepted")
    assert entry.params == {"nation": "SUD", "user": "newcomer", "id": link.pk}
    assert Membership.objects.filter(nation=sud).count() == 1


def test_an_expired_or_revoked_link_or_one_of_an_ended_campaign_lets_no_one_in(demo, gm, sud, newcomer):
    made = timezone.now()
    old = invitation_create(by=gm, campaign=demo, nation=sud, days=1, now=lambda: made - timedelta(days=2))
    revoked = invitation_revoke(by=gm, invitation=invitation_create(by=gm, campaign=demo, nation=sud))
    ending = invitation_create(by=gm, campaign=demo, nation=sud)

    code, kind = refused(lambda: invitation_accept(user=newcomer, token=old.token))
    assert (code, kind) == ("invitation_expired", ErrorKind.GONE)
    assert refused(lambda: invitation_accept(user=newcomer, token=revoked.token)) == (
        "invitation_revoked",
        ErrorKind.GONE,
    )
    Campaign.objects.filter(pk=demo.pk).update(status=Campaign.Status.FINISHED)
    assert refused(lambda: invitation_accept(user=newcomer, token=ending.token)) == (
        "invitation_campaign_ended",
        ErrorKind.GONE,
    )
    assert refused(lambda: invitation_accept(user=newcomer, token="no-such-token")) == (
        "invitation_unknown",
        ErrorKind.NOT_VISIBLE,
    )
    assert not Membership.objects.filter(user=newcomer).exists()


def test_the_gm_or_a_player_of_the_campaign_cannot_take_another_seat(demo, gm, player, sud, link):
    assert refused(lambda: invitation_accept(user=gm, token=link.token)) == (
        "invitation_user_runs",
        ErrorKind.CONFLICT,
    )
    code, kind = refused(lambda: invitation_accept(user=player, token=link.token))
    assert (code, kind) == ("invitation_user_plays", ErrorKind.CONFLICT)
    link.refresh_from_db()
    assert link.state(timezone.now()) == "open", "a refused accept leaves the link as it was"


def test_a_second_link_of_a_nation_with_a_player_meets_the_player(demo, gm, sud, newcomer, latecomer):
    first = invitation_create(by=gm, campaign=demo, nation=sud)
    second = invitation_create(by=gm, campaign=demo, nation=sud)
    invitation_accept(user=newcomer, token=first.token)

    assert refused(lambda: invitation_accept(user=latecomer, token=second.token)) == (
        "invitation_nation_taken",
        ErrorKind.CONFLICT,
    )


def test_accepting_ends_a_playerless_nations_civil_disorder(demo, gm, sud, link, newcomer):
    sud.civil_disorder, sud.turns_missed_in_row = True, 3
    sud.save()

    invitation_accept(user=newcomer, token=link.token)

    sud.refresh_from_db()
    assert (sud.civil_disorder, sud.turns_missed_in_row) == (False, 0)


def test_revoking_takes_only_an_open_link(demo, gm, sud, link, newcomer):
    revoked = invitation_revoke(by=gm, invitation=link)
    assert revoked.state(timezone.now()) == Invitation.State.REVOKED
    assert AuditEntry.objects.filter(campaign=demo).first().code == "audit.invitation_revoked"
    assert refused(lambda: invitation_revoke(by=gm, invitation=link)) == (
        "invitation_not_open",
        ErrorKind.CONFLICT,
    )

    used = invitation_create(by=gm, campaign=demo, nation=sud)
    invitation_accept(user=newcomer, token=used.token)
    code, _ = refused(lambda: invitation_revoke(by=gm, invitation=used))
    assert code == "invitation_not_open"


def test_a_link_with_an_address_is_mailed_in_the_gms_language(
    demo, gm, sud, mailoutbox, settings, django_capture_on_commit_callbacks
):
    from campaign.lifecycle import language_set

    settings.IRONFIST_SITE_URL = "https://ironfist.example"
    language_set(user=gm, language="fi")
    with django_capture_on_commit_callbacks(execute=True):  # the mail is queued once the link commits
        link = invitation_create(by=gm, campaign=demo, nation=sud, email=" friend@example.org ")

    [sent] = mailoutbox
    assert sent.to == ["friend@example.org"] and link.email == "friend@example.org"
    assert sent.subject == "[The Grenzwald Crisis] Sinut on kutsuttu pelaamaan valtiota Sudrian Empire"
    assert f"https://ironfist.example/join/{link.token}/" in sent.body
    assert "kutsuu sinut pelaamaan" in sent.body
    assert f'href="https://ironfist.example/join/{link.token}/"' in sent.alternatives[0][0]
    assert AuditEntry.objects.filter(campaign=demo).first().code == "audit.invited_mailed"


def test_a_link_revoked_before_its_mail_goes_is_not_mailed(demo, gm, sud, mailoutbox):
    from frontend.mail.accounts import invitation_mail_send

    link = invitation_create(by=gm, campaign=demo, nation=sud, email="friend@example.org")
    invitation_revoke(by=gm, invitation=link)

    assert invitation_mail_send(invitation_id=link.pk) == 0 and mailoutbox == []


# -- two at once -------------------------------------------------------------------------------------------

ROW_LOCKS = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL: set DATABASE_URL (CI does)"
)


@ROW_LOCKS
@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_link_at_once_make_one_player(demo, gm, sud, newcomer, latecomer):
    link = invitation_create(by=gm, campaign=demo, nation=sud)
    users = iter([newcomer, latecomer])

    def accept():
        user = next(users)
        try:
            return invitation_accept(user=user, token=link.token).user.username
        except Refusal as refusal:
            return refusal.faults()[0].code

    outcomes = twice_at_once(accept, timeout=30)

    assert sorted(outcomes, key=lambda o: o.startswith("invitation")) in (
        ["newcomer", "invitation_used"],
        ["latecomer", "invitation_used"],
    )
    assert Membership.objects.filter(nation=sud).count() == 1


@ROW_LOCKS
@pytest.mark.django_db(transaction=True)
def test_two_links_of_one_nation_accepted_at_once_make_one_player(demo, gm, sud, newcomer, latecomer):
    links = iter(
        [
            (newcomer, invitation_create(by=gm, campaign=demo, nation=sud).token),
            (latecomer, invitation_create(by=gm, campaign=demo, nation=sud).token),
        ]
    )

    def accept():
        user, token = next(links)
        try:
            return invitation_accept(user=user, token=token).user.username
        except Refusal as refusal:
            return refusal.faults()[0].code

    outcomes = twice_at_once(accept, timeout=30)

    assert sorted(o.startswith("invitation") for o in outcomes) == [False, True]
    assert "invitation_nation_taken" in outcomes
    assert Membership.objects.filter(nation=sud).count() == 1


# -- whatever happens, in any order ------------------------------------------------------------------------

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["make", "revoke", "accept", "wait"]),
        st.integers(min_value=0, max_value=4),  # which link (of those made), or days to wait
        st.integers(min_value=0, max_value=3),  # which nation, or which user
    ),
    max_size=25,
)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_whatever_the_gm_and_the_users_do_a_nation_has_one_player_and_a_link_one_use(
    demo, gm, nations, django_user_model, steps
):
    """Links made, revoked, accepted by four users, and days passing, in any order: no nation gets two
    players, no user two seats, no link is used twice or used and revoked, and every player who came
    through a link holds the nation that link was for."""
    with transaction.atomic():
        free = [nations[code] for code in ("SUD", "WES", "KAR")]
        users = [
            django_user_model.objects.create_user(username=f"user-{n}", password="pw-user-password-1")
            for n in range(4)
        ]
        clock = [timezone.now()]
        made: list[Invitation] = []
        for action, which, who in steps:
            try:
                if action == "make":
                    made.append(
                        invitation_create(
                            by=gm,
                            campaign=demo,
                            nation=free[who % len(free)],
                            days=1 + which,
                            now=lambda: clock[0],
                        )
                    )
                elif action == "revoke" and made:
                    invitation_revoke(by=gm, invitation=made[which % len(made)], now=lambda: clock[0])
                elif action == "accept" and made:
                    token = made[which % len(made)].token
                    invitation_accept(user=users[who], token=token, now=lambda: clock[0])
                elif action == "wait":
                    clock[0] += timedelta(days=which)
            except Refusal:
                pass
        players = list(Membership.objects.filter(campaign=demo, role=Membership.Role.PLAYER))
        nations_played = [m.nation_id for m in players]
        assert len(nations_played) == len(set(nations_played)), "a nation with two players"
        seats = [m.user_id for m in players if m.user in users]
        assert len(seats) == len(set(seats)), "a user with two seats"
        for invitation in Invitation.objects.filter(campaign=demo):
            assert invitation.used_at is None or invitation.revoked_at is None
            if invitation.used_by_id is not None:
                seat = Membership.objects.get(user_id=invitation.used_by_id, campaign=demo)
                assert seat.nation_id == invitation.nation_id
        used = Invitation.objects.filter(campaign=demo, used_by__isnull=False).values_list(
            "used_by_id", flat=True
        )
        assert len(list(used)) == len(set(used)), "a user through two links"
        transaction.set_rollback(True)
