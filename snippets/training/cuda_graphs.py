"""CUDA graphs by hand: capture a sequence of kernels once, then replay it with one launch.
The graph reads and writes fixed ("static") tensors: copy new data into the input, read the
output tensor again after each replay.

Run: python cuda_graphs.py
Variants: cuda
"""
import torch

device = torch.device("cuda")
torch.manual_seed(0)
model = torch.nn.Linear(16, 16).to(device)
static_x = torch.zeros(4, 16, device=device)

# Warm up on a side stream first: lazy initialization must not be captured
side = torch.cuda.Stream(device)
side.wait_stream(torch.cuda.current_stream(device))
with torch.cuda.stream(side), torch.no_grad():
    for _ in range(3):
        model(static_x)
torch.cuda.current_stream(device).wait_stream(side)

g = torch.cuda.CUDAGraph()
pool = torch.cuda.graph_pool_handle()  # a memory pool other graphs may share
with torch.no_grad(), torch.cuda.graph(g, pool=pool):
    capturing = torch.cuda.is_current_stream_capturing()
    static_y = model(static_x)  # recorded, not run
print("capturing inside:", capturing, "after:", torch.cuda.is_current_stream_capturing())

x = torch.randn(4, 16, device=device)
static_x.copy_(x)  # new data into the captured input
g.replay()         # static_y now holds model(x)
with torch.no_grad():
    print("replay == eager:", torch.allclose(static_y, model(x), atol=1e-5))

# make_graphed_callables: forward and backward of a module as graphs
graphed = torch.cuda.make_graphed_callables(model, (torch.randn(4, 16, device=device),))
out = graphed(torch.randn(4, 16, device=device))
out.sum().backward()
print(out.shape, model.weight.grad is not None)
