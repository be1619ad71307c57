"""Mixing devices: .to moves a tensor, mixed operands raise, 0-d CPU tensors are the exception.

The script uses the "meta" device (shapes and dtypes, no data) in place of a
GPU, so that it runs on any machine.

Run: python device_mismatch.py
"""
import torch

x = torch.arange(3.0)  # on the CPU
m = x.to("meta")       # a new tensor on another device
print("moved:", m.device, m is x)
print("already there:", m.to("meta") is m)  # returned as is, no copy

try:
    x + m  # a CPU tensor and a meta tensor
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# A 0-d CPU tensor goes with a tensor on any device, like a Python number;
# the result is on the other tensor's device
print("0-d CPU tensor:", (torch.tensor(2.0) * m).device)
print("Python number:", (2.0 * m).device)
try:
    torch.tensor([2.0]) * m  # one element but 1-d: not the exception
except RuntimeError as error:
    print(f"RuntimeError: {error}")
