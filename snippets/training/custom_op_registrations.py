"""torch.library: more registrations for a custom op (a kernel for one device type, vmap,
autocast), a fake implementation whose output size depends on the data (get_ctx), and the
low-level Library / define / impl API.

Run: python custom_op_registrations.py
"""
import torch
from torch.library import (
    Library,
    custom_op,
    define,
    get_ctx,
    impl,
    register_autocast,
    register_fake,
    register_kernel,
    register_vmap,
)


@custom_op("mylib2::scale", mutates_args=())
def scale(x: torch.Tensor, factor: float) -> torch.Tensor:
    return x * factor


@register_kernel("mylib2::scale", "cpu")  # replaces the default for CPU tensors only
def _(x, factor):
    print("  cpu kernel runs")
    return x * factor


print("cpu:", scale(torch.tensor([1.0, 2.0]), 3.0))


@register_vmap("mylib2::scale")
def _(info, in_dims, x, factor):  # called by torch.vmap with the batched input
    print("  vmap rule, in_dims:", in_dims)
    return scale(x, factor), in_dims[0]


print("vmap:", torch.vmap(lambda row: scale(row, 2.0))(torch.ones(2, 3)))

# under autocast: inputs cast to float32
register_autocast("mylib2::scale", "cpu", torch.float32)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = torch.ones(2, dtype=torch.bfloat16)
    print("autocast:", scale(y, 2.0).dtype)


@custom_op("mylib2::positives", mutates_args=())
def positives(x: torch.Tensor) -> torch.Tensor:
    return x[x > 0].clone()


@register_fake("mylib2::positives")
def _(x):  # the output length depends on the data: a new symbolic size
    n = get_ctx().new_dynamic_size()
    return x.new_empty(n)


graphs = []


def counting_backend(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


compiled = torch.compile(lambda t: positives(t) * 2, backend=counting_backend, fullgraph=True)
print("positives:", compiled(torch.tensor([-1.0, 2.0, 3.0])), "graphs:", len(graphs))

lib = Library("mylib3", "DEF")  # the low-level API: a schema string, then kernels by key
lib.define("twice(Tensor x) -> Tensor")
lib.impl("twice", lambda x: x * 2, "CPU")
print("Library:", torch.ops.mylib3.twice(torch.tensor([1.0])))
define("mylib3::thrice", "(Tensor x) -> Tensor", lib=lib)  # the same, as functions
impl("mylib3::thrice", "cpu", lambda x: x * 3, lib=lib)
print("define/impl:", torch.ops.mylib3.thrice(torch.tensor([1.0])))
