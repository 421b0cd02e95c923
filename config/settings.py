"""Settings of the Swiss tournament manager, read from environment variables.

Secure by default: DEBUG is off unless DEBUG=1 (``make run`` sets it for the demo), and then a
SECRET_KEY is required and HTTPS is enforced (secure cookies, redirect, HSTS). The tests use
``config.settings_test``.

DATABASE_URL   database to use (dj-database-url syntax); SQLite file db.sqlite3 when unset
SECRET_KEY     required when DEBUG is off; never blank
DEBUG          "1"/"true"/"yes" to turn on (development only)
ALLOWED_HOSTS  comma-separated host names
SECURE_COOKIES with DEBUG off, HTTPS only (secure cookies, redirect, HSTS); 0 to try plain HTTP
LOG_LEVEL      level of the log written to stderr (gunicorn's log); WARNING by default
REDIS_URL      e.g. redis://127.0.0.1:6379/0: the cache and the live pages' events shared by workers
TASKS_BACKEND  "database": rounds are paired, and the checker's files checked, by `manage.py
               db_worker` processes (production);
               "immediate" (the default): in the request that asks for them (`make run`, tests)
CORS_ALLOWED_ORIGINS  comma-separated origins whose pages may read the API, or * for any
TRUSTED_PROXIES number of reverse proxies in front that append to X-Forwarded-For (0: none)
CONN_MAX_AGE   seconds a database connection is kept for the next request (0: closed after each);
               60 by default; 0 for the ASGI server of the live streams (see the README)
CONN_HEALTH_CHECKS  1 (default): a kept connection is checked before a request reuses it
DB_LOCK_TIMEOUT       PostgreSQL: milliseconds a statement waits for a row lock (10000; 0: for ever)
DB_STATEMENT_TIMEOUT  PostgreSQL: milliseconds a statement may run (30000; 0: no limit); the
               pairing job's transactions take JOB_STATEMENT_TIMEOUT instead (0 by default: none)
METRICS_TOKEN  the bearer token that reads /metrics (Prometheus); staff users read it logged in
CHECKER_CPU_SECONDS, CHECKER_RATE_LIMIT, CHECKER_RATE_WINDOW_MINUTES, CHECKER_QUEUE_MAX
               the public checker's bounds (20 s of CPU a file, 5 files an address in 10 minutes,
               50 files waiting)
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    text = value.strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def _env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = _env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY")
if SECRET_KEY is not None and not SECRET_KEY.strip():
    raise ImproperlyConfigured(
        "SECRET_KEY is blank: set a long random value, e.g. "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off (DEBUG=1 to develop)")
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"

ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "django_prometheus",
    "tournaments",
]

MIDDLEWARE = [
    # Requests, responses and their latency counted for /metrics (django-prometheus); its
    # closing half is the last middleware.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Before the page cache, so that its stored answers and 304s carry the CORS headers too.
    "corsheaders.middleware.CorsMiddleware",
    # Anonymous visitors' public pages and API bodies, cached by tournament version (issue 16).
    "tournaments.middleware.VersionedPageCache",
    # Compressed bodies (gzip) for the browsers that accept them: inside the page cache, so a
    # page is compressed once per version and stored so; the live event streams are left alone.
    "tournaments.middleware.Compression",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the visitor's choice (a cookie), else the browser's (Accept-Language).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it answers a locked-out login with the lockout page.
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

if not DEBUG:
    # In production WhiteNoise serves the files collected into STATIC_ROOT (`collectstatic`); in
    # development runserver serves static/ itself, always fresh.
    MIDDLEWARE.insert(2, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
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

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # A connection kept for the next requests of the thread (issue 26: a new connection per
        # request, and per live stream's reconnection, cost more than the query it ran).
        conn_max_age=_env_int("CONN_MAX_AGE", 60),
        conn_health_checks=_env_bool("CONN_HEALTH_CHECKS", True),
    )
}


def postgresql_timeouts(lock_ms: int, statement_ms: int) -> str:
    """The ``options`` of a PostgreSQL connection that bound how long a statement waits for a
    lock and how long it runs: a second arbiter's click waits seconds, not for ever, and a
    runaway query ends instead of holding a worker."""
    if lock_ms < 0 or statement_ms < 0:
        raise ImproperlyConfigured("DB_LOCK_TIMEOUT and DB_STATEMENT_TIMEOUT are 0 or more (ms)")
    return f"-c lock_timeout={lock_ms} -c statement_timeout={statement_ms}"


DB_LOCK_TIMEOUT = _env_int("DB_LOCK_TIMEOUT", 10_000)
DB_STATEMENT_TIMEOUT = _env_int("DB_STATEMENT_TIMEOUT", 30_000)
# A pairing job's transactions (tournaments.services.write.long_work): no limit by default; the
# job's own heartbeat tells a worker that is gone.
JOB_STATEMENT_TIMEOUT = _env_int("JOB_STATEMENT_TIMEOUT", 0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = postgresql_timeouts(
        DB_LOCK_TIMEOUT, DB_STATEMENT_TIMEOUT
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no row locks: every transaction takes the write lock when it starts, so two
    # arbiters pairing at once are serialised (the second waits, then sees the paired round).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a login from a user and address that failed too often.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = _env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=_env_int("LOGIN_COOLOFF_MINUTES", 15))
# Locked: this user name from this address, on /accounts/login/ and /admin/login/ alike; another
# address typing the same user name is not locked.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]


def client_address_settings(trusted_proxies: int) -> dict:
    """How django-axes (through django-ipware) finds the client's address. With no proxy it is
    the connection's (REMOTE_ADDR) and X-Forwarded-For is never read: a client can write anything
    there. Behind ``trusted_proxies`` reverse proxies, each appending the address it received the
    request from to X-Forwarded-For, the client is the entry that many places from the header's
    right end; whatever a client wrote further left is ignored."""
    if trusted_proxies < 0:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES must be 0 or more, not {trusted_proxies}")
    if not trusted_proxies:
        return {
            "AXES_IPWARE_META_PRECEDENCE_ORDER": ("REMOTE_ADDR",),
            "AXES_IPWARE_PROXY_ORDER": "left-most",
            "AXES_IPWARE_PROXY_COUNT": None,
            "IPWARE_STRICT": True,
        }
    return {
        "AXES_IPWARE_META_PRECEDENCE_ORDER": ("HTTP_X_FORWARDED_FOR",),
        "AXES_IPWARE_PROXY_ORDER": "left-most",
        # ipware counts the proxies named in the header; the nearest one is REMOTE_ADDR.
        "AXES_IPWARE_PROXY_COUNT": trusted_proxies - 1,
        "IPWARE_STRICT": False,  # a longer header (the client's own entries) is read past
    }


TRUSTED_PROXIES = _env_int("TRUSTED_PROXIES", 0)
globals().update(client_address_settings(TRUSTED_PROXIES))  # the four settings above
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages of the FIDE texts the product follows. Translations: locale/<lang>/LC_MESSAGES,
# the compiled .mo files committed beside the .po files (nothing to compile to run or test).
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]  # one date format per language
# The site's time zone: a new tournament's, until its arbiter names the zone of the event.
TIME_ZONE = os.environ.get("TIME_ZONE", "").strip() or "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Pages, API bodies and standings are cached by tournament version (tournaments.pagecache); the
# worker processes share them, and the live pages' events, through Redis when REDIS_URL is set.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
CACHES["default"]["KEY_PREFIX"] = os.environ.get("CACHE_KEY_PREFIX", "swiss")
LIVE_CHANNEL_PREFIX = CACHES["default"]["KEY_PREFIX"]
# Seconds a process trusts its copy of a version when no Redis message can drop it earlier.
LIVE_VERSION_TTL = float(os.environ.get("LIVE_VERSION_TTL", "0.5"))

# The task queue (django-tasks) that pairs rounds: the database backend and its `manage.py
# db_worker` processes in production; the immediate backend, which runs a task in the request
# that enqueues it, for `make run` and the tests (one command, no worker to start).
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "immediate").strip().lower()
if TASKS_BACKEND not in ("immediate", "database"):
    raise ImproperlyConfigured("TASKS_BACKEND is 'immediate' or 'database'.")
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend" if TASKS_BACKEND == "database"
        else "django_tasks.backends.immediate.ImmediateBackend",
        # "default": rounds to pair; "checks": the public checker's files (tournaments.check_jobs),
        # served by workers of their own so that an arbiter's round never waits behind them.
        "QUEUES": ["default", "checks"],
    }
}
# The public checker (/check/, tournaments.check_jobs): each file is a job of the "checks" queue;
# as many run at once as workers serve that queue (`db_worker --queue-name checks`).
CHECKER_CPU_SECONDS = float(os.environ.get("CHECKER_CPU_SECONDS", "20"))  # a check's CPU time cap
CHECKER_RATE_LIMIT = _env_int("CHECKER_RATE_LIMIT", 5)  # checks from one address...
CHECKER_RATE_WINDOW_MINUTES = _env_int("CHECKER_RATE_WINDOW_MINUTES", 10)  # ...in this window
CHECKER_QUEUE_MAX = _env_int("CHECKER_QUEUE_MAX", 50)  # checks waiting: more are refused (503)
CHECKER_KEEP_MINUTES = 60  # a check (its report) is deleted this long after it was asked for
# A job paired by a worker says it is alive from a thread of its own; a job run inside the
# request needs no such sign.
PAIRING_JOB_HEARTBEAT = TASKS_BACKEND == "database"

# FIDE's rating list (manage.py import_fide_list, tournaments.fide_list.Limits): what a file may
# hold, whatever it holds, which bounds the memory and time it takes. 1.2 million players are
# about 200 MB as FIDE's TXT list, 580 MB as its XML list.
FIDE_LIST_MAX_BYTES = _env_int("FIDE_LIST_MAX_BYTES", 2**30)  # once decompressed
FIDE_LIST_MAX_LINE = 4096  # bytes of a TXT line (FIDE's have 162), characters of an XML text
FIDE_LIST_ENCODING_SAMPLE = 2**20  # bytes read to detect the encoding of a TXT list

# Mail (the confirmation of a public registration): written to the console unless a backend is
# named, e.g. EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend with EMAIL_HOST, ...
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
).strip()
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")

# Entries an address may send an hour from the public registration pages (against spam).
REGISTRATION_POSTS_PER_HOUR = _env_int("REGISTRATION_POSTS_PER_HOUR", 20)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "arbiter-home"
LOGOUT_REDIRECT_URL = "arbiter-home"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
}
# Cross-origin reads of the read-only API, for scoreboards served from another site: the
# origins allowed (CORS_ALLOWED_ORIGINS, "*" for any), GET only, the ETag readable so that a
# scoreboard can ask If-None-Match. The pages and the dashboard send no CORS header.
_CORS_ORIGINS = _env_list("CORS_ALLOWED_ORIGINS", [])
CORS_ALLOW_ALL_ORIGINS = _CORS_ORIGINS == ["*"]
CORS_ALLOWED_ORIGINS = [] if CORS_ALLOW_ALL_ORIGINS else _CORS_ORIGINS
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "accept-language", "if-none-match", "if-modified-since")
CORS_EXPOSE_HEADERS = ("ETag", "Last-Modified")
CORS_ALLOW_CREDENTIALS = False

SPECTACULAR_SETTINGS = {
    "TITLE": "Swiss tournament manager API",
    "DESCRIPTION": "Read-only access to tournaments, players, rounds, pairings and standings.",
    "VERSION": "1.0.0",
    # The docs' scripts come from a pinned package (drf-spectacular-sidecar), served as static
    # files like the rest: no CDN, and they work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

if not DEBUG:
    # HTTPS only (Django's deployment checklist, `manage.py check --deploy`); the reverse proxy
    # terminates TLS and says so in X-Forwarded-Proto. SECURE_COOKIES=0 tries plain HTTP.
    HTTPS_ONLY = _env_bool("SECURE_COOKIES", True)
    SESSION_COOKIE_SECURE = HTTPS_ONLY
    CSRF_COOKIE_SECURE = HTTPS_ONLY
    SECURE_SSL_REDIRECT = HTTPS_ONLY
    SECURE_HSTS_SECONDS = _env_int("SECURE_HSTS_SECONDS", 31_536_000) if HTTPS_ONLY else 0
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The load balancer's and Prometheus's probes reach the servers on plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]

# /metrics (django-prometheus's exporter): staff users, or a scraper that sends this token as
# "Authorization: Bearer <token>". Several worker processes add up their figures when
# PROMETHEUS_MULTIPROC_DIR names an empty folder of the instance (config/gunicorn.conf.py).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
PROMETHEUS_EXPORT_MIGRATIONS = False

# Warnings and errors to stderr, which gunicorn writes to its log: a request that fails with a
# 500 leaves a line "ERROR django.request: Internal Server Error: <path>" and its traceback; a
# refused one (403, 400) one line with its reason.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING").strip().upper() or "WARNING"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "filters": {
        # "WARNING django.request: Forbidden (Permission denied): <path>: <reason>", no traceback.
        "refusals_on_one_line": {"()": "config.logfilters.RefusalsOnOneLine"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
            "filters": ["refusals_on_one_line"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        # Replaces Django's default handlers (console only with DEBUG on, mail_admins).
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
    },
}

