"""Settings of the test suite: the development settings (DEBUG on when they are read, as with
``make run``), so that ``pytest`` runs from a fresh checkout without any environment. Django's
test runner still runs every test with ``settings.DEBUG = False``."""

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: E402,F403

# The suite creates thousands of users and logs them in; Django's default hasher (PBKDF2, a
# million iterations: 0.24 s a password) took half of the web tests' CPU time. A fast hasher
# here changes no outcome; production keeps Django's default, which
# test_deploy_settings.test_production_settings_hash_passwords_with_djangos_strong_default checks.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The suite uploads hundreds of files to the checker from one address; the test of the rate
# limit (tests/web/test_checker_jobs.py) sets the production figure.
CHECKER_RATE_LIMIT = 10_000
