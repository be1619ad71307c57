"""Functions the compiler does not trace into: nonstrict_trace(fn) returns a wrapper that stays
one call in the graph, so Python the compiler refuses (here print) no longer breaks it, but runs
while tracing; allow_in_graph(fn) marks fn itself, everywhere; assume_constant_result bakes a
function's result into the graph, and later changes go unseen.

Run: python compile_opaque.py
"""
import torch

graphs = []


# A backend that counts the graphs and runs each as captured.
def counting_backend(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


def noisy_scale(y):
    print("  noisy_scale runs, is_compiling:", torch.compiler.is_compiling())
    return y * 3


def plain(x):
    return noisy_scale(x) + 1


x = torch.tensor([-1.0, 2.0])
try:
    torch.compile(plain, backend=counting_backend, fullgraph=True)(x)
except RuntimeError as error:
    print(f"traced into: {type(error).__name__}: {str(error).splitlines()[0]}")

opaque_scale = torch.compiler.nonstrict_trace(noisy_scale)  # a new function
print("nonstrict_trace returns a wrapper:", opaque_scale is not noisy_scale)


def wrapped(x):
    return opaque_scale(x) + 1


print("eager call:")
expected = wrapped(x)
compiled = torch.compile(wrapped, backend=counting_backend, fullgraph=True)
print("compiled, first call (traced, then run):")
out = compiled(x)
print("compiled, second call:")
compiled(x)
print(" ", len(graphs), "graph, same as eager:", torch.allclose(out, expected))


def double(y):
    return y * 2


def uses_double(x):
    return double(x) + 1


print("allow_in_graph returns fn itself:", torch.compiler.allow_in_graph(double) is double)
graphs.clear()
torch.compile(uses_double, backend=counting_backend)(x)  # double was never wrapped here
calls = [node.name for node in graphs[0].graph.nodes if node.op == "call_function"]
print("  uses_double's graph calls:", calls)

settings = {"scale": 2.0}


@torch.compiler.assume_constant_result
def current_scale():
    return settings["scale"]


def scaled(x):
    return x * current_scale()


compiled = torch.compile(scaled, backend=counting_backend, fullgraph=True)
print("assume_constant_result:", compiled(x))
settings["scale"] = 5.0  # not seen: the graph holds 2.0, no guard checks it
print("  after the change:", compiled(x), "eager:", scaled(x))
