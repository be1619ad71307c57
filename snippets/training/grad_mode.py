"""torch.no_grad, enable_grad, set_grad_enabled, is_grad_enabled: turn gradient recording off
and on.

Run: python grad_mode.py
"""
import threading

import torch

x = torch.ones(2, requires_grad=True)
print("default:", torch.is_grad_enabled())

with torch.no_grad():
    y = x * 2
    print("no_grad:", torch.is_grad_enabled(), "y.requires_grad:", y.requires_grad)
    with torch.enable_grad():  # back on inside the no_grad block
        print("enable_grad:", torch.is_grad_enabled(), (x * 2).requires_grad)
    # factory functions keep an explicit requires_grad=True
    print("created inside:", torch.zeros(2, requires_grad=True).requires_grad)

# set_grad_enabled takes a flag: a context manager ...
is_train = False
with torch.set_grad_enabled(is_train):
    print("set_grad_enabled(False) block:", torch.is_grad_enabled())
print("after the block:", torch.is_grad_enabled())
# ... or a plain call, whose effect lasts until the next one
torch.set_grad_enabled(False)
print("after set_grad_enabled(False):", (x * 2).requires_grad)
torch.set_grad_enabled(True)


@torch.no_grad()  # also a decorator
def predict(t):
    return t * 2


print("decorated:", predict(x).requires_grad)

# The mode belongs to the thread: another thread still records
seen = []
with torch.no_grad():
    worker = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
    worker.start()
    worker.join()
print("other thread:", seen)

# Updating a parameter in place: only under no_grad
x.grad = torch.ones(2)
try:
    x -= 0.1 * x.grad
except RuntimeError as error:
    print(f"RuntimeError: {error}")
with torch.no_grad():
    x -= 0.1 * x.grad
print("updated:", x)
