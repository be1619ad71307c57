"""Recompilation: guards check each call's inputs against what the compiled code assumed (the
shapes, the dtype); a failed guard compiles again. dynamic=False compiles once per shape, the
default (None) recompiles with a dynamic size at the second shape, dynamic=True starts dynamic.
set_stance("fail_on_recompile") turns a recompile into an error.

Run: python compile_dynamic.py
"""
import torch

graphs = []


# Records whether a graph is specialized to sizes or takes a size as a symbol.
def counting_backend(gm, example_inputs):
    dynamic = any(isinstance(value, torch.SymInt) for value in example_inputs)
    graphs.append("dynamic" if dynamic else "static")
    return gm.forward


def scale_rows(x):
    return x * torch.arange(x.shape[0])


for dynamic in (False, None, True):
    torch.compiler.reset()
    graphs.clear()
    compiled = torch.compile(scale_rows, backend=counting_backend, dynamic=dynamic)
    for n in (2, 3, 4, 5):  # four lengths
        compiled(torch.ones(n))
    print(f"dynamic={dynamic}:", graphs)

# A dynamic size does not cover a new dtype: a guard fails, one more graph
compiled(torch.ones(3, dtype=torch.float64))
print("then float64:", graphs)

torch.compiler.reset()
compiled = torch.compile(scale_rows, backend=counting_backend)
compiled(torch.ones(2))
with torch.compiler.set_stance("fail_on_recompile"):
    compiled(torch.ones(2))  # the guards pass: runs
    try:
        compiled(torch.ones(3))
    except RuntimeError as error:
        first, *_, reason = str(error).splitlines()
        print(f"RuntimeError: {first.split('. filename')[0]}")
        print("  failed guard:", reason.strip().removeprefix("- "))
