"""mode="reduce-overhead" on a GPU: the compiled code is recorded into a CUDA graph and then
replayed, one launch instead of one per kernel, which pays off for small batches. The first
calls warm up and record; torch.compiler.cudagraph_mark_step_begin() starts a new iteration
where the compiler cannot tell (a loop of forward passes without backward).

Run: python compile_cudagraphs.py
Variants: cuda
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64)).cuda()
compiled = torch.compile(model, mode="reduce-overhead")
x = torch.randn(8, 64, device="cuda")

with torch.no_grad():
    expected = model(x)
    for step in range(3):  # warm-up, recording, replay
        # a new iteration: earlier outputs may be reused
        torch.compiler.cudagraph_mark_step_begin()
        out = compiled(x)
        print(f"step {step}: same as eager:", torch.allclose(out, expected, atol=1e-5))
    kept = out.clone()  # a later replay writes into the same memory: clone what you keep
print("kept:", kept.shape, kept.device.type)
