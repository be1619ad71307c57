"""Build the site: both languages, then the landing page that offers them.

Usage: ``python docs/build.py OUTDIR [extra sphinx-build options]``

The build is :mod:`refsite.site_builds` (its docstring says how it runs and when it reuses the
last build); this command calls it for the checkout that holds this file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from refsite import site_builds

if __name__ == "__main__":
    sys.exit(site_builds.main(sys.argv[1:], Path(__file__).resolve().parent.parent))
