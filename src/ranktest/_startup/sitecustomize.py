"""Start-up shim: :func:`ranktest.exitcheck.report_at_exit` in every process started with this
directory on ``PYTHONPATH`` (see :func:`ranktest.exitcheck.startup_env`)."""

from ranktest.exitcheck import report_at_exit

report_at_exit()
