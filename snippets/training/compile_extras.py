"""nested_compile_region marks a block that repeats (a transformer layer): the graph holds one
subgraph, called once per use, so it is compiled once. wrap_numpy makes a NumPy function take
and return tensors, so that torch.compile traces it like torch code, gradients included.

Run: python compile_extras.py
"""
import numpy as np
import torch

graphs = []


# A backend that keeps each graph and runs it as captured.
def counting_backend(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


@torch.compiler.nested_compile_region  # outside torch.compile: a plain call
def block(x, weight):
    return torch.relu(x @ weight) + x


def stack(x, weights):
    for weight in weights:
        x = block(x, weight)
    return x


torch.manual_seed(0)
x, weights = torch.randn(4, 8), [torch.randn(8, 8) for _ in range(3)]
out = torch.compile(stack, backend=counting_backend, fullgraph=True)(x, weights)
gm = graphs[0]
print("subgraphs:", [name for name, _ in gm.named_children()])  # one, for three uses
print("calls:",
      [node.name for node in gm.graph.nodes if node.name.startswith("invoke_subgraph")])
print("same as eager:", torch.allclose(out, stack(x, weights)))


@torch.compile(fullgraph=True, backend=counting_backend)
@torch.compiler.wrap_numpy
def sum_of_squares(a):  # written for NumPy arrays
    return np.sum(a * a)


t = torch.arange(4.0, requires_grad=True)
result = sum_of_squares(t)  # a tensor in, a tensor out
result.backward()
print("wrap_numpy:", result, "gradient:", t.grad)
