"""torch.autograd.grad: gradients returned instead of accumulated into .grad; allow_unused,
materialize_grads; create_graph for a second derivative.

Run: python autograd_grad.py
"""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor(2.0, requires_grad=True)
loss = (w * x ** 3).sum()

# One gradient per input, in a tuple; .grad is left alone
grad_x, grad_w = torch.autograd.grad(loss, (x, w), retain_graph=True)
print("dloss/dx:", grad_x, "dloss/dw:", grad_w)
print("x.grad:", x.grad, "w.grad:", w.grad)

# An input the output does not depend on
b = torch.tensor(5.0, requires_grad=True)
try:
    torch.autograd.grad(loss, (x, b), retain_graph=True)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print("allow_unused:", torch.autograd.grad(loss, (x, b), allow_unused=True, retain_graph=True))
print("materialize_grads:", torch.autograd.grad(loss, (x, b), materialize_grads=True,
                                                retain_graph=True))

# create_graph=True: the gradient has a graph, so grad can differentiate it again
(grad_x,) = torch.autograd.grad(loss, x, create_graph=True)  # 3 w x^2
(second,) = torch.autograd.grad(grad_x.sum(), x)  # 6 w x
print("first:", grad_x.detach(), "second:", second)
