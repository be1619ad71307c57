"""Preloaded by the project's forkserver instead of ``torch.utils.cpp_extension`` itself: the same
import, with that module's logger at ERROR meanwhile.

Where a CUDA toolkit is installed and no GPU is (a developer's laptop, a CPU CI machine), the
import logs "No CUDA runtime is found, using CUDA_HOME=..." once: a fact of the machine, which
the server would otherwise print to the terminal of every test session at every start.
"""

import logging

_logger = logging.getLogger("torch.utils.cpp_extension")
_level = _logger.level
_logger.setLevel(logging.ERROR)
try:
    import torch.utils.cpp_extension  # noqa: F401
finally:
    _logger.setLevel(_level)
