"""torch.nn.parallel's functions: the four steps of one DataParallel forward, one call each.

scatter splits the batch into one chunk per GPU, replicate copies the module onto each GPU,
parallel_apply runs replica i on chunk i (one thread per GPU), and gather concatenates the
outputs on one device. data_parallel(module, inputs, device_ids) does all four in one call.
All of them need GPUs: on CPU tensors and devices they raise.

Run: python dp_functional.py
Variants: cuda
GPUs: 2
"""
import torch
from torch import nn
from torch.nn.parallel import data_parallel, gather, parallel_apply, replicate, scatter

devices = [0, 1]
torch.manual_seed(0)
model = nn.Linear(3, 2).to("cuda:0")  # the module sits on devices[0]
x = torch.randn(6, 3, device="cuda:0")

chunks = scatter(x, devices)  # a tuple: rows 0-2 on cuda:0, rows 3-5 on cuda:1
print("scatter:", [(tuple(c.shape), str(c.device)) for c in chunks])
replicas = replicate(model, devices)  # copies; gradients through them reach the original
print("replicate:", [str(r.weight.device) for r in replicas])
outputs = parallel_apply(replicas, [(c,) for c in chunks])  # each input: the args of one call
print("parallel_apply:", [(tuple(o.shape), str(o.device)) for o in outputs])
y = gather(outputs, target_device=0)  # concatenated along dim 0 on cuda:0
print("gather:", tuple(y.shape), str(y.device))
print("equals model(x):", torch.allclose(y, model(x)))

z = data_parallel(model, x, device_ids=devices)  # the same four steps in one call
print("data_parallel equals the four steps:", torch.allclose(z, y))
