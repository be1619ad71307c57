"""Start-up shim: :func:`ranktest.exitcheck.report_at_exit` in every process started with this
directory on ``PYTHONPATH`` (see :func:`ranktest.exitcheck.startup_env`), then the
``sitecustomize`` this file hides, if there is one."""

from ranktest.exitcheck import report_at_exit, run_shadowed_sitecustomize

report_at_exit()
run_shadowed_sitecustomize()
