"""torch.amp.GradScaler with float16 autocast: scale, backward, unscale_ before clipping, step,
update; a step whose gradients overflow is skipped and the scale halves.

GradScaler("cpu") works on the CPU too (CPU autocast supports float16).

Run: python amp_grad_scaler.py
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
# init_scale set high on purpose, so that the first step overflows float16
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**15, growth_interval=2)
x, y = torch.randn(8, 4), torch.randn(8, 1)

for step in range(4):
    with torch.autocast(device_type="cpu", dtype=torch.float16):
        loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    scale = scaler.get_scale()
    scaler.scale(loss).backward()  # gradients of loss * scale
    scaler.unscale_(optimizer)  # divides the gradients by the scale, in place
    finite = bool(torch.isfinite(model.weight.grad).all())
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)  # sees true gradients
    before = model.weight.detach().clone()
    scaler.step(optimizer)  # skipped if unscale_ found inf/NaN
    scaler.update()  # halves the scale after a skip; doubles it after growth_interval good steps
    print(f"step {step}: loss {loss.item():.4f}, scale {scale:g} -> {scaler.get_scale():g}, "
          f"finite gradients {finite}, norm {norm.item():.4f}, "
          f"parameters changed {not torch.equal(before, model.weight)}")

print("loss dtype:", loss.dtype, "| gradient dtype:", model.weight.grad.dtype)
print("state_dict:", scaler.state_dict())

# unscale_ once per optimizer between two update() calls
scaler.unscale_(optimizer)
try:
    scaler.unscale_(optimizer)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
