"""torch.library.custom_op: a Python function made into an operator (mylib::scaled_add) with a
fake implementation for shapes (register_fake), a backward (register_autograd), checked by
opcheck, and kept whole by torch.compile (no graph break).

Run: python custom_op.py
"""
import torch
from torch.library import custom_op, infer_schema, opcheck, register_autograd, register_fake


def formula(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    return x + alpha * y


# The schema custom_op derives from the type hints
print("schema:", infer_schema(formula, mutates_args=()))


# mutates_args=() declares that no input is written to: the op is functional
@custom_op("mylib::scaled_add", mutates_args=())
def scaled_add(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    return formula(x, y, alpha)  # any code: torch never traces into it


@register_fake("mylib::scaled_add")
def _(x, y, alpha):  # only the output's shape, dtype and device, from the inputs' metadata
    return torch.empty_like(x)


def setup_context(ctx, inputs, output):  # save what backward needs
    x, y, alpha = inputs
    ctx.alpha = alpha


def backward(ctx, grad):  # one gradient per input; None for the float
    return grad, grad * ctx.alpha, None


register_autograd("mylib::scaled_add", backward, setup_context=setup_context)

x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
out = scaled_add(x, y, 2.0)  # the same op as torch.ops.mylib.scaled_add
print("out:", out.detach(), "same op:", torch.equal(out, torch.ops.mylib.scaled_add(x, y, 2.0)))
out.sum().backward()
print("grads:", x.grad, y.grad)
a, b = x.detach().requires_grad_(), y.detach().requires_grad_()
(a + 2.0 * b).sum().backward()  # autograd of the plain formula agrees
print("same grads as the formula:", torch.equal(a.grad, x.grad), torch.equal(b.grad, y.grad))
print("gradcheck:", torch.autograd.gradcheck(lambda a, b: scaled_add(a, b, 2.0), (x, y)))

# opcheck tests the registrations: schema, autograd, fake implementation, compiled use
print("opcheck:", opcheck(scaled_add, (x, y, 2.0)))

graphs = []


def counting_backend(gm, example_inputs):  # counts the graphs, runs each as captured
    graphs.append(gm)
    return gm.forward


def model(a, b):
    return torch.relu(scaled_add(a, b, 3.0))


compiled = torch.compile(model, backend=counting_backend, fullgraph=True)
print("compiled == eager:", torch.equal(compiled(x, y), model(x, y)))
calls = [node.name for node in graphs[0].graph.nodes if node.op == "call_function"]
print("graphs:", len(graphs), "calls:", calls)  # the op is one node of the graph
