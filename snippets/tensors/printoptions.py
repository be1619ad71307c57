"""torch.set_printoptions: how tensors print, not what they hold.

Run: python printoptions.py
"""
import torch

x = torch.tensor([1 / 3, 12345.678, 0.0001])
print(x)  # the defaults: 4 digits; this mix of magnitudes prints in scientific notation
torch.set_printoptions(precision=2, sci_mode=False)
print(x)
print(x[0].item())  # the value itself is unchanged

torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))  # more than threshold elements: summarized
print(x)  # sci_mode is automatic again (a call without it resets it); precision stays 2

torch.set_printoptions(linewidth=30)
print(torch.arange(5) * 1000)

# precision 4, threshold 1000, edgeitems 3, linewidth 80
torch.set_printoptions(profile="default")
print(torch.arange(10))
