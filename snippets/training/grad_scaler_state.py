"""torch.amp.GradScaler's settings and state: the get_/set_ methods for its growth and backoff,
is_enabled, and state_dict/load_state_dict to resume a run with the scale it had reached.

Run: python grad_scaler_state.py
"""
import torch
from torch import nn


def settings(scaler):
    return (f"enabled {scaler.is_enabled()}, scale {scaler.get_scale():g}, "
            f"growth x{scaler.get_growth_factor():g} every {scaler.get_growth_interval()} "
            f"good steps, backoff x{scaler.get_backoff_factor():g}")


scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=3)
print("new:     ", settings(scaler))
scaler.set_growth_factor(4.0)
scaler.set_backoff_factor(0.25)
scaler.set_growth_interval(2)
print("changed: ", settings(scaler))

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
for step in range(3):
    with torch.autocast(device_type="cpu", dtype=torch.float16):
        loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
print("trained: ", settings(scaler))
state = scaler.state_dict()  # save it with the model's and the optimizer's
print("state_dict:", state)

resumed = torch.amp.GradScaler("cpu")  # a fresh scaler has the defaults...
print("fresh:   ", settings(resumed))
resumed.load_state_dict(state)  # ...until it loads the saved state
print("resumed: ", settings(resumed))

off = torch.amp.GradScaler("cpu", enabled=False)  # one loop for float16 and for bfloat16/float32
print("disabled:", off.is_enabled(), "| scale(loss) is loss:", off.scale(loss) is loss,
      "| state_dict:", off.state_dict())
try:
    resumed.load_state_dict({})
except RuntimeError as error:
    print(f"RuntimeError: {error}")
