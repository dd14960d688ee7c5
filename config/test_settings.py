"""Settings for the test suite: the real settings, with a throwaway secret key and a fast password hasher.

Everything else (DATABASE_URL, REDIS_URL) comes from the environment exactly as in production.
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-" + "x" * 20)

from config.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECURE_SSL_REDIRECT = False
# No collectstatic before tests: WhiteNoise serves the apps' static files straight from their folders.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True

# A Celery worker is another process: it cannot see an in-memory SQLite database, so with a broker
# configured and no DATABASE_URL the test database is a file that both processes open.
if REDIS_URL and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test_db.sqlite3")}  # noqa: F405
