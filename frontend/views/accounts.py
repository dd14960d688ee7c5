"""Accounts: signing up, with the link that confirms the address (campaign.accounts); changing and resetting
a password (Django's own views, in the site's pages); logging in: straight to the campaign when the user is in
one only; the demo's logins shown while the demo is loaded with its own passwords (a local demo, `make run`).

Sign-up is throttled by address (campaign.throttles), as the login is by account and address (django-axes);
it logs the new user in at once, and mails the confirmation link as the password reset mails its link, while
the request waits. Until the link is opened the account has no address, so no mail reaches it: the home page
says so and sends the link again (throttled per user).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login, password_validation
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.decorators.http import require_POST

from campaign.accounts import account_create, email_confirm, email_taken
from campaign.messages import said
from campaign.selectors import campaigns_of
from campaign.throttles import ConfirmMailThrottle, SignUpThrottle, throttle_wait
from frontend.forms import form_refuse
from frontend.mail.accounts import email_confirm_send
from frontend.management.commands.load_demo import GM, demo_logins
from rules.engine.messages import InputError, Message


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
        demos = demo_logins()
        gm = get_user_model().objects.filter(username=GM[0]).first() if demos else None
        # Only while the demo's GM still has the demo's password: a real site that loaded the demo once
        # and changed it shows nothing.
        context["demo_campaigns"] = demos if gm is not None and gm.check_password(GM[1]) else []
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


# -- signing up ----------------------------------------------------------------------------------------------

# The address a new account waits to confirm, kept in its session for the home page's reminder.
PENDING_EMAIL = "iron_fist_email_pending"
# Django hashes any password it is given: as long as a password manager makes one (config/api_auth.py).
PASSWORD_MAX = 4096
EMAIL_MAX = get_user_model()._meta.get_field("email").max_length
# Who can sign in: Django's own backend, not axes' (which only counts failures).
BACKEND = "django.contrib.auth.backends.ModelBackend"


class SignUpForm(UserCreationForm):
    """Django's form for a new account (its name check, in any case, and the site's password validators),
    with the address to confirm; the account is made by campaign.accounts, not by the form."""

    email = forms.EmailField(
        label=_("Email address"),
        max_length=EMAIL_MAX,
        help_text=_("Turn results and reminders come here, once you have opened the link we send to it."),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        max_length=PASSWORD_MAX,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        max_length=PASSWORD_MAX,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("The same password, to be sure of it."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # What the site's password validators ask, in the reader's language (Django's own form says it in the
        # language of the moment the form class was made).
        self.fields["password1"].help_text = " ".join(password_validation.password_validators_help_texts())

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email_taken(email=email):
            raise forms.ValidationError(said(Message("account.email_taken")), code="email_taken")
        return email

    def _post_clean(self) -> None:
        # The password must not look like the address either (UserAttributeSimilarityValidator), though the
        # address is the account's only once confirmed.
        self.instance.email = self.cleaned_data.get("email", "")
        super()._post_clean()


class ConfirmMailForm(forms.Form):
    email = forms.EmailField(label=_("Email address"), max_length=EMAIL_MAX)

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip()


def next_of(request: HttpRequest) -> str:
    """Where to go after the form: the `next` the page was given, if it is on this site."""
    back = request.POST.get("next") or request.GET.get("next") or ""
    return back if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}) else ""


def throttled(request: HttpRequest, wait: int, text: str) -> HttpResponse:
    """The page that says to wait, 429 with Retry-After, as a locked-out login's."""
    minutes = -(-wait // 60)
    message = text % {"minutes": minutes}
    response = render(request, "frontend/account/wait.html", {"message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


def signup(request: HttpRequest) -> HttpResponse:
    back = next_of(request)
    if request.user.is_authenticated:
        return redirect(back or "frontend:home")
    form = SignUpForm()
    status = 200
    if request.method == "POST":
        wait = throttle_wait(SignUpThrottle(), request)
        if wait is not None:
            return throttled(
                request,
                wait,
                gettext("Too many sign-ups from this address. Try again in %(minutes)s minutes."),
            )
        form = SignUpForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                user = account_create(username=data["username"], password=data["password1"])
            except InputError as error:
                form_refuse(form, error)
            else:
                login(request, user, backend=BACKEND)
                _confirm_mail(request, user, data["email"])
                messages.success(
                    request,
                    gettext(
                        "Welcome, %(user)s. A link to confirm your address is on its way to %(email)s: open "
                        "it, and turn results and reminders will reach you there."
                    )
                    % {"user": user.get_username(), "email": data["email"]},
                )
                return redirect(back or "frontend:home")
        status = 400
    return render(request, "frontend/account/signup.html", {"form": form, "next": back}, status=status)


def _confirm_mail(request: HttpRequest, user: Any, email: str) -> None:
    email_confirm_send(user=user, email=email)
    request.session[PENDING_EMAIL] = email


def email_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """The link of a confirmation mail: its address becomes the account's (opening it twice is harmless)."""
    try:
        user = email_confirm(token=token)
    except InputError as error:
        context = {"title": gettext("Email address not confirmed"), "error": said(error.message)}
        return render(request, "frontend/account/confirmed.html", context, status=400)
    if request.user.is_authenticated and request.user.pk == user.pk:
        request.session.pop(PENDING_EMAIL, None)
    context = {
        "title": gettext("Email address confirmed"),
        "said": gettext("Mail about your campaigns goes to %(email)s from now on.") % {"email": user.email},
    }
    return render(request, "frontend/account/confirmed.html", context)


@login_required
@require_POST
def email_confirm_again(request: HttpRequest) -> HttpResponse:
    """The home page's form: send the confirmation link (again, or to another address)."""
    # Counted first: whether an address is taken is told no faster than mails are sent.
    wait = throttle_wait(ConfirmMailThrottle(), request)
    if wait is not None:
        return throttled(
            request, wait, gettext("Too many confirmation mails asked for. Try again in %(minutes)s minutes.")
        )
    form = ConfirmMailForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["email"]))
        return redirect("frontend:home")
    email = form.cleaned_data["email"]
    if email_taken(email=email, user=request.user):
        messages.error(request, said(Message("account.email_taken")))
        return redirect("frontend:home")
    _confirm_mail(request, request.user, email)
    messages.success(request, gettext("A link to confirm %(email)s is on its way.") % {"email": email})
    return redirect("frontend:home")


def email_unconfirmed(request: HttpRequest) -> dict[str, Any] | None:
    """For the home page: the user's address waiting for its confirmation (None when the account has one),
    with the form that sends the link again."""
    if not request.user.is_authenticated or request.user.email:
        return None
    pending = request.session.get(PENDING_EMAIL, "")
    return {"pending": pending, "form": ConfirmMailForm(initial={"email": pending})}


signup_urls = [
    path("accounts/signup/", signup, name="signup"),
    path("accounts/confirm/", email_confirm_again, name="email_confirm_again"),
    path("accounts/confirm/<str:token>/", email_confirm_page, name="email_confirm"),
]
