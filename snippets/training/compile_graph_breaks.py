"""Graph breaks: code the compiler cannot capture (here a Python if on a tensor's value) splits
the function into several graphs, with Python running in between; fullgraph=True turns the
break into an error. A custom backend, a function that receives each graph, counts them with
public API only. The compiled code is cached per function (its code object): reset() clears it.

Run: python compile_graph_breaks.py
"""
import torch

graphs = []  # the operations of each graph the backend received


# A backend: gets each captured graph (a torch.fx.GraphModule) and returns what runs it.
def counting_backend(gm, example_inputs):
    graphs.append([node.name for node in gm.graph.nodes
                   if node.op in ("call_function", "call_method")])
    return gm.forward  # run the graph as captured: nothing is compiled


def branchy(x):
    y = torch.sin(x)
    if y.sum() > 0:  # a Python branch on a tensor's value: a graph break
        return y * 2
    return y - 1


def branchless(x):
    y = torch.sin(x)
    return torch.where(y.sum() > 0, y * 2, y - 1)  # both branches, chosen in the graph


x = torch.linspace(0.1, 1.0, 4)
out = torch.compile(branchy, backend=counting_backend)(x)
print("branchy:", len(graphs), "graphs", graphs, "same as eager:",
      torch.allclose(out, branchy(x)))

graphs.clear()
out = torch.compile(branchless, backend=counting_backend, fullgraph=True)(x)
print("branchless:", len(graphs), "graph", graphs, "same as eager:",
      torch.allclose(out, branchy(x)))

# fullgraph=True on the same function: the code compiled above is reused, nothing is checked
graphs.clear()
torch.compile(branchy, backend=counting_backend, fullgraph=True)(x)
print("fullgraph=True after a compile without it:", len(graphs), "new graphs, no error")

torch.compiler.reset()  # forget every compiled function
try:
    torch.compile(branchy, backend=counting_backend, fullgraph=True)(x)
except RuntimeError as error:
    print(f"after reset(): {type(error).__name__}: {str(error).splitlines()[0]}")


def normalized(x):
    return x / x.abs().max().item()  # .item(): a Python number, a graph break by default


torch.compiler.config.capture_scalar_outputs = True  # keep .item() in the graph
graphs.clear()
out = torch.compile(normalized, backend=counting_backend)(x)
print(".item() captured:", len(graphs), "graph", graphs, "same as eager:",
      torch.allclose(out, normalized(x)))
