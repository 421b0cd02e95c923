"""Settings of the test suite: the development settings (DEBUG on when they are read, as with
``make run``), so that ``pytest`` runs from a fresh checkout without any environment. Django's
test runner still runs every test with ``settings.DEBUG = False``."""

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: E402,F403
