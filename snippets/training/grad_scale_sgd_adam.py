"""A gradient k times too large: SGD steps k times as far, Adam takes the same step.

SGD's update is lr * grad, so a gradient scaled by k (a SUM over k ranks, k micro-batches not
divided by k) is undone by dividing the learning rate by k. Adam divides the first moment of
the gradient by the square root of its second moment: scaling every gradient by k scales both
by k, the update stays the same (up to eps), and dividing lr by k makes the steps k times too
small instead.

Run: python grad_scale_sgd_adam.py
"""
import torch

k = 4
torch.manual_seed(0)
start = torch.randn(3)
grads = [torch.randn(3) for _ in range(3)]  # the gradients of three steps


def train(optimizer_class, lr, scale):
    """Three steps from the same start, every gradient multiplied by scale."""
    param = torch.nn.Parameter(start.clone())
    optimizer = optimizer_class([param], lr=lr)
    for grad in grads:
        param.grad = grad * scale
        optimizer.step()
    return param.detach() - start  # how far the three steps moved the parameter


for name, cls in [("SGD", torch.optim.SGD), ("Adam", torch.optim.Adam)]:
    plain = train(cls, lr=0.1, scale=1)
    scaled = train(cls, lr=0.1, scale=k)
    scaled_lower_lr = train(cls, lr=0.1 / k, scale=k)
    print(f"{name}: moved {plain.numpy().round(4)} with the plain gradients")
    print(f"  gradients x{k}, same lr:  moved {scaled.numpy().round(4)}, "
          f"ratio {(scaled / plain).mean().item():.3f}")
    print(f"  gradients x{k}, lr / {k}: moved {scaled_lower_lr.numpy().round(4)}, "
          f"ratio {(scaled_lower_lr / plain).mean().item():.3f}")
