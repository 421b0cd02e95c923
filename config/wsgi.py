"""WSGI entry point (gunicorn config.wsgi)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# The code and settings loaded above live as long as the process: the cyclic garbage collector
# need not scan them again (freeze), and it runs less often. A page of a 1000-player event
# builds tens of thousands of short-lived objects; with Python's defaults the collections took a
# quarter of the CPU spent refreshing the five public pages after a change (0.72-0.92 s, and
# 0.60-0.62 s with these settings, measured in one thread on the event of make loadtest).
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 20)
