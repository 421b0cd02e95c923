"""gunicorn settings for one instance of several on a host (issue 26):
``gunicorn -c config/gunicorn.conf.py config.wsgi``.

Each instance has its own name (``INSTANCE``), address, pid file and control socket under its
own run folder, so that stopping or reloading one never touches another (gunicorn's default
control socket, ~/.gunicorn/gunicorn.ctl, was shared by every instance of a user).

INSTANCE      a name per instance on the host (default "swiss"); the process title too
RUN_DIR       the instance's folder for its pid file, control socket and metrics
              (default /run/swiss/<INSTANCE>; made if missing)
BIND          address to listen on (default 127.0.0.1:8000)
WEB_WORKERS   processes (default 2: one per core); WEB_THREADS threads each (default 4)
WEB_TIMEOUT   seconds a request may take before its worker is restarted (default 30: pairing
              is a job of the task queue, not a request)
"""

import os
import shutil
from pathlib import Path

instance = os.environ.get("INSTANCE", "swiss")
run_dir = Path(os.environ.get("RUN_DIR", f"/run/swiss/{instance}"))
run_dir.mkdir(parents=True, exist_ok=True)

proc_name = instance
bind = [os.environ.get("BIND", "127.0.0.1:8000")]
pidfile = str(run_dir / "gunicorn.pid")
control_socket = str(run_dir / "gunicorn.ctl")
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
reuse_port = True  # the kernel spreads the connections over the workers evenly
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 30  # a deploy lets the requests under way end
keepalive = 5  # seconds, behind nginx's keepalive to the upstream
max_requests = 5000  # a worker is replaced now and then, spreading any slow leak
max_requests_jitter = 500

# Prometheus figures added up over the workers: each writes its own files in this folder,
# emptied when the instance starts (prometheus_client's multiprocess mode).
metrics_dir = run_dir / "metrics"
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(metrics_dir))


def on_starting(server):
    shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
    Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True)


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
