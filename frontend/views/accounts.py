"""Accounts: changing and resetting a password (Django's own views, in the site's pages); logging in:
straight to the campaign when the user is in one only; the demo's logins shown while the demo is loaded
with its own passwords (a local demo, `make run`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, path, reverse, reverse_lazy
from django.utils.translation import gettext_lazy as _
from django.views import View

from campaign.selectors import campaigns_of
from frontend.management.commands.load_demo import GM, demo_logins


class LoginView(auth_views.LoginView):
    next_page = "frontend:home"

    def get_success_url(self) -> str:
        asked = self.get_redirect_url()
        if asked:
            return asked
        campaigns = list(campaigns_of(user=self.request.user)[:2])
        if len(campaigns) == 1:
            return reverse("frontend:campaign", args=[campaigns[0].slug])
        return super().get_success_url()

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        logins = demo_logins()
        gm = get_user_model().objects.filter(username=GM[0]).first() if logins else None
        # Only while the demo's GM still has the demo's password: a real site that loaded the demo once
        # and changed it shows nothing.
        context["demo_logins"] = logins if gm is not None and gm.check_password(GM[1]) else []
        return context


FORM, DONE = "frontend/account/form.html", "frontend/account/done.html"

# What each page of the password steps says, by the name of its route.
WORDS = {
    "password_change": {"title": _("Change your password"), "submit": _("Change password")},
    "password_change_done": {
        "title": _("Password changed"),
        "said": _("Your new password works from now on."),
    },
    "password_reset": {
        "title": _("Reset your password"),
        "intro": _("Give the email address of your account: a link to set a new password goes there."),
        "submit": _("Send the link"),
    },
    "password_reset_done": {
        "title": _("Look in your mail"),
        "said": _(
            "If an account has that address, a link to set a new password is on its way. "
            "No mail? Look in the spam folder, or ask your game master."
        ),
    },
    "password_reset_confirm": {"title": _("Choose a new password"), "submit": _("Set the password")},
    "password_reset_complete": {
        "title": _("Password set"),
        "said": _("Your new password is set: log in with it."),
    },
}


def _form(route: str, view: type[View], name: str, *, then: str, **options: str) -> URLPattern:
    """One of Django's password forms in the site's form page; `then`, the name of the page it leads to."""
    success = reverse_lazy(f"frontend:{then}")
    page = view.as_view(template_name=FORM, success_url=success, extra_context=WORDS[name], **options)
    return path(route, page, name=name)


def _done(route: str, view: type[View], name: str) -> URLPattern:
    """The page that says a password step is done."""
    return path(route, view.as_view(template_name=DONE, extra_context=WORDS[name]), name=name)


# Django's views do the work (tokens, throttling of nothing but the mail, the password validators); the
# site gives them its pages and words.
password_urls = [
    _form(
        "accounts/password/", auth_views.PasswordChangeView, "password_change", then="password_change_done"
    ),
    _done("accounts/password/done/", auth_views.PasswordChangeDoneView, "password_change_done"),
    _form(
        "accounts/reset/",
        auth_views.PasswordResetView,
        "password_reset",
        then="password_reset_done",
        email_template_name="frontend/account/reset_email.txt",
        subject_template_name="frontend/account/reset_subject.txt",
    ),
    _done("accounts/reset/sent/", auth_views.PasswordResetDoneView, "password_reset_done"),
    _form(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView,
        "password_reset_confirm",
        then="password_reset_complete",
    ),
    _done("accounts/reset/done/", auth_views.PasswordResetCompleteView, "password_reset_complete"),
]
