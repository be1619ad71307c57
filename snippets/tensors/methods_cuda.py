"""Tensor.cuda(): a copy of the tensor on the current GPU (or the one given), the short form of
x.to("cuda").

Run: python methods_cuda.py
Variants: cuda
"""
import torch

x = torch.arange(3.0)
g = x.cuda()  # a copy on the current CUDA device; x stays on the CPU
print(x.device, g.device, g.is_cuda)
print("already there, returned as is:", g.cuda() is g)
print("device index:", x.cuda(0).device, "| same as to('cuda:0'):", x.to("cuda:0").device)
print("back with cpu():", (g * 2).cpu())
