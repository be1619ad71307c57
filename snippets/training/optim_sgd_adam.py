"""SGD with momentum and Nesterov, one step computed by hand; weight_decay in Adam (L2, added
to the gradient) against AdamW (decoupled).

Run: python optim_sgd_adam.py
"""
import torch

start = torch.tensor([1.0, -2.0])
grad = torch.tensor([0.5, 0.5])  # the same gradient at each step
lr, momentum = 0.1, 0.9


def sgd_two_steps(**options):
    param = torch.nn.Parameter(start.clone())
    optimizer = torch.optim.SGD([param], lr=lr, **options)
    for _ in range(2):
        param.grad = grad.clone()
        optimizer.step()
    return param.detach()


plain = sgd_two_steps()
heavy = sgd_two_steps(momentum=momentum)
nesterov = sgd_two_steps(momentum=momentum, nesterov=True)
print("SGD:     ", plain)
print("momentum:", heavy)
print("nesterov:", nesterov)

# By hand: buf = momentum * buf + grad; momentum steps by buf,
# Nesterov by grad + momentum * buf
by_hand, by_hand_nesterov, buf = start.clone(), start.clone(), torch.zeros(2)
for _ in range(2):
    buf = momentum * buf + grad
    by_hand -= lr * buf
    by_hand_nesterov -= lr * (grad + momentum * buf)
print("by hand: ", by_hand, by_hand_nesterov)
print(torch.allclose(heavy, by_hand), torch.allclose(nesterov, by_hand_nesterov))

# One step with weight_decay=0.01: the first entry has a gradient, the second none
start, grad, wd = torch.tensor([1.0, 1.0]), torch.tensor([0.5, 0.0]), 0.01


def one_step(optimizer_class, **options):
    param = torch.nn.Parameter(start.clone())
    optimizer = optimizer_class([param], lr=lr, **options)
    param.grad = grad.clone()
    optimizer.step()
    return param.detach()


print("Adam, no decay:          ", one_step(torch.optim.Adam))
print("Adam, weight_decay (L2): ", one_step(torch.optim.Adam, weight_decay=wd))
print("AdamW, weight_decay:     ", one_step(torch.optim.AdamW, weight_decay=wd))
print("Adam, decoupled:         ",
      one_step(torch.optim.Adam, weight_decay=wd, decoupled_weight_decay=True))

# By hand (Adam's first step is lr * g / (|g| + eps)):
# Adam adds wd * param to the gradient, then normalizes;
# AdamW shrinks the parameter by lr * wd, apart from the gradient step
eps = 1e-8
g = grad + wd * start
print("Adam by hand: ", start - lr * g / (g.abs() + eps))
print("AdamW by hand:", start * (1 - lr * wd) - lr * grad / (grad.abs() + eps))
