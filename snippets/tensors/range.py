"""torch.range (deprecated): like arange, but the end is included.

The script catches its UserWarning on purpose and prints it.

Run: python range.py
"""
import warnings

import torch

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = torch.range(1, 4)
print(r)  # 4 is included, and the result is float32
print(f"{caught[0].category.__name__}: {caught[0].message}")

# The replacement: arange with the end moved one step further
print(torch.arange(1, 5))
# Same values and dtype as torch.range(1, 4):
print(torch.arange(1, 5, dtype=torch.float32))
