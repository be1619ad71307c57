"""Keeping code out of the graph: a function under torch.compiler.disable runs eagerly (a graph
break around each call); is_compiling() is True while the compiler traces, so code can take
another path there; set_stance("force_eager") runs compiled functions eagerly; and
set_default_backend changes the backend of every torch.compile without one.

Run: python compile_control.py
"""
import torch

graphs = []


# A backend that records the operations of each graph and runs it as captured.
def counting_backend(gm, example_inputs):
    graphs.append([node.name for node in gm.graph.nodes
                   if node.op in ("call_function", "call_method")])
    return gm.forward


@torch.compiler.disable  # never traced: called from compiled code, it runs eagerly
def log_stats(y):
    print("  log_stats runs eagerly, is_compiling:", torch.compiler.is_compiling())


def forward(x):
    y = torch.relu(x) + 1
    log_stats(y)
    return y * 2


x = torch.tensor([-1.0, 2.0])
torch.compile(forward, backend=counting_backend)(x)
print("disable:", len(graphs), "graphs", graphs)


def flags(x):
    return (x + 1, torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling(),
            torch.compiler.is_exporting())


print("eager flags:", flags(x)[1:])  # is_compiling, is_dynamo_compiling, is_exporting
print("compiled flags:", torch.compile(flags, backend=counting_backend)(x)[1:])


def skip_when_compiled(x):
    if torch.compiler.is_compiling():  # decided while tracing, not at each call
        return x
    return x + 100


print("eager:", skip_when_compiled(x), "compiled:",
      torch.compile(skip_when_compiled, backend=counting_backend)(x))

graphs.clear()
with torch.compiler.set_stance("force_eager"):  # also a decorator, or a plain call
    out = torch.compile(skip_when_compiled, backend=counting_backend)(x)
print("force_eager:", out, "new graphs:", len(graphs))

torch.compiler.reset()
graphs.clear()
print("default backend:", torch.compiler.get_default_backend())
torch.compiler.set_default_backend(counting_backend)
torch.compile(skip_when_compiled)(x)  # no backend=: the new default
print("after set_default_backend:", len(graphs), "graph")
torch.compiler.set_default_backend(None)  # back to inductor
print("default backend:", torch.compiler.get_default_backend())
