"""torch.device: building one from a string or a type and an index, comparing, and the meta
device.

Run: python device_objects.py
"""
import torch

cpu = torch.device("cpu")
gpu1 = torch.device("cuda", 1)  # only a description: building it needs no GPU
print(repr(cpu), repr(gpu1), str(gpu1))
print("type, index:", gpu1.type, gpu1.index, "| cpu index:", cpu.index)
print("cuda:1 == (cuda, 1):", torch.device("cuda:1") == gpu1)
# no index is not index 0
print("cuda == cuda:0:", torch.device("cuda") == torch.device("cuda", 0))
print("device == 'cpu':", cpu == "cpu", "| .type == 'cpu':", cpu.type == "cpu", "| str:",
      str(cpu) == "cpu")

x = torch.ones(2)
print("tensor:", x.device, x.device == cpu, x.is_cpu, x.is_cuda, x.get_device())
with torch.device("meta"):  # a context manager sets the default device of factories inside
    m = torch.ones(1000, 1000)  # meta tensors hold shape and dtype, no data
    c = torch.ones(2, device="cpu")  # an explicit device= wins over the context
print("meta:", m.device, m.is_meta, m.shape, m.dtype, "| explicit:", c.device)
