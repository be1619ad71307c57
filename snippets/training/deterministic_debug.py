"""Deterministic debug mode ("default", "warn", "error" read back as 0, 1, 2) and warn-always.

Run: python deterministic_debug.py
"""
import warnings

import torch


def put_twice():  # put_ to one index twice: which write wins is not defined
    return torch.zeros(3).put_(torch.tensor([0, 0]), torch.tensor([1.0, 2.0]))


print("start:", torch.get_deterministic_debug_mode())
for mode in ("default", "warn", "error"):
    torch.set_deterministic_debug_mode(mode)
    print(f"{mode:<8} -> {torch.get_deterministic_debug_mode()}",
          "enabled:", torch.are_deterministic_algorithms_enabled(),
          "warn_only:", torch.is_deterministic_algorithms_warn_only_enabled())

# the same switch as use_deterministic_algorithms
torch.use_deterministic_algorithms(True, warn_only=True)
print("use_deterministic_algorithms(True, warn_only=True):",
      torch.get_deterministic_debug_mode())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    put_twice()
print("warn:", caught[0].category.__name__, str(caught[0].message).split(",")[0])

torch.use_deterministic_algorithms(True)
print("use_deterministic_algorithms(True):", torch.get_deterministic_debug_mode())
try:
    put_twice()
except RuntimeError as e:
    print("error: RuntimeError", str(e).split(",")[0])
torch.set_deterministic_debug_mode(0)  # back to default: ints work too
print("back:", torch.get_deterministic_debug_mode(),
      torch.are_deterministic_algorithms_enabled())

# warn-always: warnings that torch shows once per process are shown every time
print("warn_always:", torch.is_warn_always_enabled())
torch.set_warn_always(True)
print("warn_always:", torch.is_warn_always_enabled())
torch.set_warn_always(False)
