"""torch.accelerator: the same questions for whichever accelerator this torch was built for
(CUDA, MPS, XPU, ...), and the device-agnostic choice of a device.

Run: python accelerator_cpu.py
"""
import torch

print("available:", torch.accelerator.is_available())
print("devices:", torch.accelerator.device_count())
# check_available=True: None unless the accelerator can run here
print("accelerator:", torch.accelerator.current_accelerator(check_available=True))

# The device-agnostic idiom: the accelerator if there is one, else the CPU
device = torch.accelerator.current_accelerator(check_available=True) or torch.device("cpu")
model = torch.nn.Linear(2, 1).to(device)
x = torch.ones(3, 2, device=device)
print(model(x).device, model(x).shape)
