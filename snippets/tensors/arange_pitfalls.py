"""torch.arange pitfalls: a float step can reach the end; a wrong-signed step raises.

Run: python arange_pitfalls.py
"""
import torch

# 0.1 has no exact binary value, so the element count can come out one higher
x = torch.arange(1, 1.3, 0.1)
print(f"arange(1, 1.3, 0.1): {len(x)} elements, {x}")
# an integer arange, scaled afterwards, has exactly the count asked for
print(f"arange(3) * 0.1 + 1: {torch.arange(3) * 0.1 + 1}")

try:
    torch.arange(5, 0)  # the default step is +1, but 0 lies below 5
except RuntimeError as exc:
    print(f"arange(5, 0): RuntimeError: {exc}")
print(f"arange(5, 0, -1): {torch.arange(5, 0, -1)}")
