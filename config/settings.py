"""Django settings, all read from the environment (see README "Settings").

SQLite and in-process Celery by default, so `make run` needs nothing but Python;
DATABASE_URL selects PostgreSQL and REDIS_URL selects Redis as Celery's broker and result backend.
"""

from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE as CSP_NONE
from csp.constants import SELF as CSP_SELF
from csp.constants import UNSAFE_INLINE as CSP_UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_email, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set: set it (50+ random characters), or DJANGO_DEBUG=true to develop"
        )
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "health_check",
    "campaign",
    "orders",
    "rules",
    "rules.company",
    "rules.sodankaynti",
    "rules.tabletop",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.NulByteMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language chosen in the top bar (a cookie), else the browser's Accept-Language, else LANGUAGE_CODE.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Times shown in the user's own time zone (their profile; UTC by default). Stored times stay UTC.
    "campaign.middleware.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a lockout found while logging in into the page that says when to try again.
    "axes.middleware.AxesMiddleware",
]
if DEBUG:
    # runserver serves static files itself in development; WhiteNoise serves the collected ones in production.
    MIDDLEWARE.remove("whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

_database_url = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
if _database_url:
    # Health checks: a kept connection is tested before a request uses it, so one that died with a database
    # restart is replaced instead of failing the request with a 500.
    DATABASES = {
        "default": dj_database_url.parse(
            _database_url, conn_max_age=env_int("DB_CONN_MAX_AGE", 0), conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Parameters bound by the server, and statements prepared once run five times on a connection:
        # PostgreSQL then plans each once per connection. Planning was a third of an order's cost.
        # DB_PREPARED=false for a pooler in transaction mode (PgBouncer), which cannot keep them.
        if env_bool("DB_PREPARED", True):
            DATABASES["default"].setdefault("OPTIONS", {}).update(
                server_side_binding=True, prepare_threshold=5
            )
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Guessers are throttled by django-axes: after AXES_FAILURE_LIMIT failed logins for one account from one
# address, further tries of that account from there (the login page, the admin, the API's token endpoint)
# are refused with a 429 that says when to try again, before any password is hashed, until
# AXES_COOLOFF_TIME passes without one. Counted by the pair, never by address or account alone: by address,
# a guesser locked out every player behind the same proxy or network; by account, anyone could lock the GM
# out of a running campaign by typing the GM's name. The account, from any other address, is not touched.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("IRONFIST_LOGIN_FAILURES", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("IRONFIST_LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "frontend.views.lockout.lockout_response"
AXES_USERNAME_CALLABLE = "frontend.views.lockout.axes_username"
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
# Failed tries are counted in the database; successful logins are not logged (no table that only grows).
AXES_DISABLE_ACCESS_LOG = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The interface and the mails in both; the rules' own terms (KTA, JV, PA, TY, IV) stay as they are.
LANGUAGES = [("en", "English"), ("fi", "suomi")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

REST_FRAMEWORK = {
    # drf-spectacular's, with the 4xx every operation can answer (config/schema.py).
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    # Token first: its WWW-Authenticate header makes an anonymous request a 401, not a 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's JSON parser with a limit on nesting (a RecursionError was a 500); forms and multipart as DRF's.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # A 400 gives each problem a stable code beside its English message (campaign/api_errors.py).
    "EXCEPTION_HANDLER": "campaign.api_errors.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Iron Fist",
    "DESCRIPTION": "Campaigns, the map, orders, turns and battle reports of the Iron Fist campaign server.",
    "VERSION": "0.1.0",
    # The API browser's scripts and styles come from the sidecar package: no CDN at run time.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Routes kept for earlier addresses answer, undocumented (campaign.api.api_alias).
    "PREPROCESSING_HOOKS": ["config.schema.aliases_drop"],
    # Several models have a "status" or "kind": one schema name each.
    "ENUM_NAME_OVERRIDES": {
        "CampaignStatusEnum": "campaign.models.Campaign.Status",
        "TurnStatusEnum": "campaign.models.Turn.Status",
        "OrderKindEnum": "rules.engine.systems.order_kinds_all",
        "ReportKindEnum": "rules.models.Report.Kind",
    },
}
# Only the API benchmark (manage.py bench_api) turns this on: it adds a minimal write endpoint.
IRONFIST_BENCH = env_bool("IRONFIST_BENCH", False)

# Without a broker, tasks run in process: `make run` and the default test run need no Redis.
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss"))
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "iron-fist")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# One turn at a time per worker process: a turn is long and holds a row lock.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery closes a worker's database connection after every task unless this is set (to the number of tasks
# a connection serves, halved); with DB_CONN_MAX_AGE it keeps it, and the statements prepared on it.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 0, minimum=0) or None
CELERY_TIMEZONE = "UTC"
# A Redis that does not answer must not hold a request (the GM's "process") for the defaults' twenty
# seconds: connecting is given half a second, a send one quick retry, the result store's subscription
# one; then campaign.queue says the task queue is away and leaves the turn unqueued, for the next tick.
# A worker or beat keeps reconnecting on its own (broker_connection_retry), whatever these say.
_QUICK_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# visibility_timeout: a job not acknowledged (its worker died with it) goes back to the queue after this;
# Redis's default is an hour. Longer than the longest turn, or a turn still running would get a second job
# (harmless: it waits for the row and exits). The sweeper below re-queues a lost turn sooner anyway.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900, minimum=60),
    "socket_connect_timeout": 0.5,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = _QUICK_RETRY
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 0.5
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": _QUICK_RETRY}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The minute tick; shorter only in the fault tests, which cannot wait minutes.
_tick = float(env_int("IRONFIST_TICK_SECONDS", 60, minimum=1))
CELERY_BEAT_SCHEDULE = {
    "process-due-turns": {"task": "rules.tasks.process_due_turns", "schedule": _tick},
    "remind-due-turns": {"task": "campaign.tasks.remind_due_turns", "schedule": _tick},
    "process-ready-turns": {"task": "campaign.tasks.process_ready_turns", "schedule": _tick},
    "requeue-stale-turns": {"task": "rules.tasks.requeue_stale_turns", "schedule": _tick},
    "tick-systems": {"task": "rules.tasks.tick_systems", "schedule": _tick},
}
# An open turn queued this long ago, that no worker holds, has lost its job: the sweeper queues it again.
IRONFIST_REQUEUE_AFTER_SECONDS = env_int("IRONFIST_REQUEUE_AFTER_SECONDS", 300, minimum=1)
# /health/ (config/health.py) is unhealthy when the minute tick has not run for this long.
IRONFIST_TICK_STALE_SECONDS = env_int("IRONFIST_TICK_STALE_SECONDS", 180, minimum=1)

# Email is the mail in play-by-mail: printed to the console unless EMAIL_URL or EMAIL_HOST names a server.
_email = env_email("EMAIL_URL")
if _email is None and env_str("EMAIL_HOST"):
    _email = {
        "EMAIL_HOST": env_str("EMAIL_HOST"),
        "EMAIL_PORT": env_int("EMAIL_PORT", 587, minimum=1),
        "EMAIL_HOST_USER": env_str("EMAIL_HOST_USER", ""),
        "EMAIL_HOST_PASSWORD": env_str("EMAIL_HOST_PASSWORD", ""),
        "EMAIL_USE_TLS": env_bool("EMAIL_USE_TLS", True),
        "EMAIL_USE_SSL": env_bool("EMAIL_USE_SSL", False),
    }
if _email is None:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    if _email["EMAIL_USE_TLS"] and _email["EMAIL_USE_SSL"]:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: choose one (587: TLS, 465: SSL)")
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    globals().update(_email)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Iron Fist <ironfist@localhost>")
# Where players send orders by email (read by `manage.py read_order_mail`); the Reply-To of turn mails.
IRONFIST_ORDERS_EMAIL = env_str("IRONFIST_ORDERS_EMAIL", "")
# Orders by mail are trusted when this mail server's Authentication-Results (SPF, DKIM, DMARC) pass, else by
# the player's key in the subject (frontend/mail/sender.py). Empty: the key alone.
IRONFIST_MAIL_AUTHSERV_ID = env_str("IRONFIST_MAIL_AUTHSERV_ID", "")
# The links in mails: the site as players reach it.
IRONFIST_SITE_URL = env_url("IRONFIST_SITE_URL", ("http", "https")) or "http://127.0.0.1:8000"

# Production hardening; every value can be turned off for a plain-HTTP local stack.
_secure = not DEBUG
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", _secure)
# The load balancer probes the health check over plain HTTP, inside the network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", _secure)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31536000 if _secure else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Scripts and styles only from this server's files: no inline script anywhere (site.js reads data-
# attributes; the API browser loads its settings from a file too). Inline style *attributes* stay allowed
# (`style-src-attr`): they carry data, a nation's colour or a bar's width, never code. Everywhere, DEBUG too.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [CSP_SELF],
        "script-src": [CSP_SELF],
        "style-src": [CSP_SELF],
        "style-src-attr": [CSP_UNSAFE_INLINE],
        "img-src": [CSP_SELF, "data:"],
        "object-src": [CSP_NONE],
        "base-uri": [CSP_NONE],
        "form-action": [CSP_SELF],
        "frame-ancestors": [CSP_NONE],
    }
}
if env_bool("DJANGO_BEHIND_PROXY", False):
    # Only behind a proxy that sets this header itself; otherwise a client could claim HTTPS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The client's address as the proxy saw it (the last hop it added), for counting failed logins.
    AXES_IPWARE_PROXY_COUNT = 1
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]


def _refusal_in_one_line(record) -> bool:
    """A 403 or 404 is the caller's business, not the server's: its line without the traceback Django adds
    (a PermissionDenied, an Http404); a 5xx keeps it."""
    if getattr(record, "status_code", None) in (403, 404):
        record.exc_info = record.exc_text = None
    return True


# Everything goes to the root's one console handler, once: Django's own "django" handlers (a console one
# when DEBUG, mail to ADMINS, of whom there are none) are dropped, or each line was written twice.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "refusal_in_one_line": {"()": "django.utils.log.CallbackFilter", "callback": _refusal_in_one_line}
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": [], "propagate": True},
        "django.request": {"filters": ["refusal_in_one_line"], "propagate": True},
    },
}
