"""torch.get_device_module: the torch.<device type> module for a device type, string or
torch.device.

Run: python device_module.py
"""
import re

import torch

print(torch.get_device_module("cpu") is torch.cpu)
print(torch.get_device_module(torch.device("cpu")) is torch.cpu)
print(torch.get_device_module("cuda").__name__)  # the module exists without a GPU
print(torch.get_device_module("cpu").device_count())
try:
    torch.get_device_module("gpu")  # not a device type
except RuntimeError as e:
    line = str(e).splitlines()[0]
    print("RuntimeError:",
          re.sub(r"one of .* device type", "one of <device types> device type", line))
