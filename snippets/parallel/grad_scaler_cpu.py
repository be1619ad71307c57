"""torch.amp.GradScaler without a GPU: GradScaler("cpu") scales; GradScaler() means CUDA,
so it warns and turns itself off.

This example shows a warning on purpose: it catches it and prints its message.

Run: python grad_scaler_cpu.py
"""
import os
import warnings

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # a machine without GPUs

import torch

cpu_scaler = torch.amp.GradScaler("cpu")
print("GradScaler('cpu'): enabled", cpu_scaler.is_enabled(), "| state", cpu_scaler.state_dict())

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    default_scaler = torch.amp.GradScaler()  # device="cuda" is the default
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
print("GradScaler():      enabled", default_scaler.is_enabled(), "| state",
      default_scaler.state_dict())

loss = torch.tensor(0.5)
print("loss 0.5 scaled by GradScaler('cpu'):", cpu_scaler.scale(loss).item())
print("loss 0.5 scaled by GradScaler():     ", default_scaler.scale(loss).item())
