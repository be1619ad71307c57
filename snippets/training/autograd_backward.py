"""Tensor.backward, torch.autograd.backward: gradient= for a non-scalar output, accumulation in
.grad, retain_graph, create_graph, inputs=.

Run: python autograd_backward.py
"""
import warnings

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2  # three values, not a scalar
try:
    y.backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
# gradient= is dL/dy, the weight of each output; ones: the same as y.sum().backward()
y.backward(gradient=torch.ones(3))
print("x.grad:", x.grad)

# A second backward adds to .grad: reset it between steps
(x ** 2).sum().backward()
print("after a second backward:", x.grad)
x.grad = None

# backward frees the graph's saved tensors, unless retain_graph=True
loss = (x ** 3).sum()
loss.backward(retain_graph=True)
loss.backward()
try:
    loss.backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
x.grad = None

# The function form takes several outputs at once; inputs= limits which leaves get .grad
w = torch.tensor(2.0, requires_grad=True)
torch.autograd.backward([(w * x).sum(), w ** 2], inputs=[w])
print("w.grad:", w.grad, "x.grad:", x.grad)

# create_graph=True: the gradient is itself differentiable (it warns, see the page)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (x ** 3).sum().backward(create_graph=True)
first = x.grad  # 3 x^2, with a graph of its own
x.grad = None
first.sum().backward()
print("first derivative:", first.detach(), "second:", x.grad)
sentence = str(caught[0].message).split(". ")[0]
print(f"{caught[0].category.__name__}: {sentence}.")
