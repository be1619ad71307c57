"""torch.linspace pitfalls: steps=0 gives an empty tensor; integer dtypes truncate.

Run: python linspace_pitfalls.py
"""
import torch

print(f"steps=0: {torch.linspace(0, 1, steps=0)}")
# the points 0, 0.25, 0.5, 0.75, 1 are truncated toward zero, not rounded
print(f"steps=5, int64: {torch.linspace(0, 1, steps=5, dtype=torch.int64)}")
# keep floats and round explicitly when integers are needed
print(f"rounded: {torch.linspace(0, 4, steps=5).round().long()}")
