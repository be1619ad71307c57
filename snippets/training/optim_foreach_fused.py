"""foreach and fused: other implementations of the same update, chosen by a flag; their
results match the default one's.

Run: python optim_foreach_fused.py
"""
import inspect

import torch

torch.manual_seed(0)
shapes = [(64, 32), (64,), (10, 64), (10,)]  # two Linear layers
start = [torch.randn(shape) for shape in shapes]
grads = [[torch.randn(shape) for shape in shapes] for _ in range(3)]  # 3 steps


def train(optimizer_class, **flags):
    params = [torch.nn.Parameter(tensor.clone()) for tensor in start]
    optimizer = optimizer_class(params, lr=0.01, **flags)
    for step_grads in grads:
        for param, grad in zip(params, step_grads):
            param.grad = grad.clone()
        optimizer.step()
    return params, optimizer


for optimizer_class in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW,
                        torch.optim.Adagrad):
    default, optimizer = train(optimizer_class)
    results = []
    for flags in ({"foreach": False}, {"foreach": True}, {"fused": True}):
        params, _ = train(optimizer_class, **flags)
        same = all(torch.allclose(a, b) for a, b in zip(default, params))
        results.append(f"{flags} {same}")
    print(f"{optimizer_class.__name__} allclose to the default:", ", ".join(results))
# None: the optimizer picks (foreach on CUDA, the for-loop on CPU; never fused)
print("defaults:", optimizer.defaults["foreach"], optimizer.defaults["fused"])

# Which optimizers take fused at all
classes = [getattr(torch.optim, name) for name in torch.optim.__all__]
with_fused = [cls.__name__ for cls in classes
              if isinstance(cls, type) and "fused" in inspect.signature(cls).parameters]
print("fused flag:", with_fused)

try:
    torch.optim.Adam(start, foreach=True, fused=True)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
