"""Start-up shim: :func:`ranktest.exitcheck.report_at_exit` in every process started with this
directory on ``PYTHONPATH`` (see :func:`ranktest.exitcheck.startup_env`), then the
``sitecustomize`` this file hides, if there is one.

``exitcheck.py`` is loaded from its file, as a module of its own: importing it as
``ranktest.exitcheck`` would first import the ``ranktest`` package and its client (about 80 ms
in every worker of every launch), which the check does not need."""

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_ranktest_exitcheck", Path(__file__).parents[1] / "exitcheck.py")
_exitcheck = sys.modules["_ranktest_exitcheck"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_exitcheck)
_exitcheck.report_at_exit()
_exitcheck.run_shadowed_sitecustomize()
