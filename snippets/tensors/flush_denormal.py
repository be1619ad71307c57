"""torch.set_flush_denormal: CPU arithmetic treats denormal floats as zero.

Run: python flush_denormal.py
"""
import torch

small = torch.tensor([1e-30])  # float32; the smallest normal float32 is about 1.2e-38
print("smallest normal:", torch.finfo(torch.float32).tiny)

# Returns whether it worked: False on a CPU that cannot flush
print("set_flush_denormal(True):", torch.set_flush_denormal(True))
print("flushed:", small * 1e-10)

print("set_flush_denormal(False):", torch.set_flush_denormal(False))
print("denormal:", small * 1e-10)  # representable, with fewer significant bits
